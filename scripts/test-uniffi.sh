#!/usr/bin/env bash
# Tests the UniFFI bindings (bindings/uniffi): Kotlin on the JVM, Ruby, the C header of the Swift
# binding, and every code block of bindings/uniffi/README.md (the Kotlin and Ruby programs run with their
# output compared; the Swift one, with no Swift toolchain here, parsed and checked against Fairmines.swift).
# Runs on a fresh Debian machine as root (installs ruby and ruby-ffi with apt-get only when missing; Maven
# fetches the Kotlin compiler, JNA and JUnit once into ~/.m2; pip installs the pinned tree-sitter-swift once
# into target/uniffi-swift-venv).
#
#   scripts/test-uniffi.sh
#
# Environment: FAIRMINES_VECTORS=path  runs the Kotlin and Ruby suites on another vector file of the
# format of vectors/README.md (default: vectors/vectors.json).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case "$target" in /*) ;; *) target="$root/$target" ;; esac
vectors=${FAIRMINES_VECTORS:-$root/vectors/vectors.json}
case "$vectors" in /*) ;; *) vectors="$root/$vectors" ;; esac
export CARGO_TARGET_DIR="$target"

step() { printf '\n==> %s\n' "$*"; }

step "Rust tests of fairmines-uniffi: the error mapping against ErrorKind::ALL, conversions, the README's error table"
# The two packages together, as in generate.sh, so UniFFI is built once with one feature set.
cargo test --quiet -p fairmines-uniffi -p fairmines-uniffi-bindgen

step "The README's code blocks: every block tagged, the examples identical to the files the tests run"
readme=bindings/uniffi/README.md
blocks="$target/uniffi-readme"   # also read by the Kotlin test ReadmeTest (pom.xml: fairmines.readme.dir)
rm -rf "$blocks"
mkdir -p "$blocks"
# A tag line right before a fence names the block; an untagged block, or a tag this script does not know,
# fails: every block is run, compared or checked below.
awk -v dir="$blocks" '
    inside && /^```$/ { inside = 0; close(file); next }
    inside { print > file; next }
    /^```/ {
        if (name == "") { printf "error: %s:%d: a code block without a <!-- test-uniffi: NAME --> tag\n", FILENAME, NR > "/dev/stderr"; bad = 1; file = "/dev/null" }
        else { file = dir "/" name; printf "" > file }
        inside = 1; name = ""; next
    }
    /^<!-- test-uniffi: [^ ]+ -->$/ { name = $3; next }
    { name = "" }
    END { exit bad }' "$readme"
want="build kotlin kotlin.out ruby swift"
got=$(cd "$blocks" && ls | sort | xargs)
if [ "$got" != "$want" ]; then
    echo "error: $readme has the blocks [$got]; this script runs [$want]" >&2
    exit 1
fi
for pair in kotlin:bindings/uniffi/tests/kotlin/src/test/kotlin/ReadmeExample.kt ruby:bindings/uniffi/tests/ruby/example.rb \
    swift:bindings/uniffi/tests/swift/example.swift; do
    if ! diff -u "$blocks/${pair%%:*}" "${pair#*:}"; then
        echo "error: the README's ${pair%%:*} block is not ${pair#*:} (diff above)" >&2
        exit 1
    fi
done
# The licenses the README points to for whoever ships the generated sources.
for license in LICENSE-MIT LICENSE-APACHE; do
    [ -s "$license" ] && grep -qF "(../../$license)" "$readme" || { echo "error: $readme does not link $license" >&2; exit 1; }
done
# The build block: its cargo build runs as written; its generate.sh runs in the next step.
commands=$(sed 's/ *#.*$//' "$blocks/build")
expected_commands=$'cargo build -p fairmines-uniffi -p fairmines-uniffi-bindgen\nbindings/uniffi/generate.sh'
if [ "$commands" != "$expected_commands" ]; then
    printf 'error: the README build block changed; update this script:\n%s\n' "$commands" >&2
    exit 1
fi
bash -ex -c "$(head -n 1 <<<"$commands")"
echo "README: blocks [$got] tagged; kotlin, ruby and swift identical to their files"

step "Generate the Kotlin, Swift and Ruby sources into the build folder"
generated="$target/uniffi-generated"
bindings/uniffi/generate.sh "$generated"
lib="$target/debug/libfairmines_uniffi.so"
[ "$(uname -s)" = Darwin ] && lib="$target/debug/libfairmines_uniffi.dylib"

step "Swift: the generated C header compiles, matches the library's exports, and works from C; the README's example parses"
header="$generated/swift/fairminesFFI.h"
cc_flags=(-std=c11 -Wall -Wextra -Werror)
# _Nullable/_Nonnull are Clang's nullability qualifiers; GCC does not know them.
if ! cc --version 2>/dev/null | grep -qi clang; then cc_flags+=(-D_Nullable= -D_Nonnull=); fi
cc "${cc_flags[@]}" -fsyntax-only -x c -include "$header" /dev/null
declared=$(grep -oE '\b(uniffi|ffi)_fairmines_uniffi_[A-Za-z0-9_]+\(' "$header" | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -E '^(uniffi|ffi)_fairmines_uniffi_' | sort -u)
# UniFFI 0.32 exports a checksum for every method of a record (RoundRecord.toJson, Ratio.toDecimal, …) but its
# bindings neither declare nor check those: such a checksum, and only such, may be exported without being
# declared, as long as the method itself is declared.
unchecked=0
while read -r symbol; do
    [ -n "$symbol" ] || continue
    method=${symbol/_checksum_method_/_fn_method_}
    if [ "$method" = "$symbol" ] || ! grep -qx "$method" <<<"$declared"; then
        echo "error: $lib exports $symbol, which $header does not declare" >&2
        exit 1
    fi
    unchecked=$((unchecked + 1))
done < <(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
if [ -n "$missing" ]; then
    printf 'error: %s declares functions that %s does not export:\n%s\n' "$header" "$lib" "$missing" >&2
    exit 1
fi
echo "header: $(echo "$declared" | wc -l) functions declared, all exported by the library;" \
    "$unchecked record-method checksums exported and not used by the bindings"
# The README's Swift example: parsed with tree-sitter-swift and checked against Fairmines.swift (no swiftc here).
swift_env="$target/uniffi-swift-venv"
requirements=bindings/uniffi/tests/swift/requirements.txt
if ! cmp -s "$requirements" "$swift_env/requirements.txt"; then
    rm -rf "$swift_env"
    python3 -m venv "$swift_env"
    "$swift_env/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$swift_env/requirements.txt"
fi
"$swift_env/bin/python" bindings/uniffi/tests/swift/check_example.py bindings/uniffi/tests/swift/example.swift \
    "$generated/swift/Fairmines.swift"
mkdir -p "$target/uniffi-c"
cc "${cc_flags[@]}" -I "$(dirname "$header")" bindings/uniffi/tests/c/ffi_smoke.c \
    -L "$(dirname "$lib")" -lfairmines_uniffi -Wl,-rpath,"$(dirname "$lib")" -o "$target/uniffi-c/ffi_smoke"
"$target/uniffi-c/ffi_smoke"

step "Ruby"
if ! command -v ruby >/dev/null || ! ruby -e 'require "ffi"; require "minitest"' 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq ruby ruby-ffi >/dev/null
fi
ruby_dir="$target/uniffi-ruby"
rm -rf "$ruby_dir"
mkdir -p "$ruby_dir"
# As a gem would ship it: fairmines.rb with the library beside it (uniffi.toml's cdylib_path).
cp "$generated/ruby/fairmines.rb" "$lib" "$ruby_dir/"
for suite in test_fairmines test_game; do
    FAIRMINES_RUBY_DIR="$ruby_dir" FAIRMINES_VECTORS="$vectors" ruby "bindings/uniffi/tests/ruby/$suite.rb"
done
# The README example, beside fairmines.rb as a user would have it; its output must match its comments.
cp bindings/uniffi/tests/ruby/example.rb "$ruby_dir/"
expected=$(sed -n 's/.*# => \(.*\)$/\1/p; s/^ *puts e.message *# \(.*\)$/\1/p' bindings/uniffi/tests/ruby/example.rb)
actual=$(ruby "$ruby_dir/example.rb")
if [ "$actual" != "$expected" ]; then
    printf 'error: README example printed\n%s\nexpected\n%s\n' "$actual" "$expected" >&2
    exit 1
fi
echo "README example: output as documented"

step "Kotlin (JVM, Maven)"
# All versions are pinned in the pom: after the first run Maven finds everything in ~/.m2 and needs
# no network (`mvn -o` works too).
mvn -B -ntp -f bindings/uniffi/tests/kotlin/pom.xml test \
    -Dfairmines.lib.dir="$(dirname "$lib")" -Dfairmines.vectors.file="$vectors" -Dfairmines.readme.dir="$blocks" \
    -Dfairmines.generated.dir="$generated"

step "uniffi: all suites passed"
