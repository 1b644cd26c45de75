//! Limits and abuse (protocol.md 8): the per-address caps on sockets and new tables,
//! the WebSocket `Origin` check, the security headers and `GET /api/stats`.

mod common;

use std::time::Duration;

use common::{Server, WAIT, connect_all, fast_config, start};
use jass_engine::Contract;
use jass_protocol::{ClientMsg, ErrorCode};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A raw GET; returns the status, the lowercased header lines and the body.
async fn get(server: &Server, path: &str) -> (u16, Vec<String>, String) {
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out)).await.unwrap().unwrap();
    let text = String::from_utf8(out).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let headers = head.lines().skip(1).map(str::to_ascii_lowercase).collect();
    (status, headers, body.to_owned())
}

/// Opens a WebSocket with an optional `Origin`; `Ok` if upgraded, else the refusal's
/// status and body.
async fn upgrade(server: &Server, table: &str, origin: Option<&str>) -> Result<(), (u16, Value)> {
    let mut req = format!("ws://{}/ws/{table}", server.addr).into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(req)).await.unwrap() {
        Ok((ws, _)) => {
            drop(ws);
            Ok(())
        }
        Err(tungstenite::Error::Http(resp)) => {
            let body = resp.body().clone().unwrap_or_default();
            Err((resp.status().as_u16(), serde_json::from_slice(&body).unwrap_or(Value::Null)))
        }
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

async fn stats(server: &Server) -> Value {
    let (status, headers, body) = get(server, "/api/stats").await;
    assert_eq!(status, 200);
    assert!(headers.iter().any(|h| h == "cache-control: no-store"), "{headers:?}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test]
async fn sockets_per_address_are_capped_and_given_back() {
    let server = Server::start(jass_server::Config { max_connections_per_ip: 2, ..fast_config() }).await;
    let (table, token) = server.create(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&token)).await;
    let spectator = server.connect(&table, None).await;
    let (status, body) = upgrade(&server, &table, None).await.unwrap_err();
    assert_eq!((status, body["code"].as_str()), (429, Some("busy")), "{body}");
    // The refusal touched nobody: the host is still served.
    host.roundtrip(1).await;
    // A closed socket gives its slot back (once its task has finished).
    drop(spectator);
    let deadline = tokio::time::Instant::now() + WAIT;
    while upgrade(&server, &table, None).await.is_err() {
        assert!(tokio::time::Instant::now() < deadline, "the slot never came back");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stats(&server).await["per_ip_refusals"].as_u64().unwrap() >= 1);
}

#[tokio::test]
async fn table_creation_per_address_is_capped() {
    let server = Server::start(jass_server::Config { max_tables_per_ip: 2, ..fast_config() }).await;
    server.create(json!({"name": "Anna"})).await;
    server.create(json!({"name": "Ben"})).await;
    let (status, v) = server.post("/api/tables", json!({"name": "Carla"})).await;
    assert_eq!((status, v["code"].as_str()), (429, Some("busy")), "{v}");
    let s = stats(&server).await;
    assert_eq!((s["tables"].as_u64(), s["tables_created"].as_u64()), (Some(2), Some(2)));
    assert_eq!(s["table_rate_refusals"], 1);
    assert!(s["store"].is_null(), "no database, no store figures: {s}");
}

#[tokio::test]
async fn table_creation_window_reopens() {
    let config = jass_server::Config {
        max_tables_per_ip: 1,
        table_window: Duration::from_millis(200),
        ..fast_config()
    };
    let server = Server::start(config).await;
    server.create(json!({"name": "Anna"})).await;
    let (status, _) = server.post("/api/tables", json!({"name": "Ben"})).await;
    assert_eq!(status, 429);
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.create(json!({"name": "Ben"})).await;
}

#[tokio::test]
async fn origins_other_than_our_own_are_refused() {
    let config =
        jass_server::Config { allowed_origins: vec!["https://jass.example".into()], ..fast_config() };
    let server = Server::start(config).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let own = format!("http://{}", server.addr);
    upgrade(&server, &table, None).await.expect("no Origin: a bot");
    upgrade(&server, &table, Some(&own)).await.expect("the server's own origin");
    upgrade(&server, &table, Some("https://jass.example")).await.expect("an allowed origin");
    for bad in ["https://evil.example", "null", &format!("https://{}:1", server.addr.ip()), "file://x"] {
        let (status, body) = upgrade(&server, &table, Some(bad)).await.unwrap_err();
        assert_eq!((status, body["code"].as_str()), (403, Some("bad_origin")), "{bad}: {body}");
    }
    assert_eq!(stats(&server).await["origin_refusals"], 4);
}

#[tokio::test]
async fn security_headers_on_api_and_client() {
    let dir = std::env::temp_dir().join(format!("jass-server-headers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>Jass</title>").unwrap();
    let server = Server::start(jass_server::Config { web_dir: Some(dir.clone()), ..fast_config() }).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    for path in
        ["/", "/t/k3v9q2x7m4p8r6t1w5y0z2b8", "/healthz", "/api/stats", &format!("/api/tables/{table}")]
    {
        let (status, headers, _) = get(&server, path).await;
        assert_eq!(status, 200, "{path}");
        let has = |h: &str| headers.iter().any(|x| x == h);
        assert!(
            headers.iter().any(|h| h.starts_with("content-security-policy: default-src 'self';")
                && h.contains("frame-ancestors 'none'")),
            "{path}: {headers:?}"
        );
        assert!(has("x-content-type-options: nosniff"), "{path}");
        assert!(has("referrer-policy: no-referrer"), "{path}");
        assert!(has("x-frame-options: deny"), "{path}");
        assert_eq!(has("cache-control: no-store"), path.starts_with("/api/"), "{path}: {headers:?}");
    }
    let (status, headers, _) = get(&server, "/api/tables/nope").await;
    assert_eq!(status, 404);
    assert!(headers.iter().any(|h| h == "cache-control: no-store"), "errors too");
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn stats_count_sockets_messages_and_refusals() {
    let server = Server::start(fast_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    let mut spectator = server.connect(&table, None).await;
    start(&mut players).await;
    let s = stats(&server).await;
    assert_eq!(s["tables"], 1);
    assert_eq!(s["tables_created"], 1);
    assert_eq!(s["sockets_open"], 5);
    assert_eq!(s["seats_connected"], 4);
    assert_eq!(s["spectators"], 1);
    assert_eq!(s["messages_in"]["hello"], 5);
    assert_eq!(s["messages_in"]["start"], 1);
    assert_eq!(s["actions_accepted"], 1);
    assert!(s["uptime_seconds"].is_u64());

    // A spectator acting, a malformed frame, a move out of turn.
    let id = Some(spectator.id());
    assert_eq!(spectator.request(ClientMsg::Start { id }).await, Err(ErrorCode::NotSeated));
    spectator.send_text("{nope").await;
    assert_eq!(spectator.expect_error().await, ErrorCode::BadMessage);
    let to_act = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let other = &mut players[(to_act + 1) % 4];
    let (version, id) = (other.version(), Some(other.id()));
    let msg = ClientMsg::Choose { contract: Contract::Obenabe, version: Some(version), id };
    assert_eq!(other.request(msg).await, Err(ErrorCode::NotYourTurn));

    let s = stats(&server).await;
    assert_eq!(s["rejected"], json!({"not_seated": 1, "bad_message": 1, "not_your_turn": 1}));
    assert_eq!(s["malformed"], 1);
    assert_eq!(s["messages_in"]["choose"], 1);
    assert_eq!(s["messages_in"]["start"], 2);
    assert_eq!(s["actions_accepted"], 1);
    for zero in ["rate_limited_closes", "slow_send_closes", "per_ip_refusals", "origin_refusals"] {
        assert_eq!(s[zero], 0, "{zero}");
    }
}

#[tokio::test]
async fn stats_count_flood_closes() {
    let config = jass_server::Config { rate_burst: 2, rate_per_second: 1, rate_strikes: 2, ..fast_config() };
    let server = Server::start(config).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut c = server.connect(&table, None).await;
    for t in 0..20 {
        c.send(&ClientMsg::Ping { t, id: None }).await;
    }
    assert_eq!(c.expect_close().await, jass_protocol::close::RATE_LIMITED);
    let s = stats(&server).await;
    assert_eq!(s["rate_limited_closes"], 1);
    assert!(s["rejected"]["rate_limited"].as_u64().unwrap() >= 1);
}
