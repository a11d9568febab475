//! The import graph of a crate's source files, for the architecture tests:
//! no file reaches, directly or through others, back into one that uses it,
//! and (where a crate asks) no file uses an item of a module above it (the
//! crate root above every file, a folder's `mod.rs` above the files in it).
//!
//! A file uses another when its code (comments and `#[cfg(test)]` items
//! aside: tests may call anything) names an item through `crate::…` or
//! `super::…`; the item is found in the file of the deepest module the path
//! names, or, for a name the crate root re-exports, in the file it comes
//! from.
//!
//! ```
//! use crawlgate_test_support::architecture::{cycles, used_paths};
//! use std::collections::{BTreeMap, BTreeSet};
//!
//! let paths = used_paths("use crate::{a::B, c};", &[]);
//! assert_eq!(paths, [vec!["a".to_owned(), "B".to_owned()], vec!["c".to_owned()]]);
//! let graph = BTreeMap::from([
//!     ("a.rs".to_owned(), BTreeSet::from(["b.rs".to_owned()])),
//!     ("b.rs".to_owned(), BTreeSet::from(["a.rs".to_owned()])),
//! ]);
//! assert_eq!(cycles(&graph), ["a.rs -> b.rs -> a.rs", "b.rs -> a.rs -> b.rs"]);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// File -> the files it uses (paths relative to `src/`, `/` separated).
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`, relative to `root`, with `/` separators.
fn sources(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).expect("under src");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path of a file: `rules/syntax/unknown_field.rs` is
/// `rules::syntax::unknown_field`, `rules/mod.rs` is `rules`, `lib.rs` and
/// `main.rs` the root.
pub fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(str::to_owned).collect();
    let last = parts.pop().expect("a file name");
    match last.as_str() {
        "mod.rs" | "lib.rs" | "main.rs" if parts.is_empty() || last == "mod.rs" => {}
        name => parts.push(name.trim_end_matches(".rs").to_owned()),
    }
    parts
}

/// Code without comments and without `#[cfg(test)]` items.
pub fn production_code(text: &str) -> String {
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
pub fn used_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
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

/// A crate's source files, read from its `src/` folder.
pub struct SourceTree {
    src: PathBuf,
    /// `lib.rs` or `main.rs`.
    root: String,
    /// Module path -> file.
    files: BTreeMap<Vec<String>, String>,
    /// Names the root re-exports (or imports) -> the path they come from.
    reexports: BTreeMap<String, Vec<String>>,
    /// Files compiled only for tests.
    test_only: BTreeSet<String>,
}

impl SourceTree {
    /// Reads the crate whose manifest folder is `manifest_dir` (pass
    /// `env!("CARGO_MANIFEST_DIR")`); its root is `src/lib.rs`, or
    /// `src/main.rs` for a binary.
    pub fn read(manifest_dir: &str) -> SourceTree {
        let src = Path::new(manifest_dir).join("src");
        let mut list = Vec::new();
        sources(&src, &src, &mut list);
        let root = if src.join("lib.rs").exists() {
            "lib.rs"
        } else {
            "main.rs"
        };
        let files = list.iter().map(|f| (module_of(f), f.clone())).collect();
        let text = std::fs::read_to_string(src.join(root)).expect("the crate root");
        let mut reexports = BTreeMap::new();
        for item in text.split("use ").skip(1) {
            let Some(end) = item.find(';') else { continue };
            // `pub use a::{B, C}` and `pub(crate) use a::B`.
            for path in used_paths(&format!("crate::{}", &item[..end]), &[]) {
                if let Some(name) = path.last() {
                    reexports.insert(name.clone(), path.clone());
                }
            }
        }
        let mut test_only = BTreeSet::new();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line.trim() == "#[cfg(test)]"
                && let Some(next) = lines.next()
                && let Some(name) = next
                    .trim()
                    .strip_suffix(';')
                    .and_then(|m| m.rsplit(' ').next().filter(|_| m.contains("mod ")))
            {
                test_only.insert(format!("{name}.rs"));
            }
        }
        SourceTree {
            src,
            root: root.to_owned(),
            files,
            reexports,
            test_only,
        }
    }

    /// The file that defines the item a path names.
    pub fn resolve(&self, path: &[String]) -> Option<String> {
        self.resolve_within(path, 0)
    }

    fn resolve_within(&self, path: &[String], depth: usize) -> Option<String> {
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
        if module.is_empty()
            && depth < 4
            && let Some(from) = path.first().and_then(|name| self.reexports.get(name))
            && from.len() > 1
        {
            return self.resolve_within(from, depth + 1);
        }
        self.files.get(&module).cloned()
    }

    /// File -> the files it uses (files compiled only for tests left out).
    pub fn graph(&self) -> Graph {
        let mut graph = BTreeMap::new();
        for (module, file) in &self.files {
            if self.test_only.contains(file) {
                continue;
            }
            let text = std::fs::read_to_string(self.src.join(file)).expect("readable source");
            let code = production_code(&text);
            // An empty path is the text `crate::` itself (in a string).
            let uses: BTreeSet<String> = used_paths(&code, module)
                .iter()
                .filter(|path| !path.is_empty())
                .filter_map(|path| self.resolve(path))
                .filter(|used| used != file && !self.test_only.contains(used))
                .collect();
            graph.insert(file.clone(), uses);
        }
        graph
    }

    /// The graph between top-level modules: a file of `src/` or a folder of
    /// it with everything in it (`parse/x.rs` is `parse`).
    pub fn module_graph(&self) -> Graph {
        let top = |file: &str| -> String {
            let first = file.split('/').next().unwrap_or(file);
            first.trim_end_matches(".rs").to_owned()
        };
        let mut graph = Graph::new();
        for (file, uses) in self.graph() {
            let from = top(&file);
            let entry = graph.entry(from.clone()).or_default();
            entry.extend(uses.iter().map(|u| top(u)).filter(|u| *u != from));
        }
        graph
    }

    /// Every `a uses b` where `b` is above `a` (see [`is_above`]).
    pub fn upward_imports(&self) -> Vec<String> {
        self.graph()
            .iter()
            .flat_map(|(file, uses)| {
                uses.iter()
                    .filter(|used| is_above(used, file, &self.root))
                    .map(move |used| format!("{file} uses {used}"))
            })
            .collect()
    }
}

/// Whether `upper` is the crate root (`root`: `lib.rs` or `main.rs`) or the
/// `mod.rs` of a folder holding `file`.
pub fn is_above(upper: &str, file: &str, root: &str) -> bool {
    upper == root
        || upper
            .strip_suffix("mod.rs")
            .is_some_and(|folder| file.starts_with(folder) && file != upper)
}

/// Fails unless the crate whose manifest folder is `manifest_dir` has no
/// import cycle. The graph must first show each `(file, used)` of `edges`
/// (uses that are there), so that an empty or misread graph cannot pass.
pub fn assert_no_cycles(manifest_dir: &str, edges: &[(&str, &str)]) {
    let graph = SourceTree::read(manifest_dir).graph();
    for (file, used) in edges {
        assert!(
            graph.get(*file).is_some_and(|uses| uses.contains(*used)),
            "the scanner does not see {file} use {used}: {graph:?}"
        );
    }
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// Every cycle of `graph`, one through each node that is on one, written
/// `a -> b -> a`.
pub fn cycles(graph: &Graph) -> Vec<String> {
    graph
        .keys()
        .filter_map(|m| cycle_from(graph, m))
        .map(|c| c.join(" -> "))
        .collect()
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &Graph, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &Graph,
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

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn modules_of_files() {
        assert_eq!(module_of("lib.rs"), Vec::<String>::new());
        assert_eq!(module_of("main.rs"), Vec::<String>::new());
        assert_eq!(module_of("load/mod.rs"), ["load"]);
        assert_eq!(module_of("load/main.rs"), ["load", "main"]);
        assert_eq!(module_of("rules/syntax/x.rs"), ["rules", "syntax", "x"]);
    }

    #[test]
    fn what_is_above() {
        assert!(is_above("rules/mod.rs", "rules/syntax/x.rs", "lib.rs"));
        assert!(is_above("lib.rs", "context.rs", "lib.rs"));
        assert!(is_above("main.rs", "commands/mod.rs", "main.rs"));
        assert!(!is_above("render/mod.rs", "rules/x.rs", "lib.rs"));
        assert!(!is_above("rules/mod.rs", "rules/mod.rs", "lib.rs"));
    }

    #[test]
    fn this_crate_reads_itself() {
        let tree = SourceTree::read(env!("CARGO_MANIFEST_DIR"));
        let path = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(tree.resolve(&path("Rng")).as_deref(), Some("rng.rs"));
        assert_eq!(
            tree.resolve(&path("architecture::cycles")).as_deref(),
            Some("architecture.rs")
        );
        assert!(cycles(&tree.graph()).is_empty());
        assert_eq!(tree.upward_imports(), Vec::<String>::new());
    }
}
