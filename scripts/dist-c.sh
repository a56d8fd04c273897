#!/usr/bin/env bash
# The C/C++ archives into dist/, for each architecture given (default: zig.sh's C_ARCHES): ARCH-linux-gnu (glibc 2.17, cargo-zigbuild; static and shared) and ARCH-linux-musl (static, libunwind merged in), laid out by install-c.sh, exporting only fairmines_*.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export LC_ALL=C
zig_tools
need readelf:binutils
(($# > 0)) || set -- "${C_ARCHES[@]}"

# Each archive becomes one object partially linked (ld -r, --gc-sections) from what the fairmines_* functions
# reach, every other symbol made local (Rust's runtime cannot clash with another Rust library or C++ runtime).
hide_runtime() { # archive in, folder for libfairmines.a, binutils' prefix for the architecture
    local in=$1 out=$2 tools=$3 keep
    keep=$("${tools}nm" -g --defined-only "$in" 2>/dev/null | awk 'NF == 3 && $3 ~ /^fairmines_/ { print $3 }' | sort -u)
    [[ -n $keep ]] || fail "$in defines no fairmines_* function"
    printf '%s\n' "$keep" >"$out/exports.txt"
    # shellcheck disable=SC2046 # one -u per function
    "${tools}ld" -r --whole-archive "$in" --gc-sections $(printf -- '-u %s ' $keep) -o "$out/fairmines.partial.o"
    "${tools}objcopy" --remove-section=.llvmbc --remove-section=.llvmcmd --keep-global-symbols="$out/exports.txt" \
        "$out/fairmines.partial.o" "$out/fairmines.o"
    rm -f "$out/libfairmines.a" "$out/fairmines.partial.o"
    (cd "$out" && "${tools}ar" rcD libfairmines.a fairmines.o)
}

# The libraries of ARCH, built and made ready to pack: $gnu_hidden (static and shared), $merged (musl, static);
# $soname and $newest (the newest glibc symbol) of the shared library.
build() {
    local arch=$1 tools=
    local gnu=$arch-unknown-linux-gnu musl=$arch-unknown-linux-musl
    release_flags "$gnu" "$musl"
    if [[ $arch != "$(uname -m)" ]]; then
        [[ $arch == aarch64 && $(uname -m) == x86_64 ]] || fail "cannot build the $arch archives on $(uname -m)"
        need aarch64-linux-gnu-ld:binutils-aarch64-linux-gnu
        tools=aarch64-linux-gnu-
    fi

    step "$arch, glibc 2.17: cargo zigbuild -p fairmines-c"
    cargo zigbuild --locked --release --target "$gnu.2.17" -p fairmines-c
    gnu_dir=$target_dir/$gnu/release
    newest=$(glibc_floor "$gnu_dir/libfairmines.so")
    soname=$(readelf -d "$gnu_dir/libfairmines.so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')

    step "$arch, musl: cargo build -p fairmines-c (static library only), LLVM's libunwind merged in (so a link needs only -lc)"
    # (No linker: for musl, cargo builds the static library alone.)
    cargo build --locked --release --target "$musl" -p fairmines-c
    local unwind
    unwind=$(rustc --print sysroot)/lib/rustlib/$musl/lib/self-contained/libunwind.a
    merged=$target_dir/$musl/dist-c
    rm -rf "$merged" && mkdir -p "$merged"
    # (ar's LTO plugin cannot read rustc's bitcode and says so for each member: kept out of the log.)
    printf 'create %s\naddlib %s\naddlib %s\nsave\nend\n' "$merged/libfairmines.merged.a" \
        "$target_dir/$musl/release/libfairmines.a" "$unwind" | "${tools}ar" -M 2>"$merged/ar.log" ||
        { cat "$merged/ar.log" >&2; fail "ar -M failed"; }

    gnu_hidden=$target_dir/$gnu/dist-c
    rm -rf "$gnu_hidden" && mkdir -p "$gnu_hidden"
    hide_runtime "$gnu_dir/libfairmines.a" "$gnu_hidden" "$tools"
    cp -a "$gnu_dir/libfairmines.so" "$gnu_hidden/"
    hide_runtime "$merged/libfairmines.merged.a" "$merged" "$tools"
}

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
for arch in "$@"; do
    build "$arch"
    pack "fairmines-$version-$arch-linux-gnu" "$gnu_hidden" "$gnu_libs" "for $arch Linux with glibc 2.17 or newer"
    pack "fairmines-$version-$arch-linux-musl" "$merged" "-lc" "for $arch Linux with musl (Alpine): static only"
    echo "dist-c: $arch's libfairmines.so needs glibc 2.17 at most (newest symbol $newest)"
done
rm -rf "$stage_root"
