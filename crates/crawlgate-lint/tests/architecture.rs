//! The crate's source files form layers: no file reaches, directly or
//! through others, back into one that uses it, and no file uses an item of
//! a module above it (`lib.rs` above every file, `rules/mod.rs` above the
//! rules). Shared helpers live in modules of their own (`wording.rs`,
//! `spans.rs`, `rule.rs`, `render/source.rs`), which files use downward.
//!
//! A file uses another when its code (comments and `#[cfg(test)]` items
//! aside: tests may call the crate's entry points) names an item through
//! `crate::…` or `super::…`; the item is found in the file of the deepest
//! module the path names, or, for a name `lib.rs` re-exports, in the file
//! it comes from.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, relative to `src/`, with `/` separators.
fn sources(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(src()).expect("under src");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path of a file: `rules/syntax/unknown_field.rs` is
/// `rules::syntax::unknown_field`, `rules/mod.rs` is `rules`, `lib.rs` the
/// root.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(str::to_owned).collect();
    let last = parts.pop().expect("a file name");
    match last.as_str() {
        "mod.rs" | "lib.rs" => {}
        name => parts.push(name.trim_end_matches(".rs").to_owned()),
    }
    parts
}

/// Code without comments and without `#[cfg(test)]` items.
fn production_code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed == "#[cfg(test)]" {
            // Skip the item: to its `;`, or to the brace that closes it.
            let mut depth = 0i32;
            let mut opened = false;
            for item in lines.by_ref() {
                for c in item.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                let ended = if opened {
                    depth <= 0
                } else {
                    item.trim_end().ends_with(';')
                };
                if ended {
                    break;
                }
            }
            continue;
        }
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The paths after `crate::` (or `super::`, resolved against `module`),
/// with groups `crate::{a::b, c}` expanded.
fn used_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    fn ident(s: &str) -> &str {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        &s[..end]
    }
    /// Reads `a::b::{c, d::e}` at the start of `rest` into `out`, each
    /// prefixed with `prefix`.
    fn read(rest: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        let mut rest = rest;
        loop {
            if let Some(group) = rest.strip_prefix('{') {
                // Split the group at commas of depth 0.
                let mut depth = 0;
                let mut start = 0;
                let mut end = group.len();
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            end = i;
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            read(group[start..i].trim_start(), &path, out);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                let last = group[start..end].trim_start();
                if !last.is_empty() {
                    read(last, &path, out);
                }
                return;
            }
            let name = ident(rest);
            if name.is_empty() || name == "self" {
                break;
            }
            path.push(name.to_owned());
            rest = &rest[name.len()..];
            match rest.strip_prefix("::") {
                Some(next) => rest = next,
                None => break,
            }
        }
        out.push(path);
    }
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `$crate::`, `my_crate::`
        }
        read(&code[at + "crate::".len()..], &[], &mut out);
    }
    for (at, _) in code.match_indices("super::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let parent = &module[..module.len().saturating_sub(1)];
        read(&code[at + "super::".len()..], parent, &mut out);
    }
    out
}

struct Crate {
    /// Module path -> file.
    files: BTreeMap<Vec<String>, String>,
    /// Names `lib.rs` re-exports -> the path they come from.
    reexports: BTreeMap<String, Vec<String>>,
    /// Files compiled only for tests.
    test_only: BTreeSet<String>,
}

impl Crate {
    fn read() -> Crate {
        let mut list = Vec::new();
        sources(&src(), &mut list);
        let files = list.iter().map(|f| (module_of(f), f.clone())).collect();
        let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
        let mut reexports = BTreeMap::new();
        for item in lib.split("use ").skip(1) {
            let Some(end) = item.find(';') else { continue };
            let item = &item[..end];
            let mut paths = Vec::new();
            // `pub use a::{B, C}` and `pub(crate) use a::B`.
            let code = format!("crate::{item}");
            for path in used_paths(&code, &[]) {
                paths.push(path);
            }
            for path in paths {
                if let Some(name) = path.last() {
                    reexports.insert(name.clone(), path.clone());
                }
            }
        }
        let mut test_only = BTreeSet::new();
        let mut lines = lib.lines();
        while let Some(line) = lines.next() {
            if line.trim() == "#[cfg(test)]" {
                if let Some(next) = lines.next() {
                    if let Some(name) = next
                        .trim()
                        .strip_suffix(';')
                        .and_then(|m| m.rsplit(' ').next().filter(|_| m.contains("mod ")))
                    {
                        test_only.insert(format!("{name}.rs"));
                    }
                }
            }
        }
        Crate {
            files,
            reexports,
            test_only,
        }
    }

    /// The file that defines the item a path names.
    fn resolve(&self, path: &[String], depth: usize) -> Option<String> {
        let mut module: Vec<String> = Vec::new();
        for segment in path {
            let mut deeper = module.clone();
            deeper.push(segment.clone());
            if self.files.contains_key(&deeper) {
                module = deeper;
            } else {
                break;
            }
        }
        if module.is_empty() && depth < 4 {
            if let Some(from) = path.first().and_then(|name| self.reexports.get(name)) {
                if from.len() > 1 {
                    return self.resolve(from, depth + 1);
                }
            }
        }
        self.files.get(&module).cloned()
    }

    /// File -> the files it uses.
    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph = BTreeMap::new();
        for (module, file) in &self.files {
            if self.test_only.contains(file) {
                continue;
            }
            let text = std::fs::read_to_string(src().join(file)).expect("readable source");
            let code = production_code(&text);
            let uses: BTreeSet<String> = used_paths(&code, module)
                .iter()
                .filter_map(|path| self.resolve(path, 0))
                .filter(|used| used != file && !self.test_only.contains(used))
                .collect();
            graph.insert(file.clone(), uses);
        }
        graph
    }
}

/// Whether `upper` is `lib.rs` or the `mod.rs` of a folder holding `file`.
fn is_above(upper: &str, file: &str) -> bool {
    upper == "lib.rs"
        || upper
            .strip_suffix("mod.rs")
            .is_some_and(|folder| file.starts_with(folder) && file != upper)
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
        for next in graph.get(&here).into_iter().flatten() {
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
fn no_file_uses_a_module_above_it() {
    let krate = Crate::read();
    let graph = krate.graph();
    assert!(graph.len() > 60, "{} files", graph.len());
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(file, uses)| {
            uses.iter()
                .filter(|used| is_above(used, file))
                .map(move |used| format!("{file} uses {used}"))
        })
        .collect();
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn files_form_layers_without_cycles() {
    let graph = Crate::read().graph();
    let cycles: Vec<String> = graph
        .keys()
        .filter_map(|m| cycle_from(&graph, m))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_scanner_sees_the_uses_it_must() {
    let module = vec!["rules".to_owned(), "syntax".to_owned(), "x".to_owned()];
    let code = production_code(
        "use crate::wording::{and_list, quote_rule};\n\
         use crate::{context::Context, rule::{Check, RuleInfo}};\n\
         // use crate::commented::Out;\n\
         let a = super::sibling::f(); $crate::testing::m!();\n\
         #[cfg(test)]\nmod tests {\n    use crate::lint;\n}\n",
    );
    let paths: BTreeSet<String> = used_paths(&code, &module)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    let expected = [
        "context::Context",
        "rule::Check",
        "rule::RuleInfo",
        "rules::syntax::sibling::f",
        "wording::and_list",
        "wording::quote_rule",
    ];
    assert_eq!(
        paths,
        expected
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>()
    );
    let krate = Crate::read();
    let path = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
    // A re-exported name leads to the file that defines it.
    assert_eq!(
        krate.resolve(&path("RuleInfo"), 0).as_deref(),
        Some("rule.rs")
    );
    assert_eq!(
        krate.resolve(&path("rules::RULES"), 0).as_deref(),
        Some("rules/mod.rs")
    );
    assert_eq!(
        krate
            .resolve(&path("rules::extensions::noindex_line::is_noindex"), 0)
            .as_deref(),
        Some("rules/extensions/noindex_line.rs")
    );
    assert!(is_above("rules/mod.rs", "rules/syntax/x.rs"));
    assert!(is_above("lib.rs", "context.rs"));
    assert!(!is_above("render/mod.rs", "rules/x.rs"));
    let graph = krate.graph();
    assert!(
        graph["render/sarif.rs"].contains("render/source.rs"),
        "{:?}",
        graph["render/sarif.rs"]
    );
    assert!(!graph.contains_key("testing.rs"));
}
