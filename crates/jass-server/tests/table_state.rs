//! The table's durable state: the live table and the one a restart rebuilds from the
//! same entries agree, versions never go back, presence never makes a game action
//! stale, spectators are capped, and a table no player ever connected to expires soon.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use jass_protocol::{ClientMsg, ErrorCode, TableView, close};
use jass_server::store::Entry;
use jass_server::{Config, MemoryStore};
use serde_json::json;

/// A view with the presence (which connection is open right now) left out.
fn durable(v: &TableView) -> serde_json::Value {
    let mut v = serde_json::to_value(v).unwrap();
    for s in v["seats"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("connected");
    }
    v.as_object_mut().unwrap().remove("spectators");
    // A running countdown is the actor's, from when the turn began (point 14.3: a
    // restart starts it afresh).
    v.as_object_mut().unwrap().remove("clock");
    v
}

/// Point 3: every kind of entry, applied live by the actor and replayed by a restart,
/// gives the same table: the same view for every seat at the same version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point3_every_entry_kind_gives_the_same_table_live_and_replayed() {
    let server = Server::start(unlimited_config()).await;
    let (table, mut tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    // Freed and Seated again, Swapped, OptionsSet: the lobby's entries.
    let id = Some(players[0].id());
    players[0].request(ClientMsg::FreeSeat { seat: jass_engine::Seat::ALL[3], id }).await.unwrap();
    players.pop();
    // A computer takes the seat and leaves it again (ComputerSeated, Freed).
    let seat3 = jass_engine::Seat::ALL[3];
    let id = Some(players[0].id());
    players[0].request(ClientMsg::AddComputer { seat: seat3, level: None, id }).await.unwrap();
    let id = Some(players[0].id());
    players[0].request(ClientMsg::FreeSeat { seat: seat3, id }).await.unwrap();
    tokens[3] = server.join(&table, "Dora", 3).await;
    players.push(server.connect(&table, Some(&tokens[3])).await);
    let id = Some(players[0].id());
    let (a, b) = (jass_engine::Seat::ALL[0], jass_engine::Seat::ALL[1]);
    players[0].request(ClientMsg::SwapSeats { a, b, id }).await.unwrap();
    // The host (and her socket) moved to seat 1.
    players.swap(0, 1);
    tokens.swap(0, 1);
    let id = Some(players[1].id());
    let options = json!({"target": 1000}).as_object().cloned();
    players[1].request(ClientMsg::SetOptions { preset: None, options, id }).await.unwrap();
    // TimingSet: with the move clock on, every action stores the reserve left.
    let id = Some(players[1].id());
    let timing = ClientMsg::SetTiming { step_in: Some(30), move_clock: Some(15), reserve: Some(90), id };
    players[1].request(timing).await.unwrap();
    // GameStarted and Actions, rounds dealt from stored seeds, to the end of the game.
    let id = Some(players[1].id());
    players[1].request(ClientMsg::Start { id }).await.unwrap();
    // GivenToComputer and GivenBack: the host lets the computer play seat 2 for a
    // moment.
    let seat2 = jass_engine::Seat::ALL[2];
    let id = Some(players[1].id());
    players[1].request(ClientMsg::GiveToComputer { seat: seat2, level: None, id }).await.unwrap();
    let id = Some(players[1].id());
    players[1].request(ClientMsg::GiveBack { seat: seat2, id }).await.unwrap();
    sync_all(&mut players).await;
    while players[0].view().game.as_ref().is_some_and(|g| g.result.is_none()) {
        // Under the swisslos preset a game ends when a team says bedanke (R10).
        let reached = |c: &Client| {
            let v = c.view();
            let team = v.you.unwrap().team();
            v.game.as_ref().is_some_and(|g| g.allowed.bedanke && g.totals[team] >= v.options.target)
        };
        if let Some(c) = players.iter_mut().find(|c| reached(c)) {
            let id = Some(c.id());
            c.request(ClientMsg::Bedanke { version: None, id }).await.unwrap();
        } else {
            act_once(&mut players).await;
        }
        sync_all(&mut players).await;
    }
    // A RematchVote.
    let id = Some(players[2].id());
    players[2].request(ClientMsg::Rematch { id }).await.unwrap();
    let version = sync_all(&mut players).await;
    let live: Vec<_> = players.iter().map(|c| (c.version(), durable(c.view()))).collect();

    let entries = server.store.entries(&table);
    let kinds: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|e| match e {
            Entry::Created { .. } => "created",
            Entry::Seated { .. } => "seated",
            Entry::Freed { .. } => "freed",
            Entry::ComputerSeated { .. } => "computer_seated",
            Entry::GivenToComputer { .. } => "given_to_computer",
            Entry::GivenBack { .. } => "given_back",
            Entry::Swapped { .. } => "swapped",
            Entry::OptionsSet { .. } => "options_set",
            Entry::TimingSet { .. } => "timing_set",
            Entry::GameStarted { .. } => "game_started",
            Entry::RematchVote { .. } => "rematch_vote",
            Entry::Action { next_seed: Some(_), .. } => "action_with_seed",
            Entry::Action { next_seed: None, .. } => "action",
        })
        .collect();
    assert_eq!(kinds.len(), 13, "every kind of entry was written: {kinds:?}");
    assert_eq!(version, entries.len() as u64, "the version counts the stored entries");

    assert!(
        entries.iter().any(|e| matches!(e, Entry::Action { reserve: Some(90_000), .. })),
        "actions store the reserve left"
    );
    let restored = Arc::new(MemoryStore::new());
    let again = restoring(unlimited_config(), restored, vec![stored(&server.store, &table)]).await;
    let mut back = connect_all(&again, &table, &tokens).await;
    let replayed: Vec<_> = back.iter_mut().map(|c| (c.version(), durable(c.view()))).collect();
    assert_eq!(replayed, live, "the restored table is the live one");
}

/// Point 4: presence never moves the version, and a restart brings back the same
/// version, so a client's versions never go back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point4_the_version_never_goes_back_across_a_restart() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    for _ in 0..3 {
        act_once(&mut players).await;
    }
    let before = sync_all(&mut players).await;
    // Spectators and reconnects: many presence changes, no version change.
    for _ in 0..5 {
        let s = server.connect(&table, None).await;
        drop(s);
    }
    drop(players.pop());
    players.push(server.connect(&table, Some(&tokens[3])).await);
    players[0].wait_view(|v| v.seats.iter().all(|s| s.connected) && v.spectators == 0).await;
    assert_eq!(players[0].version(), before, "presence does not move the version");

    let again =
        restoring(unlimited_config(), Arc::new(MemoryStore::new()), vec![stored(&server.store, &table)])
            .await;
    let mut back = connect_all(&again, &table, &tokens).await;
    assert_eq!(back[0].version(), before, "a restart brings back the same version");
    act_once(&mut back).await;
    assert_eq!(sync_all(&mut back).await, before + 1);
}

/// Point 7: a stranger opening and closing spectator sockets in a loop during play
/// never makes a seated player's action stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point7_spectator_churn_never_makes_an_action_stale() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let churn = {
        let (addr, table, stop) = (server.addr, table.clone(), Arc::clone(&stop));
        tokio::spawn(async move {
            let server = Server::external(addr);
            let mut cycles = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) && cycles < 2_000 {
                drop(server.connect(&table, None).await);
                cycles += 1;
            }
            cycles
        })
    };
    // Each move is decided on the version the player last saw, while spectators come
    // and go between the decision and its arrival.
    for _ in 0..18 {
        let version = sync_all(&mut players).await;
        let g = players[0].view().game.clone().unwrap();
        let seat = g.to_act.unwrap().index();
        let c = &mut players[seat];
        tokio::time::sleep(Duration::from_millis(5)).await;
        let v = c.view().game.clone().unwrap();
        let id = Some(c.id());
        let msg = if v.allowed.choose {
            ClientMsg::Choose { contract: jass_engine::Contract::Obenabe, version: Some(version), id }
        } else {
            let card = v.allowed.cards.first().unwrap();
            ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: Some(version), id }
        };
        assert_eq!(c.request(msg).await, Ok(()), "a move decided on the current game is accepted");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(churn.await.unwrap() >= 18, "spectators came and went during play");
}

/// Point 7: a game action decided before the game moved is still stale.
#[tokio::test]
async fn point7_an_action_on_an_old_game_is_still_stale() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    let old = sync_all(&mut players).await;
    act_once(&mut players).await;
    sync_all(&mut players).await;
    let seat = players[0].view().game.as_ref().unwrap().to_act.unwrap().index();
    let c = &mut players[seat];
    let card = c.view().game.as_ref().unwrap().allowed.cards.first().unwrap();
    let id = Some(c.id());
    let msg = ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: Some(old), id };
    assert_eq!(c.request(msg).await, Err(ErrorCode::Stale));
    let id = Some(c.id());
    let future = ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: Some(old + 50), id };
    assert_eq!(c.request(future).await, Err(ErrorCode::Stale), "a version from the future is stale too");
}

/// Point 7: spectators are capped per table and per address.
#[tokio::test]
async fn point7_spectators_are_capped_per_table_and_per_address() {
    let config = Config { max_spectators: 3, max_spectators_per_ip: 2, ..unlimited_config() };
    let server = Server::start(config).await;
    let (table, _) = server.create(json!({"name": "Anna"})).await;
    let _a = server.connect(&table, None).await;
    let _b = server.connect(&table, None).await;
    // All test sockets come from 127.0.0.1: the third is over the per-address cap.
    let mut c = server.open(&table).await;
    c.send(&ClientMsg::Hello { protocol: jass_protocol::PROTOCOL_VERSION, token: None, id: None }).await;
    assert_eq!(c.expect_error().await, ErrorCode::Busy);
    assert_eq!(c.expect_close().await, close::TRY_AGAIN_LATER);
    // Another table still takes spectators.
    let (other, _) = server.create(json!({"name": "Ben"})).await;
    let _d = server.connect(&other, None).await;
}

/// Point 10: a table that no player ever connected to expires after the short
/// timeout; one that a player connected to keeps the long one.
#[tokio::test]
async fn point10_a_never_joined_table_expires_soon() {
    let config = Config {
        table_unjoined_timeout: Duration::from_millis(300),
        table_idle_timeout: Duration::from_secs(60),
        ..unlimited_config()
    };
    let server = Server::start(config).await;
    let (never, _) = server.create(json!({"name": "Anna"})).await;
    let (played, token) = server.create(json!({"name": "Ben"})).await;
    drop(server.connect(&played, Some(&token)).await);
    let deadline = tokio::time::Instant::now() + WAIT;
    while server.http("GET", &format!("/api/tables/{never}"), None).await.0 != 404 {
        assert!(tokio::time::Instant::now() < deadline, "the never-joined table did not expire");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(server.http("GET", &format!("/api/tables/{played}"), None).await.0, 200);
}

/// Point 13: a name read back from the store is checked like one a client sends: a
/// spoofing name (a bidi override here) is never shown as stored.
#[tokio::test]
async fn point13_a_stored_name_is_checked_like_a_new_one() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens) = server.full_table(json!({"name": "Anna"})).await;
    let mut entries = server.store.entries(&table);
    for e in &mut entries {
        if let Entry::Seated { seat, name, .. } = e
            && seat.index() == 2
        {
            *name = "Ev\u{202E}il".to_owned();
        }
    }
    let mut t = stored(&server.store, &table);
    t.entries = entries;
    let again = restoring(unlimited_config(), Arc::new(MemoryStore::new()), vec![t]).await;
    let c = again.connect(&table, Some(&tokens[0])).await;
    let names: Vec<_> = c.view().seats.iter().map(|s| s.name.clone().unwrap()).collect();
    assert_eq!(names[2], "Seat 2", "{names:?}");
    assert_eq!(names[0], "Anna");
}

/// Point 10: one address holds a bounded number of tables at once, whatever its rate
/// of creation; a table it held that expires gives its place back.
#[tokio::test]
async fn point10_one_address_holds_a_bounded_number_of_tables() {
    let config = Config {
        max_held_tables_per_ip: 2,
        table_unjoined_timeout: Duration::from_millis(300),
        ..unlimited_config()
    };
    let server = Server::start(config).await;
    server.create(json!({"name": "Anna"})).await;
    server.create(json!({"name": "Ben"})).await;
    let (status, body) = server.post("/api/tables", json!({"name": "Carla"})).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("busy")), "{body}");
    // Once the never-joined tables expire, the address may create again.
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (status, _) = server.post("/api/tables", json!({"name": "Carla"})).await;
        if status == 201 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the held tables were never given back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
