//! The report: the load's figures, the server's CPU, memory and store, and the
//! targets met or missed.

use std::time::Duration;

use jass_bot::BotError;
use jass_bot::http::Server;
use jass_protocol::http::Joined;

use crate::args::Args;
use crate::play::{Played, Seats};

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len()) - 1).map_or(f64::NAN, |&v| f64::from(v) / 1000.0)
}
/// What setup and ramp found, for the report.
#[derive(Clone, Copy)]
pub(crate) struct Ran {
    pub(crate) sockets: usize,
    pub(crate) humans: usize,
    pub(crate) setup: Duration,
    pub(crate) setup_errors: usize,
    pub(crate) ramp: Duration,
    pub(crate) connect_errors: usize,
    /// The server's resident memory before setup and once every socket was connected.
    pub(crate) rss_before: Option<u64>,
    pub(crate) rss_connected: Option<u64>,
}

/// Prints the report and whether every target was met.
pub(crate) async fn report(
    args: &Args,
    stats_server: &Server,
    tables: &[Vec<Joined>],
    ran: &Ran,
    played: Played,
    seats: Seats,
) -> Result<bool, BotError> {
    let Ran { sockets, humans, setup, setup_errors, ramp, connect_errors, rss_before, rss_connected } = *ran;
    let Played {
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
    } = played;
    let Seats { mut samples, mut computer_waits, slow_by_second, slowest, sent, cards, refused, failed } =
        seats;
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
/// The store's work during play, from two `/api/stats` answers (`None` without a
/// database).
fn store_line(before: &serde_json::Value, after: &serde_json::Value, secs: f64) -> Option<String> {
    let delta = |key: &str| Some(after[key].as_u64()?.saturating_sub(before[key].as_u64()?));
    let (commits, writes, micros) = (delta("commits")?, delta("writes")?, delta("commit_micros")?);
    let hist: Vec<String> = (0..7)
        .map(|i| {
            let n = |v: &serde_json::Value| {
                v.get("commit_ms_histogram")
                    .and_then(|h| h.get(i))
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0)
            };
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
    let ms = |group: &str, key: &str| {
        after.get(group).and_then(|g| g.get(key)).and_then(serde_json::Value::as_f64).unwrap_or(f64::NAN)
    };
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
