//! Behind a balancer (`--trusted-proxy`): the client's address comes from the PROXY
//! header the balancer sends, so the operator check and the per-address limits see
//! players, not the balancer (README, "Many nodes"). Only a trusted address may send
//! one; a trusted connection without one is not served.

mod common;

use std::time::Duration;

use common::{Server, WAIT, fast_config};
use jass_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";

/// A version 2 header for a TCP/IPv4 client.
fn v2(client: [u8; 4], port: u16) -> Vec<u8> {
    let mut h = SIGNATURE.to_vec();
    h.extend([0x21, 0x11, 0, 12]);
    h.extend(client);
    h.extend([127, 0, 0, 1]);
    h.extend(port.to_be_bytes());
    h.extend(8080u16.to_be_bytes());
    h
}

async fn connect_from(from: &str, server: &Server) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(server.addr).await.unwrap()
}

/// Sends `prefix` and a GET of `/api/stats`; returns the status line's code, or 0 if
/// the connection closed without an answer.
async fn stats_status(mut s: TcpStream, prefix: &[u8]) -> u16 {
    let mut req = prefix.to_vec();
    req.extend_from_slice(b"GET /api/stats HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    s.write_all(&req).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap();
    String::from_utf8_lossy(&out).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

fn behind_balancer() -> Config {
    Config {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        http_header_timeout: Duration::from_secs(2),
        ..fast_config()
    }
}

#[tokio::test]
async fn the_client_in_the_proxy_header_is_who_the_server_sees() {
    let server = Server::start(behind_balancer()).await;
    // A player elsewhere, behind the balancer on this machine: no operator.
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, &v2([192, 0, 2, 7], 51000)).await, 403);
    // The operator on the balancer's machine, in both versions of the header.
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, &v2([127, 0, 0, 1], 51000)).await, 200);
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, b"PROXY TCP4 127.0.0.1 127.0.0.1 51000 8080\r\n").await, 200);
    // The balancer's own health check (LOCAL) is served as the balancer.
    let mut local = SIGNATURE.to_vec();
    local.extend([0x20, 0x00, 0, 0]);
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, &local).await, 200);
}

#[tokio::test]
async fn only_a_trusted_address_may_name_a_client_and_it_must() {
    let server = Server::start(behind_balancer()).await;
    // From the trusted balancer a request without a header is not served at all: the
    // balancer is misconfigured, and guessing would make everyone the balancer.
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, b"").await, 0);
    // From anyone else a PROXY header is no HTTP: it claims nothing.
    let s = connect_from("127.0.0.2", &server).await;
    assert_eq!(stats_status(s, &v2([127, 0, 0, 1], 51000)).await, 400);
    // A header cut short or too long is refused, and the server serves on.
    let s = connect_from("127.0.0.1", &server).await;
    let mut long = SIGNATURE.to_vec();
    long.extend([0x21, 0x11, 0xFF, 0xFF]);
    assert_eq!(stats_status(s, &long).await, 0);
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, &v2([127, 0, 0, 1], 1)).await, 200);
}

#[tokio::test]
async fn without_trusted_proxies_a_proxy_header_is_never_read() {
    let server = Server::start(fast_config()).await;
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, &v2([192, 0, 2, 7], 51000)).await, 400);
    let s = connect_from("127.0.0.1", &server).await;
    assert_eq!(stats_status(s, b"").await, 200);
}
