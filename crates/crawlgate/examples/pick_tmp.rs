fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/real");
    let mut by_code: std::collections::BTreeMap<crawlgate::Code, Vec<(usize, String)>> =
        Default::default();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let body = std::fs::read(&path).unwrap();
        if body.len() > 6000 {
            continue;
        }
        let report = crawlgate::lint(&body, &crawlgate::lint::LintOptions::default());
        let mut codes: Vec<_> = report.diagnostics.iter().map(|d| d.code).collect();
        codes.dedup();
        for c in codes {
            by_code.entry(c).or_default().push((
                body.len(),
                path.file_name().unwrap().to_string_lossy().into_owned(),
            ));
        }
    }
    for (c, mut v) in by_code {
        v.sort();
        println!("{c}: {:?}", v.iter().take(4).collect::<Vec<_>>());
    }
}
