#!/usr/bin/env bash
# Checks the JAR, POM, dist/maven and gem of dist/ as a user uses them, without Rust and in a clean environment: a new Maven project resolves the JAR from file://dist/maven and runs DistTest, the package's Kotlin suites and the README's Kotlin and Java programs from the JAR's README; the gem installed with gem install --local runs origin.rb, the Ruby suites and its README's Ruby program; the library's C smoke test (`--into DIR`: kept in DIR for Debian 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export LC_ALL=C
need mvn:maven java:default-jdk-headless unzip:unzip ruby:ruby cc:gcc
ruby -e 'require "ffi"; require "minitest"' 2>/dev/null || bash scripts/bootstrap.sh ruby-ffi ruby-minitest
generated=$ROOT/target/uniffi-generated  # where dist-uniffi.sh generated them
name=fairmines-$version gem_file=fairmines-$version-x86_64-linux.gem
repo=dist/maven/io/github/fairmines/fairmines/$version
m2_fairmines=$HOME/.m2/repository/io/github/fairmines/fairmines
if [[ ${1:-} == --into ]]; then mkdir -p "$2" && TMP=$(cd "$2" && pwd) && trap 'rm -rf "$m2_fairmines"' EXIT
else scratch && trap 'rm -rf "$m2_fairmines" "$TMP"' EXIT; fi
clean_path=$(tr : '\n' <<<"$PATH" | while read -r d; do [[ -z $d || -e $d/cargo || -e $d/rustc ]] || echo "$d"; done | paste -sd:)
user() { env -i PATH="$clean_path" HOME="$HOME" LC_ALL=C.UTF-8 ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$@"; }

step "dist/$name.jar, its POM, sources and dist/maven"
got=$(unzip -Z1 "dist/$name.jar" | grep -v '^io/github/fairmines/[^/]*\.class$' | sort | xargs)
[[ $got == "META-INF/ META-INF/LICENSE-APACHE META-INF/LICENSE-MIT META-INF/MANIFEST.MF META-INF/README.md META-INF/fairmines.kotlin_module META-INF/maven/ META-INF/maven/io.github.fairmines/ META-INF/maven/io.github.fairmines/fairmines/ META-INF/maven/io.github.fairmines/fairmines/pom.properties META-INF/maven/io.github.fairmines/fairmines/pom.xml io/ io/github/ io/github/fairmines/ linux-x86-64/ linux-x86-64/libfairmines_uniffi.so" ]] ||
    fail "$name.jar holds $got"
# Java 8 bytecode (class-file version 52).
[[ $(unzip -p "dist/$name.jar" io/github/fairmines/Fairmines.class | od -An -j6 -N2 -tu1 | awk '{print $1 * 256 + $2}') == 52 ]] ||
    fail "the classes are not for Java 8"
unzip -q "dist/$name.jar" linux-x86-64/libfairmines_uniffi.so 'META-INF/LICENSE-*' -d "$TMP/jar"
so=$TMP/jar/linux-x86-64/libfairmines_uniffi.so
glibc_floor "$so" >/dev/null
if readelf -d "$so" | grep -E 'RPATH|RUNPATH'; then fail "the library has an rpath"; fi
if strings "$so" | grep -E '/(root|home|work|tmp)/' | head -n 5 | grep .; then fail "build paths in the library (above)"; fi
for f in LICENSE-MIT LICENSE-APACHE; do cmp "$TMP/jar/META-INF/$f" "$f"; done
[[ $(unzip -Z1 "dist/$name-sources.jar" | sort | xargs) == "META-INF/LICENSE-APACHE META-INF/LICENSE-MIT META-INF/README.md io/github/fairmines/Library.kt io/github/fairmines/fairmines.kt" ]] ||
    fail "$name-sources.jar holds $(unzip -Z1 "dist/$name-sources.jar" | xargs)"
for jar in "$name.jar" "$name-sources.jar"; do
    unzip -p "dist/$jar" META-INF/README.md | cmp - bindings/uniffi/README.md || fail "$jar: META-INF/README.md is not bindings/uniffi/README.md"
done
# The POM: its coordinates, licences, and dependencies (kotlin-stdlib and JNA at the test project's versions).
python3 - "dist/$name.pom" "$version" bindings/uniffi/tests/kotlin/pom.xml <<'PY'
import sys, xml.etree.ElementTree as E
pom, version, tests = E.parse(sys.argv[1]).getroot(), sys.argv[2], E.parse(sys.argv[3]).getroot()
t = lambda root, path: root.findtext(path.replace("/", "/m:").join(["m:", ""]), namespaces={"m": "http://maven.apache.org/POM/4.0.0"})
def deps(r): return {t(d, "artifactId"): t(r, "properties/" + t(d, "version")[2:-1]) for d in r.findall("{*}dependencies/{*}dependency") if t(d, "scope") is None}
assert [t(pom, k) for k in ("groupId", "artifactId", "version", "packaging")] == ["io.github.fairmines", "fairmines", version, "jar"]
assert deps(pom) == deps(tests) and set(deps(pom)) == {"kotlin-stdlib", "jna"}, (deps(pom), deps(tests))
assert [t(l, "name") for l in pom.findall("{*}licenses/{*}license")] == ["MIT", "Apache-2.0"]
PY
for f in "$name.jar" "$name.pom" "$name-sources.jar"; do
    cmp "dist/$f" "$repo/$f"
    for sum in md5 sha1 sha256; do [[ $(cat "$repo/$f.$sum") == "$("${sum}sum" "$repo/$f" | cut -d' ' -f1)" ]] || fail "$repo/$f.$sum"; done
done

step "a new Maven project resolves io.github.fairmines:fairmines:$version from file://$ROOT/dist/maven"
project=$TMP/consumer
mkdir -p "$project/src/test/kotlin"
cp bindings/uniffi/tests/dist/DistTest.kt bindings/uniffi/tests/kotlin/src/test/kotlin/io/github/fairmines/{FairminesTest,GameTest,ReadmeTest,PlatformTest}.kt "$project/src/test/kotlin/"
# The README's Kotlin and Java programs as the JAR's own README (META-INF/README.md) has them: ReadmeTest runs them
# against the JAR and compares their output with the README's.
unzip -p "$repo/$name.jar" META-INF/README.md >"$TMP/README.md"
python3 scripts/readme_examples.py "$TMP/README.md" --extract test-uniffi "$TMP/readme" --expect "build kotlin kotlin.out java java.out ruby swift"
cp "$TMP/readme/kotlin" "$project/src/test/kotlin/ReadmeExample.kt"
cp vectors/vectors.json "$TMP/vectors.json"
# The package's test project, as a user's: the released JAR from the repository instead of the generated
# sources, kotlin-stdlib and JNA; no jna.library.path (the library must come from the JAR).
python3 - bindings/uniffi/tests/kotlin/pom.xml "$project/pom.xml" "$version" "file://$ROOT/dist/maven" "$TMP/vectors.json" "$TMP/readme" <<'PY'
import re, sys
src, dst, version, url, vectors, readme = sys.argv[1:]
pom = open(src).read()
pom = re.sub(r"<dependency>\s*<groupId>org.jetbrains.kotlin</groupId>.*?<groupId>net.java.dev.jna</groupId>.*?</dependency>",
             f"<dependency><groupId>io.github.fairmines</groupId><artifactId>fairmines</artifactId><version>{version}</version></dependency>", pom, 1, re.S)
pom = re.sub(r"<execution>\s*<id>compile</id>.*?</execution>", "", pom, 1, re.S)
pom = re.sub(r"<sourceDirectory>.*?</sourceDirectory>", "", pom, 1)
pom = re.sub(r"<jna.library.path>.*?</jna.library.path>", f"<fairmines.version>{version}</fairmines.version>", pom, 1)
pom = re.sub(r"<fairmines.vectors>.*?</fairmines.vectors>", f"<fairmines.vectors>{vectors}</fairmines.vectors>", pom, 1)
pom = re.sub(r"<fairmines.readme.dir>.*?</fairmines.readme.dir>", f"<fairmines.readme.dir>{readme}</fairmines.readme.dir>", pom, 1)
pom = pom.replace("<artifactId>fairmines-uniffi-kotlin-tests</artifactId>", "<artifactId>uses-fairmines</artifactId>")
pom = pom.replace("<dependencies>", f"<repositories><repository><id>dist</id><url>{url}</url></repository></repositories>\n  <dependencies>", 1)
assert pom.count("io.github.fairmines</groupId><artifactId>fairmines<") == 1 and "jna.library.path" not in pom and "<sourceDirectory>" not in pom
assert pom.count(readme) == 1, "fairmines.readme.dir"
open(dst, "w").write(pom)
PY
rm -rf "$m2_fairmines"
offline=()
[[ ! -d $HOME/.m2/repository/org/jetbrains/kotlin/kotlin-maven-plugin ]] || offline=(-o -Daether.offline.protocols=file)
(cd "$project" && user mvn -B -ntp -Dstyle.color=never "${offline[@]}" test >"$TMP/mvn.log" 2>&1) ||
    { tail -n 80 "$TMP/mvn.log" >&2; fail "the Maven project failed (above)"; }
grep -E '^kotlin: ' "$TMP/mvn.log" || fail "no output from DistTest"
# VectorTest runs every vector (one test each) and checks that the file is complete.
count=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["count"])' "$TMP/vectors.json")
ran=$(sed -n 's/.*Tests run: \([0-9]*\), Failures: 0, Errors: 0, Skipped: 0, .* in io\.github\.fairmines\.VectorTest$/\1/p' "$TMP/mvn.log")
((${ran:-0} > count)) || { grep "Tests run" "$TMP/mvn.log" >&2; fail "VectorTest did not run every vector through the JAR"; }
cmp "$m2_fairmines/$version/$name.jar" "dist/$name.jar"
for suite in ReadmeTest PlatformTest; do
    grep -qE "Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0, .* in io\.github\.fairmines\.$suite$" "$TMP/mvn.log" || fail "$suite did not run on the JAR"
done
echo "kotlin: $(grep -E 'Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: 0$' "$TMP/mvn.log" | tail -n 1), VectorTest $ran; the README's Kotlin and Java programs and the missing-library line on the JAR"

step "dist/$gem_file: gem install --local into a new GEM_HOME, origin.rb and the Ruby suites"
[[ $(tar -xOf "dist/$gem_file" data.tar.gz | tar -tzf - | sort | xargs) == "LICENSE-APACHE LICENSE-MIT README.md lib/fairmines.rb lib/fairmines/libfairmines_uniffi.so lib/fairmines/uniffi.rb" ]] ||
    fail "$gem_file's files"
mkdir -p "$TMP/gemdata" && tar -xOf "dist/$gem_file" data.tar.gz | tar -xzf - -C "$TMP/gemdata"
cmp "$TMP/gemdata/lib/fairmines/libfairmines_uniffi.so" "$so"
cmp "$TMP/gemdata/lib/fairmines/uniffi.rb" "$generated/ruby/fairmines.rb"
cmp "$TMP/gemdata/lib/fairmines.rb" bindings/uniffi/ruby/lib/fairmines.rb
cmp "$TMP/gemdata/README.md" bindings/uniffi/README.md
ruby -rrubygems/package -e '
    s = Gem::Package.new(ARGV[0]).spec
    got = [s.name, s.version.to_s, s.platform.to_s, s.licenses, s.require_paths, s.runtime_dependencies.map { |d| [d.name, d.requirement.to_s] }]
    want = ["fairmines", ARGV[1], "x86_64-linux", ["MIT", "Apache-2.0"], ["lib"], [["ffi", ">= 1.15, < 2"]]]
    abort "the gem spec is #{got.inspect}, not #{want.inspect}" unless got == want' "dist/$gem_file" "$version"
cp "dist/$gem_file" bindings/uniffi/tests/dist/origin.rb bindings/uniffi/tests/ruby/{helper,test_fairmines,test_game,test_ruby,test_example}.rb "$TMP/"
(cd "$TMP" && user GEM_HOME="$TMP/gems" gem install --local --no-document "$gem_file" >gem.log 2>&1) || { cat "$TMP/gem.log" >&2; fail "gem install"; }
(cd "$TMP" && user GEM_HOME="$TMP/gems" ruby origin.rb "$version")
# The README's Ruby program as the installed gem's README has it (test_example.rb compares its output with its comments).
installed=$TMP/gems/gems/$name-x86_64-linux
python3 scripts/readme_examples.py "$installed/README.md" --extract test-uniffi "$TMP/gem-readme" --expect "build kotlin kotlin.out java java.out ruby swift"
for suite in test_fairmines test_game test_ruby test_example; do
    out=$(cd "$TMP" && user GEM_HOME="$TMP/gems" FAIRMINES_RUBY_DIR="$installed/lib" FAIRMINES_RUBY_EXAMPLE="$TMP/gem-readme/ruby" \
        FAIRMINES_VECTORS="$TMP/vectors.json" ruby "$suite.rb" 2>&1) || { echo "$out" >&2; fail "$suite.rb on the installed gem"; }
    echo "ruby $suite.rb on the installed gem: $(grep -E '^[0-9]+ runs, ' <<<"$out")"
done

step "the library through the C smoke test of the UniFFI ABI (the generated C header)"
mkdir -p "$TMP/lib" && cp "$so" "$TMP/lib/"
cp bindings/uniffi/tests/c/ffi_smoke.c "$generated/swift/fairminesFFI.h" "$TMP/"
cat >"$TMP/run.sh" <<'SH'
set -eu
cd "$(dirname "$0")"
gcc -std=c11 -Wall -Wextra -Werror -D_Nullable= -D_Nonnull= -I. ffi_smoke.c -Llib -lfairmines_uniffi -o ffi_smoke
LD_LIBRARY_PATH=lib ./ffi_smoke >smoke.txt || { cat smoke.txt; exit 1; }
grep -qE '^c-header: [1-9][0-9]* passed, 0 failed$' smoke.txt || { cat smoke.txt; exit 1; }
echo "  libfairmines_uniffi.so, $(ldd --version | head -n 1): $(tail -n 1 smoke.txt)"
SH
sh "$TMP/run.sh"
