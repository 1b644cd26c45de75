//! Routing through the balancer (test T0 of the scale-out design, README "Many
//! nodes"): the repository's `deploy/haproxy.cfg` on a real HAProxy in front of two
//! real server binaries, on loopback. It settles what the server's failover relies on
//! before any of it depends on the balancer:
//!
//! 1. a new table goes to the least-loaded node, and every later request naming it
//!    (`/t/ID`, `/api/tables/ID`, `/api/tables/ID/seats`, `/ws/ID`) to that node;
//! 2. when that node dies, the table's requests go to the other node at once;
//! 3. when the dead node is back, a table that moved stays where it moved (the stick
//!    entry was rewritten by the request that moved it), and one that never moved
//!    goes back to its node.
//!
//! Every connection to a node starts with the client's address (PROXY protocol v2,
//! `--trusted-proxy`), so a node's per-address limits and operator check see players.
//!
//! The nodes here keep separate SQLite files, so a moved table is unknown where it
//! lands (404): this test is about where requests go, not about what a node does
//! with a table it does not hold.

mod binary;
mod cluster;
mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use binary::{Proc, cleanup, free_port, temp_db};
use cluster::{Balancer, OPEN};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One HTTP/1.1 exchange: status, lower-cased headers, body.
struct Reply {
    status: u16,
    headers: HashMap<String, String>,
    body: String,
}

impl Reply {
    fn node(&self) -> &str {
        self.headers.get("x-jass-node").map_or("(none)", String::as_str)
    }
}

async fn request(addr: SocketAddr, method: &str, path: &str, body: &str, extra: &str) -> Reply {
    request_from("127.0.0.1", addr, method, path, body, extra).await
}

/// [`request`] from a chosen loopback address.
async fn request_from(
    from: &str,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    extra: &str,
) -> Reply {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: jass.test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra}connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    if extra.contains("upgrade") {
        // A WebSocket upgrade stays open: read the head only.
        let mut buf = [0u8; 4096];
        while !out.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf)).await.unwrap().unwrap();
            assert!(n > 0, "closed before the answer");
            out.extend_from_slice(&buf[..n]);
        }
    } else {
        tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await.unwrap().unwrap();
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Reply { status, headers, body: body.to_owned() }
}

/// Which node each path of `table` reached.
async fn nodes_of(addr: SocketAddr, table: &str) -> Vec<String> {
    let ws =
        "upgrade: websocket\r\nsec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let mut out = Vec::new();
    for (method, path, body, extra) in [
        ("GET", format!("/api/tables/{table}"), "", ""),
        ("GET", format!("/t/{table}"), "", ""),
        ("POST", format!("/api/tables/{table}/seats"), r#"{"name":"Ben"}"#, ""),
        ("GET", format!("/ws/{table}"), "", ws),
    ] {
        out.push(request(addr, method, &path, body, extra).await.node().to_owned());
    }
    out
}

/// Waits until `ok` holds for every table (the balancer's health check needs a moment).
async fn until(what: &str, mut ok: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !ok().await {
        assert!(Instant::now() < deadline, "{what}: not within 15 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

const TABLES: usize = 60;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn haproxy_routes_a_table_to_its_node_moves_it_when_the_node_dies_and_not_back() {
    let dbs = [temp_db("route-n1"), temp_db("route-n2")];
    let ports = [free_port(), free_port()];
    let start = |i: usize| {
        let db = dbs[i].clone();
        let name = format!("n{}", i + 1);
        async move {
            let mut args: Vec<&str> = OPEN.to_vec();
            args.extend(["--node-name", name.as_str(), "--trusted-proxy", "127.0.0.1"]);
            Proc::start(&db, ports[i], &args).await
        }
    };
    let mut n1 = start(0).await;
    let _n2 = start(1).await;
    let addrs = [n1.addr, _n2.addr];
    let log = dbs[0].with_extension("haproxy.log");
    let lb = Balancer::start(addrs, &log).await;
    // Both nodes seen healthy before the first table.
    until("both nodes up", async || {
        let a = request(lb.addr, "GET", "/healthz", "", "").await;
        let b = request(lb.addr, "GET", "/healthz", "", "").await;
        a.node() != b.node()
    })
    .await;

    // The nodes see the players' addresses, not the balancer's (PROXY protocol): a
    // player on 127.0.0.2 is no operator, though the balancer is on this machine.
    let r = request_from("127.0.0.2", lb.addr, "GET", "/api/stats", "", "").await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("operator_only"));
    assert_eq!(
        request(lb.addr, "GET", "/api/stats", "", "").await.status,
        200,
        "the operator on this machine"
    );

    // 1. New tables spread over both nodes, and stick to the one that made them.
    let mut made: Vec<(String, String)> = Vec::new();
    for _ in 0..TABLES {
        let r = request(lb.addr, "POST", "/api/tables", r#"{"name":"Anna"}"#, "").await;
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.headers.get("x-jass-table").cloned().expect("the new table's id as a header");
        assert!(r.body.contains(&id));
        made.push((id, r.node().to_owned()));
    }
    let on_n1 = made.iter().filter(|(_, n)| n == "n1").count();
    assert!(
        (TABLES / 3..=TABLES * 2 / 3).contains(&on_n1),
        "{on_n1} of {TABLES} tables on n1: not the least-loaded node"
    );
    for (table, node) in &made {
        let seen = nodes_of(lb.addr, table).await;
        assert!(seen.iter().all(|n| n == node), "{table} made on {node}, reached {seen:?}");
    }

    // 2. n1 dies: its tables' requests reach n2 (where, with separate files, they are
    // unknown: 404), the others stay on n2.
    n1.kill9();
    // Asked at once, a request for n1 is refused and sent on (`option redispatch`)...
    let first = made.iter().find(|(_, n)| n == "n1").map(|(t, _)| t.clone()).unwrap();
    let r = request(lb.addr, "GET", &format!("/api/tables/{first}"), "", "").await;
    assert_eq!(r.node(), "n2", "right after the kill");
    // ... and after the health checks mark it down (2 × 500 ms), nothing is tried on it.
    until("n1 marked down", async || {
        let r = request(lb.stats, "GET", "/stats;csv", "", "").await;
        r.body.lines().any(|l| l.starts_with("tables,n1,") && l.contains(",DOWN,"))
    })
    .await;
    let moved: Vec<&str> = made.iter().filter(|(_, n)| n == "n1").map(|(t, _)| t.as_str()).collect();
    let stayed: Vec<&str> = made.iter().filter(|(_, n)| n == "n2").map(|(t, _)| t.as_str()).collect();
    for table in &moved {
        let r = request(lb.addr, "GET", &format!("/api/tables/{table}"), "", "").await;
        assert_eq!((r.node(), r.status), ("n2", 404), "{table} after n1 died");
    }
    for table in &moved {
        assert!(nodes_of(lb.addr, table).await.iter().all(|n| n == "n2"));
    }

    // 3. n1 is back: what moved stays on n2; no table moves back to n1 behind the
    // players' backs.
    let n1 = start(0).await;
    until("n1 marked up again", async || {
        let r = request(lb.stats, "GET", "/stats;csv", "", "").await;
        r.body.lines().any(|l| l.starts_with("tables,n1,") && l.contains(",UP,"))
    })
    .await;
    for table in moved.iter().chain(&stayed) {
        let seen = nodes_of(lb.addr, table).await;
        assert!(seen.iter().all(|n| n == "n2"), "{table} reached {seen:?} after n1 came back");
    }
    // A table made now may go to n1 again, and sticks there.
    let r = request(lb.addr, "POST", "/api/tables", r#"{"name":"Anna"}"#, "").await;
    let id = r.headers.get("x-jass-table").cloned().unwrap();
    let node = r.node().to_owned();
    assert!(nodes_of(lb.addr, &id).await.iter().all(|n| *n == node));

    drop(lb);
    drop(n1);
    for db in &dbs {
        cleanup(db);
    }
}
