//! The crate's modules form layers: no module reaches, directly or through
//! others, back into one that uses it. In particular the model (`model`) is
//! plain data: it uses neither the parser (`parse`) that builds it nor the
//! query side (`agent`, `matcher`, `decide`) that reads it.
//!
//! A module is a file of `src/` or a directory of it (with its submodules);
//! it uses another when its code (comments aside: a documentation link is
//! not a use) names `crate::other`, or an item that `lib.rs` re-exports from
//! `other`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules and their source text.
fn modules() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src()).expect("under src");
        let first = relative.components().next().expect("a component");
        let name = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if name == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable source");
        let code = modules.entry(name).or_default();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            code.push_str(line);
            code.push('\n');
        }
    }
    modules
}

/// Identifiers after `crate::`, including those inside `crate::{…}`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group: after `{` or a `,` at depth 0.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        found.insert(ident(&group[i..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

/// Names `lib.rs` re-exports, with the module each comes from.
fn reexports(modules: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let mut out = BTreeMap::new();
    for item in lib.split("pub use ").skip(1) {
        let item = &item[..item.find(';').expect("`;` ends a use")];
        let (module, names) = item.split_once("::").expect("a module path");
        if !modules.contains_key(module) {
            continue;
        }
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.trim();
            if !name.is_empty() {
                out.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let reexported = reexports(&modules);
    modules
        .iter()
        .map(|(name, text)| {
            let uses = crate_paths(text)
                .into_iter()
                .filter_map(|used| {
                    if modules.contains_key(&used) {
                        Some(used)
                    } else {
                        reexported.get(&used).cloned()
                    }
                })
                .filter(|used| used != name)
                .collect();
            (name.clone(), uses)
        })
        .collect()
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let here = path.last().expect("non-empty").clone();
        for next in &graph[&here] {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_owned()];
    walk(graph, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn modules_form_layers_without_cycles() {
    let graph = graph();
    for module in ["model", "parse", "matcher", "decide", "agent", "once"] {
        assert!(graph.contains_key(module), "no module {module}: {graph:?}");
    }
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_model_uses_neither_the_parser_nor_the_query_side() {
    let graph = graph();
    let model = &graph["model"];
    for other in ["parse", "matcher", "decide", "agent", "once", "lint"] {
        assert!(!model.contains(other), "model uses {other}: {model:?}");
    }
}

#[test]
fn the_scanner_sees_the_uses_it_must() {
    // The checks above are only as good as the scanner: it must see every
    // way a module is named.
    let paths = crate_paths(
        "use crate::model::{A, B};\nuse crate::{parse::x, matcher::{self, Y}};\n\
         let v = crate::decide::f(); crate::RobotsTxt::parse(b\"\")",
    );
    let expected = ["RobotsTxt", "decide", "matcher", "model", "parse"];
    assert_eq!(paths, expected.iter().map(|s| s.to_string()).collect());
    let graph = graph();
    assert!(graph["parse"].contains("model"), "{:?}", graph["parse"]);
    assert!(graph["decide"].contains("matcher"), "{:?}", graph["decide"]);
}
