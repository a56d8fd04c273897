"""python/README.md is a promise: every code block in it runs, and prints what the README shows.

So are the pages it links for the detail, docs/python.md (the game, threads, errors) and
docs/python-history.md (whole histories). Each ``python`` block runs in a fresh interpreter from the
repository's root (so that ``examples/history/...`` paths hold), and its standard output must be exactly the
``text`` block right under it (``…`` matches a part that differs from run to run, within one line), or
nothing when no ``text`` block follows. The README's ``sh`` blocks (installing and building) are run as
written by scripts/test-python.sh; a ``text`` block elsewhere is output shown on its own (the benchmark's, in
docs/python.md). No other kind of block may appear: a block that nothing runs would be an untested promise.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import REPO_ROOT

# The README (the package's PyPI page) and the pages under docs/ that it links for the detail.
PAGES = ("python/README.md", "docs/python.md", "docs/python-history.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def blocks(page: str) -> list[tuple[str, str, int, bool]]:
    """(kind, body, line, whether it comes right under the block before it, with only blank lines between)."""
    text = (REPO_ROOT / page).read_text(encoding="utf-8")
    matches = list(FENCE.finditer(text))
    return [
        (m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1, i > 0 and not text[matches[i - 1].end() : m.start()].strip())
        for i, m in enumerate(matches)
    ]


def examples(page: str) -> list[tuple[int, str, str | None]]:
    """(line, code, expected output or None) of every python block of a page."""
    found = blocks(page)
    out = []
    for i, (kind, body, line, _) in enumerate(found):
        if kind == "python":
            following = found[i + 1] if i + 1 < len(found) else None
            shown = following[1] if following and following[0] == "text" and following[3] else None
            out.append((line, body, shown))
    return out


def standalone_outputs(page: str) -> list[int]:
    """The lines of the text blocks of a page that are not the output of the python block above them."""
    found = blocks(page)
    outputs = [i for i, (kind, _, _, under) in enumerate(found) if kind == "text" and under and found[i - 1][0] == "python"]
    return [line for i, (kind, _, line, _) in enumerate(found) if kind == "text" and i not in outputs]


def test_every_block_is_a_kind_that_is_run() -> None:
    assert {kind for kind, *_ in blocks("python/README.md")} == {"python", "text", "sh"}
    assert len(examples("python/README.md")) >= 8
    assert standalone_outputs("python/README.md") == []
    for page in PAGES[1:]:
        assert {kind for kind, *_ in blocks(page)} == {"python", "text"}, page  # the sh blocks are the README's
        assert examples(page), page
    assert len(standalone_outputs("docs/python.md")) == 1  # the benchmark's output
    assert standalone_outputs("docs/python-history.md") == []


def matches(expected: str, printed: str) -> bool:
    pattern = "".join(".+?" if part == "…" else re.escape(part) for part in re.split("(…)", expected))
    return re.fullmatch(pattern, printed) is not None


@pytest.mark.parametrize(
    ("page", "line", "code", "shown"),
    [(page, *example) for page in PAGES for example in examples(page)],
    ids=lambda v: f"line {v}" if isinstance(v, int) else v if isinstance(v, str) and v in PAGES else "",
)
def test_the_block_runs_and_prints_what_is_shown(page: str, line: int, code: str, shown: str | None) -> None:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert result.returncode == 0, f"{page} line {line}:\n{result.stderr}"
    if shown is None:
        assert result.stdout == "", f"{page} line {line} prints output it does not show:\n{result.stdout}"
    else:
        assert matches(shown, result.stdout), f"{page} line {line} printed:\n{result.stdout}\nnot:\n{shown}"


def test_the_wildcard_matches_within_a_line_only() -> None:
    assert matches("a='…' b\n", "a='x1' b\n") and not matches("a='…' b\n", "a='x\ny' b\n")
    assert not matches("a\n", "a\nb\n")


def test_the_readme_names_no_file_the_wheel_lacks() -> None:
    # The README is the wheel's own documentation (its METADATA): a page of the repository is linked by its
    # full address, never named as if it were at hand (ALGORITHM.md, docs/python.md are not in the wheel).
    text = (REPO_ROOT / "python/README.md").read_text(encoding="utf-8")
    text = re.sub(r"https://\S+", "", re.sub(r"\[[^\]]*\]\(https://[^)]*\)", "", text))
    assert re.findall(r"[\w./-]+\.md\b", text) == []
