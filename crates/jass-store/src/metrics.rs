//! What the store thread has done since it started, for operators and the load bench.

use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds (milliseconds) of the commit-time buckets in [`Metrics`].
pub const COMMIT_MS_BUCKETS: [u64; 6] = [1, 2, 5, 10, 25, 50];

/// What the store thread has done since it started: for operators (`/api/stats`) and
/// the load bench, to tell a slow disk from a slow server.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Metrics {
    /// Transactions committed (each one fsync).
    pub commits: u64,
    /// Writes committed (entries appended; tables deleted, archived, quarantined or
    /// purged; entries set aside).
    pub writes: u64,
    /// The most writes one commit carried.
    pub largest_batch: u64,
    /// Total time spent committing, in microseconds (the mean is this over `commits`).
    pub commit_micros: u64,
    /// Commits by duration: `[≤1 ms, ≤2, ≤5, ≤10, ≤25, ≤50, more]`.
    pub commit_ms_histogram: [u64; COMMIT_MS_BUCKETS.len() + 1],
    /// Entries still only in the append log, not yet moved into the indexed table: a
    /// restart reads them by scanning the log, so this should stay near a minute's
    /// appends.
    pub unmoved_rows: u64,
    /// Appends refused because another node had taken the table over (the
    /// PostgreSQL store's fence; always 0 here, where one process holds every table).
    pub fenced: u64,
}

/// The live counters behind [`Metrics`]; only the store thread writes them.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    commits: AtomicU64,
    writes: AtomicU64,
    largest_batch: AtomicU64,
    commit_micros: AtomicU64,
    histogram: [AtomicU64; COMMIT_MS_BUCKETS.len() + 1],
    pub(crate) unmoved_rows: AtomicU64,
}

impl Counters {
    pub(crate) fn record(&self, writes: usize, took: std::time::Duration, unmoved_rows: usize) {
        self.unmoved_rows.store(unmoved_rows as u64, Ordering::Relaxed);
        let writes = writes as u64;
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.writes.fetch_add(writes, Ordering::Relaxed);
        self.largest_batch.fetch_max(writes, Ordering::Relaxed);
        self.commit_micros.fetch_add(micros, Ordering::Relaxed);
        let slot =
            COMMIT_MS_BUCKETS.iter().position(|&ms| micros <= ms * 1000).unwrap_or(COMMIT_MS_BUCKETS.len());
        if let Some(b) = self.histogram.get(slot) {
            b.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub(crate) fn snapshot(&self) -> Metrics {
        Metrics {
            commits: self.commits.load(Ordering::Relaxed),
            writes: self.writes.load(Ordering::Relaxed),
            largest_batch: self.largest_batch.load(Ordering::Relaxed),
            commit_micros: self.commit_micros.load(Ordering::Relaxed),
            commit_ms_histogram: std::array::from_fn(|i| {
                self.histogram.get(i).map_or(0, |b| b.load(Ordering::Relaxed))
            }),
            unmoved_rows: self.unmoved_rows.load(Ordering::Relaxed),
            fenced: 0,
        }
    }
}
