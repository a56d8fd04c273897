"""Every name in docs/vocabulary.md exists in its language (run by scripts/test-readme.sh with python/.venv's pytest).

Each cell of the table holds names in backticks, looked up where the language defines them: Rust in the core's public
items, Python and Node in the loaded packages (module attributes, class members, an error's fields), C in
include/fairmines.h, Kotlin/Swift and Ruby in what bindings/uniffi/generate.sh wrote into target/uniffi-generated.
`…suffix` continues the name before it, `PREFIX_*` needs one name with that prefix; quoted values (`"ok"`),
placeholders (`<Name>Error`) and notes in parentheses are not names.
"""

import importlib
import json
import keyword
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ["concept", "Rust (`fairmines`)", "Python", "Node", "C", "Kotlin / Swift", "Ruby"]
TABLE = [line for line in (ROOT / "docs/vocabulary.md").read_text().splitlines() if line.startswith("|")]
ROWS = [[c.strip() for c in row.strip("|").split("|")] for row in TABLE[2:]]
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


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def generated(*suffixes: str) -> set[str]:
    folder = ROOT / os.environ.get("CARGO_TARGET_DIR", "target") / "uniffi-generated"
    files = [p for s in suffixes for p in sorted(folder.rglob(f"*{s}")) if p.is_file()]
    assert files, "no uniffi sources in the build folder: run bindings/uniffi/generate.sh"
    return set().union(*(words(f.read_text(errors="replace")) for f in files))


def known(language: str) -> set[str]:
    if language == "Rust (`fairmines`)":
        source = "\n".join(p.read_text() for p in (ROOT / "crates/fairmines/src").rglob("*.rs"))
        return set(re.findall(r"\bpub(?:\(crate\))? (?:const )?(?:fn|struct|enum|trait|type|const|mod) (\w+)", source))
    if language == "Python":
        module = importlib.import_module("fairmines")
        return set(dir(module)).union(*(dir(v) for v in vars(module).values() if isinstance(v, type)))
    if language == "Node":
        out = subprocess.run(["node", "-e", NODE_NAMES], cwd=ROOT / "node", check=True, capture_output=True, text=True)
        # Result shapes (Verification, Reveal, RoundRecord) are TypeScript types of index.d.ts, not values.
        types = re.findall(r"^export (?:declare )?(?:interface|type|class) (\w+)", (ROOT / "node/index.d.ts").read_text(), re.M)
        return set(json.loads(out.stdout)) | set(types)
    if language == "C":
        return words((ROOT / "include/fairmines.h").read_text())
    if language == "Kotlin / Swift":
        return generated(".kt", ".swift")
    return generated(".rb") | ruby_names()


# What the Ruby package itself answers, loaded as the gem ships it (scripts/test-uniffi.sh puts it in
# target/uniffi-ruby): its layer's classes, methods (a predicate's name without its `?`), enum values (symbols)
# and the status of a round in play.
RUBY_NAMES = r"""
require File.join(ARGV[0], "fairmines")
names = Fairmines.methods(false) + Fairmines.constants
Fairmines.constants.map { |c| Fairmines.const_get(c) }.grep(Module).each do |m|
  names += m.instance_methods(false) + m.methods(false) + m.constants
  names += m.constants.map { |c| m.const_get(c) }.grep(Symbol)
end
names << Fairmines::SeedPair.from_parts("ab" * 32, "c", 0).start_round(3, "0.99").status  # a round in play's status
puts names.map { |n| n.to_s.delete_suffix("?") }.uniq
"""


def ruby_names() -> set[str]:
    folder = ROOT / os.environ.get("CARGO_TARGET_DIR", "target") / "uniffi-ruby"
    assert (folder / "fairmines.rb").is_file(), "no Ruby package in the build folder: run scripts/test-uniffi.sh"
    out = subprocess.run(["ruby", "-e", RUBY_NAMES, str(folder)], check=True, capture_output=True, text=True)
    return set(out.stdout.split())


def names_in(cell: str) -> list[str]:
    """The names of one cell, `…` continuations kept as such."""
    out: list[str] = []
    for span in re.findall(r"`([^`]*)`", cell):
        if span.startswith(("\"", "'", "(", "<", "&")):
            continue
        span = re.sub(r"(?:\.|::)<[A-Za-z]+>.*$", "", span)  # FairminesException.<Name> → FairminesException
        span = re.sub(r"<[A-Z]+>$", "*", span)  # FAIRMINES_<NAME> → any name with that prefix
        out += ["…" + span[1:]] if span.startswith("…") else re.findall(r"[A-Za-z_][A-Za-z0-9_.]*\*?", span)
    return out


def importable(dotted: str) -> bool:
    module, _, attribute = dotted.rpartition(".")
    try:
        return hasattr(importlib.import_module(module), attribute)
    except ImportError:
        return False


def exists(name: str, previous: str | None, names: set[str]) -> bool:
    if "." in name.strip("."):  # a Python standard type (fractions.Fraction), or a member path
        return importable(name) or all(part in names for part in name.split("."))
    name = name.strip(".")
    if name.startswith("…"):
        return previous is not None and any(previous[:k] + name[1:] in names for k in range(len(previous) + 1))
    if name.endswith("*"):
        return any(k.startswith(name[:-1]) for k in names)
    return name in names


def test_columns():
    assert [c.strip() for c in TABLE[0].strip("|").split("|")] == COLUMNS


@pytest.mark.parametrize("column", range(1, len(COLUMNS)), ids=COLUMNS[1:])
def test_names_exist(column):
    names, missing, checked = known(COLUMNS[column]), [], 0
    for row in ROWS:
        previous = None
        for name in names_in(row[column]):
            checked += 1
            if not exists(name, previous, names):
                missing.append(f"`{name}` (row '{row[0]}')")
            if not name.startswith("…"):
                previous = name.rstrip("*")
    assert checked and not missing, f"{COLUMNS[column]}: not found: {missing}"


# The reserved words of the languages the names reach (Python's from its own module): no name in the table may be
# one, so that every language calls it as written (a seed pair's `public` once needed backticks in Swift and could
# not be called from Java at all).
KEYWORDS = set(keyword.kwlist) | set("""
abstract assert boolean break byte case catch char class const continue default do double else enum extends final
finally float for goto if implements import instanceof int interface long native new package private protected
public return short static strictfp super switch synchronized this throw throws transient try void volatile while
true false null
as fun in is object typealias typeof val var when
associatedtype deinit extension fileprivate func init inout internal let open operator precedencegroup protocol
rethrows struct subscript defer fallthrough guard repeat where Any await nil self Self
auto extern inline register restrict signed sizeof typedef union unsigned bool delete explicit friend mutable
namespace noexcept nullptr template typename using virtual
debugger function with yield export
BEGIN END alias and begin def elsif end ensure module next not or redo rescue retry then undef unless until
crate fn impl loop match mod move mut pub ref trait type unsafe use async dyn
""".split())


@pytest.mark.parametrize("column", range(1, len(COLUMNS)), ids=COLUMNS[1:])
def test_no_name_is_a_keyword(column):
    clashes = [f"`{part}` (row '{row[0]}')" for row in ROWS for name in names_in(row[column])
               for part in name.strip(".…*").split(".") if part in KEYWORDS]
    assert not clashes, f"{COLUMNS[column]}: keywords of a language: {clashes}"
