#!/usr/bin/env bash
# The Kotlin/JVM and Ruby release files, into dist/ (only these; nothing else there is touched):
#   dist/fairmines-X.Y.Z.jar          the generated Kotlin binding (bindings/uniffi/generate.sh) compiled for
#                                     Java 8+, with linux-x86-64/libfairmines_uniffi.so (where JNA looks) built
#                                     for glibc 2.17 and META-INF/LICENSE-MIT, LICENSE-APACHE
#                                     (bindings/uniffi/jvm/pom.xml, Maven)
#   dist/fairmines-X.Y.Z.pom          its POM (io.github.fairmines:fairmines; kotlin-stdlib and JNA)
#   dist/fairmines-X.Y.Z-sources.jar  the Kotlin sources
#   dist/maven/io/github/fairmines/fairmines/X.Y.Z/   a Maven repository folder with the same three files and
#                                     their .md5/.sha1/.sha256: a project resolves the JAR with
#                                     <repository><url>file:///…/dist/maven</url></repository>. Its files are the
#                                     top-level ones byte for byte, so dist/SHA256SUMS covers them.
#   dist/fairmines-X.Y.Z-x86_64-linux.gem   the generated Ruby binding with the same library beside it
#                                     (bindings/uniffi/ruby/fairmines.gemspec; depends on ffi)
# The library is built once: cargo zigbuild --target x86_64-unknown-linux-gnu.2.17 -p fairmines-uniffi, with the
# flags of scripts/dist-c.sh (so the dependencies are shared); its newest GLIBC symbol must be 2.17 at most.
# X.Y.Z is the workspace version (Cargo.toml), which the POM and the gemspec must carry (check-versions.sh).
# Reproducible: no build paths (--remap-path-prefix), the JAR by maven-jar-plugin with project.build.outputTimestamp
# = SOURCE_DATE_EPOCH (the last commit; fixed order, times and modes), the sources JAR written with fixed order and
# times, the gem by `gem build` under SOURCE_DATE_EPOCH. Tools: cargo-zigbuild and zig (scripts/zig.sh), Maven and
# a JDK (Maven fetches kotlin-maven-plugin and the pinned plugins into ~/.m2 once), Ruby (apt when missing).
#   scripts/dist-uniffi.sh              builds the library here (x86_64 Linux, glibc 2.17), as above
#   scripts/dist-uniffi.sh --libs DIR   no build: DIR holds JNA's folders (linux-x86-64/, linux-aarch64/,
#                                       darwin-x86-64/, darwin-aarch64/, win32-x86-64/), each with the library built
#                                       on that platform (the release workflow): one JAR with all of them, and one
#                                       gem per folder (x86_64-linux, aarch64-linux, x86_64-darwin, arm64-darwin,
#                                       x64-mingw-ucrt); the Linux libraries must need glibc 2.17 at most
# scripts/test-dist-uniffi.sh checks what this writes (the first form).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export LC_ALL=C
umask 022

GLIBC_FLOOR=2.17
GROUP_PATH=io/github/fairmines

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
case $target_dir in /*) ;; *) target_dir=$ROOT/$target_dir ;; esac
step() { printf '\n==> dist-uniffi: %s\n' "$*"; }
fail() { echo "dist-uniffi: $*" >&2; exit 1; }

libs=
if [[ ${1:-} == --libs ]]; then
    libs=$(cd "${2:?usage: scripts/dist-uniffi.sh [--libs DIR]}" && pwd)
fi
# JNA's resource folder -> the gem's platform.
declare -A gem_platform=([linux-x86-64]=x86_64-linux [linux-aarch64]=aarch64-linux [darwin-x86-64]=x86_64-darwin
    [darwin-aarch64]=arm64-darwin [win32-x86-64]=x64-mingw-ucrt)

pom=bindings/uniffi/jvm/pom.xml
gemspec=bindings/uniffi/ruby/fairmines.gemspec
pom_version=$(python3 -c 'import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().find("{http://maven.apache.org/POM/4.0.0}version").text)' "$pom")
[[ $pom_version == "$version" ]] || fail "$pom says $pom_version, Cargo.toml $version (scripts/set-version.sh)"
gem_version=$(sed -n "s/^  s\.version = '\(.*\)'\$/\1/p" "$gemspec")
[[ $gem_version == "$version" ]] || fail "$gemspec says '$gem_version', Cargo.toml $version (scripts/set-version.sh)"

# -- tools ------------------------------------------------------------------------------------------
if [[ -z $libs ]]; then
    # shellcheck source=scripts/zig.sh
    source scripts/zig.sh
fi
for tool in readelf mvn java sha1sum sha256sum md5sum; do command -v "$tool" >/dev/null || fail "$tool is required"; done
if ! command -v gem >/dev/null; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then fail "gem (Ruby) is required"; fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ruby >/dev/null
fi

# -- the library ------------------------------------------------------------------------------------
stage=$target_dir/dist-uniffi
rm -rf "$stage"
mkdir -p "$stage/resources/META-INF" dist
if [[ -z $libs ]]; then
    unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
    flags="-C strip=symbols --remap-path-prefix=$ROOT=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
    export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS=$flags
    step "glibc $GLIBC_FLOOR: cargo zigbuild --release --target x86_64-unknown-linux-gnu.$GLIBC_FLOOR -p fairmines-uniffi"
    cargo zigbuild --locked --release --target "x86_64-unknown-linux-gnu.$GLIBC_FLOOR" -p fairmines-uniffi
    mkdir -p "$stage/resources/linux-x86-64"
    cp "$target_dir/x86_64-unknown-linux-gnu/release/libfairmines_uniffi.so" "$stage/resources/linux-x86-64/"
else
    cp -r "$libs"/. "$stage/resources/"
fi
cp LICENSE-MIT LICENSE-APACHE "$stage/resources/META-INF/"
folders=$(cd "$stage/resources" && find . -mindepth 1 -maxdepth 1 -type d ! -name META-INF -printf '%f\n' | sort)
[[ -n $folders ]] || fail "no library folder in ${libs:-the build}"
newest=
for folder in $folders; do
    [[ -n ${gem_platform[$folder]:-} ]] || fail "$folder: not a JNA folder this script knows"
    files=$(find "$stage/resources/$folder" -type f)
    [[ $(wc -l <<<"$files") == 1 ]] || fail "$folder must hold one library: $files"
    if [[ $folder == linux-* ]]; then
        newest=$(readelf -W --dyn-syms "$files" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
        [[ "$(printf '%s\n' "GLIBC_$GLIBC_FLOOR" "$newest" | sort -V | tail -n 1)" == "GLIBC_$GLIBC_FLOOR" ]] ||
            fail "$folder/$(basename "$files") needs $newest, newer than glibc $GLIBC_FLOOR"
    fi
done

# -- the Kotlin and Ruby sources, generated into the build folder (never committed) ---------------------
step "bindings/uniffi/generate.sh"
generated=$target_dir/uniffi-generated
# Without the release flags above: stripped symbols would take UniFFI's metadata with them.
env -u CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS bindings/uniffi/generate.sh "$generated"

# -- the JAR, its POM and sources, the Maven repository folder -----------------------------------------
step "JAR: mvn package -f $pom (kotlin-maven-plugin $(sed -n 's:.*<kotlin.version>\(.*\)</kotlin.version>.*:\1:p' "$pom"))"
# (Maven resolves nothing from the network once ~/.m2 has the pinned plugins and dependencies.)
mvn -B -ntp -f "$pom" package -DskipTests -Dfairmines.resources.dir="$stage/resources" \
    -Dfairmines.generated.dir="$generated" -Dfairmines.build.dir="$stage/maven" -Dproject.build.outputTimestamp="$SOURCE_DATE_EPOCH" >"$stage/mvn.log" 2>&1 ||
    { tail -n 60 "$stage/mvn.log" >&2; fail "mvn package failed (above)"; }
name=fairmines-$version
repo=dist/maven/$GROUP_PATH/fairmines/$version
rm -rf "dist/maven/$GROUP_PATH/fairmines"
mkdir -p "$repo"
cp "$stage/maven/$name.jar" "dist/$name.jar.tmp" && mv "dist/$name.jar.tmp" "dist/$name.jar"
cp "$pom" "dist/$name.pom"
# The sources JAR: the generated Kotlin and the licences, sorted, every entry dated SOURCE_DATE_EPOCH (zip's
# oldest date is 1980), mode 0644.
python3 - "dist/$name-sources.jar" "$SOURCE_DATE_EPOCH" "$generated/kotlin" <<'EOF'
import os, sys, time, zipfile
out, epoch, src = sys.argv[1], max(int(sys.argv[2]), 315532800), sys.argv[3]
date = time.gmtime(epoch)[:6]
files = [("META-INF/LICENSE-APACHE", "LICENSE-APACHE"), ("META-INF/LICENSE-MIT", "LICENSE-MIT")]
for d, _, names in os.walk(src):
    files += [(os.path.relpath(os.path.join(d, n), src), os.path.join(d, n)) for n in names]
with zipfile.ZipFile(out + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for arc, path in sorted(files):
        info = zipfile.ZipInfo(arc, date)
        info.external_attr = 0o100644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, open(path, "rb").read())
os.replace(out + ".tmp", out)
EOF
for f in "$name.jar" "$name.pom" "$name-sources.jar"; do
    cp "dist/$f" "$repo/$f"
    for sum in md5 sha1 sha256; do
        "${sum}sum" "$repo/$f" | cut -d' ' -f1 | tr -d '\n' >"$repo/$f.$sum"
    done
done
echo "dist/$name.jar: $(stat -c %s "dist/$name.jar") bytes, $(unzip -Z1 "dist/$name.jar" | wc -l) entries;" \
    "dist/$name-sources.jar: $(stat -c %s "dist/$name-sources.jar") bytes; $repo: $(find "$repo" -type f | wc -l) files"

# -- the gems: one per platform ---------------------------------------------------------------------------
for folder in $folders; do
    platform=${gem_platform[$folder]}
    gem_file=$name-$platform.gem
    step "gem for $platform: gem build $gemspec"
    rm -rf "$stage/gem" && mkdir -p "$stage/gem/lib"
    cp "$generated/ruby/fairmines.rb" "$stage/resources/$folder"/* "$stage/gem/lib/"
    cp LICENSE-MIT LICENSE-APACHE "$gemspec" "$stage/gem/"
    chmod 0644 "$stage/gem/lib/fairmines.rb" "$stage/gem"/LICENSE-* "$stage/gem/fairmines.gemspec"
    chmod 0755 "$stage/gem/lib/"*fairmines_uniffi*
    (cd "$stage/gem" && FAIRMINES_GEM_PLATFORM=$platform gem build --quiet fairmines.gemspec >/dev/null)
    [[ -f $stage/gem/$gem_file ]] || fail "gem build did not write $gem_file: $(ls "$stage/gem")"
    mv "$stage/gem/$gem_file" "dist/$gem_file"
    echo "dist/$gem_file: $(stat -c %s "dist/$gem_file") bytes"
done
rm -rf "$stage"
[[ -z $newest ]] || echo "dist-uniffi: libfairmines_uniffi.so needs glibc $GLIBC_FLOOR at most (newest symbol $newest)"
