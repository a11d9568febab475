//! ARCHITECTURE.md is true to the workspace: its crate list is the
//! workspace's members, its list of each crate's dependencies on workspace
//! crates is what the Cargo.toml files declare, its fuzz targets are the
//! fuzz crate's, and every dependency two crates share is declared once in
//! `[workspace.dependencies]`. The Cargo.toml files are read directly (no
//! `cargo metadata`: the test needs neither cargo nor the network).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use toml::{Table, Value};

/// The crates that are not layers of the product: tests, benchmarks, fuzzing.
const DEV_ONLY: [&str; 5] = [
    "crawlgate-test-support",
    "crawlgate-corpus",
    "crawlgate-testserver",
    "crawlgate-bench",
    "crawlgate-fuzz",
];

/// The front ends: what users run. Only the CLI may depend on one (it runs
/// the server).
const FRONT_ENDS: [&str; 3] = ["crawlgate-cli", "crawlgate-server", "crawlgate-python"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read_toml(path: &Path) -> Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn architecture_md() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md reads")
}

/// One member of the workspace, as its Cargo.toml declares it.
struct Member {
    name: String,
    dir: PathBuf,
    manifest: Table,
}

impl Member {
    /// Every dependency table: normal, dev and build, and per target.
    fn dependency_tables(&self) -> Vec<(&'static str, &Table)> {
        fn add<'a>(table: &'a Table, tables: &mut Vec<(&'static str, &'a Table)>) {
            for (key, kind) in [
                ("dependencies", "normal"),
                ("dev-dependencies", "dev"),
                ("build-dependencies", "build"),
            ] {
                if let Some(Value::Table(deps)) = table.get(key) {
                    tables.push((kind, deps));
                }
            }
        }
        let mut tables = Vec::new();
        add(&self.manifest, &mut tables);
        if let Some(Value::Table(targets)) = self.manifest.get("target") {
            for target in targets.values() {
                add(target.as_table().expect("a target table"), &mut tables);
            }
        }
        tables
    }

    /// The names of the crates this one needs to build (normal
    /// dependencies, any target).
    fn normal_dependencies(&self) -> BTreeSet<String> {
        self.dependency_tables()
            .into_iter()
            .filter(|(kind, _)| *kind == "normal")
            .flat_map(|(_, deps)| deps.keys().cloned())
            .collect()
    }
}

/// The workspace's members, from the root Cargo.toml's `members` globs
/// (`dir/*` or a directory).
fn members() -> Vec<Member> {
    let root = root();
    let manifest = read_toml(&root.join("Cargo.toml"));
    let patterns = manifest["workspace"]["members"]
        .as_array()
        .expect("workspace.members is a list");
    let mut dirs = Vec::new();
    for pattern in patterns {
        let pattern = pattern.as_str().expect("a member is a string");
        match pattern.strip_suffix("/*") {
            Some(parent) => {
                for entry in std::fs::read_dir(root.join(parent)).expect("members' folder") {
                    let dir = entry.expect("an entry").path();
                    if dir.join("Cargo.toml").is_file() {
                        dirs.push(dir);
                    }
                }
            }
            None => dirs.push(root.join(pattern)),
        }
    }
    let mut members: Vec<Member> = dirs
        .into_iter()
        .map(|dir| {
            let manifest = read_toml(&dir.join("Cargo.toml"));
            let name = manifest["package"]["name"]
                .as_str()
                .expect("package.name")
                .to_owned();
            Member {
                name,
                dir,
                manifest,
            }
        })
        .collect();
    members.sort_by(|a, b| a.name.cmp(&b.name));
    members
}

/// The text of ARCHITECTURE.md from the heading `heading` to the next
/// heading of the same or a higher level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no heading {heading:?}"))
        + 1;
    let level = heading.split(' ').next().expect("a heading level");
    let body = &text[start + heading.len()..];
    let end = body
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let line = &body[i..];
            line.starts_with('#')
                && line
                    .split(' ')
                    .next()
                    .is_some_and(|h| h.len() <= level.len())
        })
        .unwrap_or(body.len());
    &body[..end]
}

/// The words in backticks of `text`, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The bulleted items of `text` (`- ` lines with their continuation
/// lines), one string each.
fn bullets(text: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        if let Some(item) = line.strip_prefix("- ") {
            items.push(item.to_owned());
            open = true;
        } else if open && line.starts_with("  ") {
            let last = items.last_mut().expect("an open item");
            last.push(' ');
            last.push_str(line.trim());
        } else {
            open = false;
        }
    }
    items
}

/// ARCHITECTURE.md's list of each crate's dependencies on workspace crates:
/// `` - `crawlgate-x`: `crawlgate`, `-answers` `` (a leading `-` abbreviates
/// `crawlgate-`), or `none`.
fn documented_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let text = architecture_md();
    let crates = section(&text, "## Crates");
    let list = crates
        .split("Exactly,")
        .nth(1)
        .expect("ARCHITECTURE.md's Crates section has its `Exactly,` list");
    let mut documented = BTreeMap::new();
    for item in bullets(list) {
        let (name, deps) = item.split_once(':').expect("`- `crate`: deps`");
        let name = quoted(name)
            .first()
            .unwrap_or_else(|| panic!("no crate named in {item:?}"))
            .to_string();
        // Only the dependency list itself, not an explanation in parentheses.
        let deps = deps.split(" (").next().expect("split gives one part");
        let deps: BTreeSet<String> = quoted(deps)
            .into_iter()
            .map(|dep| match dep.strip_prefix('-') {
                Some(short) => format!("crawlgate-{short}"),
                None => dep.to_owned(),
            })
            .collect();
        assert!(
            !deps.is_empty() || deps_say_none(&item),
            "{item:?} names no dependency and does not say `none`"
        );
        assert!(
            documented.insert(name.clone(), deps).is_none(),
            "{name} listed twice"
        );
    }
    documented
}

fn deps_say_none(item: &str) -> bool {
    item.split_once(':')
        .is_some_and(|(_, rest)| rest.trim() == "none")
}

#[test]
fn the_crate_list_is_the_workspace() {
    let members = members();
    let names: BTreeSet<&str> = members.iter().map(|m| m.name.as_str()).collect();
    assert!(names.len() >= 15, "{names:?}");
    let text = architecture_md();
    let crates = section(&text, "## Crates");
    let drawing = crates
        .split("```")
        .nth(1)
        .expect("the Crates section has a drawing");
    let drawn: BTreeSet<&str> = drawing
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|word| *word == "crawlgate" || word.starts_with("crawlgate-"))
        .collect();
    assert_eq!(drawn, names, "the crates drawn in ARCHITECTURE.md");
    let listed: BTreeSet<String> = documented_dependencies().into_keys().collect();
    let names_owned: BTreeSet<String> = names.iter().map(|n| n.to_string()).collect();
    assert_eq!(listed, names_owned, "the crates in ARCHITECTURE.md's list");
    for name in DEV_ONLY.into_iter().chain(FRONT_ENDS) {
        assert!(names.contains(name), "{name} is no longer a member");
    }
    // Every crate under crates/ has its part of the code map.
    let code_map = section(&text, "## Code map");
    for member in &members {
        let folder = member.dir.file_name().expect("a folder").to_string_lossy();
        if member.dir.parent().and_then(Path::file_name) == Some("crates".as_ref()) {
            assert!(
                code_map.contains(&format!("\n### `crates/{folder}`")),
                "ARCHITECTURE.md's code map has no heading for crates/{folder}"
            );
        }
    }
}

#[test]
fn each_crate_depends_on_the_workspace_crates_documented() {
    let members = members();
    let names: BTreeSet<String> = members.iter().map(|m| m.name.clone()).collect();
    let documented = documented_dependencies();
    let mut wrong = Vec::new();
    for member in &members {
        let actual: BTreeSet<String> = member
            .normal_dependencies()
            .into_iter()
            .filter(|dep| names.contains(dep))
            .collect();
        if documented.get(&member.name) != Some(&actual) {
            wrong.push(format!(
                "{}: ARCHITECTURE.md says {:?}, Cargo.toml has {actual:?}",
                member.name,
                documented.get(&member.name)
            ));
        }
        let is_dev_only = DEV_ONLY.contains(&member.name.as_str());
        for dep in &actual {
            if FRONT_ENDS.contains(&dep.as_str()) && member.name != "crawlgate-cli" {
                wrong.push(format!("{} depends on the front end {dep}", member.name));
            }
            if DEV_ONLY.contains(&dep.as_str()) && !is_dev_only {
                wrong.push(format!("{} depends on the dev-only {dep}", member.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The core stands alone.
    assert_eq!(documented["crawlgate"], BTreeSet::new());
}

#[test]
fn shared_dependencies_are_declared_once_in_the_workspace() {
    let root_manifest = read_toml(&root().join("Cargo.toml"));
    let declared = root_manifest["workspace"]["dependencies"]
        .as_table()
        .expect("[workspace.dependencies]");
    // dependency -> (crate, whether it says `workspace = true`)
    let mut uses: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    for member in members() {
        for (_, deps) in member.dependency_tables() {
            for (dep, spec) in deps {
                let inherited = spec
                    .as_table()
                    .and_then(|t| t.get("workspace"))
                    .and_then(Value::as_bool)
                    == Some(true);
                uses.entry(dep.clone())
                    .or_default()
                    .push((member.name.clone(), inherited));
            }
        }
    }
    let mut wrong = Vec::new();
    for (dep, users) in &uses {
        let crates: BTreeSet<&str> = users.iter().map(|(c, _)| c.as_str()).collect();
        for (user, inherited) in users {
            if *inherited && !declared.contains_key(dep) {
                wrong.push(format!(
                    "{user} inherits {dep}, which the workspace does not declare"
                ));
            }
            if crates.len() > 1 && !inherited {
                wrong.push(format!(
                    "{dep} is shared by {crates:?} but {user} declares it itself"
                ));
            }
        }
    }
    for dep in declared.keys() {
        if !uses.contains_key(dep) {
            wrong.push(format!(
                "[workspace.dependencies] declares {dep}, which no crate uses"
            ));
        }
    }
    assert!(uses.len() > 30, "{} dependencies read", uses.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_fuzz_targets_are_the_documented_five() {
    let fuzz_dir = root().join("fuzz");
    let manifest = read_toml(&fuzz_dir.join("Cargo.toml"));
    let mut targets = BTreeSet::new();
    for bin in manifest["bin"].as_array().expect("[[bin]] targets") {
        let name = bin["name"].as_str().expect("a target's name");
        let path = bin["path"].as_str().expect("a target's path");
        assert_eq!(path, format!("fuzz_targets/{name}.rs"), "target {name}");
        assert!(fuzz_dir.join(path).is_file(), "{path} is missing");
        let check = fuzz_dir.join(format!("src/{name}.rs"));
        assert!(check.is_file(), "{} is missing", check.display());
        targets.insert(name.to_owned());
    }
    let files: BTreeSet<String> = std::fs::read_dir(fuzz_dir.join("fuzz_targets"))
        .expect("fuzz_targets/")
        .map(|e| {
            let path = e.expect("an entry").path();
            path.file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        files, targets,
        "fuzz_targets/ holds exactly the [[bin]] targets"
    );

    let text = architecture_md();
    let fuzz = section(
        &text,
        "### `fuzz/` (`crawlgate-fuzz`, a member of the workspace)",
    );
    let documented: BTreeSet<String> = bullets(fuzz)
        .iter()
        .map(|item| quoted(item)[0].to_owned())
        .collect();
    assert_eq!(
        documented, targets,
        "the fuzz targets ARCHITECTURE.md lists"
    );
    assert_eq!(targets.len(), 5, "{targets:?}");
    assert!(fuzz.starts_with("\n\nFive cargo-fuzz targets"), "{fuzz:?}");
}
