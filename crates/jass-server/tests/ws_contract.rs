//! The WebSocket contract of protocol.md sections 2, 4 and 8 that a client written from
//! the document relies on (protocol.md 2 and 8): every request with an `id` gets one
//! answer carrying it, pings are rate limited like messages, an accepted request's
//! state comes before its ack even while the server stops, and an oversized frame ends
//! in a clean close 1009 a plain stream can read.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{Got, Server, WAIT, fast_config};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg, close};
use jass_server::store::{Entry, StoreFuture};
use jass_server::{Config, MemoryStore, Store};
use serde_json::json;
use tokio::sync::{Notify, oneshot};
use tokio_tungstenite::tungstenite::Message;

// A request refused `rate_limited` is answered with its `id`, and no request goes
// unanswered.
#[tokio::test]
async fn every_request_with_an_id_gets_one_answer_with_it_also_when_rate_limited() {
    let server = Server::start(fast_config()).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut spectator = server.connect(&table, None).await;
    // hello took one of the 20; 19 are answered `not_seated`, the rest `rate_limited`
    // (fewer than the 10 refusals in a row that close the socket).
    let ids: Vec<u64> = (100..125).collect();
    for id in &ids {
        spectator.send(&ClientMsg::Start { id: Some(*id) }).await;
    }
    let mut answers: Vec<(u64, ErrorCode)> = Vec::new();
    while answers.len() < ids.len() {
        match spectator.next().await {
            Got::Msg(ServerMsg::Error { id, code, .. }) => {
                let id = id.unwrap_or_else(|| panic!("a {code:?} answer without the request's id"));
                answers.push((id, code));
            }
            Got::Msg(ServerMsg::Ack { id }) => panic!("a spectator's start was accepted: {id:?}"),
            Got::Msg(_) => {}
            other => panic!("expected answers, got {other:?}"),
        }
    }
    let answered: Vec<u64> = answers.iter().map(|(id, _)| *id).collect();
    assert_eq!(answered, ids, "one answer per request, in order");
    let limited = answers.iter().filter(|(_, c)| *c == ErrorCode::RateLimited).count();
    // 6 when the burst went out within a fifth of a second of the hello.
    assert!((1..=6).contains(&limited), "{answers:?}");
    // The connection is still served once the bucket refills.
    tokio::time::sleep(Duration::from_millis(400)).await;
    spectator.roundtrip(1).await;
}

// The last request before a flood close is answered too.
#[tokio::test]
async fn the_request_that_trips_the_flood_close_is_answered_first() {
    let config = Config { rate_burst: 1, rate_per_second: 1, rate_strikes: 2, ..fast_config() };
    let server = Server::start(config).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut c = server.connect(&table, None).await; // hello took the one credit
    for id in 1..=3 {
        c.send(&ClientMsg::Start { id: Some(id) }).await;
    }
    let mut ids = Vec::new();
    let code = loop {
        match c.next().await {
            Got::Msg(ServerMsg::Error { id, code: ErrorCode::RateLimited, .. }) => ids.push(id),
            Got::Msg(_) => {}
            Got::Close(code) => break code,
            Got::End(why) => panic!("no close frame: {why}"),
        }
    };
    assert_eq!(ids, [Some(1), Some(2), Some(3)]);
    assert_eq!(code, close::RATE_LIMITED);
}

// WebSocket pings take from the same budget as messages, so a ping flood is refused
// `rate_limited` and then closed 1008 like any other flood.
#[tokio::test]
async fn a_ping_flood_is_rate_limited_then_closed_1008() {
    let server = Server::start(fast_config()).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let mut c = server.connect(&table, None).await;
    let mut bystander = server.connect(&table, None).await;
    for i in 0..200u8 {
        c.send_raw(Message::Ping(vec![i].into())).await;
    }
    let mut limited = 0;
    // Bounded as a whole: uncounted pings are answered for ever (the server's own
    // pings keep each read short).
    let code = tokio::time::timeout(WAIT, async {
        loop {
            match c.next().await {
                Got::Msg(ServerMsg::Error { code: ErrorCode::RateLimited, .. }) => limited += 1,
                Got::Msg(_) => {}
                Got::Close(code) => break code,
                Got::End(why) => panic!("no close frame: {why}"),
            }
        }
    })
    .await
    .expect("the ping flood is closed");
    assert!(limited >= 1, "refused with rate_limited before the close");
    assert_eq!(code, close::RATE_LIMITED);
    bystander.roundtrip(2).await;
}

/// A store that, once armed, holds the next append until released: the test can
/// stop the server while a request is being stored.
struct GatedStore {
    inner: MemoryStore,
    gate: Arc<Gate>,
}

struct Gate {
    armed: AtomicBool,
    entered: Notify,
    release: Notify,
}

impl Store for GatedStore {
    fn append(&self, table: &str, entry: &Entry) -> StoreFuture {
        let stored = self.inner.append(table, entry);
        if !self.gate.armed.swap(false, Ordering::SeqCst) {
            return stored;
        }
        let gate = Arc::clone(&self.gate);
        Box::pin(async move {
            gate.entered.notify_one();
            gate.release.notified().await;
            stored.await
        })
    }
}

// A request accepted while the server stops: the table answers and stops at once
// (dropping its views); the ack must not go out without the state.
#[tokio::test]
async fn an_ack_during_shutdown_comes_after_the_state_it_produced() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let gate =
        Arc::new(Gate { armed: AtomicBool::new(false), entered: Notify::new(), release: Notify::new() });
    let (stop, stopped) = oneshot::channel::<()>();
    let run = tokio::spawn(jass_server::run(
        listener,
        fast_config(),
        jass_server::Storage::Given {
            store: Arc::new(GatedStore { inner: MemoryStore::new(), gate: Arc::clone(&gate) }),
            restore: Vec::new(),
        },
        async move {
            let _ = stopped.await;
        },
    ));
    let server = Server::external(addr);
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut host = server.connect(&table, Some(&tokens[0])).await;
    let before = host.version();

    gate.armed.store(true, Ordering::SeqCst);
    host.send(&ClientMsg::Start { id: Some(7) }).await;
    tokio::time::timeout(WAIT, gate.entered.notified()).await.expect("the start reaches the store");
    stop.send(()).unwrap();
    // Let the stop signal reach every task before the store answers.
    tokio::time::sleep(Duration::from_millis(100)).await;
    gate.release.notify_one();

    let mut acked = false;
    loop {
        match host.next().await {
            Got::Msg(ServerMsg::Ack { id: Some(7) }) => {
                assert!(host.version() > before, "ack 7 arrived before the state it produced");
                assert!(host.view().game.is_some(), "the state before the ack shows the started game");
                acked = true;
            }
            Got::Msg(ServerMsg::Error { id: Some(7), .. }) => {}
            Got::Msg(_) => {}
            Got::Close(code) => {
                assert_eq!(code, close::SERVICE_RESTART);
                break;
            }
            Got::End(why) => panic!("no close frame: {why}"),
        }
    }
    assert!(acked, "the accepted start was acknowledged");
    tokio::time::timeout(WAIT, run).await.unwrap().unwrap().unwrap();
}
