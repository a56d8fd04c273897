#!/usr/bin/env bash
# The C/C++ release archives, into dist/ (only these two files; nothing else there is touched):
#   dist/fairmines-X.Y.Z-x86_64-linux-gnu.tar.gz    built for glibc 2.17 (cargo-zigbuild): include/fairmines.h,
#       lib/libfairmines.a, lib/libfairmines.so.X.Y.Z with its SONAME links, lib/pkgconfig/fairmines.pc and
#       fairmines-static.pc, lib/cmake/fairmines/ (find_package), share/ (valgrind suppressions, licences),
#       LICENSE-MIT, LICENSE-APACHE, README.txt
#   dist/fairmines-X.Y.Z-x86_64-linux-musl.tar.gz   the same layout with the static library only (musl has no
#       cdylib); LLVM's libunwind (Rust's self-contained copy for musl) is merged into libfairmines.a, so a
#       static link needs only -lc (musl-gcc, Alpine's gcc)
# The prefix inside each archive is laid out by scripts/install-c.sh (make install-c), so the pkg-config and
# CMake files are the installed ones: relocatable (${pcfiledir}, CMAKE_CURRENT_LIST_DIR).
# X.Y.Z is the workspace version (Cargo.toml). Reproducible: no build paths (--remap-path-prefix), Rust's archive
# writer is deterministic (members dated 0, owner 0), the merged musl archive is written by ar in deterministic
# mode, and the tarballs have a fixed order, owners and mtimes (SOURCE_DATE_EPOCH: the last commit) and gzip -n.
# Tools: cargo-zigbuild and zig, pinned, from scripts/zig.sh. scripts/test-dist-c.sh checks what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export LC_ALL=C
umask 022   # the files install-c.sh writes with > get the umask's modes: the same for everyone

GLIBC_FLOOR=2.17

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
step() { printf '\n==> dist-c: %s\n' "$*"; }
fail() { echo "dist-c: $*" >&2; exit 1; }

# -- tools ------------------------------------------------------------------------------------------
# shellcheck source=scripts/zig.sh
source scripts/zig.sh
for tool in readelf objdump ar; do command -v "$tool" >/dev/null || fail "$tool (binutils) is required"; done
rustup target list --installed | grep -qx x86_64-unknown-linux-musl || rustup target add x86_64-unknown-linux-musl

# -- build --------------------------------------------------------------------------------------------
# RUSTFLAGS would override the target's flags (the release workflow sets it): not for these archives.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
# Only the target's crates get these flags (--target), so host build scripts are unaffected. The same flags as
# scripts/dist.sh, so the musl builds share their artifacts (strip applies to the .so; an .a is not linked).
flags="-C strip=symbols --remap-path-prefix=$ROOT=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS=$flags CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS=$flags

step "glibc $GLIBC_FLOOR: cargo zigbuild --release --target x86_64-unknown-linux-gnu.$GLIBC_FLOOR -p fairmines-c"
cargo zigbuild --locked --release --target "x86_64-unknown-linux-gnu.$GLIBC_FLOOR" -p fairmines-c
gnu_dir=$target_dir/x86_64-unknown-linux-gnu/release
newest=$(objdump -T "$gnu_dir/libfairmines.so" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
[[ "$(printf '%s\n' "GLIBC_$GLIBC_FLOOR" "$newest" | sort -V | tail -n 1)" == "GLIBC_$GLIBC_FLOOR" ]] ||
    fail "libfairmines.so needs $newest, newer than glibc $GLIBC_FLOOR"

step "musl: cargo build --release --target x86_64-unknown-linux-musl -p fairmines-c (static library only)"
# rustc drops the cdylib for musl, with a warning.
cargo build --locked --release --target x86_64-unknown-linux-musl -p fairmines-c
musl_dir=$target_dir/x86_64-unknown-linux-musl/release
# rustc's native-static-libs for musl are "-lunwind -lc": its std unwinds with LLVM's libunwind, which rustc
# links into Rust programs from its self-contained directory but does not put into a staticlib. Merged in here,
# the archive needs only -lc, like a Rust program for musl (gcc's own unwinder is not pulled in then).
unwind=$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-musl/lib/self-contained/libunwind.a
[[ -f "$unwind" ]] || fail "$unwind is missing (rustup target add x86_64-unknown-linux-musl)"
merged=$target_dir/x86_64-unknown-linux-musl/dist-c
rm -rf "$merged" && mkdir -p "$merged"
# (ar's LTO plugin cannot read rustc's newer LLVM bitcode sections and says so for each member: kept out of the log.)
printf 'create %s\naddlib %s\naddlib %s\nsave\nend\n' "$merged/libfairmines.a" "$musl_dir/libfairmines.a" "$unwind" |
    ar -M 2>"$merged/ar.log" || { cat "$merged/ar.log" >&2; fail "ar -M failed"; }
# Deterministic: every member owned by 0/0 and dated 0 (GNU ar's D mode, Debian's default).
if ar tv "$merged/libfairmines.a" | grep -v ' 0/0 .* 1970 '; then fail "ar wrote owners or dates (above)"; fi

# -- only fairmines_* exported -------------------------------------------------------------------------
# A Rust staticlib carries Rust's runtime (std, its allocator hooks, panic and unwind machinery, and for musl
# the merged libunwind) as global symbols: a second Rust static library or a C++ runtime in the same program
# would clash with them. Each archive becomes one object, partially linked (ld -r) from every member the
# fairmines_* functions reach (--gc-sections from them), in which every other defined symbol is made local;
# the embedded LLVM bitcode (unused by a C link) is dropped. Undefined references (libc, and on glibc the
# unwinder in libgcc_s/libgcc_eh) stay for the program's link.
hide_runtime() { # archive in, folder for the result (libfairmines.a)
    local in=$1 out=$2 keep
    keep=$(nm -g --defined-only "$in" 2>/dev/null | awk 'NF == 3 && $3 ~ /^fairmines_/ { print $3 }' | sort -u)
    [[ -n $keep ]] || fail "$in defines no fairmines_* function"
    mkdir -p "$out"
    printf '%s\n' "$keep" >"$out/exports.txt"
    # shellcheck disable=SC2046 # one -u per function
    ld -r --whole-archive "$in" --gc-sections $(printf -- '-u %s ' $keep) -o "$out/fairmines.partial.o"
    objcopy --remove-section=.llvmbc --remove-section=.llvmcmd --keep-global-symbols="$out/exports.txt" \
        "$out/fairmines.partial.o" "$out/fairmines.o"
    rm -f "$out/libfairmines.a" "$out/fairmines.partial.o"
    (cd "$out" && ar rcD libfairmines.a fairmines.o)
    local others
    others=$(nm -g --defined-only "$out/libfairmines.a" | awk 'NF == 3 && $3 !~ /^fairmines_/')
    [[ -z $others ]] || fail "$out/libfairmines.a still exports: $(head -5 <<<"$others")"
    echo "dist-c: $out/libfairmines.a: one object, $(wc -l <"$out/exports.txt") fairmines_* functions exported, nothing else"
}
for tool in ld objcopy nm; do command -v "$tool" >/dev/null || fail "$tool (binutils) is required"; done
gnu_hidden=$target_dir/x86_64-unknown-linux-gnu/dist-c
rm -rf "$gnu_hidden" && mkdir -p "$gnu_hidden"
hide_runtime "$gnu_dir/libfairmines.a" "$gnu_hidden"
# The shared library beside it, as built (install-c.sh takes both from one folder).
cp -a "$gnu_dir/libfairmines.so" "$gnu_hidden/"
mv "$merged/libfairmines.a" "$merged/libfairmines.merged.a"
hide_runtime "$merged/libfairmines.merged.a" "$merged"

# -- the archives ---------------------------------------------------------------------------------------
stage_root=$target_dir/dist-c-stage
rm -rf "$stage_root"
mkdir -p dist "$stage_root"
pack() { # name, library dir, native static libs (empty: install-c.sh's), description
    local name=$1 stage=$stage_root/$1
    step "$name"
    mkdir -p "$stage"
    FAIRMINES_NO_BUILD=1 FAIRMINES_LIB_DIR=$2 FAIRMINES_STATIC_LIBS=$3 bash scripts/install-c.sh "$stage"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    mkdir -p "$stage/examples/cpp"
    cp bindings/c/examples/mines.c bindings/c/examples/verify_round.c "$stage/examples/"
    cp bindings/c/examples/cpp/CMakeLists.txt bindings/c/examples/cpp/verify_round.cpp "$stage/examples/cpp/"
    write_readme "$name" "$4" >"$stage/README.md"
    find "$stage/examples" -type d -exec chmod 0755 {} + && find "$stage/examples" -type f -exec chmod 0644 {} +
    chmod 0755 "$stage"
    chmod 0644 "$stage"/LICENSE-* "$stage/README.md"
    find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu \
        -C "$stage_root" -cf - "$name" | gzip -9n >"dist/$name.tar.gz.tmp"
    mv "dist/$name.tar.gz.tmp" "dist/$name.tar.gz"
    echo "dist/$name.tar.gz: $(stat -c %s "dist/$name.tar.gz") bytes, $(tar -tzf "dist/$name.tar.gz" | wc -l) entries"
}
write_readme() { # name, description
    local worked="b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 1 3 7 10 19"
    write_readme_text "$@" | sed -e "s|@WORKED@|$worked|g" -e "s|@SONAME@|$(readelf -d "$gnu_dir/libfairmines.so" |
        sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')|g"
}
write_readme_text() { # name, description
    local name=$1 soname
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
        soname=$(readelf -d "$gnu_dir/libfairmines.so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')
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
# rustc's native-static-libs (install-c.sh's list) without -lgcc_s: a -static link has no libgcc_s, and the
# compiler driver adds the unwinder itself (libgcc_s as needed, libgcc_eh with -static).
gnu_libs=$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh | sed 's/ -lgcc_s\b//g')
[[ -n $gnu_libs && $gnu_libs != *gcc_s* ]] || fail "no native static libraries in scripts/install-c.sh"
pack "fairmines-$version-x86_64-linux-gnu" "$gnu_hidden" "$gnu_libs" "for x86_64 Linux with glibc $GLIBC_FLOOR or newer"
pack "fairmines-$version-x86_64-linux-musl" "$merged" "-lc" "for x86_64 Linux with musl (Alpine): static only"
rm -rf "$stage_root"
echo "dist-c: libfairmines.so needs glibc $GLIBC_FLOOR at most (newest symbol $newest)"
