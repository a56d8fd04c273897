#!/usr/bin/env bash
# The UniFFI bindings (bindings/uniffi): Rust tests, the README built as written, the Swift binding's C header, Ruby (minitest), Kotlin (Maven).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
target=$(realpath -m "${CARGO_TARGET_DIR:-target}")
vectors=$(realpath -m "${FAIRMINES_VECTORS:-vectors/vectors.json}")   # another vector file of vectors/README.md's format
export CARGO_TARGET_DIR="$target"
tests=bindings/uniffi/tests blocks="$target/uniffi-readme" generated="$target/uniffi-generated" lib="$target/debug/libfairmines_uniffi.so"

step "Rust tests of fairmines-uniffi (the two packages together, as generate.sh builds them)"
cargo test --quiet -p fairmines-uniffi -p fairmines-uniffi-bindgen

step "the README's blocks (ReadmeTest runs the Kotlin and Java ones and compares their output); its build block, which generates into $generated"
rm -rf "$blocks"
python3 scripts/readme_examples.py bindings/uniffi/README.md --extract test-uniffi "$blocks" --expect "build kotlin kotlin.out java java.out ruby swift"
bash -ex "$blocks/build"

step "Swift: the generated C header compiles, declares what the library exports, and works from C; the README's example parses"
header="$generated/swift/fairminesFFI.h"
cc_flags=(-std=c11 -Wall -Wextra -Werror)
cc --version 2>/dev/null | grep -qi clang || cc_flags+=(-D_Nullable= -D_Nonnull=)   # Clang's nullability qualifiers
cc "${cc_flags[@]}" -fsyntax-only -x c -include "$header" /dev/null
swift_env="$target/uniffi-swift-venv"
if ! cmp -s $tests/swift/requirements.txt "$swift_env/requirements.txt"; then
    rm -rf "$swift_env" && python3 -m venv "$swift_env"
    "$swift_env/bin/pip" install --quiet --disable-pip-version-check -r $tests/swift/requirements.txt
    cp $tests/swift/requirements.txt "$swift_env/requirements.txt"
fi
"$swift_env/bin/python" $tests/swift/check_example.py $tests/swift/example.swift "$generated/swift/Fairmines.swift" "$header" "$lib"
mkdir -p "$target/uniffi-c"
cc "${cc_flags[@]}" -I "$(dirname "$header")" $tests/c/ffi_smoke.c -L "$(dirname "$lib")" -lfairmines_uniffi \
    -Wl,-rpath,"$(dirname "$lib")" -o "$target/uniffi-c/ffi_smoke"
"$target/uniffi-c/ffi_smoke"

step "Ruby: the layer fairmines.rb, and fairmines/uniffi.rb (generated) beside the library, as the gem ships them"
have ruby && ruby -e 'require "ffi"; require "minitest"' 2>/dev/null || bash scripts/bootstrap.sh ruby ruby-ffi
rm -rf "$target/uniffi-ruby" && mkdir -p "$target/uniffi-ruby/fairmines"
cp bindings/uniffi/ruby/lib/fairmines.rb "$target/uniffi-ruby/"
cp "$generated/ruby/fairmines.rb" "$target/uniffi-ruby/fairmines/uniffi.rb"
cp "$lib" "$target/uniffi-ruby/fairmines/"
for suite in test_fairmines test_game test_ruby test_example; do
    FAIRMINES_RUBY_DIR="$target/uniffi-ruby" FAIRMINES_VECTORS="$vectors" ruby "$tests/ruby/$suite.rb"
done

step "Kotlin (JVM, Maven: every version pinned in the pom, from ~/.m2 after the first run)"
mvn -B -ntp -f $tests/kotlin/pom.xml test -Dfairmines.lib.dir="$(dirname "$lib")" -Dfairmines.vectors.file="$vectors" \
    -Dfairmines.readme.dir="$blocks" -Dfairmines.generated.dir="$generated"
step "all suites passed"
