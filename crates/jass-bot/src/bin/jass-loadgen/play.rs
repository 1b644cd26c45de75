//! The measurement loop: every seat plays over its socket until the deadline (or, with
//! `--rounds`, until the readings are taken), timed by its probe, while the load
//! generator reads the server's CPU, scheduling and memory around the play.

use std::sync::Arc;
use std::time::Duration;

use jass_bot::BotError;
use jass_bot::client::{BotConfig, Connection, Outcome};
use jass_bot::http::Server;
use jass_bot::policy::Policy;
use jass_protocol::ErrorCode;
use jass_protocol::http::Joined;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tokio::task::JoinSet;

use crate::args::Args;
use crate::probe::{Probe, ReviewCounts, Slowest, TableClock};
use crate::procfs::{cpu_ticks, rss_kib, sched_ns};
use crate::rounds::{ByRounds, read_by_rounds};

/// The seats' tasks: each ends with its outcome and its probe.
pub(crate) type SeatTasks = JoinSet<(Result<Outcome, BotError>, Probe)>;

/// What was read around the play (the seats' own measurements come from `collect`).
pub(crate) struct Played {
    /// Seconds of play.
    pub(crate) played_for: f64,
    pub(crate) rss_end: Option<u64>,
    pub(crate) by_rounds: Option<ByRounds>,
    /// CPU clock ticks during play.
    pub(crate) cpu_server: Option<u64>,
    pub(crate) cpu_self: Option<u64>,
    /// Seconds run and waited runnable during play.
    pub(crate) sched_server: Option<(f64, f64)>,
    pub(crate) sched_self: Option<(f64, f64)>,
    /// `/api/stats` as play began, and its store part.
    pub(crate) stats_0: Option<serde_json::Value>,
    pub(crate) store_0: Option<serde_json::Value>,
    pub(crate) review_counts: Arc<ReviewCounts>,
}

/// Plays every connected seat for the duration (or until every table has played
/// `--rounds`), reading the server around it; the seats' tasks are returned to be
/// collected.
pub(crate) async fn play(
    args: &Args,
    server: &Server,
    stats_server: &Server,
    tables: &[Vec<Joined>],
    conns: Vec<(usize, usize, Connection)>,
    humans: usize,
    pid: Option<u32>,
) -> (SeatTasks, Played) {
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
        let Some(clock) = clocks.get(ti).cloned() else { continue };
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
    let played = Played {
        played_for,
        rss_end,
        by_rounds,
        cpu_server,
        cpu_self,
        sched_server,
        sched_self,
        stats_0,
        store_0,
        review_counts,
    };
    (set, played)
}

/// What the seats measured, together.
pub(crate) struct Seats {
    /// Card→state latencies in microseconds, every seat's.
    pub(crate) samples: Vec<u32>,
    pub(crate) computer_waits: Vec<u32>,
    pub(crate) slow_by_second: Vec<u32>,
    pub(crate) slowest: Option<Slowest>,
    /// Messages sent, and of them cards.
    pub(crate) sent: u64,
    pub(crate) cards: u64,
    pub(crate) refused: Vec<ErrorCode>,
    /// Seats that failed.
    pub(crate) failed: usize,
}

/// Waits for the seats to stop (30 s at most) and adds up their probes.
pub(crate) async fn collect(set: &mut SeatTasks) -> Seats {
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
    Seats { samples, computer_waits, slow_by_second, slowest, sent, cards, refused, failed }
}
