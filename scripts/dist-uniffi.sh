#!/usr/bin/env bash
# The JAR (+ POM, sources JAR, Maven repository folder dist/maven) and the Ruby gem into dist/, each with bindings/uniffi/README.md, with libfairmines_uniffi.so for glibc 2.17; `--libs DIR`: no build, DIR holds JNA's folders (linux-x86-64/, darwin-aarch64/, ...) each with its library: one JAR with all, one gem per folder.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export LC_ALL=C
libs=
[[ ${1:-} != --libs ]] || libs=$(cd "${2:?usage: scripts/dist-uniffi.sh [--libs DIR]}" && pwd)
declare -A gem_platform=([linux-x86-64]=x86_64-linux [linux-aarch64]=aarch64-linux [darwin-x86-64]=x86_64-darwin
    [darwin-aarch64]=arm64-darwin [win32-x86-64]=x64-mingw-ucrt)
pom=bindings/uniffi/jvm/pom.xml
gemspec=bindings/uniffi/ruby/fairmines.gemspec
grep -q "<version>$version</version>" "$pom" || fail "$pom is not at $version (scripts/versions.py set)"
grep -qx "  s.version = '$version'" "$gemspec" || fail "$gemspec is not at $version (scripts/versions.py set)"
need mvn:maven java:default-jdk-headless gem:ruby readelf:binutils unzip:unzip

stage=$target_dir/dist-uniffi
rm -rf "$stage" && mkdir -p "$stage/resources/META-INF" dist
if [[ -z $libs ]]; then
    zig_tools
    release_flags x86_64-unknown-linux-gnu
    step "glibc 2.17: cargo zigbuild -p fairmines-uniffi"
    cargo zigbuild --locked --release --target x86_64-unknown-linux-gnu.2.17 -p fairmines-uniffi
    mkdir -p "$stage/resources/linux-x86-64"
    cp "$target_dir/x86_64-unknown-linux-gnu/release/libfairmines_uniffi.so" "$stage/resources/linux-x86-64/"
else
    cp -r "$libs"/. "$stage/resources/"
fi
cp LICENSE-MIT LICENSE-APACHE bindings/uniffi/README.md "$stage/resources/META-INF/"
folders=$(cd "$stage/resources" && find . -mindepth 1 -maxdepth 1 -type d ! -name META-INF -printf '%f\n' | sort)
[[ -n $folders ]] || fail "no library folder in ${libs:-the build}"
for folder in $folders; do
    [[ -n ${gem_platform[$folder]:-} ]] || fail "$folder: not a JNA folder this script knows"
    [[ $(find "$stage/resources/$folder" -type f | wc -l) == 1 ]] || fail "$folder must hold one library"
    [[ $folder != linux-* ]] || glibc_floor "$stage/resources/$folder"/*
done

step "bindings/uniffi/generate.sh (without the release flags: stripping would take UniFFI's metadata)"
# The checkout's own build folder (as the POM's default), even when the compiled crates go elsewhere: check-reproducible's
# copy writes its own, not the one test-dist reads meanwhile.
generated=$ROOT/target/uniffi-generated
env -u CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS bindings/uniffi/generate.sh "$generated"

step "JAR: mvn package -f $pom"
mvn -B -ntp -f "$pom" package -DskipTests -Dfairmines.resources.dir="$stage/resources" \
    -Dfairmines.generated.dir="$generated" -Dfairmines.build.dir="$stage/maven" -Dproject.build.outputTimestamp="$SOURCE_DATE_EPOCH" >"$stage/mvn.log" 2>&1 ||
    { tail -n 60 "$stage/mvn.log" >&2; fail "mvn package failed (above)"; }
name=fairmines-$version
repo=dist/maven/io/github/fairmines/fairmines/$version
rm -rf dist/maven/io/github/fairmines/fairmines && mkdir -p "$repo"
cp "$stage/maven/$name.jar" "dist/$name.jar"
cp "$pom" "dist/$name.pom"
# The sources JAR: the Kotlin (generated, with its KDoc, and Library.kt), the README and the licences, sorted, dated
# SOURCE_DATE_EPOCH (zip starts at 1980), 0644.
python3 - "dist/$name-sources.jar" "$SOURCE_DATE_EPOCH" "$generated/kotlin" <<'PY'
import os, sys, time, zipfile
out, epoch, src = sys.argv[1], max(int(sys.argv[2]), 315532800), sys.argv[3]
files = [("META-INF/LICENSE-APACHE", "LICENSE-APACHE"), ("META-INF/LICENSE-MIT", "LICENSE-MIT"),
         ("META-INF/README.md", "bindings/uniffi/README.md")]
for d, _, names in os.walk(src):
    files += [(os.path.relpath(os.path.join(d, n), src), os.path.join(d, n)) for n in names]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for arc, path in sorted(files):
        info = zipfile.ZipInfo(arc, time.gmtime(epoch)[:6])
        info.external_attr, info.compress_type = 0o100644 << 16, zipfile.ZIP_DEFLATED
        z.writestr(info, open(path, "rb").read())
PY
for f in "$name.jar" "$name.pom" "$name-sources.jar"; do
    cp "dist/$f" "$repo/$f"
    for sum in md5 sha1 sha256; do "${sum}sum" "$repo/$f" | cut -d' ' -f1 | tr -d '\n' >"$repo/$f.$sum"; done
done

for folder in $folders; do
    platform=${gem_platform[$folder]}
    step "gem for $platform"
    rm -rf "$stage/gem" && mkdir -p "$stage/gem/lib/fairmines"
    cp bindings/uniffi/ruby/lib/fairmines.rb "$stage/gem/lib/"
    cp "$generated/ruby/fairmines.rb" "$stage/gem/lib/fairmines/uniffi.rb"
    cp "$stage/resources/$folder"/* "$stage/gem/lib/fairmines/"
    cp LICENSE-MIT LICENSE-APACHE bindings/uniffi/README.md "$gemspec" "$stage/gem/"
    chmod 0644 "$stage/gem/lib/fairmines.rb" "$stage/gem/lib/fairmines/uniffi.rb" "$stage/gem"/LICENSE-* "$stage/gem/README.md" "$stage/gem/fairmines.gemspec"
    chmod 0755 "$stage/gem/lib/fairmines/"*fairmines_uniffi*
    (cd "$stage/gem" && FAIRMINES_GEM_PLATFORM=$platform gem build --quiet fairmines.gemspec >/dev/null)
    mv "$stage/gem/$name-$platform.gem" dist/
done
rm -rf "$stage"
