"""python/README.md is a promise: every code block in it runs, and prints what the README shows.

Each ``python`` block runs in a fresh interpreter from the repository's root (so that
``examples/history/...`` paths hold), and its standard output must be exactly the ``text`` block right
under it (``…`` matches a part that differs from run to run, within one line), or nothing when no
``text`` block follows. The ``sh`` blocks (installing and building) are run as written by
scripts/test-python.sh; a ``text`` block elsewhere is output shown on its own (the benchmark's). No
other kind of block may appear: a block that nothing runs would be an untested promise.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import REPO_ROOT

README = (REPO_ROOT / "python" / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
MATCHES = list(FENCE.finditer(README))
# (kind, body, line, whether it comes right under the block before it, with only blank lines between)
BLOCKS = [
    (m.group(1), m.group(2), README.count("\n", 0, m.start()) + 1, i > 0 and not README[MATCHES[i - 1].end() : m.start()].strip())
    for i, m in enumerate(MATCHES)
]


def examples() -> list[tuple[int, str, str | None]]:
    """(line, code, expected output or None) of every python block."""
    out = []
    for i, (kind, body, line, _) in enumerate(BLOCKS):
        if kind == "python":
            following = BLOCKS[i + 1] if i + 1 < len(BLOCKS) else None
            shown = following[1] if following and following[0] == "text" and following[3] else None
            out.append((line, body, shown))
    return out


def test_every_block_is_a_kind_that_is_run() -> None:
    assert {kind for kind, *_ in BLOCKS} == {"python", "text", "sh"}
    assert len(examples()) >= 8
    outputs = [i for i, (kind, _, _, under) in enumerate(BLOCKS) if kind == "text" and under and BLOCKS[i - 1][0] == "python"]
    standalone = [line for i, (kind, _, line, _) in enumerate(BLOCKS) if kind == "text" and i not in outputs]
    assert len(standalone) == 1, standalone  # the benchmark's output


def matches(expected: str, printed: str) -> bool:
    pattern = "".join(".+?" if part == "…" else re.escape(part) for part in re.split("(…)", expected))
    return re.fullmatch(pattern, printed) is not None


@pytest.mark.parametrize(("line", "code", "shown"), examples(), ids=lambda v: f"line {v}" if isinstance(v, int) else "")
def test_the_block_runs_and_prints_what_is_shown(line: int, code: str, shown: str | None) -> None:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert result.returncode == 0, f"README.md line {line}:\n{result.stderr}"
    if shown is None:
        assert result.stdout == "", f"README.md line {line} prints output it does not show:\n{result.stdout}"
    else:
        assert matches(shown, result.stdout), f"README.md line {line} printed:\n{result.stdout}\nnot:\n{shown}"


def test_the_wildcard_matches_within_a_line_only() -> None:
    assert matches("a='…' b\n", "a='x1' b\n") and not matches("a='…' b\n", "a='x\ny' b\n")
    assert not matches("a\n", "a\nb\n")
