"""Runs every code block of a README as a user would, and compares the output it shows.

Usage: readme_examples.py README.md [--root DIR]
       readme_examples.py README.md --extract TAG DIR --expect "NAME..."   (for the C and UniFFI READMEs)

--extract writes every block of a README whose blocks are all tagged `<!-- TAG: NAME -->` on the line before the
fence into DIR/NAME, for the suite that runs or compares it; an untagged block, or names other than --expect, fail.

A fenced block tagged `sh`, `python`, `js` or `c` is run as it is written; when the block right after it is a
`text` block, that block is the output the README promises, and the program's standard output must be exactly
it. A `text` block after anything else is prose (a layout, a table) and is not run. `rust` blocks are not run
here: they are doctests of the core (`#[cfg(doctest)]` in crates/fairmines/src/lib.rs), which `cargo test`
runs. Any other tag is refused, so that no block goes unchecked by accident.

How each kind runs (`ROOT` is the repository):
- sh: `bash -euo pipefail` in ROOT, with `cargo install` going to a scratch folder that is put first on PATH,
  and the shared target folder. The one command the README's test command cannot run inside itself,
  `make test`, is checked with `make -n test` (it is what .ci/run runs).
- python: the package's venv (python/.venv), the block as a file.
- js: an ES module in a scratch project whose `node_modules/fairmines` is the package folder `node/`.
- c: compiled with `cc -std=c11 -Wall -Wextra -Werror` against include/ and the static library.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = {"sh", "python", "js", "c"}
NOT_RUN = {"rust", "text"}


def blocks(markdown: str) -> list[tuple[int, str, str]]:
    """(line, tag, body) of every fenced block."""
    out = []
    for match in re.finditer(r"^```([a-z]*)\n(.*?)^```$", markdown, re.S | re.M):
        out.append((markdown.count("\n", 0, match.start()) + 1, match.group(1), match.group(2)))
    return out


def extract(path: Path, markdown: str, tag: str, into: Path, expect: str) -> int:
    into.mkdir(parents=True, exist_ok=True)
    bad, names = 0, []
    for match in re.finditer(r"^```[a-z]*\n(.*?)^```$", markdown, re.S | re.M):
        before = re.fullmatch(rf"<!-- {re.escape(tag)}: (\S+) -->", markdown[: match.start()].rstrip("\n").rsplit("\n", 1)[-1])
        if not before:
            print(f"{path}:{markdown.count(chr(10), 0, match.start()) + 1}: a code block without a <!-- {tag}: NAME --> tag", file=sys.stderr)
            bad = 1
            continue
        names.append(before.group(1))
        (into / before.group(1)).write_text(match.group(1), encoding="utf-8")
    if sorted(names) != sorted(expect.split()):
        print(f"{path} has the blocks {sorted(names)}; the suite runs {sorted(expect.split())}", file=sys.stderr)
        bad = 1
    return bad


def run_block(tag: str, body: str, root: Path, scratch: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if tag == "sh":
        install = scratch.parent / "cargo-install"  # one per run: later blocks use what an earlier one installed
        env.update(
            CARGO_INSTALL_ROOT=str(install),
            CARGO_TARGET_DIR=str(root / "target"),
            PATH=f"{install / 'bin'}{os.pathsep}{env['PATH']}",
        )
        script = re.sub(r"^make test\b.*$", "make -n test >/dev/null", body, flags=re.M)
        return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env, text=True, capture_output=True)
    if tag == "python":
        path = scratch / "example.py"
        path.write_text(body, encoding="utf-8")
        return subprocess.run([str(root / "python/.venv/bin/python"), str(path)], cwd=scratch, text=True, capture_output=True)
    if tag == "js":
        project = scratch / "js"
        (project / "node_modules").mkdir(parents=True, exist_ok=True)
        link = project / "node_modules" / "fairmines"
        if not link.exists():
            link.symlink_to(root / "node")
        path = project / "example.mjs"
        path.write_text(body, encoding="utf-8")
        return subprocess.run(["node", str(path)], cwd=project, text=True, capture_output=True)
    if tag == "c":
        source, program = scratch / "example.c", scratch / "example"
        source.write_text(body, encoding="utf-8")
        compiled = subprocess.run(
            ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", str(root / "include"), str(source),
             str(root / "target/release/libfairmines.a"), "-lpthread", "-ldl", "-lm", "-o", str(program)],
            text=True, capture_output=True,
        )
        if compiled.returncode != 0:
            return compiled
        return subprocess.run([str(program)], cwd=scratch, text=True, capture_output=True)
    raise AssertionError(tag)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("readme", type=Path)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--extract", nargs=2, metavar=("TAG", "DIR"))
    parser.add_argument("--expect", default="")
    args = parser.parse_args()
    if args.extract:
        return extract(args.readme, args.readme.read_text(encoding="utf-8"), args.extract[0], Path(args.extract[1]), args.expect)
    root = args.root.resolve()
    found = blocks(args.readme.read_text(encoding="utf-8"))
    failures, ran, compared = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="fairmines-readme-") as tmp:
        for i, (line, tag, body) in enumerate(found):
            if tag in NOT_RUN:
                continue
            where = f"{args.readme}:{line} ({tag})"
            if tag not in RUN:
                failures.append(f"{where}: a block must be tagged {sorted(RUN | NOT_RUN)}, got {tag!r}")
                continue
            scratch = Path(tmp) / str(i)
            scratch.mkdir()
            result = run_block(tag, body, root, scratch)
            ran += 1
            if result.returncode != 0:
                failures.append(f"{where}: exit {result.returncode}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
                continue
            following = found[i + 1] if i + 1 < len(found) else None
            if following and following[1] == "text":
                compared += 1
                if result.stdout != following[2]:
                    failures.append(f"{where}: the output differs from the README's\n--- shown\n{following[2]}--- printed\n{result.stdout}")
            shutil.rmtree(scratch, ignore_errors=True)
    for failure in failures:
        print(f"readme: {failure}", file=sys.stderr)
    print(f"readme: {args.readme}: {ran} blocks ran, {compared} outputs compared, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
