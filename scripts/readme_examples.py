"""Runs every code block of a README as a user would, and compares the output it shows.

Usage: readme_examples.py README.md
       readme_examples.py README.md --extract TAG DIR --expect "NAME..."   every block, each tagged <!-- TAG: NAME -->
                                         on the line before its fence, into DIR/NAME (the C and UniFFI suites run them)
       readme_examples.py README.md --blocks LANG DIR                     every LANG block, in order, into DIR/01, ...

`sh`, `python`, `js` and `c` blocks run as written; a `text` block right after one is the output it must print
exactly (after anything else it is prose). `rust` blocks are the core's doctests (`cargo test`); any other tag is
refused, so that no block goes unchecked. sh: `bash -euo pipefail` in the repository, `cargo install` into a scratch
folder first on PATH, `make test` checked with `make -n test`; python: python/.venv; js: an ES module whose
`node_modules/fairmines` is node/; c: `cc -std=c11 -Wall -Wextra -Werror` against include/ and the static library.
"""

import argparse, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

RUN, NOT_RUN = {"sh", "python", "js", "c"}, {"rust", "text"}
ROOT = Path(__file__).resolve().parents[1]


def blocks(markdown: str) -> list[tuple[int, str, str, str]]:
    """(line, tag, body, the last line before the fence that is not empty) of every fenced block."""
    return [(markdown.count("\n", 0, m.start()) + 1, m[1], m[2], markdown[: m.start()].rstrip("\n").rsplit("\n", 1)[-1])
            for m in re.finditer(r"^```([a-z]*)\n(.*?)^```$", markdown, re.S | re.M)]


def extract(path: Path, found: list, tag: str, into: Path, expect: str) -> int:
    into.mkdir(parents=True, exist_ok=True)
    bad, names = 0, []
    for line, _, body, before in found:
        if not (name := re.fullmatch(rf"<!-- {re.escape(tag)}: (\S+) -->", before)):
            print(f"{path}:{line}: a code block without a <!-- {tag}: NAME --> tag", file=sys.stderr)
            bad = 1
            continue
        names.append(name[1])
        (into / name[1]).write_text(body, encoding="utf-8")
    if sorted(names) != sorted(expect.split()):
        print(f"{path} has the blocks {sorted(names)}; the suite runs {sorted(expect.split())}", file=sys.stderr)
        bad = 1
    return bad


def run(args: list, cwd: Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, text=True, capture_output=True, **kwargs)


def run_block(tag: str, body: str, scratch: Path) -> subprocess.CompletedProcess[str]:
    if tag == "sh":
        install = scratch.parent / "cargo-install"  # one per run: later blocks use what an earlier one installed
        env = dict(os.environ, CARGO_INSTALL_ROOT=str(install), CARGO_TARGET_DIR=str(ROOT / "target"),
                   PATH=f"{install / 'bin'}{os.pathsep}{os.environ['PATH']}")
        return run(["bash", "-euo", "pipefail", "-c", re.sub(r"^make test\b.*$", "make -n test >/dev/null", body, flags=re.M)], ROOT, env=env)
    if tag == "python":
        (scratch / "example.py").write_text(body, encoding="utf-8")
        return run([ROOT / "python/.venv/bin/python", scratch / "example.py"], scratch)
    if tag == "js":
        project = scratch / "js"
        (project / "node_modules").mkdir(parents=True, exist_ok=True)
        if not (project / "node_modules/fairmines").exists():
            (project / "node_modules/fairmines").symlink_to(ROOT / "node")
        (project / "example.mjs").write_text(body, encoding="utf-8")
        return run(["node", project / "example.mjs"], project)
    assert tag == "c", tag
    (scratch / "example.c").write_text(body, encoding="utf-8")
    compiled = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", ROOT / "include", scratch / "example.c",
                    ROOT / "target/release/libfairmines.a", "-lpthread", "-ldl", "-lm", "-o", scratch / "example"], None)
    return compiled if compiled.returncode != 0 else run([scratch / "example"], scratch)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme", type=Path)
    parser.add_argument("--extract", nargs=2, metavar=("TAG", "DIR"))
    parser.add_argument("--expect", default="")
    parser.add_argument("--blocks", nargs=2, metavar=("LANG", "DIR"))
    args = parser.parse_args()
    found = blocks(args.readme.read_text(encoding="utf-8"))
    if args.blocks:
        Path(args.blocks[1]).mkdir(parents=True, exist_ok=True)
        for n, body in enumerate((b for _, tag, b, _ in found if tag == args.blocks[0]), 1):
            (Path(args.blocks[1]) / f"{n:02}").write_text(body, encoding="utf-8")
        return 0
    if args.extract:
        return extract(args.readme, found, args.extract[0], Path(args.extract[1]), args.expect)
    failures, ran, compared = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="fairmines-readme-") as tmp:
        for i, (line, tag, body, _) in enumerate(found):
            where = f"{args.readme}:{line} ({tag})"
            if tag not in RUN:
                if tag not in NOT_RUN:
                    failures.append(f"{where}: a block must be tagged {sorted(RUN | NOT_RUN)}, got {tag!r}")
                continue
            scratch = Path(tmp) / str(i)
            scratch.mkdir()
            result = run_block(tag, body, scratch)
            ran += 1
            if result.returncode != 0:
                failures.append(f"{where}: exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
                continue
            if i + 1 < len(found) and found[i + 1][1] == "text":
                compared += 1
                if result.stdout != found[i + 1][2]:
                    failures.append(f"{where}: the output differs from the README's\n--- shown\n{found[i + 1][2]}--- printed\n{result.stdout}")
            shutil.rmtree(scratch, ignore_errors=True)
    for failure in failures:
        print(f"readme: {failure}", file=sys.stderr)
    print(f"readme: {args.readme}: {ran} blocks ran, {compared} outputs compared, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
