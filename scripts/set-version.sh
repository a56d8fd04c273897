#!/usr/bin/env bash
# set-version.sh X.Y.Z [DATE (today, UTC)]: rewrites every copy of the version that cannot read Cargo.toml's (the ones
# check-versions.sh checks; CHANGELOG.md's Unreleased notes become X.Y.Z - DATE), then runs check-versions.sh --no-build.
# It never commits or tags: review the diff, commit, then tag vX.Y.Z (the release workflow starts there).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

new=${1:?usage: scripts/set-version.sh X.Y.Z [DATE]}
date=${2:-$(date -u +%F)}
[[ "$new" =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || { echo "set-version: '$new' is not X.Y.Z" >&2; exit 1; }
old=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
if [[ "$old" == "$new" ]]; then
    echo "set-version: the version is already $new"
    exec bash scripts/check-versions.sh --no-build
fi

python3 - "$old" "$new" "$date" <<'EOF'
import re, sys
old, new, date = sys.argv[1:]

def abi(v):  # the SONAME's version, by Cargo's compatibility rule (bindings/c/build.rs)
    major, minor, patch = v.split(".")
    return f"0.0.{patch}" if (major, minor) == ("0", "0") else f"0.{minor}" if major == "0" else major

def rewrite(path, fn):
    text = open(path, encoding="utf-8").read()
    changed = fn(text)
    if changed == text:
        sys.exit(f"set-version: nothing to change in {path} (expected version {old})")
    open(path, "w", encoding="utf-8").write(changed)

def first(pattern, repl, count=1):
    def fn(text):
        result, n = re.subn(pattern, repl, text, count=count, flags=re.M)
        if n != count:
            sys.exit(f"set-version: expected {count} match(es) of {pattern!r}, found {n}")
        return result
    return fn

q = re.escape(old)
# Cargo.toml: [workspace.package] version and the pinned path dependencies.
def cargo_toml(text):
    text = first(r'(\[workspace\.package\]\n(?:[^\[\n].*\n)*?version = ")' + q + '"', r"\g<1>" + new + '"')(text)
    return re.sub(r'(path = "[^"]*", version = "=)' + q + '"', r"\g<1>" + new + '"', text)
rewrite("Cargo.toml", cargo_toml)

# Cargo.lock: the packages without a source (the workspace's own) at the old version.
def cargo_lock(text):
    blocks = text.split("\n[[package]]\n")
    for i, b in enumerate(blocks[1:], 1):
        if "\nsource = " not in b and f'\nversion = "{old}"\n' in b + "\n":
            blocks[i] = b.replace(f'\nversion = "{old}"', f'\nversion = "{new}"', 1)
    return "\n[[package]]\n".join(blocks)
rewrite("Cargo.lock", cargo_lock)

# npm: package.json's own version (the first), the lock file's two own entries (the root and packages[""]).
for d in ("node", "wasm"):
    rewrite(f"{d}/package.json", first(r'^  "version": "' + q + '"', f'  "version": "{new}"'))
    lock = first(r'^  "version": "' + q + '"', f'  "version": "{new}"')
    lock_root = first(r'^(    "": \{\n(?:      .*\n)*?      "version": ")' + q + '"', r"\g<1>" + new + '"')
    rewrite(f"{d}/package-lock.json", lambda t: lock_root(lock(t)))

# node/index.js as `napi build` writes it from package.json.
rewrite("node/index.js", lambda t: t.replace(f"bindingPackageVersion !== '{old}'", f"bindingPackageVersion !== '{new}'")
        .replace(f"expected {old} but got", f"expected {new} but got"))

# include/fairmines.h as bindings/c/build.rs writes it (cargo test -p fairmines-c checks it).
def header(text):
    for part, o, n in zip(("MAJOR", "MINOR", "PATCH"), old.split("."), new.split(".")):
        text = first(f"^#define FAIRMINES_VERSION_{part} {o}$", f"#define FAIRMINES_VERSION_{part} {n}")(text)
    return first(f'^#define FAIRMINES_VERSION_STRING "{q}"$', f'#define FAIRMINES_VERSION_STRING "{new}"')(text)
rewrite("include/fairmines.h", header)

# The shared library's names in the C binding's README: libfairmines.so.X.Y.Z and its SONAME.
def c_readme(text):
    text = re.sub(r"libfairmines\.so\." + q + r"(?![0-9])", "libfairmines.so." + new, text)
    if abi(old) != abi(new):
        text = re.sub(r"libfairmines\.so\." + re.escape(abi(old)) + r"(?![0-9.])", "libfairmines.so." + abi(new), text)
    return text
rewrite("bindings/c/README.md", c_readme)

# The Kotlin test project's own version (the first <version> of the POM).
rewrite("bindings/uniffi/tests/kotlin/pom.xml", first(r"^  <version>" + q + "</version>", f"  <version>{new}</version>"))

# The JAR's POM (its own <version>, the first) and the gem's gemspec (s.version).
rewrite("bindings/uniffi/jvm/pom.xml", first(r"^  <version>" + q + "</version>", f"  <version>{new}</version>"))
rewrite("bindings/uniffi/ruby/fairmines.gemspec", first(r"^  s\.version = '" + q + "'$", f"  s.version = '{new}'"))

# CHANGELOG.md: the Unreleased notes become the new version's section; the compare links follow.
def changelog(text):
    text = first(r"^## \[Unreleased\]\n", f"## [Unreleased]\n\n## [{new}] - {date}\n")(text)
    m = re.search(r"^\[Unreleased\]: (.*)/compare/(.*)\.\.\.HEAD$", text, flags=re.M)
    if not m:
        sys.exit("set-version: CHANGELOG.md has no '[Unreleased]: <repo>/compare/<base>...HEAD' link")
    repo, base = m.groups()
    return text.replace(m.group(0), f"[Unreleased]: {repo}/compare/v{new}...HEAD\n[{new}]: {repo}/compare/{base}...v{new}")
rewrite("CHANGELOG.md", changelog)
print(f"set-version: {old} -> {new}")
EOF

bash scripts/check-versions.sh --no-build
