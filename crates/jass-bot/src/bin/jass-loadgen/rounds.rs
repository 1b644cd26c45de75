//! `--rounds`: the server's memory read once every table has played its first round,
//! and again once every table has played N.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::probe::TableClock;
use crate::procfs::rss_kib;

/// One reading of the server's memory in a `--rounds` run.
pub(crate) struct RoundsReading {
    pub(crate) rss: Option<u64>,
    /// Rounds finished per table when it was taken.
    pub(crate) min: u32,
    pub(crate) median: u32,
    pub(crate) max: u32,
    pub(crate) at: Duration,
}

/// The two readings of a `--rounds` run: once every table has finished round 1, and
/// once every table has finished `n` rounds (`None` if the deadline came first).
pub(crate) struct ByRounds {
    pub(crate) first: Option<RoundsReading>,
    pub(crate) last: Option<RoundsReading>,
}

/// Watches the tables' progress until every table has finished `n` rounds or the
/// deadline passes, reading the server's memory after round 1 and after round `n`.
pub(crate) async fn read_by_rounds(
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
