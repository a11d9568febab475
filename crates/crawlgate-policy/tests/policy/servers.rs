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
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
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
    let nginx = program("nginx", "nginx");
    let dir = tempfile::tempdir().unwrap();
    let www = site(dir.path());
    let port = free_port();
    let d = dir.path().display();
    std::fs::write(dir.path().join("crawlgate.conf"), rules().nginx()).unwrap();
    let conf = format!(
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{}}\nhttp {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  \
         proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  \
         scgi_temp_path {d}/scgi;\n  server {{\n    listen 127.0.0.1:{port};\n    root {};\n    \
         include {d}/crawlgate.conf;\n  }}\n}}\n",
        www.display()
    );
    std::fs::write(dir.path().join("nginx.conf"), conf).unwrap();
    let mut command = Command::new(nginx);
    command.args([
        "-p",
        &d.to_string(),
        "-c",
        &format!("{d}/nginx.conf"),
        "-e",
        &format!("{d}/error.log"),
    ]);
    Running::start("nginx", command, port, &dir.path().join("stderr.log")).check();
}

#[test]
fn apache_answers_403_and_200() {
    let apache = program("apache2", "apache2");
    let dir = tempfile::tempdir().unwrap();
    let www = site(dir.path());
    let port = free_port();
    let d = dir.path().display();
    std::fs::write(dir.path().join("crawlgate.conf"), rules().apache()).unwrap();
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
    std::fs::write(dir.path().join("httpd.conf"), conf).unwrap();
    let mut command = Command::new(apache);
    command.args(["-f", &format!("{d}/httpd.conf"), "-DFOREGROUND"]);
    Running::start("apache2", command, port, &dir.path().join("stderr.log")).check();
}

#[test]
fn caddy_answers_403_and_200() {
    let caddy = program("caddy", "caddy");
    let dir = tempfile::tempdir().unwrap();
    let www = site(dir.path());
    let port = free_port();
    let d = dir.path().display();
    std::fs::write(dir.path().join("crawlgate.caddy"), rules().caddy()).unwrap();
    let conf = format!(
        "{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {d}/storage\n}}\n\
         http://127.0.0.1:{port} {{\n\troot * {}\n\timport {d}/crawlgate.caddy\n\tfile_server\n}}\n",
        www.display()
    );
    std::fs::write(dir.path().join("Caddyfile"), conf).unwrap();
    let mut command = Command::new(caddy);
    command
        .args([
            "run",
            "--config",
            &format!("{d}/Caddyfile"),
            "--adapter",
            "caddyfile",
        ])
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path());
    Running::start("caddy", command, port, &dir.path().join("stderr.log")).check();
}

#[test]
fn haproxy_answers_403_and_200() {
    let haproxy = program("haproxy", "haproxy");
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let d = dir.path().display();
    let snippet: String = rules()
        .haproxy()
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    let conf = format!(
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 5s\n    timeout server 5s\n\
         frontend web\n    bind 127.0.0.1:{port}\n{snippet}    http-request return status 200 content-type text/plain string ok\n"
    );
    std::fs::write(dir.path().join("haproxy.cfg"), conf).unwrap();
    let mut command = Command::new(haproxy);
    command.args(["-db", "-f", &format!("{d}/haproxy.cfg")]);
    Running::start("haproxy", command, port, &dir.path().join("stderr.log")).check();
}
