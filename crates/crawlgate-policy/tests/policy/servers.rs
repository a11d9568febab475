//! The server rules in the real servers of Debian (nginx, Apache httpd,
//! Caddy, HAProxy), each started on loopback with the rules included:
//! 403 to the crawlers the policy denies except on /robots.txt, 403 to a
//! crawler that ignores robots.txt on the private paths, 200 to the
//! others. And the one expression they share, for every crawler of the
//! registry, through the `regex` crate.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crawlgate_policy::{distinctive, header_names, write, ServerRules};

use crate::bar::bar_policy;

const GPTBOT: &str =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const BYTESPIDER: &str = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)";
const META: &str =
    "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)";
const CLAUDEBOT: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36";
const OAI_SEARCH: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)";
const CHATGPT_USER: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const PERPLEXITY_USER: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)";
const SOGOU: &str = "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)";
const BROWSER: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

fn rules() -> ServerRules {
    write(&bar_policy().with_private("/private/"))
        .unwrap()
        .server
}

/// What every server must answer: (User-Agent, path, status).
fn expectations() -> Vec<(&'static str, &'static str, u16)> {
    vec![
        (GPTBOT, "/", 403),
        (GPTBOT, "/page.html", 403),
        (GPTBOT, "/robots.txt", 200),
        (BYTESPIDER, "/", 403),
        (META, "/page.html", 403),
        (CLAUDEBOT, "/", 403),
        (CLAUDEBOT, "/robots.txt", 200),
        (GOOGLEBOT, "/", 200),
        (GOOGLEBOT, "/private/x.html", 200),
        (BINGBOT, "/page.html", 200),
        (OAI_SEARCH, "/", 200),
        (CHATGPT_USER, "/", 200),
        (SOGOU, "/", 200),
        (BROWSER, "/", 200),
        (BROWSER, "/private/x.html", 200),
        (PERPLEXITY_USER, "/", 200),
        (PERPLEXITY_USER, "/private/x.html", 403),
    ]
}

#[test]
fn the_expression_finds_the_denied_crawlers_and_no_other() {
    let written = write(&bar_policy().with_private("/private/")).unwrap();
    let rules = &written.server;
    let denied =
        regex::Regex::new(&format!("(?i){}", ServerRules::agent_regex(&rules.denied))).unwrap();
    let headers = |name: &str| {
        [
            format!("Mozilla/5.0 (compatible; {name}/1.0; +https://example.com/bot)"),
            format!("{name}/2.1 (+https://example.com)"),
            format!("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; {name}) Chrome/120.0"),
        ]
    };
    for intent in &written.intents {
        let crawler = intent.crawler;
        for name in header_names(crawler) {
            for header in headers(name) {
                let found = denied.is_match(&header);
                if rules.denied.iter().any(|c| c.name == crawler.name) && distinctive(name) {
                    assert!(found, "{header}");
                } else if !intent.denied() {
                    assert!(!found, "{} is let in, but {header} matches", crawler.name);
                }
            }
        }
    }
    for (header, _, _) in expectations() {
        let shut_out = [GPTBOT, BYTESPIDER, META, CLAUDEBOT].contains(&header);
        assert_eq!(denied.is_match(header), shut_out, "{header}");
    }
    // The crawlers no rule can find are said in the rules.
    assert!(rules.unmatched.iter().any(|(c, _)| c.name == "Spider"));
    assert!(rules.nginx().contains("# No rule for Spider:"));
    let private = regex::Regex::new(&ServerRules::path_regex(&rules.private_paths)).unwrap();
    assert!(private.is_match("/private/x.html") && !private.is_match("/public/private/"));
}

/// A free port on loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A server process, stopped when dropped.
struct Running {
    child: Child,
    port: u16,
    name: &'static str,
    log: std::path::PathBuf,
}

impl Drop for Running {
    /// Stops the server as its own signal handling expects (Apache's
    /// parent stops its children on SIGTERM; SIGKILL would orphan them),
    /// then kills it if it lingers.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    fn start(name: &'static str, mut command: Command, port: u16, log: &Path) -> Running {
        let child = command
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
        let mut running = Running {
            child,
            port,
            name,
            log: log.to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = running.child.try_wait().unwrap() {
                panic!("{name} exited ({status}): {}", running.log_text());
            }
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{name} does not listen: {}",
                running.log_text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        running
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn status(&self, agent: &str, path: &str) -> u16 {
        self.status_from([127, 0, 0, 1], agent, path)
    }

    /// The status a request from `source` (a loopback address: all of
    /// 127.0.0.0/8 is this machine's) gets.
    fn status_from(&self, source: [u8; 4], agent: &str, path: &str) -> u16 {
        use socket2::{Domain, Socket, Type};
        let socket = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
        socket
            .bind(&std::net::SocketAddr::from((source, 0)).into())
            .unwrap_or_else(|e| panic!("cannot bind {source:?}: {e}"));
        socket
            .connect(&std::net::SocketAddr::from(([127, 0, 0, 1], self.port)).into())
            .unwrap();
        let mut stream: TcpStream = socket.into();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: {agent}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
            head.push(byte[0]);
        }
        let line = String::from_utf8_lossy(&head);
        line.split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{}: no status line: {line:?}", self.name))
    }

    /// What the rules with address ranges must answer.
    fn check_addresses(&self) {
        for (source, agent, path, status) in address_expectations() {
            assert_eq!(
                self.status_from(source, agent, path),
                status,
                "{}: from {source:?} as {agent} {path}",
                self.name
            );
        }
    }

    fn check(&self) {
        for (agent, path, status) in expectations() {
            assert_eq!(
                self.status(agent, path),
                status,
                "{}: {agent} {path}",
                self.name
            );
        }
    }
}

/// The program, or a clear failure: the test command installs it.
fn program(name: &str, package: &str) -> String {
    for dir in ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"] {
        let path = format!("{dir}/{name}");
        if Path::new(&path).exists() {
            return path;
        }
    }
    panic!("{name} is missing: install Debian's {package} (scripts/test-all.sh installs it when it runs as root)");
}

/// A site: `/`, `/page.html`, `/robots.txt` and `/private/x.html`,
/// readable by the servers' workers.
fn site(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let www = dir.join("www");
    std::fs::create_dir_all(www.join("private")).unwrap();
    for (file, body) in [
        ("index.html", "home"),
        ("page.html", "page"),
        ("robots.txt", "User-agent: *\nAllow: /\n"),
        ("private/x.html", "private"),
    ] {
        std::fs::write(www.join(file), body).unwrap();
    }
    for path in [dir, &www, &www.join("private")] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    www
}

#[test]
fn nginx_answers_403_and_200() {
    let dir = tempfile::tempdir().unwrap();
    start_nginx(&rules(), dir.path()).check();
}

/// nginx with the rules included (and the `geo` block, with ranges).
fn start_nginx(rules: &ServerRules, dir: &Path) -> Running {
    let nginx = program("nginx", "nginx");
    let www = site(dir);
    let port = free_port();
    let d = dir.display();
    std::fs::write(dir.join("crawlgate.conf"), rules.nginx()).unwrap();
    let geo = match rules.nginx_http() {
        Some(text) => {
            std::fs::write(dir.join("crawlgate-http.conf"), text).unwrap();
            format!("  include {d}/crawlgate-http.conf;\n")
        }
        None => String::new(),
    };
    let conf = format!(
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{}}\nhttp {{\n{geo}  access_log off;\n  client_body_temp_path {d}/body;\n  \
         proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  \
         scgi_temp_path {d}/scgi;\n  server {{\n    listen 127.0.0.1:{port};\n    root {};\n    \
         include {d}/crawlgate.conf;\n  }}\n}}\n",
        www.display()
    );
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let mut command = Command::new(nginx);
    command.args([
        "-p",
        &d.to_string(),
        "-c",
        &format!("{d}/nginx.conf"),
        "-e",
        &format!("{d}/error.log"),
    ]);
    Running::start("nginx", command, port, &dir.join("stderr.log"))
}

#[test]
fn apache_answers_403_and_200() {
    let dir = tempfile::tempdir().unwrap();
    start_apache(&rules(), dir.path()).check();
}

/// Apache httpd with the rules included.
fn start_apache(rules: &ServerRules, dir: &Path) -> Running {
    let apache = program("apache2", "apache2");
    let www = site(dir);
    let port = free_port();
    let d = dir.display();
    std::fs::write(dir.join("crawlgate.conf"), rules.apache()).unwrap();
    let modules = "/usr/lib/apache2/modules";
    let conf = format!(
        "ServerRoot {d}\nDefaultRuntimeDir {d}\nPidFile {d}/httpd.pid\nErrorLog {d}/error.log\n\
         LoadModule mpm_event_module {modules}/mod_mpm_event.so\n\
         LoadModule authz_core_module {modules}/mod_authz_core.so\n\
         LoadModule rewrite_module {modules}/mod_rewrite.so\n\
         LoadModule dir_module {modules}/mod_dir.so\n\
         DirectoryIndex index.html\n\
         User nobody\nGroup nogroup\nServerName localhost\nListen 127.0.0.1:{port}\n\
         DocumentRoot {}\n<Directory {}>\n  Require all granted\n</Directory>\n\
         Include {d}/crawlgate.conf\n",
        www.display(),
        www.display()
    );
    std::fs::write(dir.join("httpd.conf"), conf).unwrap();
    let mut command = Command::new(apache);
    command.args(["-f", &format!("{d}/httpd.conf"), "-DFOREGROUND"]);
    Running::start("apache2", command, port, &dir.join("stderr.log"))
}

#[test]
fn caddy_answers_403_and_200() {
    let dir = tempfile::tempdir().unwrap();
    start_caddy(&rules(), dir.path()).check();
}

/// Caddy with the rules imported.
fn start_caddy(rules: &ServerRules, dir: &Path) -> Running {
    let caddy = program("caddy", "caddy");
    let www = site(dir);
    let port = free_port();
    let d = dir.display();
    std::fs::write(dir.join("crawlgate.caddy"), rules.caddy()).unwrap();
    let conf = format!(
        "{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {d}/storage\n}}\n\
         http://127.0.0.1:{port} {{\n\troot * {}\n\timport {d}/crawlgate.caddy\n\tfile_server\n}}\n",
        www.display()
    );
    std::fs::write(dir.join("Caddyfile"), conf).unwrap();
    let mut command = Command::new(caddy);
    command
        .args([
            "run",
            "--config",
            &format!("{d}/Caddyfile"),
            "--adapter",
            "caddyfile",
        ])
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("XDG_DATA_HOME", dir);
    Running::start("caddy", command, port, &dir.join("stderr.log"))
}

#[test]
fn haproxy_answers_403_and_200() {
    let dir = tempfile::tempdir().unwrap();
    start_haproxy(&rules(), dir.path()).check();
}

/// HAProxy with the rules in its frontend.
fn start_haproxy(rules: &ServerRules, dir: &Path) -> Running {
    let haproxy = program("haproxy", "haproxy");
    let port = free_port();
    let d = dir.display();
    let snippet: String = rules
        .haproxy()
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    let conf = format!(
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 5s\n    timeout server 5s\n\
         frontend web\n    bind 127.0.0.1:{port}\n{snippet}    http-request return status 200 content-type text/plain string ok\n"
    );
    std::fs::write(dir.join("haproxy.cfg"), conf).unwrap();
    let mut command = Command::new(haproxy);
    command.args(["-db", "-f", &format!("{d}/haproxy.cfg")]);
    Running::start("haproxy", command, port, &dir.join("stderr.log"))
}

/// GPTBot's feed lists 127.0.0.2 (denied: 403 whatever the User-Agent);
/// Anthropic's one feed, for ClaudeBot (denied) and Claude-User (let in),
/// lists 127.0.0.3 (not denied by address).
const DENIED_ADDRESS: [u8; 4] = [127, 0, 0, 2];
const SHARED_ADDRESS: [u8; 4] = [127, 0, 0, 3];
const OTHER_ADDRESS: [u8; 4] = [127, 0, 0, 1];

fn address_expectations() -> Vec<([u8; 4], &'static str, &'static str, u16)> {
    vec![
        (DENIED_ADDRESS, BROWSER, "/", 403),
        (DENIED_ADDRESS, BROWSER, "/page.html", 403),
        (DENIED_ADDRESS, GOOGLEBOT, "/", 403),
        (DENIED_ADDRESS, BROWSER, "/robots.txt", 200),
        (OTHER_ADDRESS, BROWSER, "/", 200),
        (OTHER_ADDRESS, BROWSER, "/page.html", 200),
        (OTHER_ADDRESS, GPTBOT, "/", 403),
        (SHARED_ADDRESS, BROWSER, "/", 200),
        (SHARED_ADDRESS, BROWSER, "/page.html", 200),
    ]
}

/// The lab's mirror of every feed, with GPTBot's and Anthropic's feeds
/// listing loopback addresses, read by the audit's feed reader (as the
/// CLI reads it), handed to the policy as crawler -> prefixes.
fn address_rules(dir: &Path) -> ServerRules {
    use crawlgate_audit::identity::feeds::{mirror_path, parse_feed};
    use crawlgate_policy::CrawlerRanges;
    let mirror = dir.join("mirror");
    crawlgate_test_support::access_log::Lab::generate(10, 1)
        .write_mirror(&mirror)
        .unwrap();
    let feed = |prefixes: &[&str]| {
        let list: Vec<String> = prefixes
            .iter()
            .map(|p| format!("{{\"ipv4Prefix\":\"{p}\"}}"))
            .collect();
        format!(
            "{{\"creationTime\":\"2026-11-28T00:00:00\",\"prefixes\":[{}]}}",
            list.join(",")
        )
    };
    std::fs::write(
        mirror.join("openai.com/gptbot.json"),
        feed(&["127.0.0.2/32", "20.171.206.0/24"]),
    )
    .unwrap();
    std::fs::write(
        mirror.join("claude.com/crawling/bots.json"),
        feed(&["127.0.0.3/32"]),
    )
    .unwrap();
    let mut ranges = Vec::new();
    for url in crawlgate::registry::verification::feeds() {
        let bytes = std::fs::read(mirror.join(mirror_path(url).unwrap())).unwrap();
        let feed = parse_feed(url, &bytes).unwrap();
        let prefixes = feed
            .listed
            .iter()
            .map(|p| p.to_string().parse().unwrap())
            .collect();
        ranges.extend(CrawlerRanges::of_feed(url, prefixes));
    }
    let written = write(&bar_policy())
        .unwrap()
        .with_ip_ranges(&ranges)
        .unwrap();
    let rules = written.server;
    assert!(rules
        .denied_ranges
        .contains(&"127.0.0.2/32".parse().unwrap()));
    assert!(!rules
        .denied_ranges
        .contains(&"127.0.0.3/32".parse().unwrap()));
    assert!(rules.denied_by_address.iter().any(|c| c.name == "GPTBot"));
    // Anthropic's feed serves Claude-User, which the policy lets in.
    assert!(
        rules
            .shared_ranges
            .iter()
            .any(|s| s.contains("ClaudeBot") && s.contains("Claude-User")),
        "{:?}",
        rules.shared_ranges
    );
    assert!(written
        .notes
        .iter()
        .any(|n| n.contains("ClaudeBot") && n.contains("not denied by address")));
    rules
}

#[test]
fn nginx_denies_the_denied_crawlers_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let rules = address_rules(dir.path());
    assert!(rules
        .nginx_http()
        .unwrap()
        .contains("# Not by address: 1 of the 1 ranges of ClaudeBot"));
    start_nginx(&rules, dir.path()).check_addresses();
}

#[test]
fn apache_denies_the_denied_crawlers_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let rules = address_rules(dir.path());
    assert!(rules.apache().contains("# Not by address:"));
    start_apache(&rules, dir.path()).check_addresses();
}

#[test]
fn caddy_denies_the_denied_crawlers_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let rules = address_rules(dir.path());
    assert!(rules.caddy().contains(" 20.171.206.0/24 127.0.0.2/32"));
    start_caddy(&rules, dir.path()).check_addresses();
}

#[test]
fn haproxy_denies_the_denied_crawlers_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let rules = address_rules(dir.path());
    assert!(rules
        .haproxy()
        .contains("acl crawlgate_denied_address src "));
    start_haproxy(&rules, dir.path()).check_addresses();
}

#[test]
fn a_missing_feed_is_a_clear_error() {
    let written = write(&bar_policy()).unwrap();
    let error = written.with_ip_ranges(&[]).unwrap_err().to_string();
    assert!(error.contains("are missing"), "{error}");
    assert!(error.contains("feed https://"), "{error}");
}
