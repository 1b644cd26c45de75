//! The store comes first: a change nobody could store is refused with `internal` and
//! changes nothing, and nobody hears of a change before the store has it.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{Got, Server, connect_all, fast_config, start, sync_all};
use jass_engine::Contract;
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg};
use jass_server::store::{Entry, MemoryStore, Store, StoreError, StoreFuture};
use serde_json::json;
use tokio::sync::Semaphore;

/// A store whose action appends can be made to fail or to wait.
struct TestStore {
    inner: MemoryStore,
    fail: AtomicBool,
    /// Action appends wait for a permit while `hold` is set.
    hold: AtomicBool,
    gate: Arc<Semaphore>,
}

impl Default for TestStore {
    fn default() -> Self {
        let flag = || AtomicBool::new(false);
        Self { inner: MemoryStore::new(), fail: flag(), hold: flag(), gate: Arc::new(Semaphore::new(0)) }
    }
}

impl Store for TestStore {
    fn append(&self, table: &str, entry: &Entry) -> StoreFuture {
        let is_action = matches!(entry, Entry::Action { .. });
        if is_action && self.fail.load(Ordering::SeqCst) {
            return Box::pin(std::future::ready(Err(StoreError::new("disk on fire"))));
        }
        let gate = (is_action && self.hold.load(Ordering::SeqCst)).then(|| Arc::clone(&self.gate));
        let done = self.inner.append(table, entry);
        Box::pin(async move {
            if let Some(gate) = gate {
                gate.acquire().await.unwrap().forget();
            }
            done.await
        })
    }
}

#[tokio::test]
async fn a_change_the_store_refuses_is_not_made() {
    let store = Arc::new(TestStore::default());
    let server = Server::start_with(fast_config(), store.clone()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let before = players[s].version();

    store.fail.store(true, Ordering::SeqCst);
    let id = Some(players[s].id());
    let choose = ClientMsg::Choose { contract: Contract::Obenabe, version: Some(before), id };
    assert_eq!(players[s].request(choose.clone()).await, Err(ErrorCode::Internal));
    for p in &mut players {
        p.roundtrip(1).await;
        assert_eq!(p.version(), before, "nobody saw a change");
    }

    store.fail.store(false, Ordering::SeqCst);
    players[s].request(choose).await.unwrap();
    sync_all(&mut players).await;
    assert_eq!(players[0].view().game.as_ref().unwrap().contract, Some(Contract::Obenabe));
}

#[tokio::test]
async fn nobody_hears_of_an_action_before_the_store_has_it() {
    let store = Arc::new(TestStore::default());
    let server = Server::start_with(fast_config(), store.clone()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let s = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let before = players[s].version();

    store.hold.store(true, Ordering::SeqCst);
    let id = Some(players[s].id());
    players[s].send(&ClientMsg::Choose { contract: Contract::Obenabe, version: Some(before), id }).await;
    // While the store holds the action, no connection gets a state or an ack.
    let o = (s + 1) % 4;
    for c in [s, o] {
        match tokio::time::timeout(Duration::from_millis(300), players[c].next()).await {
            Err(_) => {}
            Ok(Got::Msg(ServerMsg::State { .. } | ServerMsg::Ack { .. })) => {
                panic!("told before the store had it")
            }
            Ok(other) => panic!("unexpected {other:?}"),
        }
    }
    store.gate.add_permits(1);
    players[s].until(|m| matches!(m, ServerMsg::Ack { .. }).then_some(())).await;
    players[o].sync(before + 1).await;
    assert_eq!(players[o].view().game.as_ref().unwrap().contract, Some(Contract::Obenabe));
}
