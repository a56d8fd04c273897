//! The crate's layers stay layers: a module of src/ imports (`crate::…`) only modules of the levels below
//! its own, so the imports cannot go in circles again; and no source file grows past `MAX_LINES`, so each
//! stays readable on its own. A new module goes into `LEVELS` at the level its imports give it.

use std::fs;
use std::path::{Path, PathBuf};

/// The modules at the root of src/, bottom up. A module imports only modules of the levels before its own:
/// the ones of its own level are siblings that never import each other (verify and audit).
const LEVELS: &[&[&str]] = &[
    &["error"],
    &["options"],
    &["row"],
    &["chunk"],
    &["pipeline", "reading"],
    &["nonces"],
    &["audit", "verify"],
    &["columns", "feed", "report_json"],
];

/// The longest a source file may be.
const MAX_LINES: usize = 500;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The root module a file belongs to (`row` for src/row/json.rs); `None` for lib.rs, which declares them.
fn module_of(file: &Path) -> Option<String> {
    let first = file.strip_prefix(src()).unwrap().components().next()?.as_os_str().to_str()?.to_owned();
    let name = first.strip_suffix(".rs").map_or(first.clone(), str::to_owned);
    (name != "lib").then_some(name)
}

fn level(module: &str) -> Option<usize> {
    LEVELS.iter().position(|level| level.contains(&module))
}

/// The first identifier of `text`.
fn identifier(text: &str) -> &str {
    let text = text.trim_start();
    &text[..text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len())]
}

/// The names a file's code reaches through `crate::` (comments left out): `crate::row::Row` and
/// `use crate::{row::Row, chunk::Chunk}` name `row` and `chunk`.
fn imports(text: &str) -> Vec<String> {
    let code: Vec<&str> = text.lines().map(|line| line.find("//").map_or(line, |at| &line[..at])).collect();
    let code = code.join("\n");
    let mut names = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(identifier(&group[start..i]).to_owned());
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(identifier(&group[start..i]).to_owned());
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(identifier(rest).to_owned());
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

#[test]
fn every_module_imports_only_modules_below_its_level() {
    let mut wrong = Vec::new();
    for file in sources(&src()) {
        let Some(module) = module_of(&file) else { continue };
        let shown = file.strip_prefix(src()).unwrap().display().to_string();
        let Some(own) = level(&module) else {
            wrong.push(format!("{shown}: module `{module}` is not in LEVELS"));
            continue;
        };
        for name in imports(&fs::read_to_string(&file).unwrap()) {
            match level(&name) {
                _ if name == module => {}
                Some(theirs) if theirs < own => {}
                Some(_) => wrong.push(format!("{shown}: `{module}` imports `{name}`, of its own level or above")),
                None => wrong
                    .push(format!("{shown}: `crate::{name}` is not a module of LEVELS (import it from its module)")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_module_of_lib_rs_has_a_level() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib.lines().filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';')).collect();
    assert!(!declared.is_empty());
    let missing: Vec<&&str> = declared.iter().filter(|module| level(module).is_none()).collect();
    assert!(missing.is_empty(), "modules without a level in LEVELS: {missing:?}");
}

#[test]
fn no_source_file_is_over_the_limit() {
    let long: Vec<String> = sources(&src())
        .into_iter()
        .filter_map(|file| {
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            (lines > MAX_LINES).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines (split them): {long:?}");
}

#[test]
fn the_import_reader_sees_grouped_and_plain_paths_and_skips_comments() {
    let text = "use crate::row::Row;\nuse crate::{chunk::{Chunk, Layout}, error::HistoryError};\n\
                // crate::verify in a comment\nlet x = crate::audit::holm(&[]);\n$crate::ignored";
    assert_eq!(imports(text), ["row", "chunk", "error", "audit"]);
}
