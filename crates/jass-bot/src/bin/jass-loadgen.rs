//! `jass-loadgen`: the load bench. Opens N tables × 4 bot seats over real sockets
//! against a running server on this machine, plays for a fixed time and reports
//! actions/s, card→state latency percentiles, the socket ramp time and the server's
//! resident memory per table.
//!
//! ```text
//! cargo run --release -p jass-server -- --addr 127.0.0.1:8080 \
//!     --max-connections-per-ip 40000 --max-tables-per-ip 100000 --max-held-tables-per-ip 100000 \
//!     --max-http-connections-per-ip 40000 --http-rate-burst 100000 --http-rate-per-second 100000 &
//! cargo run --release -p jass-bot --bin jass-loadgen -- \
//!     --server http://127.0.0.1:8080 --tables 2500 --think-ms 1000 --duration 60
//! ```
//!
//! With `--rounds N` it measures memory over whole games instead: the tables play one
//! game each, with the target out of reach so that none ends or starts anew, and the
//! server's memory per table is read once every table has finished its first round
//! and again once every table has finished N rounds (a game to 2,500 lasts about 15),
//! with the sockets still open; `--duration` then bounds the wait. A short think time
//! gets there in minutes (a seat acts at most every four think times, inside the
//! server's 5 messages a second):
//!
//! ```text
//! cargo run --release -p jass-bot --bin jass-loadgen -- \
//!     --server http://127.0.0.1:8080 --tables 500 --think-ms 100 --rounds 15 --duration 600
//! ```
//!
//! With `--computers N` the host puts a computer in each table's last N seats
//! (`add_computer` before `start`) and only the other seats get sockets; the latency
//! figures are then the human seats' alone, and the report adds the server's computer
//! decisions from `/api/stats` (count, wall and CPU time per decision, how many were
//! cut down by load).
//!
//! With `--computers 3` the host seat also times each computer move as a player sees
//! it: from the state that gives a computer the turn to the state that shows its move
//! (the think pause included: start the server with `--computer-think-ms 1` to see the
//! delay alone). `--computer-level` picks their level and `--bind 127.0.0.N` makes the
//! tables and sockets come from another loopback address, so several load generators
//! stand for several client addresses:
//!
//! ```text
//! for n in 2 3 4 5 6 7; do target/release/jass-loadgen --bind 127.0.0.$n --tables 30 \
//!     --computers 3 --computer-level strong --think-ms 200 --duration 60 & done
//! target/release/jass-loadgen --bind 127.0.0.8 --tables 1 --computers 3 \
//!     --computer-level strong --think-ms 200 --duration 60
//! ```
//!
//! Bounded on purpose: loopback servers only, at most 5,000 tables and 600 s of play;
//! it stops by itself and closes every socket.

use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use jass_bot::BotError;
use jass_bot::client::{BotConfig, Connection, Observer};
use jass_bot::fill::seat_humans;
use jass_bot::http::Server;
use jass_bot::policy::{Policy, cards_played};
use jass_engine::{Preset, Seat};
use jass_protocol::http::{CreateTable, Joined};
use jass_protocol::{ClientMsg, ErrorCode, TableView};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// Hard caps, so a typo cannot turn the bench into a flood.
const MAX_TABLES: usize = 5_000;
const MAX_DURATION_S: u64 = 600;
const MAX_ROUNDS: u32 = 100;
/// The target of a `--rounds` game: out of reach, so the game neither ends nor starts
/// anew before every table has played its rounds.
const UNREACHABLE_TARGET: u32 = 100_000;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Load bench: N tables × 4 bots against a local jass-server")]
struct Args {
    /// The server's base URL (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// Tables to open (4 sockets each, fewer with `--computers`).
    #[arg(long, default_value_t = 100)]
    tables: usize,
    /// Each seat acts this long after its turn comes (1000 ≈ one action per second per table).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Seconds of play after all sockets are connected.
    #[arg(long, default_value_t = 60)]
    duration: u64,
    /// The server's process id, for its memory; found by name (`jass-server`) if omitted.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Tables being created at once over HTTP.
    #[arg(long, default_value_t = 32)]
    create_concurrency: usize,
    /// WebSocket handshakes in flight at once.
    #[arg(long, default_value_t = 256)]
    connect_concurrency: usize,
    /// Measure memory over whole games: play (a game to 2,500 with the target out of
    /// reach) until every table has finished this many rounds, reading the server's
    /// memory per table after round 1 and after this round; `--duration` bounds the wait.
    #[arg(long)]
    rounds: Option<u32>,
    /// Computer seats per table (0–3): the host adds them in the last seats before
    /// the start; only the other seats are played (and timed) over sockets.
    #[arg(long, default_value_t = 0)]
    computers: usize,
    /// The computers' level (easy, normal, strong).
    #[arg(long, value_parser = parse_level)]
    computer_level: Option<jass_protocol::Level>,
    /// Ask for the review of every round as it ends (protocol.md, "Round review"),
    /// from each table's host seat, and count the answers: the game's latency must
    /// not notice.
    #[arg(long)]
    reviews: bool,
    /// Connect from this local address (loopback only, e.g. 127.0.0.2): several
    /// load generators then stand for several client addresses. `/api/stats` is
    /// still read from the machine's own address.
    #[arg(long)]
    bind: Option<IpAddr>,
}

fn parse_level(s: &str) -> Result<jass_protocol::Level, String> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-loadgen: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(e) => {
            eprintln!("jass-loadgen: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Send times of the cards played at one table, shared by its four seats so each can
/// time the card's arrival; only the last few are kept (one card is in flight at a time).
#[derive(Default)]
struct TableClock {
    sent: Mutex<Vec<(u64, Instant)>>,
    /// Rounds finished, as the table's seats last saw it.
    rounds: AtomicU32,
}

/// One delivery, kept for the report when it is the slowest.
#[derive(Clone, Copy, Debug)]
struct Slowest {
    age: Duration,
    at: Duration,
    card: u64,
    played: u64,
}

/// One seat's measurements.
struct Probe {
    clock: Arc<TableClock>,
    /// Cards played as of the last state this seat saw.
    seen: u64,
    /// Card→state latencies in microseconds.
    samples: Vec<u32>,
    /// When play started, and per second of play the deliveries over 10 ms: tells a
    /// steady tail from a few stalls.
    play_start: Instant,
    /// States read after this are not timed: past the deadline the load generator
    /// stops its seats and takes its readings, and a state that arrived in time can
    /// sit unread for half a second, a delay of the bench's own.
    play_end: Instant,
    slow_by_second: Vec<u32>,
    /// The slowest delivery: latency, when in play it arrived, the card's number in its
    /// game and the cards played by then. Says whether a lone outlier is a stall of
    /// the whole server (many slow seconds around it) or one card's path.
    slowest: Option<Slowest>,
    cards: u64,
    refused: Vec<ErrorCode>,
    /// Seats from this one on are computers whose moves this seat times (none: 4).
    computers_from: usize,
    /// The computer turn being timed: its seat, the cards played when it began, when.
    computer_turn: Option<(Seat, u64, Instant)>,
    /// Computer moves, turn → move on screen, in microseconds.
    computer_waits: Vec<u32>,
    /// `--reviews`, for a host seat: where to ask, and the rounds asked so far.
    reviews: Option<(Server, String, Arc<ReviewCounts>)>,
    reviews_asked: u32,
}

/// The answers to `--reviews`' requests by status.
#[derive(Default)]
struct ReviewCounts {
    ready: AtomicU64,
    computing: AtomicU64,
    busy: AtomicU64,
    other: AtomicU64,
    failed: AtomicU64,
}

impl ReviewCounts {
    fn line(&self) -> String {
        let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
        format!(
            "reviews asked: {} ready (200), {} computing (202), {} busy (503), {} other, {} failed",
            n(&self.ready),
            n(&self.computing),
            n(&self.busy),
            n(&self.other),
            n(&self.failed)
        )
    }
}

impl Probe {
    /// `--reviews`: asks for the review of each round that ended since the last state.
    fn ask_reviews(&mut self, rounds_played: u32) {
        let Some((server, table, counts)) = &self.reviews else { return };
        while self.reviews_asked < rounds_played {
            let (server, table, counts) = (server.clone(), table.clone(), Arc::clone(counts));
            let round = self.reviews_asked;
            tokio::spawn(async move {
                let counter = match server.review_status(&table, round).await {
                    Ok(200) => &counts.ready,
                    Ok(202) => &counts.computing,
                    Ok(503) => &counts.busy,
                    Ok(_) => &counts.other,
                    Err(_) => &counts.failed,
                };
                counter.fetch_add(1, Ordering::Relaxed);
            });
            self.reviews_asked += 1;
        }
    }

    /// Times computer turns: one starts with the first state that gives a computer
    /// seat the turn and ends with the first state after it where that seat no longer
    /// has it or a card more is on the table.
    fn time_computers(&mut self, view: &TableView, now: Instant) {
        let Some(g) = view.game.as_ref().filter(|g| g.result.is_none()) else {
            self.computer_turn = None;
            return;
        };
        let played = cards_played(view);
        if let Some((seat, at_cards, since)) = self.computer_turn
            && (g.to_act != Some(seat) || played != at_cards)
        {
            if now <= self.play_end {
                let age = now.saturating_duration_since(since);
                self.computer_waits.push(u32::try_from(age.as_micros()).unwrap_or(u32::MAX));
            }
            self.computer_turn = None;
        }
        if self.computer_turn.is_none()
            && let Some(seat) = g.to_act.filter(|s| s.index() >= self.computers_from)
        {
            self.computer_turn = Some((seat, played, now));
        }
    }
}

impl Observer for Probe {
    fn sent(&mut self, msg: &ClientMsg, view: &TableView) {
        if let ClientMsg::Play { .. } = msg {
            self.cards += 1;
            let k = cards_played(view) + 1;
            if let Ok(mut sent) = self.clock.sent.lock() {
                // A resend of the same card (after `stale`) restarts its clock.
                sent.retain(|&(i, _)| i != k);
                if sent.len() >= 8 {
                    sent.remove(0);
                }
                sent.push((k, Instant::now()));
            }
        }
    }

    fn state(&mut self, _version: u64, view: &TableView) {
        let now = Instant::now();
        if self.computers_from < 4 {
            self.time_computers(view, now);
        }
        let in_play = now.saturating_duration_since(self.play_start);
        let played = cards_played(view);
        if let Some(g) = &view.game {
            self.clock.rounds.fetch_max(g.rounds_played, Ordering::Relaxed);
            self.ask_reviews(g.rounds_played);
        }
        if played > self.seen
            && now <= self.play_end
            && let Ok(sent) = self.clock.sent.lock()
        {
            for &(k, at) in sent.iter() {
                let age = now.saturating_duration_since(at);
                if k > self.seen && k <= played && age < Duration::from_secs(30) {
                    self.samples.push(u32::try_from(age.as_micros()).unwrap_or(u32::MAX));
                    if self.slowest.is_none_or(|s| age > s.age) {
                        self.slowest = Some(Slowest { age, at: in_play, card: k, played });
                    }
                    if age > Duration::from_millis(10) {
                        let second = in_play.as_secs() as usize;
                        if self.slow_by_second.len() <= second {
                            self.slow_by_second.resize(second + 1, 0);
                        }
                        if let Some(n) = self.slow_by_second.get_mut(second) {
                            *n += 1;
                        }
                    }
                }
            }
        }
        self.seen = played;
    }

    fn refused(&mut self, code: ErrorCode) {
        self.refused.push(code);
    }
}

fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.trim_matches(['[', ']']).parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Resident memory of a process in KiB (`VmRSS` of /proc/PID/status).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of a process in clock ticks (/proc/PID/stat fields 14, 15).
fn cpu_ticks(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Nanoseconds a process's threads ran and waited runnable for a CPU, summed over
/// its threads (/proc/PID/task/*/schedstat). On a shared machine the wait is the
/// share of latency that no server change can remove.
fn sched_ns(pid: &str) -> Option<(u64, u64)> {
    let mut total = (0, 0);
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else { continue };
        let mut f = text.split_whitespace().map(|x| x.parse::<u64>().unwrap_or(0));
        total.0 += f.next().unwrap_or(0);
        total.1 += f.next().unwrap_or(0);
    }
    Some(total)
}

/// The only process named `jass-server`, if there is exactly one.
fn find_server_pid() -> Option<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        if std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "jass-server") {
            found.push(pid);
        }
    }
    if found.len() == 1 { found.pop() } else { None }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    f64::from(sorted[rank.clamp(1, sorted.len()) - 1]) / 1000.0
}

async fn run(args: Args) -> Result<bool, BotError> {
    let stats_server = Server::parse(&args.server)?;
    let server = Server { bind: args.bind, ..stats_server.clone() };
    if args.bind.is_some_and(|ip| !ip.is_loopback()) {
        return Err(BotError::Usage("--bind takes a loopback address".into()));
    }
    if !is_loopback(&server.host) {
        return Err(BotError::Usage(
            "the load bench only targets a server on this machine (loopback)".into(),
        ));
    }
    if args.tables == 0
        || args.tables > MAX_TABLES
        || args.duration > MAX_DURATION_S
        || args.rounds.is_some_and(|n| !(1..=MAX_ROUNDS).contains(&n))
        || args.computers > 3
    {
        return Err(BotError::Usage(format!(
            "--tables 1..={MAX_TABLES}, --duration 0..={MAX_DURATION_S} seconds, --rounds 1..={MAX_ROUNDS}, \
             --computers 0..=3"
        )));
    }
    let humans = 4 - args.computers;
    let sockets = args.tables * humans;
    // A socket per human seat plus HTTP calls and slack: raise the soft limit to the hard one.
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(0);
    if limit < sockets as u64 + 256 {
        eprintln!("warning: open-file limit {limit} is below the {sockets} sockets needed");
    }
    let pid = args.server_pid.or_else(find_server_pid);
    if pid.is_none() {
        eprintln!("note: server pid unknown (pass --server-pid); memory is not reported");
    }
    let rss_before = pid.and_then(rss_kib);

    // 1. Tables over HTTP, a few at a time.
    let t0 = Instant::now();
    let create = match args.rounds {
        None => CreateTable {
            name: "Load".into(),
            preset: Some(Preset::To1000),
            options: None,
            timing: None,
            computers: false,
            computer_level: None,
        },
        Some(_) => {
            let mut options = serde_json::Map::new();
            options.insert("target".into(), UNREACHABLE_TARGET.into());
            CreateTable {
                name: "Load".into(),
                preset: Some(Preset::Swisslos),
                options: Some(options),
                timing: None,
                computers: false,
                computer_level: None,
            }
        }
    };
    let gate = Arc::new(Semaphore::new(args.create_concurrency.max(1)));
    let mut set = JoinSet::new();
    for _ in 0..args.tables {
        let (server, create, gate) = (server.clone(), create.clone(), gate.clone());
        set.spawn(async move {
            let _permit = gate.acquire_owned().await;
            seat_humans(&server, &create, humans).await
        });
    }
    let mut tables: Vec<Vec<Joined>> = Vec::with_capacity(args.tables);
    let mut setup_errors = 0;
    while let Some(r) = set.join_next().await {
        match r {
            Ok(Ok(t)) => tables.push(t),
            Ok(Err(e)) => {
                setup_errors += 1;
                if setup_errors <= 3 {
                    eprintln!("table setup failed: {e}");
                }
            }
            Err(e) => return Err(BotError::Protocol(format!("setup task failed: {e}"))),
        }
    }
    let setup = t0.elapsed();
    eprintln!(
        "{} tables created and seated in {:.2} s ({setup_errors} failed)",
        tables.len(),
        setup.as_secs_f64()
    );

    // 2. The ramp: every socket connected and welcomed.
    let t1 = Instant::now();
    let gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    let mut set = JoinSet::new();
    for (ti, t) in tables.iter().enumerate() {
        for (si, j) in t.iter().enumerate() {
            let (server, gate, table, token) =
                (server.clone(), gate.clone(), j.table.clone(), j.token.clone());
            set.spawn(async move {
                let _permit = gate.acquire_owned().await;
                let mut conn = Connection::open(&server, &table, Some(&token)).await;
                // The host fills the seats left free with computers before it starts.
                if si == 0
                    && let Ok(c) = &mut conn
                {
                    for seat in Seat::ALL.into_iter().skip(humans) {
                        let id = Some(1_000 + seat.index() as u64);
                        let level = args.computer_level;
                        if let Err(e) = c.send(&ClientMsg::AddComputer { seat, level, id }).await {
                            return (ti, si, Err(e));
                        }
                    }
                }
                (ti, si, conn)
            });
        }
    }
    let mut conns = Vec::with_capacity(sockets);
    let mut connect_errors = 0;
    while let Some(r) = set.join_next().await {
        match r {
            Ok((ti, si, Ok(c))) => conns.push((ti, si, c)),
            Ok((_, _, Err(e))) => {
                connect_errors += 1;
                if connect_errors <= 3 {
                    eprintln!("connect failed: {e}");
                }
            }
            Err(e) => return Err(BotError::Protocol(format!("connect task failed: {e}"))),
        }
    }
    let ramp = t1.elapsed();
    eprintln!(
        "{} sockets connected and welcomed in {:.2} s ({connect_errors} failed)",
        conns.len(),
        ramp.as_secs_f64()
    );
    // Let the presence states settle before reading the server's memory.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_connected = pid.and_then(rss_kib);

    // 3. Play for the duration.
    let clocks: Vec<Arc<TableClock>> = (0..tables.len()).map(|_| Arc::default()).collect();
    let config = BotConfig {
        think: Duration::from_millis(args.think_ms),
        policy: Policy { schiebe: 0.3, bedanke: false, rematch: true, start: true },
    };
    let play_start = tokio::time::Instant::now();
    let deadline = play_start + Duration::from_secs(args.duration);
    let cpu_server_0 = pid.and_then(|p| cpu_ticks(&p.to_string()));
    let cpu_self_0 = cpu_ticks("self");
    let sched_server_0 = pid.and_then(|p| sched_ns(&p.to_string()));
    let sched_self_0 = sched_ns("self");
    let stats_0 = stats_server.stats().await.ok();
    let store_0 = stats_0.as_ref().map(|s| s["store"].clone());
    // `--rounds`: the seats stop when the readings are taken (or at the deadline).
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let review_counts = Arc::new(ReviewCounts::default());
    let mut set = JoinSet::new();
    for (i, (ti, si, conn)) in conns.into_iter().enumerate() {
        let reviews = (args.reviews && si == 0)
            .then(|| tables.get(ti).and_then(|t| t.first()).map(|j| j.table.clone()))
            .flatten()
            .map(|table| (server.clone(), table, Arc::clone(&review_counts)));
        let computers_from = if si == 0 && args.computers > 0 { humans } else { 4 };
        let clock = clocks[ti].clone();
        let config = config.clone();
        let mut stop_rx = stop_rx.clone();
        let by_rounds = args.rounds.is_some();
        set.spawn(async move {
            let mut rng = StdRng::seed_from_u64(i as u64);
            let mut probe = Probe {
                clock,
                seen: 0,
                samples: Vec::new(),
                play_start: play_start.into_std(),
                play_end: deadline.into_std(),
                slow_by_second: Vec::new(),
                slowest: None,
                cards: 0,
                refused: Vec::new(),
                computers_from,
                computer_turn: None,
                computer_waits: Vec::new(),
                reviews,
                reviews_asked: 0,
            };
            let stop = async move {
                if by_rounds {
                    tokio::select! {
                        () = tokio::time::sleep_until(deadline) => {}
                        _ = stop_rx.wait_for(|&stop| stop) => {}
                    }
                } else {
                    tokio::time::sleep_until(deadline).await;
                }
            };
            let outcome = conn.play(&config, &mut rng, &mut probe, stop).await;
            (outcome, probe)
        });
    }
    let mut by_rounds = None;
    let rss_end = match args.rounds {
        None => {
            tokio::time::sleep_until(deadline - Duration::from_millis(200).min(deadline - play_start)).await;
            pid.and_then(rss_kib)
        }
        Some(n) => {
            let readings = read_by_rounds(&clocks, n, pid, deadline).await;
            let _ = stop_tx.send(true);
            let end = readings.last.as_ref().and_then(|r| r.rss);
            by_rounds = Some(readings);
            end
        }
    };
    let cpu_server = pid.and_then(|p| cpu_ticks(&p.to_string())).zip(cpu_server_0).map(|(a, b)| a - b);
    let cpu_self = cpu_ticks("self").zip(cpu_self_0).map(|(a, b)| a - b);
    let delta = |now: Option<(u64, u64)>, then: Option<(u64, u64)>| {
        now.zip(then)
            .map(|(a, b)| (a.0.saturating_sub(b.0) as f64 / 1e9, a.1.saturating_sub(b.1) as f64 / 1e9))
    };
    let sched_server = delta(pid.and_then(|p| sched_ns(&p.to_string())), sched_server_0);
    let sched_self = delta(sched_ns("self"), sched_self_0);
    let played_for = play_start.elapsed().as_secs_f64();

    let mut samples = Vec::new();
    let mut computer_waits: Vec<u32> = Vec::new();
    let mut slow_by_second: Vec<u32> = Vec::new();
    let mut slowest: Option<Slowest> = None;
    let (mut sent, mut cards, mut refused, mut failed) = (0u64, 0u64, Vec::new(), 0);
    let collect = async {
        while let Some(r) = set.join_next().await {
            let Ok((outcome, probe)) = r else {
                failed += 1;
                continue;
            };
            match outcome {
                Ok(o) => sent += o.sent,
                Err(e) => {
                    failed += 1;
                    if failed <= 3 {
                        eprintln!("a seat failed: {e}");
                    }
                }
            }
            cards += probe.cards;
            samples.extend(probe.samples);
            computer_waits.extend(probe.computer_waits);
            if slow_by_second.len() < probe.slow_by_second.len() {
                slow_by_second.resize(probe.slow_by_second.len(), 0);
            }
            for (total, n) in slow_by_second.iter_mut().zip(&probe.slow_by_second) {
                *total += n;
            }
            refused.extend(probe.refused);
            if let Some(p) = probe.slowest
                && slowest.is_none_or(|s| p.age > s.age)
            {
                slowest = Some(p);
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(30), collect).await.is_err() {
        eprintln!("warning: some seats did not stop within 30 s");
    }
    samples.sort_unstable();
    let (p50, p99, p999) =
        (percentile(&samples, 50.0), percentile(&samples, 99.0), percentile(&samples, 99.9));
    let max = samples.last().map_or(f64::NAN, |&m| f64::from(m) / 1000.0);
    let actions_per_s = sent as f64 / played_for;
    let kib_per_table = |after: Option<u64>| {
        after.zip(rss_before).map(|(a, b)| a.saturating_sub(b) as f64 / tables.len().max(1) as f64)
    };

    println!(
        "tables {} ({} sockets), think {} ms, played {:.1} s",
        tables.len(),
        sockets,
        args.think_ms,
        played_for
    );
    println!(
        "setup (HTTP create + {} joins per table{}): {:.2} s, {setup_errors} failed",
        humans - 1,
        if args.computers > 0 { format!(", {} computer seats", args.computers) } else { String::new() },
        setup.as_secs_f64()
    );
    println!(
        "ramp (all sockets connected and welcomed): {:.2} s, {connect_errors} failed",
        ramp.as_secs_f64()
    );
    println!(
        "actions: {sent} sent ({cards} cards) = {actions_per_s:.0}/s; refused {}; seats failed {failed}",
        refused.len()
    );
    if !refused.is_empty() {
        let mut codes: Vec<String> = refused.iter().map(|c| c.as_str()).collect();
        codes.sort();
        codes.dedup();
        println!("refusal codes: {}", codes.join(", "));
    }
    println!(
        "card -> state latency over {} deliveries: p50 {p50:.2} ms, p99 {p99:.2} ms, p99.9 {p999:.2} ms, max {max:.2} ms",
        samples.len()
    );
    if !computer_waits.is_empty() {
        computer_waits.sort_unstable();
        println!(
            "computer moves seen by the host, turn -> move on screen, over {}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            computer_waits.len(),
            percentile(&computer_waits, 50.0),
            percentile(&computer_waits, 99.0),
            computer_waits.last().map_or(f64::NAN, |&m| f64::from(m) / 1000.0)
        );
    }
    if let Some(s) = slowest {
        println!(
            "slowest delivery: {:.2} ms, at {:.1} s of play (card {} of its game, seen with {} played)",
            s.age.as_secs_f64() * 1000.0,
            s.at.as_secs_f64(),
            s.card,
            s.played
        );
    }
    let slow: Vec<String> = slow_by_second
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(s, n)| format!("{s}s:{n}"))
        .collect();
    println!(
        "deliveries over 10 ms by second of play: {}",
        if slow.is_empty() { "none".into() } else { slow.join(" ") }
    );
    let ticks = 100.0; // USER_HZ on Linux
    if let Some(c) = cpu_server {
        println!("server CPU during play: {:.0}% of one core", c as f64 / ticks / played_for * 100.0);
    }
    if let Some(c) = cpu_self {
        println!("loadgen CPU during play: {:.0}% of one core", c as f64 / ticks / played_for * 100.0);
    }
    for (who, s) in [("server", sched_server), ("loadgen", sched_self)] {
        if let Some((run, wait)) = s {
            println!(
                "{who} threads: ran {run:.1} s, waited runnable for a CPU {wait:.1} s (other processes' load)"
            );
        }
    }
    let stats_1 = stats_server.stats().await.ok();
    let store_1 = stats_1.as_ref().map(|s| s["store"].clone());
    if let (Some(a), Some(b)) = (&store_0, &store_1)
        && let Some(line) = store_line(a, b, played_for)
    {
        println!("{line}");
    }
    if let (Some(a), Some(b)) = (&stats_0, &stats_1)
        && let Some(line) = computers_line(&a["computers"], &b["computers"], played_for)
    {
        println!("{line}");
    }
    if args.reviews {
        println!("{}", review_counts.line());
        if let Some(b) = &stats_1 {
            println!("server reviews: {}", b["reviews"]);
        }
    }
    println!("machine load average: {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    if let (Some(b), Some(c)) = (rss_before, rss_connected) {
        println!(
            "server RSS: before {:.1} MiB, connected {:.1} MiB, end of play {:.1} MiB",
            b as f64 / 1024.0,
            c as f64 / 1024.0,
            rss_end.unwrap_or(0) as f64 / 1024.0
        );
        println!(
            "server memory per table: {:.1} KiB connected, {:.1} KiB at the end of play",
            kib_per_table(rss_connected).unwrap_or(f64::NAN),
            kib_per_table(rss_end).unwrap_or(f64::NAN)
        );
    }
    let mem = kib_per_table(rss_end.max(rss_connected));
    let failures = setup_errors + connect_errors + failed;
    let checks: Vec<(String, bool)> = match (&by_rounds, args.rounds) {
        (Some(r), Some(n)) => {
            for (what, reading) in [("after round 1", &r.first), (&*format!("after {n} rounds"), &r.last)] {
                match reading {
                    Some(x) => println!(
                        "server memory per table {what}: {:.1} KiB (rounds finished per table: min {}, median {}, max {}; {:.0} s into play)",
                        kib_per_table(x.rss).unwrap_or(f64::NAN),
                        x.min,
                        x.median,
                        x.max,
                        x.at.as_secs_f64()
                    ),
                    None => println!("server memory per table {what}: not reached before the deadline"),
                }
            }
            vec![
                (format!("every table played {n} rounds"), r.last.is_some()),
                (format!("memory <= 64 KiB/table after {n} rounds"), mem.is_none_or(|m| m <= 64.0)),
                ("no failures".into(), failures == 0),
            ]
        }
        _ => vec![
            ("p50 <= 2 ms".into(), p50 <= 2.0),
            ("p99 <= 10 ms".into(), p99 <= 10.0),
            ("p99.9 <= 25 ms".into(), p999 <= 25.0),
            ("memory <= 64 KiB/table".into(), mem.is_none_or(|m| m <= 64.0)),
            ("ramp <= 10 s".into(), ramp <= Duration::from_secs(10)),
            ("no failures".into(), failures == 0),
        ],
    };
    let summary: Vec<String> =
        checks.iter().map(|(name, ok)| format!("{name}: {}", if *ok { "ok" } else { "MISSED" })).collect();
    println!("targets: {}", summary.join("; "));
    Ok(checks.iter().all(|(_, ok)| *ok))
}

/// One reading of the server's memory in a `--rounds` run.
struct RoundsReading {
    rss: Option<u64>,
    /// Rounds finished per table when it was taken.
    min: u32,
    median: u32,
    max: u32,
    at: Duration,
}

/// The two readings of a `--rounds` run: once every table has finished round 1, and
/// once every table has finished `n` rounds (`None` if the deadline came first).
struct ByRounds {
    first: Option<RoundsReading>,
    last: Option<RoundsReading>,
}

/// Watches the tables' progress until every table has finished `n` rounds or the
/// deadline passes, reading the server's memory after round 1 and after round `n`.
async fn read_by_rounds(
    clocks: &[Arc<TableClock>],
    n: u32,
    pid: Option<u32>,
    deadline: tokio::time::Instant,
) -> ByRounds {
    let start = tokio::time::Instant::now();
    let mut out = ByRounds { first: None, last: None };
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut rounds: Vec<u32> = clocks.iter().map(|c| c.rounds.load(Ordering::Relaxed)).collect();
        rounds.sort_unstable();
        let (Some(&min), Some(&max)) = (rounds.first(), rounds.last()) else { break };
        let reading = || RoundsReading {
            rss: pid.and_then(rss_kib),
            min,
            median: rounds.get(rounds.len() / 2).copied().unwrap_or(min),
            max,
            at: start.elapsed(),
        };
        if out.first.is_none() && min >= 1 {
            out.first = Some(reading());
        }
        if min >= n {
            out.last = Some(reading());
            break;
        }
    }
    out
}

/// The store's work during play, from two `/api/stats` answers (`None` without a
/// database).
fn store_line(before: &serde_json::Value, after: &serde_json::Value, secs: f64) -> Option<String> {
    let delta = |key: &str| Some(after[key].as_u64()?.saturating_sub(before[key].as_u64()?));
    let (commits, writes, micros) = (delta("commits")?, delta("writes")?, delta("commit_micros")?);
    let hist: Vec<String> = (0..7)
        .map(|i| {
            let n = |v: &serde_json::Value| v["commit_ms_histogram"][i].as_u64().unwrap_or(0);
            n(after).saturating_sub(n(before)).to_string()
        })
        .collect();
    Some(format!(
        "store: {commits} commits ({:.0}/s), {:.1} writes per commit, mean commit {:.2} ms; \
         commits by ms [<=1,2,5,10,25,50,more]: [{}]",
        commits as f64 / secs,
        writes as f64 / commits.max(1) as f64,
        micros as f64 / 1000.0 / commits.max(1) as f64,
        hist.join(",")
    ))
}

/// The computers' decisions during play, from two `/api/stats` answers (`None` if the
/// server does not report them). The times are the server's percentiles since it
/// started, which in a bench run is the play.
fn computers_line(before: &serde_json::Value, after: &serde_json::Value, secs: f64) -> Option<String> {
    let delta = |key: &str| Some(after[key].as_u64()?.saturating_sub(before[key].as_u64()?));
    let (decisions, cut, idle) = (delta("decisions")?, delta("cut")?, delta("idle").unwrap_or(0));
    let ms = |group: &str, key: &str| after[group][key].as_f64().unwrap_or(f64::NAN);
    Some(format!(
        "computer decisions: {decisions} ({:.0}/s), {cut} cut down by load ({:.1} %), {idle} asks with \
         nothing to do, on {} threads; wall (asked to answered, without the think pause) p50 {:.3} ms, \
         p99 {:.3} ms, max {:.3} ms; CPU per decision p50 {:.3} ms, p99 {:.3} ms, mean {:.3} ms",
        decisions as f64 / secs,
        cut as f64 * 100.0 / decisions.max(1) as f64,
        after["threads"].as_u64().unwrap_or(0),
        ms("wall_ms", "p50"),
        ms("wall_ms", "p99"),
        ms("wall_ms", "max"),
        ms("cpu_ms", "p50"),
        ms("cpu_ms", "p99"),
        ms("cpu_ms", "mean"),
    ))
}
