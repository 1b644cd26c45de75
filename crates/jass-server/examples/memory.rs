//! Measures the server's memory per table: against a running server, opens `N`
//! tables with four seated sockets each, starts every game, plays a card per table
//! and keeps the sockets open (answering pings) so the server's RSS can be read.
//!
//! ```text
//! cargo run --release -p jass-server -- --max-connections-per-ip 40000 \
//!     --max-tables-per-ip 100000 &                  # note its pid (all sockets are from 127.0.0.1)
//! grep VmRSS /proc/$PID/status                    # before
//! cargo run --release -p jass-server --example memory -- 127.0.0.1:8080 500
//! grep VmRSS /proc/$PID/status                    # after, while this holds the sockets
//! ```
//!
//! This holds every table in its first round. Memory over whole games (every table
//! playing 15 rounds, read with the sockets open) is `jass-loadgen --rounds 15`.
//!
//! A measuring tool run by hand against a server of one's own: any failure (server
//! down, an unexpected reply) ends it at once with a panic at the failing step, which
//! is all a measurement needs. It is not part of the server; no client reaches it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

async fn post(addr: &str, path: &str, body: Value) -> Value {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let (_, body) = out.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let addr = args.get(1).cloned().unwrap_or_else(|| "127.0.0.1:8080".into());
    let tables: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    let hold = Duration::from_secs(args.get(3).and_then(|n| n.parse().ok()).unwrap_or(30));
    let mut readers = Vec::new();
    for _ in 0..tables {
        let created = post(&addr, "/api/tables", json!({"name": "Anna"})).await;
        let table = created["table"].as_str().unwrap().to_owned();
        let mut tokens = vec![created["token"].as_str().unwrap().to_owned()];
        for (seat, name) in [(1, "Ben"), (2, "Carla"), (3, "Dan")] {
            let j =
                post(&addr, &format!("/api/tables/{table}/seats"), json!({"name": name, "seat": seat})).await;
            tokens.push(j["token"].as_str().unwrap().to_owned());
        }
        let mut sockets = Vec::new();
        for t in &tokens {
            let (mut ws, _) =
                tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{table}")).await.unwrap();
            ws.send(Message::Text(json!({"type": "hello", "protocol": 1, "token": t}).to_string().into()))
                .await
                .unwrap();
            sockets.push(ws);
        }
        sockets[0].send(Message::Text(json!({"type": "start", "id": 1}).to_string().into())).await.unwrap();
        // Whoever is to act chooses, so every table holds a game mid-round.
        let mut latest: Vec<Option<Value>> = vec![None; 4];
        'wait: loop {
            for (s, ws) in sockets.iter_mut().enumerate() {
                if let Ok(Some(Ok(Message::Text(t)))) =
                    tokio::time::timeout(Duration::from_millis(20), ws.next()).await
                {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    if v["type"] == "state" && !v["view"]["game"].is_null() {
                        latest[s] = Some(v);
                    }
                }
                if let Some(v) = &latest[s]
                    && v["view"]["game"]["allowed"]["choose"] == true
                {
                    let msg = json!({"type": "choose", "contract": "obenabe", "id": 2});
                    ws.send(Message::Text(msg.to_string().into())).await.unwrap();
                    break 'wait;
                }
            }
        }
        for mut ws in sockets {
            readers.push(tokio::spawn(async move { while let Some(Ok(_)) = ws.next().await {} }));
        }
    }
    println!("{tables} tables with 4 sockets each are open; holding them for {} s", hold.as_secs());
    tokio::time::sleep(hold).await;
    for r in readers {
        r.abort();
    }
}
