//! Durable tables: the real server binary on a temporary SQLite database is killed
//! (SIGKILL) or stopped (SIGTERM) mid-game and started again on the same database;
//! the four players reconnect with their tokens and finish the game exactly where
//! they were (R12: a record replays).

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use jass_engine::{Action, Record};
use jass_protocol::ClientMsg;
use serde_json::json;

/// The server binary as a child process; killed when dropped so a failing test
/// leaves nothing running.
struct Proc {
    child: Child,
    addr: SocketAddr,
}

impl Proc {
    async fn start(db: &std::path::Path, port: u16) -> Self {
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_jass-server"))
            .args(["--addr", &addr.to_string(), "--db"])
            .arg(db)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("server binary starts");
        let p = Self { child, addr };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                break;
            }
            assert!(Instant::now() < deadline, "the server did not come up");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        p
    }

    fn server(&self) -> Server {
        Server::external(self.addr)
    }

    fn signal(&self, sig: &str) {
        let ok = Command::new("kill").args([sig, &self.child.id().to_string()]).status().unwrap().success();
        assert!(ok, "kill {sig}");
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn temp_db(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-durable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir.join("jass.sqlite3")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Plays until the game has a result.
async fn play_to_the_end(players: &mut [Client]) {
    loop {
        sync_all(players).await;
        if players[0].view().game.as_ref().unwrap().result.is_some() {
            return;
        }
        play_one(players).await;
    }
}

fn game_view_of(c: &Client) -> serde_json::Value {
    serde_json::to_value(c.view().game.as_ref().unwrap()).unwrap()
}

async fn record_of(server: &Server, table: &str) -> Record {
    let (status, body) = server.http("GET", &format!("/api/tables/{table}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_round_loses_nothing_acknowledged() {
    let db = temp_db("kill");
    let port = free_port();
    let mut acked: Vec<(usize, Action)> = Vec::new();
    let (table, tokens, before) = {
        let p = Proc::start(&db, port).await;
        let server = p.server();
        let (table, tokens) = server
            .full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 2}}))
            .await;
        let mut players = connect_all(&server, &table, &tokens).await;
        start(&mut players).await;
        // The whole first round and part of the second (mid-trick): the second round's
        // seed must come back from the store too.
        while acked.len() < 37 + 7 {
            acked.push(play_one(&mut players).await);
        }
        sync_all(&mut players).await;
        let before: Vec<_> = players.iter().map(game_view_of).collect();
        assert_eq!(before[0]["round"], 1);
        let down = before[0]["trick"]["cards"].as_array().unwrap().len();
        assert!((1..4).contains(&down), "mid-trick: {down} cards down");
        drop(players);
        let mut p = p;
        p.signal("-KILL");
        p.wait_exit();
        (table, tokens, before)
    };
    let p = Proc::start(&db, port).await;
    let server = p.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    for (seat, c) in players.iter().enumerate() {
        let mut after = game_view_of(c);
        let mut was = before[seat].clone();
        // Presence is live state, not history.
        for v in [&mut after, &mut was] {
            v.as_object_mut().unwrap().remove("version");
        }
        assert_eq!(after, was, "seat {seat} is back exactly where it was");
    }
    loop {
        sync_all(&mut players).await;
        if players[0].view().game.as_ref().unwrap().result.is_some() {
            break;
        }
        acked.push(play_one(&mut players).await);
    }
    let final_view = game_view_of(&players[0]);
    let record = record_of(&server, &table).await;
    let recorded = recorded_actions(&record);
    assert_eq!(recorded, acked, "every acknowledged action is in the record, in order");
    let replayed = record.replay().expect("the record replays");
    assert_eq!(
        serde_json::to_value(replayed.result()).unwrap(),
        final_view["result"],
        "the result equals an uninterrupted replay"
    );
    // The store's writer reports its work to operators.
    let (_, body) = server.http("GET", "/api/stats", None).await;
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    let store = &stats["store"];
    assert!(store["commits"].as_u64().unwrap() > 0, "{stats}");
    assert!(store["writes"].as_u64().unwrap() >= store["commits"].as_u64().unwrap(), "{stats}");
    let histogram: u64 =
        store["commit_ms_histogram"].as_array().unwrap().iter().filter_map(|n| n.as_u64()).sum();
    assert_eq!(histogram, store["commits"].as_u64().unwrap(), "{stats}");
    assert!(store["unmoved_rows"].as_u64().is_some(), "{stats}");
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_every_socket_with_1012_and_the_table_continues() {
    let db = temp_db("term");
    let port = free_port();
    let (table, tokens, seen) = {
        let mut p = Proc::start(&db, port).await;
        let server = p.server();
        let (table, tokens) = server.full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
        let mut players = connect_all(&server, &table, &tokens).await;
        start(&mut players).await;
        for _ in 0..6 {
            play_one(&mut players).await;
        }
        let seen = sync_all(&mut players).await;
        let mut spectator = server.connect(&table, None).await;
        p.signal("-TERM");
        for c in players.iter_mut().chain(std::iter::once(&mut spectator)) {
            assert_eq!(c.expect_close().await, jass_protocol::close::SERVICE_RESTART);
        }
        assert!(p.wait_exit().success(), "a clean exit after SIGTERM");
        (table, tokens, seen)
    };
    let p = Proc::start(&db, port).await;
    let server = p.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    let g = players[0].view().game.clone().unwrap();
    assert_eq!(
        g.hand_counts.iter().map(|(_, &n)| u32::from(n)).sum::<u32>(),
        36 - 5,
        "five cards were played"
    );
    assert!(seen > 0);
    for _ in 0..4 {
        play_one(&mut players).await;
    }
    // A refusal after the restart still leaves the table as it was.
    let wrong = players[0].view().game.as_ref().unwrap().to_act.unwrap().next().index();
    let c = &mut players[wrong];
    let id = Some(c.id());
    let err = c.request(ClientMsg::Schiebe { version: None, id }).await.unwrap_err();
    assert_eq!(err, jass_protocol::ErrorCode::WrongPhase);
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_tables_expire_but_finished_games_keep_their_record() {
    use jass_server::Store;
    let db = temp_db("idle");
    let (store, _) = jass_server::store::SqliteStore::open(&db).unwrap();
    let store = std::sync::Arc::new(store);
    let config = jass_server::Config { table_idle_timeout: Duration::from_millis(300), ..unlimited_config() };
    let server = Server::start_with(config, store.clone()).await;
    // An unfinished table nobody is at.
    let (idle, _) = server.create(json!({"name": "Anna"})).await;
    // A finished one-round game, then everyone leaves.
    let (done, tokens) =
        server.full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 1}})).await;
    {
        let mut players = connect_all(&server, &done, &tokens).await;
        start(&mut players).await;
        play_to_the_end(&mut players).await;
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (a, _) = server.http("GET", &format!("/api/tables/{idle}"), None).await;
        let (b, _) = server.http("GET", &format!("/api/tables/{done}"), None).await;
        if a == 404 && b == 404 {
            break;
        }
        assert!(Instant::now() < deadline, "idle tables expire");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let s = store.clone();
    let idle_entries = tokio::task::spawn_blocking(move || s.load(&idle)).await.unwrap();
    assert!(idle_entries.is_none(), "an expired unfinished table is deleted");
    let record = record_of(&server, &done).await;
    assert!(record.replay().unwrap().result().is_some(), "a finished game keeps its record");
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_last_entry_is_skipped_and_the_server_starts() {
    let db = temp_db("torn");
    let port = free_port();
    let (table, tokens, before) = {
        let mut p = Proc::start(&db, port).await;
        let server = p.server();
        let (table, tokens) = server.full_table(json!({"name": "Anna", "preset": "to_1000"})).await;
        let mut players = connect_all(&server, &table, &tokens).await;
        start(&mut players).await;
        for _ in 0..3 {
            play_one(&mut players).await;
        }
        sync_all(&mut players).await;
        let before = game_view_of(&players[0]);
        p.signal("-TERM");
        p.wait_exit();
        (table, tokens, before)
    };
    // A crash in the middle of writing: half an entry at the end of the table's log.
    {
        let (store, _) = jass_store::Database::open(&db).unwrap();
        store.append(&table, r#"{"action":{"seat":1,"action":{"type":"pl"#.into()).await.unwrap();
    }
    let p = Proc::start(&db, port).await;
    let server = p.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    let mut after = game_view_of(&players[0]);
    let mut was = before;
    for v in [&mut after, &mut was] {
        v.as_object_mut().unwrap().remove("version");
    }
    assert_eq!(after, was, "the table is back as of its last whole entry");
    play_one(&mut players).await;
    sync_all(&mut players).await;
    let seen = game_view_of(&players[0]);
    drop(players);
    // What was played after the cut survives the next restart too.
    let mut p = p;
    p.signal("-TERM");
    p.wait_exit();
    let p = Proc::start(&db, port).await;
    let players = connect_all(&p.server(), &table, &tokens).await;
    let mut again = game_view_of(&players[0]);
    let mut seen = seen;
    for v in [&mut again, &mut seen] {
        v.as_object_mut().unwrap().remove("version");
    }
    assert_eq!(again, seen, "entries after the cut are kept");
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_is_published_only_once_the_game_is_over() {
    let server = Server::start(unlimited_config()).await;
    let (table, tokens) =
        server.full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 1}})).await;
    let path = format!("/api/tables/{table}/record");
    assert_eq!(server.http("GET", &path, None).await.0, 400, "not started");
    let mut players = connect_all(&server, &table, &tokens).await;
    start(&mut players).await;
    play_one(&mut players).await;
    let (status, body) = server.http("GET", &path, None).await;
    assert_eq!(status, 409, "no seeds while the game is on: {body}");
    assert!(!body.contains("seed"));
    loop {
        sync_all(&mut players).await;
        if players[0].view().game.as_ref().unwrap().result.is_some() {
            break;
        }
        play_one(&mut players).await;
    }
    let record = record_of(&server, &table).await;
    assert_eq!(record.rounds.len(), 1);
    assert_eq!(server.http("GET", "/api/tables/nope/record", None).await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_votes_survive_a_restart() {
    let db = temp_db("rematch");
    let port = free_port();
    let (table, tokens) = {
        let p = Proc::start(&db, port).await;
        let server = p.server();
        let (table, tokens) = server
            .full_table(json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 1}}))
            .await;
        let mut players = connect_all(&server, &table, &tokens).await;
        start(&mut players).await;
        play_to_the_end(&mut players).await;
        for seat in [0, 2] {
            let c = &mut players[seat];
            let id = Some(c.id());
            c.request(ClientMsg::Rematch { id }).await.expect("a vote after the game is accepted");
        }
        sync_all(&mut players).await;
        assert_eq!(players[1].view().rematch, [true, false, true, false]);
        p.signal("-KILL");
        (table, tokens)
    };
    let p = Proc::start(&db, port).await;
    let server = p.server();
    let mut players = connect_all(&server, &table, &tokens).await;
    assert_eq!(players[3].view().rematch, [true, false, true, false], "the votes came back");
    for seat in [1, 3] {
        let c = &mut players[seat];
        let id = Some(c.id());
        c.request(ClientMsg::Rematch { id }).await.expect("a vote is accepted");
    }
    sync_all(&mut players).await;
    let v = players[0].view();
    assert_eq!((v.games, v.rematch.0), (2, [false; 4]), "the fourth vote started the rematch");
    assert!(v.game.as_ref().unwrap().result.is_none());
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}
