"""Checks that every name in docs/vocabulary.md exists in its language.

Usage: check_vocabulary.py [--root DIR]   (run with the Python that has the fairmines package installed)

Each cell of the table holds names in backticks. A name is looked up where its language defines it: Rust in the
core's public items (crates/fairmines/src), Python and Node in the loaded packages (module attributes, class
members, an error's fields), C in include/fairmines.h, Kotlin/Swift and Ruby in the sources bindings/uniffi/generate.sh wrote into
target/uniffi-generated (or $CARGO_TARGET_DIR/uniffi-generated).
`…suffix` continues the name before it (`minePositionsBatch`, `…Async`), `PREFIX_*` needs one name with that
prefix; quoted values (`"ok"`), placeholders (`<Name>Error`) and notes in parentheses are not names.
"""

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\*?")


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def rust_names(root: Path) -> set[str]:
    source = "\n".join(p.read_text() for p in (root / "crates/fairmines/src").rglob("*.rs"))
    return set(re.findall(r"\bpub(?:\(crate\))? (?:const )?(?:fn|struct|enum|trait|type|const|mod) (\w+)", source))


def python_names() -> set[str]:
    module = importlib.import_module("fairmines")
    names = set(dir(module))
    for value in vars(module).values():
        if isinstance(value, type):
            names |= set(dir(value))
    return names


NODE_NAMES = """
const fm = require('fairmines');
const names = new Set(Object.keys(fm));
for (const value of Object.values(fm)) {
  if (typeof value !== 'function') continue;
  for (const n of Object.getOwnPropertyNames(value)) names.add(n);
  if (value.prototype) for (const n of Object.getOwnPropertyNames(value.prototype)) names.add(n);
}
try { fm.minePositions('s', 'c', 0, 0); } catch (error) { for (const n of Object.keys(error)) names.add(n); names.add(error.code); }
console.log(JSON.stringify([...names]));
"""


def node_names(root: Path) -> set[str]:
    out = subprocess.run(["node", "-e", NODE_NAMES], cwd=root / "node", check=True, capture_output=True, text=True)
    # Result shapes (Verification, Reveal, RoundRecord) are TypeScript types of index.d.ts, not values.
    types = re.findall(r"^export (?:declare )?(?:interface|type|class) (\w+)", (root / "node/index.d.ts").read_text(), re.M)
    return set(json.loads(out.stdout)) | set(types)


def source_words(files: list[Path]) -> set[str]:
    if not files:
        raise SystemExit("vocabulary: no uniffi sources in the build folder: run bindings/uniffi/generate.sh")
    return set().union(*(words(f.read_text(errors="replace")) for f in files))


def generated(root: Path, suffix: str) -> list[Path]:
    folder = root / os.environ.get("CARGO_TARGET_DIR", "target") / "uniffi-generated"
    return sorted(p for p in folder.rglob(f"*{suffix}") if p.is_file())


def names_in(cell: str) -> list[str]:
    """The names of one cell, `…` continuations expanded against the name before them."""
    out: list[str] = []
    for span in re.findall(r"`([^`]*)`", cell):
        if span.startswith(("\"", "'", "(", "<", "&")):
            continue
        span = re.sub(r"(?:\.|::)<[A-Za-z]+>.*$", "", span)  # FairminesException.<Name> → FairminesException
        span = re.sub(r"<[A-Z]+>$", "*", span)  # FAIRMINES_<NAME> → any name with that prefix
        if span.startswith("…"):
            out.append("…" + span[1:])
            continue
        out += [n for n in IDENT.findall(span) if n]
    return out


def importable(dotted: str) -> bool:
    module, _, attribute = dotted.rpartition(".")
    try:
        return hasattr(importlib.import_module(module), attribute)
    except ImportError:
        return False


def exists(name: str, previous: str | None, known: set[str]) -> bool:
    if "." in name.strip("."):  # a Python standard type (fractions.Fraction), or a member path
        return importable(name) or all(part in known for part in name.split("."))
    name = name.strip(".")
    if name.startswith("…"):
        suffix = name[1:]
        return previous is not None and any(previous[:k] + suffix in known for k in range(len(previous) + 1))
    if name.endswith("*"):
        return any(k.startswith(name[:-1]) for k in known)
    return name in known


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    root = parser.parse_args().root.resolve()
    table = [line for line in (root / "docs/vocabulary.md").read_text().splitlines() if line.startswith("|")]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    expected = ["concept", "Rust (`fairmines`)", "Python", "Node", "C", "Kotlin / Swift", "Ruby"]
    if header != expected:
        print(f"vocabulary: the table's columns are {header}, this check knows {expected}", file=sys.stderr)
        return 1
    known = {
        "Rust (`fairmines`)": rust_names(root),
        "Python": python_names(),
        "Node": node_names(root),
        "C": words((root / "include/fairmines.h").read_text()),
        "Kotlin / Swift": source_words(generated(root, ".kt") + generated(root, ".swift")),
        "Ruby": source_words(generated(root, ".rb")),
    }
    missing, checked = [], 0
    for row in table[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for language, cell in zip(header[1:], cells[1:]):
            previous = None
            for name in names_in(cell):
                checked += 1
                if not exists(name, previous, known[language]):
                    missing.append(f"{language}: `{name}` (row '{cells[0]}')")
                if not name.startswith("…"):
                    previous = name.rstrip("*")
    for line in missing:
        print(f"vocabulary: not found: {line}", file=sys.stderr)
    print(f"vocabulary: {checked} names checked in {len(table) - 2} rows, {len(missing)} not found")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
