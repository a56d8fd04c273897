#!/usr/bin/env bash
# Mutation check of the Rust test suite: copies the repository into target/mutation/tree (never
# touching the working tree), breaks the core on purpose in one known way at a time, runs
#   cargo test --release -p fairmines -p fairmines-cli
# and requires every broken variant to be CAUGHT (some test fails). Prints a table variant ->
# caught/missed with the tests that caught it.
#
# Usage: scripts/mutation-check.sh [--working-tree] [--only NAME[,NAME...]] [--list]
#   --working-tree  copy the working tree (tracked and untracked, not ignored files) instead of HEAD
#   --only          run only these variants
#   --list          list the variants and exit
# Exit status: 0 all caught; 1 some variant missed; 2 the check itself is broken (a pattern did not
# match exactly once, the unbroken tree fails its tests, or a variant does not compile).
#
# The variants are regex edits (below) applied to a copy; each pattern must match exactly once, so a
# refactor of the core makes this script fail loudly instead of silently testing nothing. A variant
# may list alternative edit sets (e.g. before and after a rewrite); exactly the first one whose
# patterns all match is applied.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$REPO/target/mutation"
TREE="$WORK/tree"
export CARGO_TARGET_DIR="$WORK/target"
# Release semantics (optimised, no overflow checks) but quicker to rebuild for every variant.
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_TERM_COLOR=never
TEST_CMD=(cargo test --release --no-fail-fast -p fairmines -p fairmines-cli)
PER_VARIANT_TIMEOUT="${MUTATION_TIMEOUT:-1200}"

source_mode=head
only=""
list=0
while [ $# -gt 0 ]; do
    case "$1" in
        --working-tree) source_mode=working-tree ;;
        --only) only="$2"; shift ;;
        --list) list=1 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

command -v python3 >/dev/null || { echo "mutation-check: python3 is required" >&2; exit 2; }

# ---------------------------------------------------------------------------------------- variants
VARIANTS_PY="$WORK/variants.py"
mkdir -p "$WORK"
cat > "$VARIANTS_PY" <<'PY'
import re, sys, json, pathlib

P = "crates/fairmines/src/placement.rs"
H = "crates/fairmines/src/hashing.rs"
B = "crates/fairmines/src/batch.rs"
D = "crates/fairmines/src/digest.rs"
V = "crates/fairmines/src/verify.rs"
G = "crates/fairmines/src/game.rs"
Y = "crates/fairmines/src/payout.rs"

# name -> (description, [alternative edit sets]); an edit is (file, regex, replacement).
VARIANTS = {
    "no-rejection": ("every word is accepted (limit = 2^32)", [
        [(P, r"\(1u64 << 32\) / p \* p;", "1u64 << 32;")],
    ]),
    "limit-inclusive": ("a word equal to the limit is accepted (< becomes <=)", [
        [(P, r"u64::from\(word\) < limit\n", "u64::from(word) <= limit\n")],
    ]),
    "limit-minus-one": ("the last word below the limit is rejected too", [
        [(P, r"u64::from\(word\) < limit\n", "u64::from(word) < limit - 1\n")],
    ]),
    "limit-from-u32-max": ("limit = floor((2^32 - 1) / P) * P (wrong only when P divides 2^32)", [
        [(P, r"\(1u64 << 32\) / p \* p", "(u32::MAX as u64) / p * p")],
    ]),
    "little-endian-words": ("stream words read little-endian", [
        [(H, r"\bhalf\.swap_bytes\(\)", "half"),
         (P, r"let words = block\[pair\]\.swap_bytes\(\);", "let words = block[pair].rotate_left(32);"),
         (P, r"\(block\[mines / 2\]\.swap_bytes\(\) >> 32\)", "(block[mines / 2] & 0xffff_ffff)")],
        [(H, r"Some\(u32::from_be_bytes\(bytes\)\)", "Some(u32::from_le_bytes(bytes))")],
        [(H, r"\bhalf\.swap_bytes\(\)", "half")],
    ]),
    "unsorted-positions": ("positions are the draw order + 1, unsorted", [
        [(P, r"(pub fn positions\(&self\) -> Tiles \{\n).*?(\n    \}\n)",
          r"\1        let mut out = Tiles::default();\n        for &t in self.draw_order().iter() {\n            out.push(t + 1);\n        }\n        out\2")],
        [(P, r"(pub fn positions\(&self\) -> Tiles \{\n).*?(\n    \}\n)",
          r"\1        let mut out = Tiles::default();\n        for &t in self.draw_order.iter() {\n            out.push(t + 1);\n        }\n        out\2")],
    ]),
    "zero-based-positions": ("positions are 0-based", [
        [(P, r"(pub fn positions\(&self\) -> Tiles \{\n(?:(?!\n    \}\n).)*?)out\.push\(tile\);", r"\1out.push(tile - 1);")],
        [(P, r"out\.push\(mask\.trailing_zeros\(\) as u8 \+ 1\);", "out.push(mask.trailing_zeros() as u8);")],
        [(P, r"tiles \|= \(bit as u64 \+ 1\) << \(8 \* count\);", "tiles |= (bit as u64) << (8 * count);")],
    ]),
    "tile-not-removed": ("a drawn tile stays free (drawn with replacement)", [
        [(P, r"self\.0 = list & !moving \| \(list >> TILE_BITS\) & moving;", "let _ = moving;"),
         (P, r"place \+= u8::from\(place >= pick\)", "place += u8::from(pick > 24)"),
         (P, r"self\.low \+= \(\(\(self\.low \| Self::TOP\) - pick\) & Self::TOP\) >> 7;", "let _ = pick;")],
    ]),
    "survivor-off-by-one": ("followed back, a free tile moves past a draw at its own place only if above it", [
        [(P, r"place \+= u8::from\(place >= pick\)", "place += u8::from(place > pick)"),
         (P, r"\(self\.low \| Self::TOP\) - pick\)", "(self.low | Self::TOP) - pick - Self::BYTES)"),
         (P, r"\(self\.high \| Self::TOP\) - pick\)", "(self.high | Self::TOP) - pick - Self::BYTES)")],
    ]),
    "separator-semicolon": ("server;client:nonce instead of server:client:nonce", [
        [(B, r"prefix\.update\(b\":\"\);(\n\s*prefix\.update\(client_seed)", r'prefix.update(b";");\1')],
        [(H, r"hasher\.update\(b\":\"\);(\n\s*hasher\.update\(client_seed)", r'hasher.update(b";");\1')],
        [(H, r"absorb\(state, pos, b\":\"\);(\n\s*absorb\(state, pos, client_seed)", r'absorb(state, pos, b";");\1')],
    ]),
    "no-nonce-separator": ("server:client + nonce, without the second ':'", [
        [(B, r"(prefix\.update\(client_seed\.as_bytes\(\)\);)\n\s*prefix\.update\(b\":\"\);", r"\1")],
        [(H, r"(hasher\.update\(client_seed\.as_bytes\(\)\);)\n\s*hasher\.update\(b\":\"\);", r"\1")],
        [(H, r"(absorb\(state, pos, client_seed\.as_bytes\(\)\);)\n\s*absorb\(state, pos, b\":\"\);", r"\1")],
    ]),
    "nonce-octal": ("the nonce written in base 8 instead of decimal", [
        [(H, r"DIGIT_PAIRS\[\(n % 100\) as usize\]", "DIGIT_PAIRS[(n % 64) as usize]"), (H, r"n /= 100;", "n /= 64;"),
         (H, r"if n >= 10 \{", "if n >= 8 {")],
        [(H, r"\(n % 10\) as u8", "(n % 8) as u8"), (H, r"n /= 10;", "n /= 8;")],
    ]),
    "keccak-padding": ("Keccak-256 (0x01 padding) instead of SHA3-256 for commitment and signature", [
        [(H, r"use sha3::\{Sha3_256, Shake256, Shake256Reader\};", "use sha3::{Keccak256 as Sha3_256, Shake256, Shake256Reader};"),
         (B, r"use sha3::Sha3_256;", "use sha3::Keccak256 as Sha3_256;")],
        [(H, r"const SHA3_PAD: u64 = 0x06;", "const SHA3_PAD: u64 = 0x01;")],
    ]),
    "xof-variant": ("the word stream is not SHAKE256 (SHAKE128 / SHA3 padding on the XOF)", [
        [(H, r"use sha3::\{Sha3_256, Shake256, Shake256Reader\};",
          "use sha3::{Sha3_256, Shake128 as Shake256, Shake128Reader as Shake256Reader};")],
        [(H, r"const SHAKE_PAD: u64 = 0x1f;", "const SHAKE_PAD: u64 = 0x06;")],
    ]),
    "stream-absorbs-signature-bytes": ("SHAKE256 absorbs the 32 signature bytes, not its 64 hex characters", [
        [(H, r"shake\.update\(signature\.to_hex\(\)\.as_bytes\(\)\);", "shake.update(signature.as_bytes());")],
        [(H, r"state\[\.\.8\]\.copy_from_slice\(&signature\.hex_lanes\(\)\);\n(\s*)pad\(&mut state, 64, SHAKE_PAD\);",
          r"for (lane, bytes) in state[..4].iter_mut().zip(signature.as_bytes().chunks_exact(8)) {\n"
          r"\1    *lane = u64::from_le_bytes(bytes.try_into().unwrap_or_default());\n\1}\n\1pad(&mut state, 32, SHAKE_PAD);"),
         (H, r"state\[\.\.8\]\.copy_from_slice\(&hex_lanes\(signature\)\);\n(\s*)pad\(state, 64, SHAKE_PAD\);",
          r"state[..4].copy_from_slice(&signature);\n\1pad(state, 32, SHAKE_PAD);")],
        [(H, r"set_shake_input\(&mut state, signature\.hex_lanes\(\)\);",
          "let bytes = signature.as_bytes();\n"
          "    let lane = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or_default());\n"
          "    set_shake_input(&mut state, [lane(0), lane(1), lane(2), lane(3), 0, 0, 0, 0]);"),
         (H, r"set_shake_input\(state, hex_lanes\(signature\)\);",
          "set_shake_input(state, [signature[0], signature[1], signature[2], signature[3], 0, 0, 0, 0]);"),
         (H, r"pad\(state, 64, SHAKE_PAD\);", "pad(state, 32, SHAKE_PAD);")],
    ]),
    "uppercase-hex": ("the stream absorbs the signature's hex in upper case", [
        [(D, r"nibble \+ b'0' \+ if nibble > 9 \{ 39 \} else \{ 0 \}", "nibble + b'0' + if nibble > 9 { 7 } else { 0 }")],
    ]),
    "digest-eq-half": ("digest equality compares only the first 16 bytes", [
        [(D, r"self\.0\.ct_eq\(&other\.0\)\.into\(\)", "self.0[..16].ct_eq(&other.0[..16]).into()")],
    ]),
    "verify-check-always-ok": ("verify()'s checks always pass", [
        [(V, r"(pub fn ok\(&self\) -> bool \{\n\s*)self\.expected == self\.declared", r"\1true")],
    ]),
    "verify-round-skips-commitment": ("verify_round() does not check the commitment", [
        [(G, r"let commitment_ok = commitment\(server_seed\) == record\.commitment;", "let commitment_ok = true;")],
    ]),
    "rtp-ignored": ("multipliers without the RTP factor", [
        [(Y, r"fair\.and_then\(\|f\| f\.checked_mul\(rtp\.0\)\)", "fair")],
    ]),
}

def apply(tree, name):
    description, alternatives = VARIANTS[name]
    tree = pathlib.Path(tree)
    report = []
    for alt in alternatives:
        texts, ok, notes = {}, True, []
        for path, pattern, repl in alt:
            text = texts.get(path)
            if text is None:
                text = (tree / path).read_text()
            n = len(re.findall(pattern, text, flags=re.S))
            if n != 1:
                ok = False
                notes.append(f"{path}: {pattern!r} matched {n} times")
                break
            texts[path] = re.sub(pattern, repl, text, count=1, flags=re.S)
        if ok:
            for path, text in texts.items():
                (tree / path).write_text(text)
            return
        report.extend(notes)
    sys.exit(f"variant {name}: no alternative applies (refactored core? update scripts/mutation-check.sh):\n  "
             + "\n  ".join(report))

if __name__ == "__main__":
    if sys.argv[1] == "list":
        for name, (description, _) in VARIANTS.items():
            print(f"{name}\t{description}")
    else:
        apply(sys.argv[2], sys.argv[3])
PY

if [ "$list" = 1 ]; then
    python3 "$VARIANTS_PY" list | column -t -s $'\t'
    exit 0
fi

mapfile -t ALL < <(python3 "$VARIANTS_PY" list | cut -f1)
if [ -n "$only" ]; then
    IFS=',' read -r -a SELECTED <<< "$only"
    for v in "${SELECTED[@]}"; do
        printf '%s\n' "${ALL[@]}" | grep -qx "$v" || { echo "unknown variant: $v" >&2; exit 2; }
    done
else
    SELECTED=("${ALL[@]}")
fi

# ---------------------------------------------------------------------------------------- the copy
echo "mutation-check: copying the ${source_mode/-/ } of $REPO into $TREE"
rm -rf "$TREE"
mkdir -p "$TREE"
if [ "$source_mode" = head ]; then
    git -C "$REPO" archive --format=tar HEAD | tar -xf - -C "$TREE"
else
    # Tracked and untracked files that are not ignored, as they are on disk now (deleted ones skipped).
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done \
        | tar --null -T - -cf -) | tar -xf - -C "$TREE"
fi
# The lock file may be untracked in a fresh checkout; the registry cache is shared with the main tree.
[ -f "$TREE/Cargo.lock" ] || cp "$REPO/Cargo.lock" "$TREE/Cargo.lock" 2>/dev/null || true
PRISTINE="$WORK/pristine"
rm -rf "$PRISTINE"
cp -a "$TREE/crates/fairmines/src" "$PRISTINE"

restore() {
    rm -rf "$TREE/crates/fairmines/src"
    cp -a "$PRISTINE" "$TREE/crates/fairmines/src"
    # A new mtime, so cargo rebuilds the core from the restored files.
    find "$TREE/crates/fairmines/src" -type f -exec touch {} +
}

# Every variant's patterns are checked up front, so a stale pattern fails before any long build.
for v in "${SELECTED[@]}"; do
    python3 "$VARIANTS_PY" apply "$TREE" "$v" || { restore; exit 2; }
    restore
done

LOGS="$WORK/logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"

# Prints the failing tests of a log as "binary::test" (binary = the tests/ file, "lib" or "doc").
failing_tests() {
    awk '
        /^     Running / { f = ($2 == "unittests") ? $3 : $2; bin = f; sub(/^.*\//, "", bin); sub(/\.rs$/, "", bin); if ($2 == "unittests") bin = "unit(" f ")" }
        /^   Doc-tests / { bin = "doc" }
        /^test .* \.\.\. FAILED$/ { t = $0; sub(/^test /, "", t); sub(/ \.\.\. FAILED$/, "", t); print bin "::" t }
    ' "$1" | sort -u
}

run_tests() { # log file -> exit status of the build+tests (124 on timeout)
    (cd "$TREE" && nice timeout "$PER_VARIANT_TIMEOUT" "${TEST_CMD[@]}") > "$1" 2>&1
}

build_tests() { # log file -> exit status of compiling everything the tests need
    (cd "$TREE" && nice "${TEST_CMD[@]}" --no-run) > "$1" 2>&1
}

# ---------------------------------------------------------------------------------------- baseline
echo "mutation-check: baseline (the unbroken tree) ..."
start=$SECONDS
if ! run_tests "$LOGS/baseline.log"; then
    echo "mutation-check: the unbroken tree fails its tests; see $LOGS/baseline.log" >&2
    tail -30 "$LOGS/baseline.log" >&2
    exit 2
fi
echo "mutation-check: baseline passes ($((SECONDS - start)) s)"

# ---------------------------------------------------------------------------------------- variants
declare -A RESULT
declare -A CAUGHT_BY
missed=0
broken=0
for v in "${SELECTED[@]}"; do
    python3 "$VARIANTS_PY" apply "$TREE" "$v"
    start=$SECONDS
    log="$LOGS/$v.log"
    if ! build_tests "$log"; then
        RESULT[$v]="BROKEN"
        CAUGHT_BY[$v]="does not compile: see $log"
        broken=1
    else
        status=0
        run_tests "$log" || status=$?
        if [ "$status" = 0 ]; then
            RESULT[$v]="MISSED"
            CAUGHT_BY[$v]="-"
            missed=1
        elif [ "$status" = 124 ]; then
            RESULT[$v]="caught"
            CAUGHT_BY[$v]="timeout after ${PER_VARIANT_TIMEOUT}s"
        else
            # A second run (no rebuild) must fail too, and only tests failing both times count: a test
            # that fails by chance (random seeds) must not make a variant look caught.
            first="$(failing_tests "$log")"
            again=0
            run_tests "$log.again" || again=$?
            both="$(comm -12 <(echo "$first") <(failing_tests "$log.again") | paste -sd ' ' -)"
            if [ "$again" = 0 ]; then
                RESULT[$v]="MISSED"
                CAUGHT_BY[$v]="only a chance failure, gone on a second run: $(echo "$first" | paste -sd ' ' -)"
                missed=1
            else
                RESULT[$v]="caught"
                CAUGHT_BY[$v]="${both:-tests failed (see $log)}"
            fi
        fi
    fi
    printf 'mutation-check: %-32s %-7s (%d s)\n' "$v" "${RESULT[$v]}" "$((SECONDS - start))"
    restore
done

echo
printf '%-32s %-7s %s\n' "VARIANT" "RESULT" "CAUGHT BY"
for v in "${SELECTED[@]}"; do
    printf '%-32s %-7s %s\n' "$v" "${RESULT[$v]}" "${CAUGHT_BY[$v]}"
done
echo "logs: $LOGS"
[ "$broken" = 0 ] || exit 2
[ "$missed" = 0 ] || exit 1
