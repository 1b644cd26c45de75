//! Tables outlive their node (README, "Many nodes"): two real server binaries on one
//! PostgreSQL (a throw-away cluster on loopback) behind the repository's HAProxy
//! configuration (`deploy/haproxy.cfg`), tables played by socket clients through the
//! balancer that reconnect the way the browser client does (a first try within
//! 0.3 s, then 1, 2, 4 … s with jitter; web/net.js).
//!
//! - A node is killed (SIGKILL) after a random number of acknowledged actions, its
//!   tables are taken over by the other node, it comes back as a new node, and the
//!   next kill takes whichever node holds more tables; then a node is stopped
//!   (SIGTERM) the same way. Every game's record holds every acknowledged action in
//!   order (plus at most the one in flight per break), replays as a valid game, and no
//!   table's log forks.
//! - A frozen node (SIGSTOP past its lease) whose tables were taken over meanwhile
//!   never acknowledges the action a client sent straight to it while it was frozen.
//! - PostgreSQL restarts mid-game: actions are refused while it is down, nothing
//!   acknowledged is lost, and play goes on after.
//!
//! `JASS_FAILOVER_KILLS=50` runs the kill test longer (docs/benchmarks.md reports the
//! failover times it prints).

mod binary;
mod cluster;
mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use binary::{Proc, free_port};
use cluster::{Balancer, OPEN};
use common::{Client, Got, Server, recorded_actions};
use jass_engine::{Action, Record};
use jass_protocol::{ClientMsg, ErrorCode, ServerMsg};
use jass_store_pg::throwaway::Throwaway;
use serde_json::json;

/// One test at a time: each runs two nodes, a balancer and a database on two cores.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The operator's token on every node (`--stats-token`).
const TOKEN: &str = "operator";

/// Tables played at once.
const TABLES: usize = 6;

/// A pause per action, so the machine keeps time for the nodes to fail over.
const THINK: Duration = Duration::from_millis(15);

/// A small generator (seeded from the clock and printed, so a run can be repeated
/// with `JASS_FAILOVER_SEED`).
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn seeded() -> Self {
        let seed =
            std::env::var("JASS_FAILOVER_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
            });
        eprintln!("JASS_FAILOVER_SEED={seed}");
        Self(seed | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }

    fn fork(&mut self) -> Self {
        Self(self.below(u64::MAX) | 1)
    }
}

/// The two nodes, the database they share and the balancer in front.
struct Cluster {
    pg: Throwaway,
    nodes: [Option<Proc>; 2],
    ports: [u16; 2],
    lb: Balancer,
    logs: PathBuf,
    starts: usize,
}

impl Cluster {
    async fn start(name: &str) -> Self {
        let pg = Throwaway::start().unwrap_or_else(|e| panic!("a throw-away PostgreSQL: {e}"));
        let logs = std::env::temp_dir().join(format!("jass-failover-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&logs);
        std::fs::create_dir_all(&logs).unwrap();
        let ports = [free_port(), free_port()];
        let addrs = ports.map(|p| format!("127.0.0.1:{p}").parse().unwrap());
        let lb = Balancer::start(addrs, &logs.join("haproxy.log")).await;
        let mut c = Self { pg, nodes: [None, None], ports, lb, logs, starts: 0 };
        c.start_node(0).await;
        c.start_node(1).await;
        c
    }

    fn name(i: usize) -> String {
        format!("n{}", i + 1)
    }

    /// Starts node `i` (a new incarnation) and waits until the balancer sends to it.
    async fn start_node(&mut self, i: usize) {
        self.starts += 1;
        let name = Self::name(i);
        let mut args: Vec<&str> = OPEN.to_vec();
        args.extend(["--node-name", &name, "--trusted-proxy", "127.0.0.1", "--computer-think-ms", "0"]);
        args.extend(["--stats-token", TOKEN]);
        let log = self.logs.join(format!("{name}-{}.log", self.starts));
        let url = std::ffi::OsString::from(&self.pg.url);
        self.nodes[i] = Some(Proc::start_logged(&url, log, self.ports[i], &args).await);
        self.lb.until_state(&name, "UP").await;
    }

    fn node(&self, i: usize) -> &Proc {
        self.nodes[i].as_ref().expect("the node runs")
    }

    /// Node `i` asked directly, past the balancer: from another loopback address, as
    /// the balancer's own (127.0.0.1) must start with a PROXY protocol header.
    fn direct(&self, i: usize) -> Server {
        let mut s = self.node(i).server();
        s.source = Some([127, 0, 0, 2].into());
        s.token = Some(TOKEN.to_owned());
        s
    }

    /// The balancer, as a server the test clients talk to.
    fn front(&self) -> Server {
        Server::external(self.lb.addr)
    }

    /// `/api/stats` of node `i`, asked directly.
    async fn stats(&self, i: usize) -> serde_json::Value {
        let (status, body) = self.direct(i).http("GET", "/api/stats", None).await;
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// The node holding more tables now.
    async fn busiest(&self) -> usize {
        let a = self.stats(0).await["tables"].as_u64().unwrap();
        let b = self.stats(1).await["tables"].as_u64().unwrap();
        usize::from(b > a)
    }

    /// The database, for the checks no node makes.
    async fn sql(&self) -> tokio_postgres::Client {
        let (client, conn) = tokio_postgres::connect(&self.pg.url, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        client
    }

    /// No table's log forks: its places are 1, 2, 3 … without a gap or a double.
    async fn assert_no_fork(&self) {
        let sql = self.sql().await;
        let forked = sql
            .query(
                "SELECT table_id, count(*), max(seq) FROM entries GROUP BY table_id HAVING max(seq) <> count(*)",
                &[],
            )
            .await
            .unwrap();
        assert!(forked.is_empty(), "{} tables' logs have gaps", forked.len());
        let claims: i64 =
            sql.query_one("SELECT count(*) FROM entries WHERE kind = 1", &[]).await.unwrap().get(0);
        eprintln!("claim rows in the logs: {claims}");
    }

    /// Every node's log, for a failure message.
    fn logs(&self) -> String {
        let mut out = String::new();
        for e in std::fs::read_dir(&self.logs).unwrap().flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            out += &format!(
                "--- {}\n{}\n",
                e.path().display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        out
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.nodes = [None, None];
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.logs);
        }
    }
}

/// Why a table's driver stopped.
enum Stop {
    /// The game is over.
    Finished,
    /// The connection broke; the action sent but not acknowledged, if any.
    Broken(Option<(usize, Action)>),
}

/// Brings every client up to the newest version any has seen; `Err` once a
/// connection breaks.
async fn sync(players: &mut [Client]) -> Result<(), ()> {
    let latest = players.iter().map(Client::version).max().unwrap_or(0);
    for c in players.iter_mut() {
        while c.version() < latest {
            match c.next().await {
                Got::Msg(_) => {}
                Got::Close(_) | Got::End(_) => return Err(()),
            }
        }
    }
    Ok(())
}

/// The move the driver makes for the seat to act.
fn pick(players: &[Client], id: u64) -> (usize, ClientMsg) {
    let g = players[0].view().game.clone().expect("started");
    let seat = g.to_act.expect("someone must act").index();
    let v = players[seat].view().game.clone().unwrap();
    // No `version`: presence changes after a reconnect must not make these stale.
    let msg = if v.allowed.schiebe && v.round % 2 == 1 {
        ClientMsg::Schiebe { version: None, id: Some(id) }
    } else if v.allowed.choose {
        ClientMsg::Choose { contract: jass_engine::Contract::Spades, version: None, id: Some(id) }
    } else {
        let card = v.allowed.cards.first().expect("a legal card");
        ClientMsg::Play { card, weis: Vec::new(), stoeck: false, version: None, id: Some(id) }
    };
    (seat, msg)
}

/// Plays until the game is over or a connection breaks. An action the server
/// refuses for now (it could not store it: `internal`; or the table is moving:
/// `busy`) is not acknowledged but may be stored: it goes to `maybe`.
async fn drive(
    players: &mut [Client],
    acked: &mut Vec<(usize, Action)>,
    maybe: &mut Vec<(usize, (usize, Action))>,
    played: &AtomicUsize,
) -> Stop {
    loop {
        if sync(players).await.is_err() {
            return Stop::Broken(None);
        }
        if players[0].view().game.as_ref().expect("started").result.is_some() {
            return Stop::Finished;
        }
        tokio::time::sleep(THINK).await;
        let id = players[0].id();
        let (seat, msg) = pick(players, id);
        let action = msg.game_action().unwrap();
        let c = &mut players[seat];
        let text = serde_json::to_string(&msg).unwrap();
        if futures_util::SinkExt::send(&mut c.ws, text.into()).await.is_err() {
            return Stop::Broken(Some((seat, action)));
        }
        loop {
            match c.next().await {
                Got::Msg(ServerMsg::Ack { id: i }) if i == Some(id) => {
                    acked.push((seat, action));
                    played.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                Got::Msg(ServerMsg::Error { id: i, code: ErrorCode::Internal | ErrorCode::Busy, .. })
                    if i == Some(id) =>
                {
                    maybe.push((acked.len(), (seat, action)));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    break;
                }
                Got::Msg(ServerMsg::Error { id: i, code, message }) if i == Some(id) => {
                    panic!("a legal move was refused: {code:?} {message}")
                }
                Got::Msg(_) => {}
                Got::Close(_) | Got::End(_) => return Stop::Broken(Some((seat, action))),
            }
        }
    }
}

/// The host starts the game; `Err` if a connection breaks first (or the start could
/// not be stored now: it is tried again).
async fn start(players: &mut [Client]) -> Result<(), ()> {
    let id = players[0].id();
    let text = serde_json::to_string(&ClientMsg::Start { id: Some(id) }).unwrap();
    futures_util::SinkExt::send(&mut players[0].ws, text.into()).await.map_err(|_| ())?;
    loop {
        match players[0].next().await {
            Got::Msg(ServerMsg::Ack { id: i }) if i == Some(id) => break,
            Got::Msg(ServerMsg::Error { id: i, code: ErrorCode::AlreadyStarted, .. }) if i == Some(id) => {
                break;
            }
            Got::Msg(ServerMsg::Error { id: i, code, message }) if i == Some(id) => {
                assert!(
                    matches!(code, ErrorCode::Internal | ErrorCode::Busy),
                    "start refused: {code:?} {message}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
                return Ok(());
            }
            Got::Msg(_) => {}
            Got::Close(_) | Got::End(_) => return Err(()),
        }
    }
    sync(players).await
}

/// Reconnects one seat as the browser client does; the socket and when its first
/// state arrived. A table that exists never answers "unknown" (4004) meanwhile.
async fn rejoin(front: &Server, table: &str, token: &str, rng: &mut Rng) -> (Client, Instant) {
    let mut tries = Vec::new();
    for attempt in 0..12u32 {
        let delay = if attempt == 0 {
            rng.below(300)
        } else {
            (1000 * 2u64.pow((attempt - 1).min(3))).min(10_000) * (750 + rng.below(500)) / 1000
        };
        tokio::time::sleep(Duration::from_millis(delay)).await;
        match front.try_connect(table, Some(token)).await {
            Ok(c) => return (c, Instant::now()),
            Err(why) => {
                assert!(!why.contains("close 4004"), "a live table answered unknown: {why}");
                tries.push(why);
            }
        }
    }
    panic!("{table}: no way back after 12 tries: {tries:?}")
}

/// The record's actions must be `acked` with some of the `maybe` actions (each at
/// the place it was sent) in between, nothing else.
fn check_record(table: &str, record: &Record, acked: &[(usize, Action)], maybe: &[(usize, (usize, Action))]) {
    let recorded = recorded_actions(record);
    let mut j = 0;
    for (i, got) in recorded.iter().enumerate() {
        if acked.get(j) == Some(got) {
            j += 1;
        } else if !maybe.iter().any(|(at, a)| *at == j && a == got) {
            panic!("{table}: recorded action {i} {got:?} was never sent (acked so far: {j})");
        }
    }
    assert_eq!(j, acked.len(), "{table}: every acknowledged action is in the record, in order");
    let game = record.replay().unwrap_or_else(|e| panic!("{table}: the record does not replay: {e:?}"));
    assert!(game.result().is_some(), "{table}: the record is a finished game");
}

/// What the drivers saw.
#[derive(Default)]
struct Seen {
    games: usize,
    acked: usize,
    maybe: usize,
    breaks: usize,
    /// Per seat and break: from the signal (whether a SIGTERM) to the first state on
    /// the new socket.
    failovers: Vec<(bool, Duration)>,
}

/// Creates a table of four through the balancer (retrying while no node can).
async fn new_table(front: &Server) -> (String, Vec<String>) {
    'table: for _ in 0..100 {
        let (status, made) = front
            .post("/api/tables", json!({"name": "Anna", "preset": "to_1000", "options": {"fixed_rounds": 2}}))
            .await;
        if status != 201 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let table = made["table"].as_str().unwrap().to_owned();
        let mut tokens = vec![made["token"].as_str().unwrap().to_owned()];
        for (seat, name) in [(1, "Ben"), (2, "Cla"), (3, "Dan")] {
            // A node may die between two joins: the next one is answered 503 (try
            // again) until another node holds the table.
            let mut tries = 0;
            let joined = loop {
                let (status, joined) = front
                    .post(&format!("/api/tables/{table}/seats"), json!({"name": name, "seat": seat}))
                    .await;
                if status == 201 {
                    break joined;
                }
                if status == 409 {
                    // The seat was taken by an answer lost with its node: start over.
                    continue 'table;
                }
                tries += 1;
                // 502: the node died while answering.
                assert!(matches!(status, 502 | 503) && tries < 50, "{status} {joined}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            tokens.push(joined["token"].as_str().unwrap().to_owned());
        }
        return (table, tokens);
    }
    panic!("no table could be created through the balancer")
}

/// Plays games, one table after another, until `stop`; checks each finished game's
/// record. `signals` are the moments a node was signalled.
async fn play_games(
    front: Server,
    stop: Arc<AtomicBool>,
    played: Arc<AtomicUsize>,
    signals: Arc<Mutex<Vec<(Instant, bool)>>>,
    mut rng: Rng,
) -> Seen {
    let mut seen = Seen::default();
    while !stop.load(Ordering::Relaxed) {
        let (table, tokens) = new_table(&front).await;
        let (mut acked, mut maybe) = (Vec::new(), Vec::new());
        let mut players = Vec::new();
        for t in &tokens {
            players.push(rejoin(&front, &table, t, &mut rng).await.0);
        }
        loop {
            let stop = if players[0].view().game.is_none() {
                match start(&mut players).await {
                    Ok(()) => continue,
                    Err(()) => Stop::Broken(None),
                }
            } else {
                drive(&mut players, &mut acked, &mut maybe, &played).await
            };
            match stop {
                Stop::Finished => break,
                Stop::Broken(in_flight) => {
                    let broke = Instant::now();
                    seen.breaks += 1;
                    if let Some(a) = in_flight {
                        maybe.push((acked.len(), a));
                    }
                    drop(std::mem::take(&mut players));
                    let mut back = Vec::new();
                    for t in &tokens {
                        let mut r = rng.fork();
                        let front = Server::external(front.addr);
                        let (table, t) = (table.clone(), t.clone());
                        back.push(tokio::spawn(async move { rejoin(&front, &table, &t, &mut r).await }));
                    }
                    let signal = signals.lock().unwrap().iter().rev().find(|s| s.0 <= broke).copied();
                    for b in back {
                        let (c, at) = b.await.unwrap();
                        if let Some((s, term)) = signal {
                            seen.failovers.push((term, at - s));
                        }
                        players.push(c);
                    }
                }
            }
        }
        let record = loop {
            let (status, body) = front.http("GET", &format!("/api/tables/{table}/record"), None).await;
            if status == 200 {
                break serde_json::from_str::<Record>(&body).unwrap();
            }
            assert!(matches!(status, 502 | 503), "{status} {body}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        check_record(&table, &record, &acked, &maybe);
        seen.games += 1;
        seen.acked += acked.len();
        seen.maybe += maybe.len();
    }
    seen
}

/// Starts [`TABLES`] drivers; they stop after their game once `stop` is set.
type Drivers =
    (Arc<AtomicBool>, Arc<AtomicUsize>, Arc<Mutex<Vec<(Instant, bool)>>>, Vec<tokio::task::JoinHandle<Seen>>);

fn drivers(c: &Cluster, rng: &mut Rng) -> Drivers {
    let stop = Arc::new(AtomicBool::new(false));
    let played = Arc::new(AtomicUsize::new(0));
    let signals = Arc::new(Mutex::new(Vec::new()));
    let tasks = (0..TABLES)
        .map(|_| {
            tokio::spawn(play_games(
                c.front(),
                Arc::clone(&stop),
                Arc::clone(&played),
                Arc::clone(&signals),
                rng.fork(),
            ))
        })
        .collect();
    (stop, played, signals, tasks)
}

/// Waits until `played` reaches `target` (or a minute passed).
async fn until_played(played: &AtomicUsize, target: usize) {
    let give_up = Instant::now() + Duration::from_secs(60);
    while played.load(Ordering::Relaxed) < target && Instant::now() < give_up {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Joins the drivers and sums what they saw.
async fn finish(tasks: Vec<tokio::task::JoinHandle<Seen>>, c: &Cluster) -> Seen {
    let mut all = Seen::default();
    for t in tasks {
        let seen = match tokio::time::timeout(Duration::from_secs(120), t).await {
            Ok(Ok(seen)) => seen,
            Ok(Err(e)) => panic!("a driver failed: {e}\n{}", c.logs()),
            Err(_) => panic!("a driver did not finish\n{}", c.logs()),
        };
        all.games += seen.games;
        all.acked += seen.acked;
        all.maybe += seen.maybe;
        all.breaks += seen.breaks;
        all.failovers.extend(seen.failovers);
    }
    all
}

/// p50, p99 and the largest of `d`, in milliseconds.
fn spread(mut d: Vec<Duration>) -> String {
    d.sort();
    let at = |q: f64| {
        d.get(((d.len() as f64 * q).ceil() as usize).saturating_sub(1)).map_or(0, Duration::as_millis)
    };
    format!("n={} p50={} ms p90={} ms p99={} ms max={} ms", d.len(), at(0.5), at(0.9), at(0.99), at(1.0))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_killed_and_stopped_under_play_lose_nothing_acknowledged() {
    let _one = SERIAL.lock().await;
    let kills: usize = std::env::var("JASS_FAILOVER_KILLS").ok().and_then(|k| k.parse().ok()).unwrap_or(5);
    let mut rng = Rng::seeded();
    let mut c = Cluster::start("kill").await;
    let (stop, played, signals, tasks) = drivers(&c, &mut rng);
    let mut fenced = 0;
    for (n, term) in (0..kills).map(|n| (n, false)).chain((0..2).map(|n| (n, true))) {
        // A random moment in play: after 20 to 79 more acknowledged actions, then a
        // further 0 to 2 ms, so the signal lands anywhere between an action's send,
        // its commit and its ack.
        let target = played.load(Ordering::Relaxed) + 20 + rng.below(60) as usize;
        until_played(&played, target).await;
        tokio::time::sleep(Duration::from_micros(rng.below(2_000))).await;
        let victim = c.busiest().await;
        let before = c.stats(1 - victim).await["cluster"]["claims"].as_u64().unwrap_or(0);
        signals.lock().unwrap().push((Instant::now(), term));
        let mut node = c.nodes[victim].take().unwrap();
        if term {
            // A planned stop: its tables are let go at once, nobody waits for a lease.
            node.stop();
        } else {
            node.kill9();
        }
        drop(node);
        eprintln!("{} {} of 2 (n{})", if term { "SIGTERM" } else { "SIGKILL" }, n + 1, victim + 1);
        // Play goes on at the other node, then the node comes back as a new one.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let after = c.stats(1 - victim).await;
            if after["cluster"]["claims"].as_u64().unwrap_or(0) > before {
                fenced += after["store"]["fenced"].as_u64().unwrap_or(0);
                break;
            }
            assert!(Instant::now() < deadline, "the other node took no table over: {after}\n{}", c.logs());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        until_played(&played, played.load(Ordering::Relaxed) + 20).await;
        c.start_node(victim).await;
    }
    stop.store(true, Ordering::Relaxed);
    let seen = finish(tasks, &c).await;
    c.assert_no_fork().await;
    let stats = [c.stats(0).await, c.stats(1).await];
    let of = |term: bool| seen.failovers.iter().filter(|f| f.0 == term).map(|f| f.1).collect::<Vec<_>>();
    eprintln!(
        "FAILOVER kills={kills} drains=2 games={} acked={} in_flight={} breaks={} fenced_appends={fenced}\n\
         FAILOVER after SIGKILL, per seat: {}\nFAILOVER after SIGTERM, per seat: {}",
        seen.games,
        seen.acked,
        seen.maybe,
        seen.breaks,
        spread(of(false)),
        spread(of(true)),
    );
    for s in &stats {
        eprintln!("node cluster stats: {}", s["cluster"]);
        assert_eq!(s["quarantined"], json!([]), "{s}");
    }
    assert!(seen.games >= TABLES, "every driver finished at least one game");
    assert!(seen.breaks > 0, "the signals broke games in play");
}

/// A node frozen past its lease comes back to find its table taken: the action a
/// client sent straight to it while it was frozen is never acknowledged, and the
/// table's log holds only what the new holder acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_node_never_acknowledges_after_its_table_was_taken_over() {
    let _one = SERIAL.lock().await;
    let mut rng = Rng::seeded();
    let c = Cluster::start("zombie").await;
    let front = c.front();
    let (table, tokens) = new_table(&front).await;
    let mut players = Vec::new();
    for t in &tokens {
        players.push(front.try_connect(&table, Some(t)).await.unwrap());
    }
    common::start(&mut players).await;
    let (mut acked, mut maybe) = (Vec::new(), Vec::new());
    for _ in 0..6 {
        acked.push(common::play_one(&mut players).await);
    }
    common::sync_all(&mut players).await;
    let holder = usize::from(c.stats(1).await["tables"].as_u64() == Some(1));
    assert_eq!(c.stats(holder).await["tables"], 1);

    // The seat to act talks to the holder directly, past the balancer.
    let id = 1000;
    let (seat, msg) = pick(&players, id);
    let direct = c.direct(holder);
    let mut straight = direct.connect(&table, Some(&tokens[seat])).await;
    c.node(holder).signal("-STOP");
    let frozen = Instant::now();
    futures_util::SinkExt::send(&mut straight.ws, serde_json::to_string(&msg).unwrap().into()).await.unwrap();

    // The others reconnect through the balancer; the other node takes the table once
    // the frozen node's lease has run out (3 s), not before.
    drop(players);
    let mut players = Vec::new();
    for t in &tokens {
        players.push(rejoin(&front, &table, t, &mut rng).await.0);
    }
    let moved = frozen.elapsed();
    eprintln!("the table is served again {} ms after the freeze", moved.as_millis());
    let other = c.stats(1 - holder).await;
    assert_eq!(other["cluster"]["claims"], 1, "{other}");
    // The new holder plays on; the seat to act plays another card than the one the
    // frozen node holds, where it has one.
    common::sync_all(&mut players).await;
    let v = players[seat].view().game.clone().unwrap();
    let msg = match msg {
        ClientMsg::Play { .. } if v.allowed.cards.len() > 1 => ClientMsg::Play {
            card: v.allowed.cards.into_iter().last().unwrap(),
            weis: Vec::new(),
            stoeck: false,
            version: None,
            id: Some(2000),
        },
        other => other,
    };
    let action = msg.game_action().unwrap();
    players[seat].request(msg).await.expect("the new holder takes the move");
    acked.push((seat, action));
    for _ in 0..3 {
        acked.push(common::play_one(&mut players).await);
    }

    // The frozen node wakes up: its action is refused (or its socket closed), never
    // acknowledged.
    c.node(holder).signal("-CONT");
    let answer = loop {
        match straight.next().await {
            Got::Msg(ServerMsg::Ack { .. }) => {
                panic!("the frozen node acknowledged an action after the takeover")
            }
            Got::Msg(ServerMsg::Error { code, .. }) => break format!("error {code:?}"),
            Got::Msg(_) => {}
            Got::Close(code) => break format!("close {code}"),
            Got::End(why) => break format!("end {why}"),
        }
    };
    eprintln!("the woken node answered the held action with: {answer}");
    // It serves again once its lease is renewed, without the table.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = direct.http("GET", "/healthz", None).await;
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the woken node did not come back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(c.stats(holder).await["tables"], 0, "the woken node let the table go");

    // The game goes on to its end with nothing but what was acknowledged.
    loop {
        common::sync_all(&mut players).await;
        if players[0].view().game.as_ref().unwrap().result.is_some() {
            break;
        }
        acked.push(common::play_one(&mut players).await);
    }
    let (status, body) = front.http("GET", &format!("/api/tables/{table}/record"), None).await;
    assert_eq!(status, 200, "{body}");
    let record: Record = serde_json::from_str(&body).unwrap();
    maybe.clear();
    check_record(&table, &record, &acked, &maybe);
    c.assert_no_fork().await;
}

/// A node whose lease lapsed (frozen past it) lets its tables go without writing,
/// so the store still names it; once it is alive again, a table of its that nobody
/// claimed in between must not be stuck: asked for it by another node, it lets the
/// table go in the store too, and the other node serves it. (Before, a handoff for a
/// table not in memory was ignored, and every claim found the table held by a live
/// node: a database restart left some tables unservable this way.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_table_left_by_a_lapsed_node_is_claimed_once_it_is_back() {
    let _one = SERIAL.lock().await;
    let c = Cluster::start("lapsed").await;
    let front = c.front();
    let (table, tokens) = new_table(&front).await;
    let mut players = Vec::new();
    for t in &tokens {
        players.push(front.try_connect(&table, Some(t)).await.unwrap());
    }
    common::start(&mut players).await;
    common::play_one(&mut players).await;
    common::sync_all(&mut players).await;
    let holder = usize::from(c.stats(1).await["tables"].as_u64() == Some(1));
    drop(players);
    // Frozen past its lease (3 s), nobody asks for the table meanwhile; then it wakes,
    // lets its tables go and serves again.
    c.node(holder).signal("-STOP");
    tokio::time::sleep(Duration::from_millis(4_000)).await;
    c.node(holder).signal("-CONT");
    let direct = c.direct(holder);
    let deadline = Instant::now() + Duration::from_secs(10);
    while direct.http("GET", "/healthz", None).await.0 != 200 || c.stats(holder).await["tables"] != 0 {
        assert!(Instant::now() < deadline, "the woken node did not come back without its table");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The other node is asked for the table directly: it claims it within a few tries.
    let other = c.direct(1 - holder);
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut client = loop {
        match other.try_connect(&table, Some(&tokens[0])).await {
            Ok(client) => break client,
            Err(why) => {
                assert!(Instant::now() < deadline, "the table stayed unservable: {why}\n{}", c.logs());
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        }
    };
    client.wait_view(|v| v.game.is_some()).await;
    assert_eq!(c.stats(1 - holder).await["cluster"]["claims"], 1);
    c.assert_no_fork().await;
}

/// PostgreSQL restarts mid-game: while it is down actions are refused (nothing
/// changes), the nodes stop serving once their leases run out, and afterwards every
/// game goes on with nothing acknowledged lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_restart_mid_game_loses_nothing_acknowledged() {
    let _one = SERIAL.lock().await;
    let mut rng = Rng::seeded();
    let mut c = Cluster::start("pg-restart").await;
    let (stop, played, _signals, tasks) = drivers(&c, &mut rng);
    until_played(&played, 60).await;
    let down = Duration::from_millis(2_500);
    let at = played.load(Ordering::Relaxed);
    tokio::task::block_in_place(|| c.pg.restart(down)).expect("PostgreSQL starts again");
    eprintln!("PostgreSQL was down for {} ms, at {at} actions", down.as_millis());
    until_played(&played, played.load(Ordering::Relaxed) + 100).await;
    assert!(played.load(Ordering::Relaxed) >= at + 100, "play went on after the restart\n{}", c.logs());
    stop.store(true, Ordering::Relaxed);
    let seen = finish(tasks, &c).await;
    eprintln!(
        "games={} acked={} refused_or_in_flight={} breaks={}",
        seen.games, seen.acked, seen.maybe, seen.breaks
    );
    c.assert_no_fork().await;
    let _ = &mut c;
}
