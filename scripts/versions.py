#!/usr/bin/env python3
"""versions.py check [--no-build] | set X.Y.Z [DATE]: every copy of Cargo.toml's [workspace.package] version.

check: every place below holds that version (and CHANGELOG.md its section, the crates, the Python package and, unless
--no-build, `fairmines --version` say it). set: rewrites every place from the current version to X.Y.Z, turns
CHANGELOG.md's Unreleased notes into X.Y.Z - DATE (today, UTC), then checks with --no-build. It never commits or tags.
"""
import datetime, json, os, re, subprocess, sys, tomllib
from pathlib import Path

os.chdir(Path(__file__).resolve().parents[1])
V = r"(\d+\.\d+\.\d+)"


def abi(v):  # the SONAME's version, by Cargo's compatibility rule (bindings/c/build.rs)
    major, minor, patch = v.split(".")
    return f"0.0.{patch}" if (major, minor) == ("0", "0") else f"0.{minor}" if major == "0" else major


# (file, pattern whose group is a version, matches: a number, "+" one or more, "*" any; the group's values for a version)
PLACES = [
    ("Cargo.toml", r'\[workspace\.package\]\n(?:[^\[\n].*\n)*?version = "' + V + '"', 1),
    ("Cargo.toml", r'path = "[^"]*", version = "=' + V + '"', "+"),
    ("Cargo.lock", r'^\[\[package\]\]\nname = "[^"]+"\nversion = "' + V + r'"\n(?!source = )', "+"),  # the workspace's own
    *((f"{d}/package.json", r'^  "version": "' + V + '"', 1) for d in ("node", "wasm", "server")),
    *((f"{d}/package.json", r'^    "@fairmines/[^"]+": "' + V + '"', "*") for d in ("node", "wasm")),
    *((f"{d}/package-lock.json", r'^  "version": "' + V + '"', 1) for d in ("node", "wasm", "server")),
    *((f"{d}/package-lock.json", r'^    "": \{\n(?:      .*\n)*?      "version": "' + V + '"', 1) for d in ("node", "wasm", "server")),
    ("server/package-lock.json", r'^    "\.\./node": \{\n      "name": "fairmines",\n      "version": "' + V + '"', 1),  # the addon it runs on
    ("server/README.md", r"^V=" + V + " ", "+"),  # the release blocks, run as written by make test-dist
    ("node/index.js", r"bindingPackageVersion !== '" + V + "'", "+"),  # as `napi build` writes it
    ("node/index.js", r"expected " + V + " but got", "+"),
    *(("include/fairmines.h", rf"^#define FAIRMINES_VERSION_{part} (\d+)$", 1, lambda v, i=i: [v.split(".")[i]])  # as bindings/c/build.rs writes it
      for i, part in enumerate(("MAJOR", "MINOR", "PATCH"))),
    ("include/fairmines.h", r'^#define FAIRMINES_VERSION_STRING "' + V + '"$', 1),
    ("bindings/c/README.md", r"libfairmines\.so\.(\d+(?:\.\d+)*)(?![\w.])", "+", lambda v: [v, abi(v)]),  # file, SONAME
    *((pom, r"\A(?:.*\n)*?  <version>" + V + "</version>", 1) for pom in ("bindings/uniffi/tests/kotlin/pom.xml", "bindings/uniffi/jvm/pom.xml")),
    ("bindings/uniffi/ruby/fairmines.gemspec", r"^  s\.version = '" + V + "'$", 1),
]


def places():
    for file, pattern, count, *values in PLACES:
        yield file, re.compile(pattern, re.M), count, values[0] if values else lambda v: [v]


def workspace_version():
    version = tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"]
    return version if re.fullmatch(r"\d+\.\d+\.\d+", version) else sys.exit(f"versions: Cargo.toml version '{version}' is not X.Y.Z")


def check(no_build):
    version, bad = workspace_version(), []
    for file, pattern, count, values in places():
        found = [m[1] for m in pattern.finditer(Path(file).read_text(encoding="utf-8"))]
        if count not in ("+", "*", len(found)) or (count == "+" and not found):
            bad.append(f"{file}: {len(found)} matches of {pattern.pattern!r}, not {count}")
        bad += [f"{file}: {v} where {pattern.pattern!r} expects {values(version)}" for v in found if v not in values(version)]
    # Every crate (Cargo.lock agrees: --locked); Python reads Cargo's version (maturin, CARGO_PKG_VERSION).
    metadata = json.loads(subprocess.run(["cargo", "metadata", "--locked", "--format-version", "1"], check=True, capture_output=True, text=True).stdout)
    bad += [f"crate {p['name']} is {p['version']}, not {version}" for p in metadata["packages"] if p["id"] in metadata["workspace_members"] and p["version"] != version]
    project = tomllib.load(open("python/pyproject.toml", "rb"))["project"]
    if "version" in project or "version" not in project.get("dynamic", []):
        bad.append('python/pyproject.toml must have dynamic = ["version"] and no version')
    if 'module.add("__version__", env!("CARGO_PKG_VERSION"))' not in Path("bindings/python/src/lib.rs").read_text():
        bad.append("bindings/python/src/lib.rs no longer sets __version__ from CARGO_PKG_VERSION")
    if Path("python/.venv/bin/python").exists():  # the installed package, when python/.venv has one
        run = subprocess.run(["python/.venv/bin/python", "-c", "import fairmines; print(fairmines.__version__)"], capture_output=True, text=True)
        if run.returncode == 0 and run.stdout.strip() != version:
            bad.append(f"the installed Python package says __version__ = {run.stdout.strip()}, not {version}")
    if not re.search(rf"^## \[{re.escape(version)}\] - ", Path("CHANGELOG.md").read_text(), re.M):
        bad.append(f"CHANGELOG.md has no '## [{version}] - date' section")
    if not no_build:  # the command line, built in release mode as `make verify` builds it
        subprocess.run(["cargo", "build", "--locked", "--release", "--quiet", "-p", "fairmines-cli"], check=True)
        cli = subprocess.run([f"{os.environ.get('CARGO_TARGET_DIR', 'target')}/release/fairmines", "--version"], capture_output=True, text=True)
        if cli.stdout.strip() != f"fairmines {version}":
            bad.append(f"fairmines --version says '{cli.stdout.strip()}', not {version}")
    for problem in bad:
        print(f"versions: {problem}", file=sys.stderr)
    sys.exit(1 if bad else print(f"versions: every version is {version}"))


def set_version(new, date):
    old = workspace_version()
    if not re.fullmatch(r"\d+\.\d+\.\d+", new):
        sys.exit(f"versions: '{new}' is not X.Y.Z")
    if new != old:
        texts = {file: Path(file).read_text(encoding="utf-8") for file, *_ in PLACES}  # written once all are done
        for file, pattern, count, values in places():
            def replace(m):
                if m[1] not in values(old):
                    sys.exit(f"versions: {file} has {m[1]} where {pattern.pattern!r} expects {values(old)}")
                return m[0][: m.start(1) - m.start()] + values(new)[values(old).index(m[1])] + m[0][m.end(1) - m.start():]
            texts[file] = pattern.sub(replace, texts[file])
        changelog = Path("CHANGELOG.md").read_text()
        link = re.search(r"^\[Unreleased\]: (.*)/compare/(.*)\.\.\.HEAD$", changelog, re.M)
        if not link or "\n## [Unreleased]\n" not in changelog:
            sys.exit("versions: CHANGELOG.md needs '## [Unreleased]' and '[Unreleased]: <repo>/compare/<base>...HEAD'")
        for file, text in texts.items():
            Path(file).write_text(text, encoding="utf-8")
        repo, base = link.groups()
        changelog = changelog.replace("\n## [Unreleased]\n", f"\n## [Unreleased]\n\n## [{new}] - {date}\n", 1)
        Path("CHANGELOG.md").write_text(changelog.replace(link[0], f"[Unreleased]: {repo}/compare/v{new}...HEAD\n[{new}]: {repo}/compare/{base}...v{new}"))
        print(f"versions: {old} -> {new}")
    check(no_build=True)


if sys.argv[1:2] == ["check"] and sys.argv[2:] in ([], ["--no-build"]):
    check(no_build=sys.argv[2:] == ["--no-build"])
elif sys.argv[1:2] == ["set"] and len(sys.argv) in (3, 4):
    set_version(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else datetime.datetime.now(datetime.UTC).date().isoformat())
else:
    sys.exit(__doc__.splitlines()[0])
