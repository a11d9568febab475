//! Inputs by URL, from a real S3-compatible server on loopback: moto's
//! server (from PyPI, installed by `scripts/moto.sh` into the target
//! folder; a missing piece fails the test). A survey read from `s3://`
//! (through a `robotstxt.paths.gz` listing) equals the one from the local
//! files; `http://` URLs of the same objects too; a stopped survey resumes
//! over a range request.

use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crawlgate_survey::input::Input;
use crawlgate_survey::output::TableSource;
use crawlgate_survey::{CrawlerSet, Plan, SiteRow, Survey};

use crate::bar_warc::BarWarc;
use crate::warc_writer::{Response, WarcFile};
use crate::write;

const BUCKET: &str = "crawl";

/// moto's server, for the whole test binary.
struct Moto {
    endpoint: String,
    _child: KillOnDrop,
}

/// The shell that runs the server: closing its stdin stops both.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        drop(self.0.stdin.take());
        let _ = self.0.wait();
    }
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn moto() -> &'static Moto {
    static MOTO: OnceLock<Moto> = OnceLock::new();
    MOTO.get_or_init(|| {
        let script = repository().join("scripts/moto.sh");
        let installed = Command::new("bash")
            .arg(&script)
            .stderr(Stdio::inherit())
            .output()
            .expect("bash runs scripts/moto.sh");
        assert!(
            installed.status.success(),
            "scripts/moto.sh could not install moto's server (see above): the S3 tests need it"
        );
        let server = String::from_utf8(installed.stdout)
            .unwrap()
            .trim()
            .to_owned();
        let port = free_port();
        // A static is never dropped: the server is stopped by a shell that
        // waits for this process's end (its stdin, a pipe we hold, closes).
        let child = Command::new("sh")
            .args([
                "-c",
                r#""$0" -H 127.0.0.1 -p "$1" & server=$!; cat >/dev/null; kill $server"#,
                &server,
                &port.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {server}: {e}"));
        let child = KillOnDrop(child);
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "moto's server did not listen on 127.0.0.1:{port} within 60 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let endpoint = format!("http://127.0.0.1:{port}");
        // What the survey's S3 client reads (the same for every test here).
        for (key, value) in [
            ("AWS_ENDPOINT_URL", endpoint.as_str()),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", "testing"),
            ("AWS_REGION", "us-east-1"),
        ] {
            // SAFETY: the standard library serialises its own environment
            // reads and writes; these are set once, before the first S3
            // client reads them, and no C code in this test binary reads
            // these variables.
            #[allow(unsafe_code)]
            unsafe {
                std::env::set_var(key, value)
            };
        }
        create_bucket(port);
        Moto {
            endpoint,
            _child: child,
        }
    })
}

/// Creates the bucket with a plain PUT (moto accepts it unsigned).
fn create_bucket(port: u16) {
    put(port, &format!("/{BUCKET}"), "", &[]);
}

/// A plain, unsigned PUT to moto, answered 200.
fn put(port: u16, target: &str, headers: &str, body: &[u8]) {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "PUT {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Uploads an object as `public-read` (unsigned, as moto allows), so that
/// plain `http://` GETs may read it too (moto refuses anonymous reads of
/// private objects); the survey reads it through the S3 API.
fn upload(key: &str, bytes: Vec<u8>) {
    let port: u16 = moto().endpoint.rsplit(':').next().unwrap().parse().unwrap();
    put(
        port,
        &format!("/{BUCKET}/{key}"),
        "x-amz-acl: public-read\r\n",
        &bytes,
    );
}

fn gzip(text: &str) -> Vec<u8> {
    crate::warc_writer::gzip(text.as_bytes())
}

fn survey() -> Survey {
    Survey::new(CrawlerSet::from_tokens(["GPTBot", "CCBot", "Googlebot", "*"]).unwrap())
}

/// The rows of a survey of `inputs`, without the column saying where each
/// came from (a path here, a URL there).
fn rows_of(dir: &Path, name: &str, inputs: &[Input], plan: Plan) -> Vec<SiteRow> {
    let table = dir.join(format!("{name}.parquet"));
    let plan = Plan {
        outputs: vec![table.clone()],
        ..plan
    };
    crawlgate_survey::run(&survey(), inputs, &plan, &|_| {}).unwrap();
    let mut rows = TableSource::open(&table).unwrap().rows().unwrap();
    for row in &mut rows {
        let at = row.source.rfind('@').unwrap_or(row.source.len());
        row.source = row.source[at..].to_owned();
    }
    rows
}

#[test]
fn a_survey_read_from_s3_equals_the_one_from_the_local_files() {
    let dir = tempfile::tempdir().unwrap();
    let names = crawlgate_corpus::names();
    let (first, second) = names.split_at(names.len() / 2);
    let one = BarWarc::build(&crawlgate_corpus::dir(), first, 1);
    let mut two = WarcFile::new(true);
    for name in second {
        two.response(&Response::ok(
            name,
            std::fs::read(crawlgate_corpus::dir().join(name)).unwrap(),
        ));
    }
    let keys = [
        "crawl-data/CC-TEST/segments/1/robotstxt/one.warc.gz",
        "crawl-data/CC-TEST/segments/2/robotstxt/two.warc.gz",
    ];
    upload(keys[0], one.bytes.clone());
    upload(keys[1], two.bytes.clone());
    upload(
        "crawl-data/CC-TEST/robotstxt.paths.gz",
        gzip(&format!("{}\n{}\n", keys[0], keys[1])),
    );
    let local = [
        Input::Warc(write(dir.path(), "one.warc.gz", &one.bytes)),
        Input::Warc(write(dir.path(), "two.warc.gz", &two.bytes)),
    ];
    let expected = rows_of(dir.path(), "local", &local, Plan::default());
    assert!(expected.len() > 4000);

    let listing = format!("s3://{BUCKET}/crawl-data/CC-TEST/robotstxt.paths.gz");
    let remote = Input::resolve(&listing, None).unwrap();
    let names: Vec<String> = remote.iter().map(Input::name).collect();
    assert_eq!(names, keys.map(|k| format!("s3://{BUCKET}/{k}")).to_vec());
    assert_eq!(
        rows_of(dir.path(), "s3", &remote, Plan::default()),
        expected
    );

    // The same objects over plain HTTP (moto answers unsigned GETs).
    let http: Vec<Input> = keys
        .iter()
        .map(|k| Input::RemoteWarc(format!("{}/{BUCKET}/{k}", moto().endpoint)))
        .collect();
    assert_eq!(
        rows_of(dir.path(), "http", &http, Plan::default()),
        expected
    );

    // Stopped, then resumed: the second file is read again from the last
    // checkpoint, with a range request.
    let plan = Plan {
        outputs: vec![dir.path().join("resumed.parquet")],
        checkpoint: 500,
        ..Plan::default()
    };
    let chunks = std::sync::atomic::AtomicU64::new(0);
    let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crawlgate_survey::run(&survey(), &remote, &plan, &|_| {
            if chunks.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 6 {
                panic!("stopped on purpose");
            }
        })
    }));
    assert!(stopped.is_err());
    let resumed = rows_of(
        dir.path(),
        "resumed",
        &remote,
        Plan {
            resume: true,
            checkpoint: 500,
            ..Plan::default()
        },
    );
    assert_eq!(resumed, expected);
}

#[test]
fn missing_objects_and_servers_are_clear_errors() {
    let missing = format!("s3://{BUCKET}/crawl-data/none/robotstxt.paths.gz");
    moto();
    let error = Input::resolve(&missing, None).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!("cannot read {missing}")),
        "{error}"
    );
    // A WARC that is not there is one error row, and the survey goes on.
    let dir = tempfile::tempdir().unwrap();
    let rows = rows_of(
        dir.path(),
        "missing",
        &[Input::RemoteWarc(format!("s3://{BUCKET}/none.warc.gz"))],
        Plan::default(),
    );
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0].error.as_deref().unwrap().contains("none.warc.gz"),
        "{rows:?}"
    );
    let unknown = Input::resolve("https://example.com/a.txt", None)
        .unwrap_err()
        .to_string();
    assert!(unknown.contains("cannot tell what"), "{unknown}");
}

#[test]
fn over_long_urls_and_names_are_clear_errors_not_panics() {
    // 70,000 bytes: past what the HTTP client can form (64 KiB), which
    // used to panic inside it.
    let long = "a".repeat(70_000);
    let dir = tempfile::tempdir().unwrap();
    for url in [
        format!("s3://{BUCKET}/{long}.warc.gz"),
        format!("https://{long}.example/x.warc.gz"),
    ] {
        let rows = rows_of(
            dir.path(),
            "long",
            &[Input::RemoteWarc(url.clone())],
            Plan::default(),
        );
        assert_eq!(rows.len(), 1, "{url:.40}");
        let error = rows[0].error.as_deref().unwrap();
        assert!(error.contains("bytes long"), "{error:.300}");
        assert!(
            error.len() < 400,
            "the message shows the URL shortened: {error:.300}"
        );
    }
    let listing = format!("s3://{BUCKET}/{long}.paths.gz");
    let error = Input::resolve(&listing, None).unwrap_err().to_string();
    assert!(
        error.contains("bytes long") && error.len() < 400,
        "{error:.300}"
    );
    // A name that says nothing of what it holds is shown shortened too.
    let error = Input::resolve(&format!("s3://{long}"), None)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("cannot tell what") && error.len() < 600,
        "{error:.300}"
    );
}
