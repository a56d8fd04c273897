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
pack() { # name, library dir, native static libs, description
    local name=$1 stage=$stage_root/$1
    step "$name"
    mkdir -p "$stage/examples/cpp"
    FAIRMINES_NO_BUILD=1 FAIRMINES_LIB_DIR=$2 FAIRMINES_STATIC_LIBS=$3 bash scripts/install-c.sh "$stage"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    cp bindings/c/examples/mines.c bindings/c/examples/verify_round.c "$stage/examples/"
    cp bindings/c/examples/cpp/CMakeLists.txt bindings/c/examples/cpp/verify_round.cpp "$stage/examples/cpp/"
    write_readme_text "$name" "$4" | sed -e "s|@SONAME@|$soname|g" -e "s|@WORKED@|b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 1 3 7 10 19|g" >"$stage/README.md"
    modes "$stage/examples"
    chmod 0755 "$stage" && chmod 0644 "$stage"/LICENSE-* "$stage/README.md"
    targz "$stage_root" "$name" "dist/$name.tar.gz"
}
write_readme_text() { # name, description
    local name=$1
    cat <<TXT
# fairmines $version: the C library, $2

The C and C++ library of the provably fair Mines game (Cloudbet): commitments, round signatures, mine
placement, verification and the game itself (seed pairs, rounds, exact payouts). The header
\`include/fairmines.h\` documents every function; \`examples/\` holds complete programs.

| file | what it is |
|---|---|
| \`include/fairmines.h\` | the header (C11 and C++) |
TXT
    if [[ $name == *-gnu ]]; then
        cat <<TXT
| \`lib/libfairmines.a\` | the static library |
| \`lib/libfairmines.so.$version\`, \`$soname\`, \`libfairmines.so\` | the shared library (SONAME \`$soname\`) and its two links |
| \`lib/pkgconfig/fairmines.pc\`, \`fairmines-static.pc\` | pkg-config: the shared library, the static library |
| \`lib/cmake/fairmines/\` | the CMake package: \`find_package(fairmines)\`, targets \`fairmines::fairmines\` (static) and \`fairmines::shared\` |
TXT
    else
        cat <<TXT
| \`lib/libfairmines.a\` | the static library (musl has no shared one here), with LLVM's libunwind inside (Rust's unwinder for musl: Apache-2.0 WITH LLVM-exception) |
| \`lib/pkgconfig/fairmines.pc\`, \`fairmines-static.pc\` | pkg-config (both link the static library) |
| \`lib/cmake/fairmines/\` | the CMake package: \`find_package(fairmines)\`, target \`fairmines::fairmines\` |
TXT
    fi
    cat <<TXT
| \`share/fairmines/valgrind.supp\` | valgrind suppressions for programs using the library |
| \`examples/mines.c\`, \`examples/verify_round.c\` | C programs: a round's commitment, signature and mines; a round's record verified |
| \`examples/cpp/\` | a C++17 program with its \`CMakeLists.txt\` |

Unpack the archive anywhere: the folder can be moved (the pkg-config and CMake files find it from their own
place), or its \`include/\`, \`lib/\` and \`share/\` copied into a prefix such as \`/usr/local\` (\`cp -a\`).
The commands below run in a folder of your own, with \`FAIRMINES\` set to this folder
(\`export FAIRMINES=/path/to/$name\`).

TXT
    if [[ $name == *-gnu ]]; then
        cat <<'TXT'
## C, with pkg-config

The static library (`fairmines-static`: nothing to find at run time), then the program run on the worked
example of ALGORITHM.md (server seed, client seed, nonce, mines, then the positions the game declared):

```sh
$ export PKG_CONFIG_PATH=$FAIRMINES/lib/pkgconfig
$ cc -std=c11 $FAIRMINES/examples/mines.c -o mines $(pkg-config --cflags --libs fairmines-static)
$ ./mines @WORKED@
commitment f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42
signature  90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac
positions  7 10 19
declared positions VERIFIED
```

A fully static program (`-static`) takes the same flags with `--static`. They hold no `-lgcc_s`: the compiler
driver adds the unwinder that Rust's code in the library calls, `libgcc_s` in a usual link and `libgcc_eh` in a
static one (where there is no `libgcc_s` to link).

```sh
$ cc -static -std=c11 $FAIRMINES/examples/mines.c -o mines-static $(pkg-config --cflags --libs --static fairmines-static)
$ ./mines-static @WORKED@
commitment f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42
signature  90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac
positions  7 10 19
declared positions VERIFIED
```

## The shared library, shipped with your program: `$ORIGIN`

A program linked with the shared library (`fairmines`) records `@SONAME@`, and the loader must find it at
every start. For a program shipped together with the library, copy the library (the file and its SONAME link)
beside it and give the program a run path relative to itself: `-Wl,-rpath,'$ORIGIN/../lib'`, in single quotes
so that the shell leaves `$ORIGIN` to the loader. The folder then runs wherever it is moved, with no
`LD_LIBRARY_PATH` and no `ldconfig`:

```sh
$ mkdir -p bundle/bin bundle/lib
$ cp -a $FAIRMINES/lib/libfairmines.so.* bundle/lib/
$ cc -std=c11 $FAIRMINES/examples/mines.c -o bundle/bin/mines $(pkg-config --cflags --libs fairmines) -Wl,-rpath,'$ORIGIN/../lib'
$ readelf -d bundle/bin/mines | grep -E 'RUNPATH|NEEDED.*fairmines'
 0x0000000000000001 (NEEDED)             Shared library: [@SONAME@]
 0x000000000000001d (RUNPATH)            Library runpath: [$ORIGIN/../lib]
$ mv bundle moved-bundle
$ moved-bundle/bin/mines @WORKED@
commitment f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42
signature  90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac
positions  7 10 19
declared positions VERIFIED
```

(`-Wl,-rpath,$FAIRMINES/lib` instead points at this folder where it is now; a library copied into a
system prefix such as `/usr/local/lib` is found after `sudo ldconfig`.)

## C++, with CMake

`examples/cpp/CMakeLists.txt` finds the package with `find_package(fairmines 0.1 REQUIRED)` and links
`fairmines::fairmines` (the static library; `fairmines::shared` for the shared one):

```sh
$ cmake -S $FAIRMINES/examples/cpp -B build -DCMAKE_PREFIX_PATH=$FAIRMINES
$ cmake --build build
$ ./build/verify_round
positions 7 10 19
verdict OK
25 mines refused: mines: must be an integer in 1..=24, got 25
```
TXT
    else
        cat <<'TXT'
## C, with musl-gcc and pkg-config

A static program, linked by `musl-gcc` (Debian's musl-tools; on Alpine, `gcc -static`), then run on the
worked example of ALGORITHM.md (server seed, client seed, nonce, mines, then the positions the game declared).
The flags need only `-lc`: Rust's unwinder for musl (LLVM's libunwind) is inside `libfairmines.a`.

```sh
$ export PKG_CONFIG_PATH=$FAIRMINES/lib/pkgconfig
$ musl-gcc -static -std=c11 $FAIRMINES/examples/mines.c -o mines $(pkg-config --cflags --libs --static fairmines-static)
$ ./mines @WORKED@
commitment f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42
signature  90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac
positions  7 10 19
declared positions VERIFIED
```

On Alpine (its `g++` and `cmake`), the C++ example builds with CMake as it does on glibc:
`cmake -S $FAIRMINES/examples/cpp -B build -DCMAKE_PREFIX_PATH=$FAIRMINES && cmake --build build`, then
`./build/verify_round`.
TXT
    fi
    cat <<TXT

## Linking next to other Rust code or C++

\`libfairmines.a\` exports only the \`fairmines_*\` functions of the header: the Rust runtime inside it
(Rust's standard library, its panic and unwind machinery) is one object whose other symbols are local, so a
program can link it beside another Rust static library or a C++ runtime without duplicate symbols.

Source: https://github.com/fairmines/fairmines (tag v$version; the C API's guide is bindings/c/README.md there);
scripts/dist-c.sh rebuilds this archive bit for bit at that tag (with the same Rust release). Licence: MIT OR
Apache-2.0 (the two files here). Check the archive against the release's SHA256SUMS:
\`sha256sum -c --ignore-missing SHA256SUMS\`
TXT
}
# install-c.sh's native static libraries without -lgcc_s (a -static link has none; the driver adds the unwinder).
gnu_libs=$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh | sed 's/ -lgcc_s\b//g')
[[ -n $gnu_libs ]] || fail "no native static libraries in scripts/install-c.sh"
pack "fairmines-$version-x86_64-linux-gnu" "$gnu_hidden" "$gnu_libs" "for x86_64 Linux with glibc 2.17 or newer"
pack "fairmines-$version-x86_64-linux-musl" "$merged" "-lc" "for x86_64 Linux with musl (Alpine): static only"
rm -rf "$stage_root"
echo "dist-c: libfairmines.so needs glibc 2.17 at most (newest symbol $newest)"
