//! The HTTP layer against strangers (protocol.md 1 and 8): slow and idle connections
//! are closed, one address cannot hold more than its share of connections or requests,
//! cross-site bodies are refused, and an oversized WebSocket frame ends in a close a
//! plain stream can read.
//!
//! Abusive clients connect from 127.0.0.2 (still loopback), so the test's own
//! requests from 127.0.0.1 show that everyone else is still served.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Server, WAIT, fast_config};
use jass_server::Config;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;

/// A connection to `server` from 127.0.0.2.
async fn from_other_address(server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.2:0".parse().unwrap()).unwrap();
    socket.connect(server).await.unwrap()
}

/// Reads until the server closes; returns what came, or panics after `within`.
async fn until_closed(tcp: &mut TcpStream, within: Duration) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Err(_) => panic!("still open after {within:?}; got {:?}", String::from_utf8_lossy(&got)),
            Ok(Ok(0) | Err(_)) => return got,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Writes `bytes` one at a time, `every` apart, until done or the server closes.
fn trickle(mut w: tokio::net::tcp::OwnedWriteHalf, bytes: Vec<u8>, every: Duration) {
    tokio::spawn(async move {
        for b in bytes {
            if w.write_all(&[b]).await.is_err() {
                return;
            }
            tokio::time::sleep(every).await;
        }
    });
}

async fn stats(server: &Server) -> Value {
    let (status, body) = server.http("GET", "/api/stats", None).await;
    assert_eq!(status, 200);
    serde_json::from_str(&body).unwrap()
}

// The four slowloris kinds (idle, trickling headers, trickling body, idle keep-alive)
// are closed once their timeout has passed.
#[tokio::test]
async fn idle_and_trickling_connections_are_closed_after_their_timeouts() {
    let config = Config {
        http_header_timeout: Duration::from_millis(300),
        http_body_timeout: Duration::from_millis(300),
        ..fast_config()
    };
    let server = Server::start(config).await;
    let bound = Duration::from_secs(3);

    let mut idle = from_other_address(server.addr).await;

    let (mut headers_r, headers_w) = from_other_address(server.addr).await.into_split();
    trickle(
        headers_w,
        b"GET /healthz HTTP/1.1\r\nhost: test\r\nx-slow: ".repeat(20),
        Duration::from_millis(50),
    );

    let (mut body_r, mut body_w) = from_other_address(server.addr).await.into_split();
    let head = "POST /api/tables HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n\
                content-length: 1000\r\n\r\n";
    body_w.write_all(head.as_bytes()).await.unwrap();
    trickle(body_w, vec![b' '; 1000], Duration::from_millis(50));

    let mut keep_alive = from_other_address(server.addr).await;
    keep_alive.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n").await.unwrap();

    let started = Instant::now();
    until_closed(&mut idle, bound).await;
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + bound;
    let mut first = Vec::new();
    while !first.ends_with(b"ok") {
        let n = tokio::time::timeout_at(deadline, keep_alive.read(&mut buf)).await.unwrap().unwrap();
        assert!(n > 0, "closed before answering");
        first.extend_from_slice(&buf[..n]);
    }
    assert!(first.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&first));
    until_closed(&mut keep_alive, bound).await;
    let mut raw = half_until_closed(&mut headers_r, bound).await;
    assert!(raw.is_empty(), "an unfinished head gets no answer: {}", String::from_utf8_lossy(&raw));
    raw = half_until_closed(&mut body_r, bound).await;
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 408"), "a trickled body gets 408: {text}");
    assert!(started.elapsed() >= Duration::from_millis(300), "not before the timeout");
    assert!(stats(&server).await["http_timeouts"].as_u64().unwrap() >= 4);
}

/// [`until_closed`] on a read half.
async fn half_until_closed(r: &mut tokio::net::tcp::OwnedReadHalf, within: Duration) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, r.read(&mut buf)).await {
            Err(_) => panic!("still open after {within:?}; got {:?}", String::from_utf8_lossy(&got)),
            Ok(Ok(0) | Err(_)) => return got,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

// Once an address holds its most HTTP connections, its next one is refused at once,
// while other addresses (health check, upgrades) are served.
#[tokio::test]
async fn the_http_connections_of_one_address_are_capped() {
    let config = Config { max_http_connections_per_ip: 3, ..fast_config() };
    let server = Server::start(config).await;
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(from_other_address(server.addr).await);
    }
    // Accepted in order, so the fourth finds the three counted.
    let mut refused = from_other_address(server.addr).await;
    let text = String::from_utf8(until_closed(&mut refused, WAIT).await).unwrap();
    assert!(text.starts_with("HTTP/1.1 429"), "{text}");
    assert!(text.contains(r#""code":"busy""#), "{text}");

    let (status, body) = server.http("GET", "/healthz", None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    let mut host = server.connect(&table, Some(&token)).await;
    host.roundtrip(1).await;

    // A closed connection gives its slot back.
    drop(held.pop());
    let deadline = Instant::now() + WAIT;
    loop {
        let mut c = from_other_address(server.addr).await;
        c.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n").await.unwrap();
        if until_closed(&mut c, WAIT).await.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "the slot never came back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stats(&server).await["http_connection_refusals"].as_u64().unwrap() >= 1);
}

/// A request from 127.0.0.2; returns the status and the raw answer.
async fn request_from_other(server: &Server, head: &str, body: &str) -> (u16, String) {
    let mut c = from_other_address(server.addr).await;
    let req = format!("{head}content-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
    c.write_all(req.as_bytes()).await.unwrap();
    let text = String::from_utf8(until_closed(&mut c, WAIT).await).unwrap();
    (text.split(' ').nth(1).unwrap().parse().unwrap(), text)
}

// A burst of table API requests from one address is answered 429 `rate_limited` beyond
// its bucket; other addresses and the games go on.
#[tokio::test]
async fn a_burst_of_api_requests_from_one_address_gets_429() {
    let config = Config { http_rate_burst: 5, http_rate_per_second: 1, ..fast_config() };
    let server = Server::start(config).await;
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    let look = format!("GET /api/tables/{table} HTTP/1.1\r\nhost: test\r\n");
    let record = format!("GET /api/tables/{table}/record HTTP/1.1\r\nhost: test\r\n");
    let mut statuses = Vec::new();
    for i in 0..8 {
        statuses.push(request_from_other(&server, if i % 2 == 0 { &look } else { &record }, "").await);
    }
    let codes: Vec<u16> = statuses.iter().map(|(s, _)| *s).collect();
    assert_eq!(codes, [200, 400, 200, 400, 200, 429, 429, 429], "{statuses:?}");
    let (_, refused) = &statuses[5];
    assert!(refused.contains(r#""code":"rate_limited""#), "{refused}");
    assert!(refused.to_ascii_lowercase().contains("retry-after: 1"), "{refused}");
    // Creating and joining are in the same bucket.
    let create = "POST /api/tables HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n";
    assert_eq!(request_from_other(&server, create, r#"{"name":"Eve"}"#).await.0, 429);

    // Everyone else is served, and the table plays on.
    let (status, _) = server.http("GET", &format!("/api/tables/{table}"), None).await;
    assert_eq!(status, 200);
    host.roundtrip(1).await;
    assert!(stats(&server).await["http_rate_limited"].as_u64().unwrap() >= 4);
    // The bucket refills.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(request_from_other(&server, &look, "").await.0, 200);
}

// A made-up table id is answered without reading the store.
#[tokio::test]
async fn a_record_of_a_made_up_id_is_404() {
    let server = Server::start(fast_config()).await;
    for id in ["nope", "k3v9q2x7m4p8r6t1w5y0z2b8xx", "K3V9Q2X7M4P8R6T1W5Y0Z2B8XX", &"x".repeat(500)] {
        let (status, body) = server.http("GET", &format!("/api/tables/{id}/record"), None).await;
        assert_eq!(status, 404, "{id}: {body}");
    }
}

// Create and join take only `application/json`, and a foreign `Origin` is refused as
// for the WebSocket upgrade.
#[tokio::test]
async fn cross_site_bodies_and_origins_are_refused() {
    let server = Server::start(fast_config()).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let own = format!("http://{}", server.addr);
    let seats = format!("/api/tables/{table}/seats");
    let post = |path: &str, extra: &str| format!("POST {path} HTTP/1.1\r\nhost: {}\r\n{extra}", server.addr);
    let create = r#"{"name":"Ben"}"#;
    let join = r#"{"name":"Ben","seat":1}"#;
    for (path, body) in [("/api/tables", create), (seats.as_str(), join)] {
        for ct in [
            "content-type: text/plain\r\n",
            "content-type: application/x-www-form-urlencoded\r\n",
            "content-type: multipart/form-data; boundary=x\r\n",
            "",
        ] {
            let (status, text) = request_from_other(&server, &post(path, ct), body).await;
            assert_eq!(status, 415, "{path} {ct:?}: {text}");
            assert!(text.contains(r#""code":"bad_message""#), "{text}");
        }
        let json_ct = "content-type: application/json\r\n";
        for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
            let extra = format!("{json_ct}origin: {origin}\r\n");
            let (status, text) = request_from_other(&server, &post(path, &extra), body).await;
            assert_eq!(status, 403, "{path} {origin}: {text}");
            assert!(text.contains(r#""code":"bad_origin""#), "{text}");
        }
    }
    // The server's own page, a bot without Origin, and a charset parameter pass.
    let extra = format!("content-type: application/json; charset=utf-8\r\norigin: {own}\r\n");
    assert_eq!(request_from_other(&server, &post("/api/tables", &extra), create).await.0, 201);
    assert_eq!(request_from_other(&server, &post(&seats, &extra), join).await.0, 201);
    let (status, _) = server.post("/api/tables", json!({"name": "Carla"})).await;
    assert_eq!(status, 201);
    assert_eq!(stats(&server).await["cross_site_refusals"], 14);
}

// After an oversized frame a plain TCP client reads the close 1009 and then the end of
// the stream, not a connection reset.
#[tokio::test]
async fn an_oversized_frame_ends_in_a_clean_close_1009() {
    let server = Server::start(fast_config()).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    let upgrade = format!(
        "GET /ws/{table} HTTP/1.1\r\nhost: test\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\
         sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
    );
    tcp.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        tokio::time::timeout(WAIT, tcp.read_exact(&mut byte)).await.unwrap().unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));

    // A masked text frame of 32 KiB, far over the 4096-byte limit, sent whole.
    let len: u64 = 32 * 1024;
    let mut frame = vec![0x81, 0x80 | 127];
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend(std::iter::repeat_n(b'x' ^ 1, usize::try_from(len).unwrap()));
    tcp.write_all(&frame).await.unwrap();

    // Everything the server sends, up to its end of stream; a reset fails here.
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(WAIT, tcp.read(&mut buf)).await.expect("closed in time") {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => panic!("the connection was reset instead of closed ({e}); got {got:?}"),
        }
    }
    // The server's frames (unmasked): find the close frame.
    let mut rest = got.as_slice();
    let code = loop {
        assert!(rest.len() >= 2, "no close frame in {got:?}");
        let (op, n) = (rest[0] & 0x0f, usize::from(rest[1] & 0x7f));
        assert!(n < 126, "short server frames only");
        if op == 0x8 {
            break u16::from_be_bytes([rest[2], rest[3]]);
        }
        rest = &rest[2 + n..];
    };
    assert_eq!(code, jass_protocol::close::TOO_BIG);
}

/// `GET /api/stats` from 127.0.0.2 with these extra header lines: status and body.
async fn stats_from_other_address(server: SocketAddr, headers: &str) -> (u16, String) {
    let mut tcp = from_other_address(server).await;
    let req = format!("GET /api/stats HTTP/1.1\r\nhost: test\r\n{headers}connection: close\r\n\r\n");
    tcp.write_all(req.as_bytes()).await.unwrap();
    let got = String::from_utf8(until_closed(&mut tcp, WAIT).await).unwrap();
    let status = got.split(' ').nth(1).unwrap().parse().unwrap();
    (status, got.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default())
}

// The operator's counters (which list quarantined tables, i.e. their links) answer
// the server's own machine or the operator's token, and no one else: 127.0.0.2 is
// loopback but not the machine's own address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_counters_answer_the_operator_only() {
    let server = Server::start(Config { stats_token: Some("s3cret".into()), ..fast_config() }).await;
    let (status, body) = server.http("GET", "/api/stats", None).await;
    assert_eq!(status, 200, "127.0.0.1: {body}");
    assert!(body.contains("uptime_seconds"), "{body}");
    for headers in ["", "authorization: Bearer wrong\r\n", "authorization: s3cret\r\n"] {
        let (status, body) = stats_from_other_address(server.addr, headers).await;
        assert_eq!(status, 403, "{headers:?}: {body}");
        assert!(body.contains("operator_only") && !body.contains("uptime"), "{body}");
    }
    let (status, body) = stats_from_other_address(server.addr, "authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, 200, "{body}");
    // Without a token configured only the machine itself is let in.
    let plain = Server::start(fast_config()).await;
    let (status, _) = stats_from_other_address(plain.addr, "authorization: Bearer s3cret\r\n").await;
    assert_eq!(status, 403);
    // Players' endpoints still answer everyone.
    let mut tcp = from_other_address(plain.addr).await;
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n").await.unwrap();
    let got = String::from_utf8(until_closed(&mut tcp, WAIT).await).unwrap();
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
}
