#!/usr/bin/env bash
# The C/C++ archives into dist/: x86_64-linux-gnu (glibc 2.17, cargo-zigbuild; static and shared) and x86_64-linux-musl (static, libunwind merged in), laid out by install-c.sh, exporting only fairmines_*.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export LC_ALL=C
zig_tools
need readelf:binutils
release_flags x86_64-unknown-linux-gnu x86_64-unknown-linux-musl

step "glibc 2.17: cargo zigbuild -p fairmines-c"
cargo zigbuild --locked --release --target x86_64-unknown-linux-gnu.2.17 -p fairmines-c
gnu_dir=$target_dir/x86_64-unknown-linux-gnu/release
newest=$(glibc_floor "$gnu_dir/libfairmines.so")
soname=$(readelf -d "$gnu_dir/libfairmines.so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')

step "musl: cargo build -p fairmines-c (static library only), LLVM's libunwind merged in (so a link needs only -lc)"
cargo build --locked --release --target x86_64-unknown-linux-musl -p fairmines-c
unwind=$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-musl/lib/self-contained/libunwind.a
merged=$target_dir/x86_64-unknown-linux-musl/dist-c
rm -rf "$merged" && mkdir -p "$merged"
# (ar's LTO plugin cannot read rustc's bitcode and says so for each member: kept out of the log.)
printf 'create %s\naddlib %s\naddlib %s\nsave\nend\n' "$merged/libfairmines.merged.a" \
    "$target_dir/x86_64-unknown-linux-musl/release/libfairmines.a" "$unwind" | ar -M 2>"$merged/ar.log" ||
    { cat "$merged/ar.log" >&2; fail "ar -M failed"; }

# Each archive becomes one object partially linked (ld -r, --gc-sections) from what the fairmines_* functions
# reach, every other symbol made local (Rust's runtime cannot clash with another Rust library or C++ runtime).
hide_runtime() { # archive in, folder for libfairmines.a
    local in=$1 out=$2 keep
    keep=$(nm -g --defined-only "$in" 2>/dev/null | awk 'NF == 3 && $3 ~ /^fairmines_/ { print $3 }' | sort -u)
    [[ -n $keep ]] || fail "$in defines no fairmines_* function"
    printf '%s\n' "$keep" >"$out/exports.txt"
    # shellcheck disable=SC2046 # one -u per function
    ld -r --whole-archive "$in" --gc-sections $(printf -- '-u %s ' $keep) -o "$out/fairmines.partial.o"
    objcopy --remove-section=.llvmbc --remove-section=.llvmcmd --keep-global-symbols="$out/exports.txt" \
        "$out/fairmines.partial.o" "$out/fairmines.o"
    rm -f "$out/libfairmines.a" "$out/fairmines.partial.o"
    (cd "$out" && ar rcD libfairmines.a fairmines.o)
}
gnu_hidden=$target_dir/x86_64-unknown-linux-gnu/dist-c
rm -rf "$gnu_hidden" && mkdir -p "$gnu_hidden"
hide_runtime "$gnu_dir/libfairmines.a" "$gnu_hidden"
cp -a "$gnu_dir/libfairmines.so" "$gnu_hidden/"
hide_runtime "$merged/libfairmines.merged.a" "$merged"

stage_root=$target_dir/dist-c-stage
rm -rf "$stage_root" && mkdir -p dist "$stage_root"
# The worked example (ALGORITHM.md), as the archives' README runs it.
WORKED="b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 1 3 7 10 19"
pack() { # name, library dir, native static libs, description
    local name=$1 stage=$stage_root/$1
    step "$name"
    mkdir -p "$stage/examples/cpp"
    FAIRMINES_NO_BUILD=1 FAIRMINES_LIB_DIR=$2 FAIRMINES_STATIC_LIBS=$3 bash scripts/install-c.sh "$stage"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    cp bindings/c/examples/mines.c bindings/c/examples/verify_round.c "$stage/examples/"
    cp bindings/c/examples/cpp/CMakeLists.txt bindings/c/examples/cpp/verify_round.cpp "$stage/examples/cpp/"
    local variant=${name##*-} other=gnu && [[ $variant == gnu ]] && other=musl
    sed -e "/^$other|/d" -e "s/^$variant|//" -e '1,2{/^<!--/d;/-->$/d}' -e "s|@name@|$name|g" -e "s|@version@|$version|g" \
        -e "s|@soname@|$soname|g" -e "s|@description@|$4|g" -e "s|@worked@|$WORKED|g" bindings/c/package/README.md.in >"$stage/README.md"
    modes "$stage/examples"
    chmod 0755 "$stage" && chmod 0644 "$stage"/LICENSE-* "$stage/README.md"
    targz "$stage_root" "$name" "dist/$name.tar.gz"
}
# install-c.sh's native static libraries without -lgcc_s (a -static link has none; the driver adds the unwinder).
gnu_libs=$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh | sed 's/ -lgcc_s\b//g')
[[ -n $gnu_libs ]] || fail "no native static libraries in scripts/install-c.sh"
pack "fairmines-$version-x86_64-linux-gnu" "$gnu_hidden" "$gnu_libs" "for x86_64 Linux with glibc 2.17 or newer"
pack "fairmines-$version-x86_64-linux-musl" "$merged" "-lc" "for x86_64 Linux with musl (Alpine): static only"
rm -rf "$stage_root"
echo "dist-c: libfairmines.so needs glibc 2.17 at most (newest symbol $newest)"
