#!/usr/bin/env bash
# check-versions.sh [--no-build]: every version equals Cargo.toml's [workspace.package] one (set-version.sh writes them all);
# --no-build skips the CLI's --version (set-version.sh's own check).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cargo metadata --locked --format-version 1 >"${TMPDIR:-/tmp}/check-versions-$$.json"
python3 - "${TMPDIR:-/tmp}/check-versions-$$.json" "${1:-}" <<'PY'
import json, os, re, subprocess, sys, tomllib
from pathlib import Path
metadata, no_build = json.loads(Path(sys.argv[1]).read_text()), sys.argv[2] == "--no-build"
Path(sys.argv[1]).unlink()
version = tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"]
if not re.fullmatch(r"\d+\.\d+\.\d+", version):
    sys.exit(f"check-versions: Cargo.toml version '{version}' is not X.Y.Z")
major, minor, patch = version.split(".")
bad = []
read = lambda path: Path(path).read_text(encoding="utf-8")
# Rust: every workspace member (Cargo.lock agrees: --locked) and the workspace's pinned path dependencies.
members = set(metadata["workspace_members"])
bad += [f"crate {p['name']} is {p['version']}, not {version}" for p in metadata["packages"] if p["id"] in members and p["version"] != version]
for name, spec in tomllib.load(open("Cargo.toml", "rb"))["workspace"]["dependencies"].items():
    if isinstance(spec, dict) and "path" in spec and spec.get("version") != "=" + version:
        bad.append(f"Cargo.toml [workspace.dependencies] {name} = {spec.get('version')}, not ={version}")
# Python: dynamic (maturin reads Cargo's), __version__ is CARGO_PKG_VERSION; the installed package when python/.venv has it.
project = tomllib.load(open("python/pyproject.toml", "rb"))["project"]
if "version" in project or "version" not in project.get("dynamic", []):
    bad.append('python/pyproject.toml must have dynamic = ["version"] and no version')
if 'module.add("__version__", env!("CARGO_PKG_VERSION"))' not in read("bindings/python/src/lib.rs"):
    bad.append("bindings/python/src/lib.rs no longer sets __version__ from CARGO_PKG_VERSION")
if Path("python/.venv/bin/python").exists():
    run = subprocess.run(["python/.venv/bin/python", "-c", "import fairmines; print(fairmines.__version__)"], capture_output=True, text=True)
    if run.returncode == 0 and run.stdout.strip() != version:
        bad.append(f"the installed Python package says __version__ = {run.stdout.strip()}, not {version}")
# npm: package.json, the lock file's own entries, optional dependencies; node/index.js as napi generates it.
for d in ("node", "wasm"):
    pkg, lock = json.loads(read(f"{d}/package.json")), json.loads(read(f"{d}/package-lock.json"))
    for where, v in ((f"{d}/package.json", pkg["version"]), (f"{d}/package-lock.json", lock["version"]),
                     (f"{d}/package-lock.json packages['']", lock["packages"][""]["version"]),
                     *((f"{d}/package.json optionalDependencies {k}", v) for k, v in pkg.get("optionalDependencies", {}).items())):
        if v != version:
            bad.append(f"{where} version is {v}, not {version}")
compared = set(re.findall(r"bindingPackageVersion !== '([^']*)'", read("node/index.js")))
if compared != {version}:
    bad.append(f"node/index.js compares with the versions {sorted(compared)}, not only {version}")
# The C header's macros (bindings/c/build.rs), the POMs' own <version> (the first), the gemspec, CHANGELOG.md's section.
for macro in (f"MAJOR {major}", f"MINOR {minor}", f"PATCH {patch}", f'STRING "{version}"'):
    if f"\n#define FAIRMINES_VERSION_{macro}\n" not in read("include/fairmines.h"):
        bad.append(f"include/fairmines.h lacks #define FAIRMINES_VERSION_{macro}")
for pom in ("bindings/uniffi/tests/kotlin/pom.xml", "bindings/uniffi/jvm/pom.xml"):
    if (found := re.search(r"<version>([^<]*)</version>", read(pom))[1]) != version:
        bad.append(f"{pom} version is {found}, not {version}")
if (gem := re.findall(r"^  s\.version = '(.*)'$", read("bindings/uniffi/ruby/fairmines.gemspec"), re.M)) != [version]:
    bad.append(f"bindings/uniffi/ruby/fairmines.gemspec version is {gem}, not {version}")
if not re.search(rf"^## \[{re.escape(version)}\] - ", read("CHANGELOG.md"), re.M):
    bad.append(f"CHANGELOG.md has no '## [{version}] - date' section")
if not no_build:  # the command line, built in release mode as `make verify` builds it
    subprocess.run(["cargo", "build", "--locked", "--release", "--quiet", "-p", "fairmines-cli"], check=True)
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    if (cli := subprocess.run([f"{target}/release/fairmines", "--version"], capture_output=True, text=True).stdout.strip()) != f"fairmines {version}":
        bad.append(f"fairmines --version says '{cli}', not 'fairmines {version}'")
for problem in bad:
    print(f"check-versions: {problem}", file=sys.stderr)
sys.exit(1 if bad else print(f"check-versions: every version is {version}"))
PY
