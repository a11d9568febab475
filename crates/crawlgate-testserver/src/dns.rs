//! A DNS server on 127.0.0.1 (UDP and TCP) answering a zone the test
//! writes: PTR, A and AAAA records, names that never get an answer
//! (silent) and names answered with a server failure. Every other name is
//! "no such name". Built on hickory's server crate; it runs on a thread of
//! its own and stops when dropped.
//!
//! ```
//! use crawlgate_testserver::dns::{DnsServer, Zone};
//!
//! let zone = Zone::new()
//!     .ptr("66.249.66.1".parse().unwrap(), "crawl-66-249-66-1.googlebot.com")
//!     .a("crawl-66-249-66-1.googlebot.com", "66.249.66.1".parse().unwrap())
//!     .silent_ptr("203.0.113.9".parse().unwrap());
//! let server = DnsServer::start(zone);
//! assert!(server.addr().ip().is_loopback());
//! ```

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use hickory_server::net::runtime::Time;
use hickory_server::proto::op::{Metadata, ResponseCode};
use hickory_server::proto::rr::rdata::{A, AAAA, PTR};
use hickory_server::proto::rr::{Name, RData, Record, RecordType};
use hickory_server::server::{Request, RequestHandler, ResponseHandler, ResponseInfo};
use hickory_server::zone_handler::MessageResponseBuilder;
use hickory_server::Server;
use tokio::sync::oneshot;

/// The reverse-lookup name of an address (`1.66.249.66.in-addr.arpa`).
pub fn reverse_name(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            format!("{}.{}.{}.{}.in-addr.arpa", o[3], o[2], o[1], o[0])
        }
        IpAddr::V6(v6) => {
            let mut nibbles = Vec::with_capacity(32);
            for byte in v6.octets().iter().rev() {
                nibbles.push(format!("{:x}", byte & 0xf));
                nibbles.push(format!("{:x}", byte >> 4));
            }
            format!("{}.ip6.arpa", nibbles.join("."))
        }
    }
}

fn key(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// What the server answers.
#[derive(Clone, Debug, Default)]
pub struct Zone {
    records: HashMap<(String, RecordType), Vec<RData>>,
    silent: HashSet<String>,
    failing: HashSet<String>,
}

impl Zone {
    /// An empty zone: every name is "no such name".
    pub fn new() -> Zone {
        Zone::default()
    }

    /// A PTR record for `ip` (call again for a second one).
    pub fn ptr(mut self, ip: IpAddr, name: &str) -> Zone {
        let target = Name::from_ascii(format!("{}.", key(name))).expect("a PTR target name");
        self.records
            .entry((reverse_name(ip), RecordType::PTR))
            .or_default()
            .push(RData::PTR(PTR(target)));
        self
    }

    /// An address record (A or AAAA) for `name`.
    pub fn a(mut self, name: &str, ip: IpAddr) -> Zone {
        let (kind, data) = match ip {
            IpAddr::V4(v4) => (RecordType::A, RData::A(A(v4))),
            IpAddr::V6(v6) => (RecordType::AAAA, RData::AAAA(AAAA(v6))),
        };
        self.records
            .entry((key(name), kind))
            .or_default()
            .push(data);
        self
    }

    /// The reverse lookup of `ip` never gets an answer.
    pub fn silent_ptr(mut self, ip: IpAddr) -> Zone {
        self.silent.insert(reverse_name(ip));
        self
    }

    /// Lookups of `name` never get an answer.
    pub fn silent_name(mut self, name: &str) -> Zone {
        self.silent.insert(key(name));
        self
    }

    /// The reverse lookup of `ip` gets a server failure.
    pub fn failing_ptr(mut self, ip: IpAddr) -> Zone {
        self.failing.insert(reverse_name(ip));
        self
    }
}

struct Handler {
    zone: Zone,
    queries: Arc<AtomicUsize>,
}

#[async_trait::async_trait]
impl RequestHandler for Handler {
    async fn handle_request<R: ResponseHandler, T: Time>(
        &self,
        request: &Request,
        mut response: R,
    ) -> ResponseInfo {
        self.queries.fetch_add(1, Ordering::SeqCst);
        let builder = MessageResponseBuilder::from_message_request(request);
        let Ok(info) = request.request_info() else {
            let message = builder.error_msg(&request.metadata, ResponseCode::FormErr);
            return response
                .send_response(message)
                .await
                .expect("send a response");
        };
        let name = key(&info.query.name().to_string());
        let kind = info.query.query_type();
        if self.zone.silent.contains(&name) {
            // Never answered: the client's timeout decides.
            std::future::pending::<()>().await;
        }
        if self.zone.failing.contains(&name) {
            let message = builder.error_msg(&request.metadata, ResponseCode::ServFail);
            return response
                .send_response(message)
                .await
                .expect("send a response");
        }
        let owner = Name::from_ascii(format!("{name}.")).expect("a query name");
        let answers: Vec<Record> = self
            .zone
            .records
            .get(&(name.clone(), kind))
            .into_iter()
            .flatten()
            .map(|data| Record::from_rdata(owner.clone(), 60, data.clone()))
            .collect();
        let exists = self.zone.records.keys().any(|(n, _)| *n == name);
        let mut metadata = Metadata::response_from_request(&request.metadata);
        metadata.authoritative = true;
        metadata.response_code = if answers.is_empty() && !exists {
            ResponseCode::NXDomain
        } else {
            ResponseCode::NoError
        };
        let message = builder.build(metadata, answers.iter(), [], [], []);
        response
            .send_response(message)
            .await
            .expect("send a response")
    }
}

/// A running DNS server.
pub struct DnsServer {
    addr: SocketAddr,
    queries: Arc<AtomicUsize>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl DnsServer {
    /// Starts a server on a free port of 127.0.0.1 (the same port for UDP
    /// and TCP). Panics when no port can be had.
    pub fn start(zone: Zone) -> DnsServer {
        let queries = Arc::new(AtomicUsize::new(0));
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let counter = queries.clone();
        let thread = std::thread::Builder::new()
            .name("dns testserver".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(async move {
                    // One port for both: bind UDP, then TCP on its port.
                    let (udp, tcp) = loop {
                        let udp = tokio::net::UdpSocket::bind("127.0.0.1:0")
                            .await
                            .expect("bind UDP");
                        let port = udp.local_addr().expect("an address").port();
                        if let Ok(tcp) = tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
                            break (udp, tcp);
                        }
                    };
                    let addr = udp.local_addr().expect("an address");
                    let mut server = Server::new(Handler {
                        zone,
                        queries: counter,
                    });
                    server.register_socket(udp);
                    server.register_listener(tcp, Duration::from_secs(5), 64 * 1024);
                    ready_tx.send(addr).expect("report the address");
                    let _ = stopped.await;
                    // Dropping the runtime ends every task, the silent
                    // ones that would never finish included.
                    drop(server);
                });
            })
            .expect("start the DNS thread");
        let addr = ready_rx.recv().expect("the DNS server started");
        DnsServer {
            addr,
            queries,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The address it listens on (UDP and TCP).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many queries it received.
    pub fn queries(&self) -> usize {
        self.queries.load(Ordering::SeqCst)
    }
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reverse_names() {
        assert_eq!(
            reverse_name("66.249.66.1".parse().unwrap()),
            "1.66.249.66.in-addr.arpa"
        );
        assert!(reverse_name("2001:db8::1".parse().unwrap()).starts_with("1.0.0.0."));
        assert!(reverse_name("2001:db8::1".parse().unwrap()).ends_with(".8.b.d.0.1.0.0.2.ip6.arpa"));
    }
}
