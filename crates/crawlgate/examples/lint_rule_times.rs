//! Time per rule over the corpus, and the files where one rule is slowest (a
//! profiling aid): `lint_rule_times [FILTER] [CODE]`.
fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/real");
    let mut total = std::collections::BTreeMap::new();
    let filter = std::env::args().nth(1).filter(|f| f != "-");
    let code = std::env::args().nth(2);
    let mut per_file = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if let Some(f) = &filter {
            if !path.to_string_lossy().contains(f.as_str()) {
                continue;
            }
        }
        let body = std::fs::read(&path).unwrap();
        for (c, t) in crawlgate::lint::__time_rules(&body) {
            *total.entry(c).or_insert(std::time::Duration::ZERO) += t;
            if Some(c.as_str()) == code.as_deref() {
                per_file.push((t, path.clone()));
            }
        }
    }
    let mut v: Vec<_> = total.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1));
    for (c, t) in v.iter().take(12) {
        println!("{c} {:.2} ms", t.as_secs_f64() * 1e3);
    }
    per_file.sort_by(|a, b| b.0.cmp(&a.0));
    for (t, p) in per_file.iter().take(12) {
        println!("  {:.2} ms {}", t.as_secs_f64() * 1e3, p.display());
    }
}
