#!/usr/bin/env bash
# Checks the Kotlin/JVM and Ruby release files that scripts/dist-uniffi.sh wrote into dist/, as a user would
# use them, outside the source tree, with no cargo or rustc on PATH and a clean environment:
#   - the JAR: its entries (the classes, linux-x86-64/libfairmines_uniffi.so, the licences under META-INF/), the
#     library's newest GLIBC symbol (2.17 at most), no rpath, no build paths; the POM's coordinates and
#     dependencies (kotlin-stdlib, JNA: the versions of the test project); dist/maven holds the top-level files
#     byte for byte with checksums that hold;
#   - a new Maven project in a temporary folder whose pom declares the repository file://<dist>/maven resolves
#     io.github.fairmines:fairmines (its copy in ~/.m2 removed first, so it comes from dist/) and runs, without
#     jna.library.path, DistTest (bindings/uniffi/tests/dist: the classes and library loaded from the JAR) and
#     the package's own Kotlin suites (FairminesTest, GameTest); offline (mvn -o) when ~/.m2 has the Kotlin
#     plugin (scripts/test-uniffi.sh fetched it);
#   - the gem: its files and spec (platform x86_64-linux, the ffi dependency), the same library as the JAR;
#     `gem install --local` into a temporary GEM_HOME (ffi resolves to the system's: Debian's ruby-ffi, apt
#     when missing), then `require 'fairmines'`: bindings/uniffi/tests/dist/origin.rb (the gem's code and library
#     are what is loaded) and the package's Ruby suites (test_fairmines.rb: every vector; test_game.rb) on the
#     installed gem.
# dist/SHA256SUMS, when it lists these files, must hold. One summary line per artifact at the end.
# Runs as root on a fresh Debian (installs ruby and ruby-ffi when missing; Maven and a JDK are required).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# What scripts/dist-uniffi.sh generated the JAR's Kotlin and the gem's Ruby from.
generated=${CARGO_TARGET_DIR:-$ROOT/target}/uniffi-generated
export LC_ALL=C
step() { printf '\n==> test-dist-uniffi: %s\n' "$*"; }
fail() { echo "test-dist-uniffi: $*" >&2; exit 1; }
start=$SECONDS

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
name=fairmines-$version
gem_file=$name-x86_64-linux.gem
repo=dist/maven/io/github/fairmines/fairmines/$version
for f in "dist/$name.jar" "dist/$name.pom" "dist/$name-sources.jar" "dist/$gem_file" "$repo/$name.jar"; do
    [[ -f $f ]] || fail "$f is missing (scripts/dist-uniffi.sh)"
done
if [[ -f dist/SHA256SUMS ]]; then
    for f in "$name.jar" "$name.pom" "$name-sources.jar" "$gem_file"; do
        grep -q " $f\$" dist/SHA256SUMS || fail "dist/SHA256SUMS does not list $f"
    done
    (cd dist && sha256sum --quiet -c --ignore-missing SHA256SUMS)
fi
for tool in mvn java unzip objdump readelf; do command -v "$tool" >/dev/null || fail "$tool is required"; done
if ! command -v ruby >/dev/null || ! ruby -e 'require "ffi"; require "minitest"' 2>/dev/null; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then fail "ruby and ruby-ffi are required"; fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ruby ruby-ffi >/dev/null
fi

tmp=$(mktemp -d)
m2_fairmines=$HOME/.m2/repository/io/github/fairmines/fairmines
trap 'rm -rf "$tmp" "$m2_fairmines"' EXIT
# PATH without cargo or rustc; the clean environment the user-side commands run in.
clean_path=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [[ -n $d && ! -e $d/cargo && ! -e $d/rustc ]] && clean_path=${clean_path:+$clean_path:}$d
done
PATH=$clean_path command -v cargo >/dev/null && fail "cargo is still on the clean PATH"
user() { env -i PATH="$clean_path" HOME="$HOME" LC_ALL=C.UTF-8 ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$@"; }
newest_glibc() { objdump -T "$1" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1; }
check_library() { # .so, label
    local newest
    newest=$(newest_glibc "$1")
    [[ -n $newest && $(printf '%s\n' GLIBC_2.17 "$newest" | sort -V | tail -n 1) == GLIBC_2.17 ]] || fail "$2 needs $newest"
    if readelf -d "$1" | grep -E 'RPATH|RUNPATH'; then fail "$2 has an rpath"; fi
    if strings "$1" | grep -E '/(root|home|work|tmp)/' | head -n 5 | grep . >&2; then fail "$2 holds build paths (above)"; fi
}

# -- the JAR, the POM, the repository folder -----------------------------------------------------------------
step "dist/$name.jar ($(stat -c %s "dist/$name.jar") bytes), its POM and dist/maven"
want="META-INF/
META-INF/LICENSE-APACHE
META-INF/LICENSE-MIT
META-INF/MANIFEST.MF
META-INF/fairmines.kotlin_module
META-INF/maven/
META-INF/maven/io.github.fairmines/
META-INF/maven/io.github.fairmines/fairmines/
META-INF/maven/io.github.fairmines/fairmines/pom.properties
META-INF/maven/io.github.fairmines/fairmines/pom.xml
io/
io/github/
io/github/fairmines/
linux-x86-64/
linux-x86-64/libfairmines_uniffi.so"
entries=$(unzip -Z1 "dist/$name.jar")
got=$(grep -v '^io/github/fairmines/[^/]*\.class$' <<<"$entries" | sort)
diff <(echo "$want") <(echo "$got") >&2 || fail "$name.jar: unexpected entries (diff above: -want +got)"
classes=$(grep -c '^io/github/fairmines/[^/]*\.class$' <<<"$entries")
grep -qx 'io/github/fairmines/FairminesKt.class' <<<"$entries" || fail "$name.jar has no FairminesKt.class"
# Java 8 bytecode (major version 52).
major=$(unzip -p "dist/$name.jar" io/github/fairmines/FairminesKt.class | od -An -j6 -N2 -tu1 | awk '{print $1 * 256 + $2}')
[[ $major == 52 ]] || fail "the classes are for class-file version $major, not 52 (Java 8)"
mkdir -p "$tmp/jar" "$tmp/unzipped"
unzip -q "dist/$name.jar" linux-x86-64/libfairmines_uniffi.so 'META-INF/LICENSE-*' -d "$tmp/unzipped"
jar_so=$tmp/unzipped/linux-x86-64/libfairmines_uniffi.so
check_library "$jar_so" "the JAR's libfairmines_uniffi.so"
for f in LICENSE-MIT LICENSE-APACHE; do
    cmp -s "$tmp/unzipped/META-INF/$f" "$f" || fail "$name.jar: META-INF/$f differs from $f"
done
grep -qx 'io/github/fairmines/fairmines.kt' <<<"$(unzip -Z1 "dist/$name-sources.jar")" || fail "$name-sources.jar has no fairmines.kt"
python3 - "dist/$name.pom" "$version" bindings/uniffi/tests/kotlin/pom.xml <<'EOF' || fail "dist/$name.pom (above)"
import sys, xml.etree.ElementTree as E
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
pom, version, tests = E.parse(sys.argv[1]).getroot(), sys.argv[2], E.parse(sys.argv[3]).getroot()
def text(root, path): return root.findtext(path, namespaces=ns)
def prop(root, value):  # ${name} -> the property's value
    return text(root, f"m:properties/m:{value[2:-1]}") if value.startswith("${") else value
coords = [text(pom, f"m:{k}") for k in ("groupId", "artifactId", "version", "packaging")]
assert coords == ["io.github.fairmines", "fairmines", version, "jar"], coords
deps = {text(d, "m:artifactId"): (prop(pom, text(d, "m:version")), text(d, "m:scope"))
        for d in pom.findall("m:dependencies/m:dependency", ns)}
want = {a: (prop(tests, text(d, "m:version")), None) for d in tests.findall("m:dependencies/m:dependency", ns)
        for a in [text(d, "m:artifactId")] if a in ("kotlin-stdlib", "jna")}
assert deps == want and len(want) == 2, (deps, want)
licenses = [text(l, "m:name") for l in pom.findall("m:licenses/m:license", ns)]
assert licenses == ["MIT", "Apache-2.0"], licenses
print(f"POM: io.github.fairmines:fairmines:{version}, depends on " + ", ".join(f"{a} {v}" for a, (v, _) in sorted(deps.items())))
EOF
for f in "$name.jar" "$name.pom" "$name-sources.jar"; do
    cmp -s "dist/$f" "$repo/$f" || fail "$repo/$f is not dist/$f"
    for sum in md5 sha1 sha256; do
        [[ $(cat "$repo/$f.$sum") == "$("${sum}sum" "$repo/$f" | cut -d' ' -f1)" ]] || fail "$repo/$f.$sum does not hold"
    done
done
echo "dist/maven: the three files, identical to dist/'s, with .md5, .sha1 and .sha256 that hold"

# -- a Maven project resolves the JAR from dist/maven ------------------------------------------------------
step "a new Maven project resolves io.github.fairmines:fairmines:$version from file://$ROOT/dist/maven"
props() { python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot()
print(r.findtext("{http://maven.apache.org/POM/4.0.0}properties/{http://maven.apache.org/POM/4.0.0}" + sys.argv[2]))' \
    bindings/uniffi/tests/kotlin/pom.xml "$1"; }
kotlin_version=$(props kotlin.version)
project=$tmp/consumer
mkdir -p "$project/src/test/kotlin"
cp bindings/uniffi/tests/dist/DistTest.kt bindings/uniffi/tests/kotlin/src/test/kotlin/io/github/fairmines/{FairminesTest,GameTest}.kt \
    "$project/src/test/kotlin/"
cp vectors/vectors.json "$tmp/vectors.json"
cat >"$project/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>uses-fairmines</artifactId>
  <version>1</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <kotlin.compiler.jvmTarget>17</kotlin.compiler.jvmTarget>
    <kotlin.compiler.daemon>false</kotlin.compiler.daemon>
  </properties>
  <repositories>
    <repository>
      <id>fairmines-dist</id>
      <url>file://$ROOT/dist/maven</url>
    </repository>
  </repositories>
  <dependencies>
    <dependency>
      <groupId>io.github.fairmines</groupId>
      <artifactId>fairmines</artifactId>
      <version>$version</version>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>$(props junit.version)</version>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>org.json</groupId>
      <artifactId>json</artifactId>
      <version>$(props orgjson.version)</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <testSourceDirectory>src/test/kotlin</testSourceDirectory>
    <plugins>
      <plugin>
        <groupId>org.jetbrains.kotlin</groupId>
        <artifactId>kotlin-maven-plugin</artifactId>
        <version>$kotlin_version</version>
        <executions>
          <execution><id>test-compile</id><goals><goal>test-compile</goal></goals></execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.5.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.16.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.6.1</version>
        <configuration>
          <systemPropertyVariables>
            <fairmines.vectors>$tmp/vectors.json</fairmines.vectors>
            <fairmines.version>$version</fairmines.version>
          </systemPropertyVariables>
          <trimStackTrace>false</trimStackTrace>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
POM
# The released JAR must come from dist/maven, not from an earlier run's copy in ~/.m2 (removed again at exit).
rm -rf "$m2_fairmines"
offline=()
if [[ -d $HOME/.m2/repository/org/jetbrains/kotlin/kotlin-maven-plugin/$kotlin_version ]]; then
    offline=(-o -Daether.offline.protocols=file)
fi
(cd "$project" && user mvn -B -ntp -Dstyle.color=never "${offline[@]}" test >"$tmp/mvn.log" 2>&1) ||
    { tail -n 80 "$tmp/mvn.log" >&2; fail "the Maven project failed (log above)"; }
grep -E "^kotlin: " "$tmp/mvn.log" || { tail -n 60 "$tmp/mvn.log" >&2; fail "no output from DistTest (log above)"; }
grep -E 'Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: 0$' "$tmp/mvn.log" | tail -n 1
# FairminesTest.kt's VectorTest runs every vector (one test each) and checks that the file is complete.
vectors=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["count"])' "$tmp/vectors.json")
ran=$(sed -n 's/.*Tests run: \([0-9]*\), Failures: 0, Errors: 0, Skipped: 0, .* in io\.github\.fairmines\.VectorTest$/\1/p' "$tmp/mvn.log")
if [[ -z $ran ]] || ((ran <= vectors)); then
    grep "Tests run" "$tmp/mvn.log" >&2; fail "VectorTest did not run every vector through the JAR (log: $tmp/mvn.log)"
fi
echo "kotlin: VectorTest ran $ran tests through the JAR: the $vectors vectors, one each, and the file complete"
cmp -s "$m2_fairmines/$version/$name.jar" "dist/$name.jar" || fail "Maven did not resolve dist/$name.jar"

# -- the gem -----------------------------------------------------------------------------------------------
step "dist/$gem_file ($(stat -c %s "dist/$gem_file") bytes): gem install --local into a new GEM_HOME"
want="LICENSE-APACHE LICENSE-MIT lib/fairmines.rb lib/libfairmines_uniffi.so"
got=$(tar -xOf "dist/$gem_file" data.tar.gz | tar -tzf - | sort | xargs)
[[ $got == "$want" ]] || fail "$gem_file holds: $got"
mkdir -p "$tmp/gemdata"
tar -xOf "dist/$gem_file" data.tar.gz | tar -xzf - -C "$tmp/gemdata"
cmp -s "$tmp/gemdata/lib/libfairmines_uniffi.so" "$jar_so" || fail "the gem's library is not the JAR's"
cmp -s "$tmp/gemdata/lib/fairmines.rb" "$generated/ruby/fairmines.rb" || fail "the gem's fairmines.rb is not the generated one"
ruby -rrubygems/package -e '
    spec = Gem::Package.new(ARGV[0]).spec
    got = [spec.name, spec.version.to_s, spec.platform.to_s, spec.licenses, spec.require_paths,
           spec.runtime_dependencies.map { |d| [d.name, d.requirement.to_s] }]
    want = ["fairmines", ARGV[1], "x86_64-linux", ["MIT", "Apache-2.0"], ["lib"], [["ffi", "~> 1.15"]]]
    abort "the gem spec is #{got.inspect}, not #{want.inspect}" unless got == want
    puts "gem spec: #{spec.full_name}, licences #{spec.licenses.join(", ")}, depends on ffi #{spec.runtime_dependencies[0].requirement}"
' "dist/$gem_file" "$version" || fail "dist/$gem_file: its spec (above)"
gem_home=$tmp/gems
cp "dist/$gem_file" "$tmp/"
(cd "$tmp" && user GEM_HOME="$gem_home" gem install --local --no-document "$gem_file") >"$tmp/gem.log" 2>&1 ||
    { cat "$tmp/gem.log" >&2; fail "gem install --local failed"; }
grep -x "Successfully installed $name-x86_64-linux" "$tmp/gem.log" || { cat "$tmp/gem.log" >&2; fail "gem install: above"; }
cp bindings/uniffi/tests/dist/origin.rb "$tmp/origin.rb"
mkdir -p "$tmp/ruby-suites"
cp bindings/uniffi/tests/ruby/{helper,test_fairmines,test_game}.rb "$tmp/ruby-suites/"
installed_lib=$gem_home/gems/$name-x86_64-linux/lib
(cd "$tmp" && user GEM_HOME="$gem_home" ruby origin.rb "$version") || fail "require 'fairmines' did not load the gem (above)"
for suite in test_fairmines test_game; do
    out=$(cd "$tmp" && user GEM_HOME="$gem_home" FAIRMINES_RUBY_DIR="$installed_lib" FAIRMINES_VECTORS="$tmp/vectors.json" \
        ruby "ruby-suites/$suite.rb" 2>&1) || { echo "$out" >&2; fail "$suite.rb on the installed gem failed"; }
    echo "ruby $suite.rb on the installed gem: $(grep -E '^[0-9]+ runs, ' <<<"$out")"
done

# -- the library on an older glibc -------------------------------------------------------------------------
# Inside the Debian 11 root (glibc 2.31, scripts/debian11-root.sh; root only): the JAR's library (the gem's is the
# same file) is loaded by the C smoke test of the UniFFI ABI (bindings/uniffi/tests/c/ffi_smoke.c, the generated
# C header), built there with Debian 11's gcc. The root has no JVM or Ruby (installing them there would take
# minutes), so the Kotlin and Ruby code is not run there. FAIRMINES_SKIP_OLDGLIBC=1 skips this part.
oldglibc="not run (not root)"
if [[ ${FAIRMINES_SKIP_OLDGLIBC:-} == 1 ]]; then
    oldglibc="skipped (FAIRMINES_SKIP_OLDGLIBC=1)"
elif [[ $(id -u) == 0 ]]; then
    step "Debian 11 (glibc 2.31): the JAR's libfairmines_uniffi.so through the C smoke test"
    # shellcheck source=scripts/debian11-root.sh
    source scripts/debian11-root.sh
    debian11_root
    mkdir -p "$tmp/debian11/lib"
    cp "$jar_so" "$tmp/debian11/lib/"
    cp bindings/uniffi/tests/c/ffi_smoke.c "$generated/swift/fairminesFFI.h" "$tmp/debian11/"
    cat >"$tmp/debian11/run.sh" <<'SH'
set -eu
echo "inside: $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | head -n 1)"
gcc -std=c11 -Wall -Wextra -Werror -D_Nullable= -D_Nonnull= -I. ffi_smoke.c -Llib -lfairmines_uniffi -o ffi_smoke
LD_LIBRARY_PATH=lib ldd ./ffi_smoke | grep -E 'libfairmines_uniffi|libc\.so' | sed 's/^[[:space:]]*/  ldd: /'
LD_LIBRARY_PATH=lib ./ffi_smoke
SH
    out=$(debian11_run "$tmp/debian11" /bin/sh /work/run.sh 2>&1) || { echo "$out" >&2; fail "inside Debian 11 (above)"; }
    echo "$out"
    grep -qE '^c-header: [1-9][0-9]* passed, 0 failed$' <<<"$out" || fail "the C smoke test inside Debian 11: $out"
    oldglibc="loads and passes the C smoke test in Debian 11 (glibc 2.31)"
fi

step "summary ($((SECONDS - start)) s)"
echo "$name.jar: $(stat -c %s "dist/$name.jar") bytes, $classes classes, linux-x86-64/libfairmines_uniffi.so" \
    "($(stat -c %s "$jar_so") bytes) newest $(newest_glibc "$jar_so"); resolved from dist/maven, vectors passed;" \
    "the library $oldglibc"
echo "$name.pom: $(stat -c %s "dist/$name.pom") bytes; $name-sources.jar: $(stat -c %s "dist/$name-sources.jar") bytes"
echo "$gem_file: $(stat -c %s "dist/$gem_file") bytes, lib/libfairmines_uniffi.so newest" \
    "$(newest_glibc "$tmp/gemdata/lib/libfairmines_uniffi.so"); installed with gem install --local, vectors passed"
