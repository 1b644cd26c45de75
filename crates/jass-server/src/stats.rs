//! Counters for `GET /api/stats`: what an operator needs to see that the limits and
//! refusals work as intended in production, kept as atomics so the hot paths (every
//! frame) pay one relaxed add and no lock.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jass_protocol::{ClientMsg, ErrorCode};
use serde::Serialize;

/// Server-wide counters; gauges go up and down, the rest only up.
#[derive(Debug)]
pub(crate) struct Stats {
    /// When the server started, for `uptime_seconds`.
    started: Instant,
    /// The plain counters, reported as they are.
    pub(crate) counters: Counters,
    /// Well-formed messages received, by type (slots of [`ClientMsg::TYPES`]).
    messages_in: [AtomicU64; ClientMsg::TYPES.len()],
    /// `error` frames sent, by code. A refusal is rare next to a frame, so a short
    /// std mutex costs less than keeping one atomic per code in step with the enum.
    rejected: Mutex<HashMap<ErrorCode, u64>>,
    /// Tables recovery could not rebuild (README, "What the database keeps"): kept in
    /// the store, not served. Filled once at start-up.
    quarantined: Mutex<Vec<String>>,
    /// The computer players' decisions; shared with their pool, which writes it.
    pub(crate) computers: Arc<ComputerStats>,
    /// Claims and handoffs, with a store several nodes share.
    pub(crate) cluster: ClusterStats,
    /// Round reviews; shared with their thread, which writes it.
    pub(crate) reviews: Arc<ReviewStats>,
}

/// The counters `/api/stats` reports as they are, each under its field's name (serde
/// reads an atomic with a relaxed load).
#[derive(Debug, Default, Serialize)]
pub(crate) struct Counters {
    /// Gauge: upgraded WebSockets not yet finished.
    pub(crate) sockets_open: AtomicU64,
    /// Gauge: sockets attached to a seat.
    pub(crate) seats_connected: AtomicU64,
    /// Gauge: sockets attached as spectators.
    pub(crate) spectators: AtomicU64,
    /// Tables created over HTTP.
    pub(crate) tables_created: AtomicU64,
    /// Requests the table accepted (answered `ack`).
    pub(crate) actions_accepted: AtomicU64,
    /// Frames that were not a valid client message (`bad_message`).
    pub(crate) malformed: AtomicU64,
    /// Connections closed with 1008 for flooding.
    pub(crate) rate_limited_closes: AtomicU64,
    /// Connections dropped because a frame could not go out in time (or the write
    /// buffer was full): peers that stopped reading.
    pub(crate) slow_send_closes: AtomicU64,
    /// Upgrades refused because the address had too many sockets open.
    pub(crate) per_ip_refusals: AtomicU64,
    /// Table creations refused because the address created too many lately.
    pub(crate) table_rate_refusals: AtomicU64,
    /// Upgrades refused for their `Origin`.
    pub(crate) origin_refusals: AtomicU64,
    /// TCP connections refused because the address had too many HTTP connections open.
    pub(crate) http_connection_refusals: AtomicU64,
    /// HTTP connections closed for a request head or body that did not arrive in time.
    pub(crate) http_timeouts: AtomicU64,
    /// Table API requests answered 429 `rate_limited`.
    pub(crate) http_rate_limited: AtomicU64,
    /// State-changing requests refused for their `Content-Type` (415) or `Origin` (403).
    pub(crate) cross_site_refusals: AtomicU64,
}

/// Adds one to a counter.
pub(crate) fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// Takes one off a gauge (never below zero, so a bug cannot wrap it to 2^64).
pub(crate) fn drop_one(gauge: &AtomicU64) {
    let _ = gauge.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
}

fn get(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

impl Stats {
    /// All zero, uptime from now.
    pub(crate) fn new() -> Self {
        Self {
            started: Instant::now(),
            counters: Counters::default(),
            messages_in: std::array::from_fn(|_| AtomicU64::new(0)),
            rejected: Mutex::new(HashMap::new()),
            quarantined: Mutex::new(Vec::new()),
            computers: Arc::new(ComputerStats::default()),
            cluster: ClusterStats::default(),
            reviews: Arc::default(),
        }
    }

    /// Reports a table as quarantined.
    pub(crate) fn quarantine(&self, table: String) {
        self.quarantined.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(table);
    }

    /// Counts a well-formed incoming message.
    pub(crate) fn message_in(&self, msg: &ClientMsg) {
        if let Some(c) = self.messages_in.get(msg.type_index()) {
            bump(c);
        }
    }

    /// Counts an `error` frame sent.
    pub(crate) fn rejected(&self, code: ErrorCode) {
        let mut map = self.rejected.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *map.entry(code).or_insert(0) += 1;
    }

    /// The JSON answer of `GET /api/stats`; `tables` comes from the registry, `store`
    /// from the store (`None` without a disk).
    pub(crate) fn snapshot(&self, tables: usize, store: Option<jass_store::Metrics>) -> Snapshot<'_> {
        let messages_in = ClientMsg::TYPES
            .iter()
            .zip(&self.messages_in)
            .map(|(name, c)| ((*name).to_owned(), get(c)))
            .filter(|(_, n)| *n > 0)
            .collect();
        let rejected = self
            .rejected
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(code, n)| (code.as_str(), *n))
            .collect();
        Snapshot {
            uptime_seconds: self.started.elapsed().as_secs(),
            tables,
            counters: &self.counters,
            messages_in,
            rejected,
            quarantined: self.quarantined.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone(),
            computers: self.computers.snapshot(),
            cluster: self.cluster.snapshot(),
            reviews: &self.reviews,
            store,
        }
    }
}

/// The body of `GET /api/stats` (protocol.md section 1 lists the fields).
#[derive(Debug, Serialize)]
pub(crate) struct Snapshot<'a> {
    uptime_seconds: u64,
    tables: usize,
    #[serde(flatten)]
    counters: &'a Counters,
    messages_in: BTreeMap<String, u64>,
    rejected: BTreeMap<String, u64>,
    quarantined: Vec<String>,
    computers: ComputersSnapshot<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<ClusterSnapshot<'a>>,
    reviews: &'a ReviewStats,
    store: Option<jass_store::Metrics>,
}

/// A node's part in a cluster (a store several nodes share), for `/api/stats`.
#[derive(Debug)]
pub(crate) struct ClusterStats {
    /// This node's id in the store; 0 until it has one (then the node is no
    /// cluster member and `/api/stats` has no `cluster`).
    node: AtomicU64,
    /// Whether the node serves its tables (its lease is fresh).
    serving: std::sync::atomic::AtomicBool,
    /// The counts, reported as they are.
    pub(crate) counts: ClusterCounts,
    /// Microseconds from a request for a table not held here to the table replayed
    /// (claim waits included).
    activations: Mutex<Option<hdrhistogram::Histogram<u64>>>,
}

/// The counts of [`ClusterStats`], each under its field's name in `/api/stats`.
#[derive(Debug, Default, Serialize)]
pub(crate) struct ClusterCounts {
    /// Tables claimed from the store and brought back here.
    pub(crate) claims: AtomicU64,
    /// Requests for a table that could not be claimed now (another live node held
    /// it past the claim wait, or the store could not be asked): answered "try again".
    pub(crate) claims_refused: AtomicU64,
    /// Tables let go because another node asked for them.
    pub(crate) handoffs: AtomicU64,
    /// Times the node let every table go because its lease may have run out (it
    /// was frozen, or cut off from the database); `store.fenced` counts the appends
    /// refused because another node had taken their table.
    pub(crate) lapses: AtomicU64,
}

impl Default for ClusterStats {
    fn default() -> Self {
        Self {
            node: AtomicU64::new(0),
            serving: std::sync::atomic::AtomicBool::new(false),
            counts: ClusterCounts::default(),
            activations: Mutex::new(hdrhistogram::Histogram::new_with_bounds(1, 3_600_000_000, 2).ok()),
        }
    }
}

impl ClusterStats {
    /// Marks the node a cluster member.
    pub(crate) fn set_node(&self, node: Option<i64>, serving: bool) {
        let id = node.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        self.node.store(id, Ordering::Relaxed);
        self.set_serving(serving);
    }

    /// Records whether the node serves its tables.
    pub(crate) fn set_serving(&self, serving: bool) {
        self.serving.store(serving, Ordering::Relaxed);
    }

    /// Records one table's activation time.
    pub(crate) fn activated(&self, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX).max(1);
        if let Some(h) = self.activations.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_mut() {
            h.saturating_record(micros);
        }
    }

    fn snapshot(&self) -> Option<ClusterSnapshot<'_>> {
        let node = self.node.load(Ordering::Relaxed);
        (node != 0).then(|| ClusterSnapshot {
            node,
            serving: self.serving.load(Ordering::Relaxed),
            counts: &self.counts,
            activation_ms: self
                .activations
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .as_ref()
                .filter(|h| !h.is_empty())
                .map(Percentiles::of),
        })
    }
}

/// The `cluster` object of `/api/stats`.
#[derive(Debug, Serialize)]
pub(crate) struct ClusterSnapshot<'a> {
    node: u64,
    serving: bool,
    #[serde(flatten)]
    counts: &'a ClusterCounts,
    activation_ms: Option<Percentiles>,
}

/// The computer players' decisions, for `/api/stats` (protocol.md 1): what an operator
/// needs to see whether they keep up and what they cost. Written by the deciding
/// threads, never by the runtime's, so the histograms' lock is no cost to a socket
/// task.
#[derive(Debug)]
pub(crate) struct ComputerStats {
    /// The counts, reported as they are.
    counts: ComputerCounts,
    /// Microseconds from asking to the answer (queue and thinking, without the
    /// deliberate think pause), and CPU microseconds of the deciding thread.
    /// (`None` only if the histograms could not be made.)
    times: Mutex<Option<DecisionTimes>>,
}

/// The counts of [`ComputerStats`], each under its field's name in `/api/stats`.
#[derive(Debug, Default, Serialize)]
struct ComputerCounts {
    /// Threads deciding at once.
    threads: AtomicU64,
    /// Decisions made.
    decisions: AtomicU64,
    /// Of those, decided on a smaller budget because others waited behind them.
    cut: AtomicU64,
    /// Decisions that never came back (their thread failed).
    failed: AtomicU64,
    /// Asks that found nothing to do (e.g. Stöck it may announce later); not in the
    /// decisions or their times.
    idle: AtomicU64,
}

/// The two histograms of [`ComputerStats`].
#[derive(Debug)]
struct DecisionTimes {
    wall: hdrhistogram::Histogram<u64>,
    cpu: hdrhistogram::Histogram<u64>,
}

impl Default for ComputerStats {
    fn default() -> Self {
        // Two significant digits from 1 µs to an hour (longer counts as an hour).
        let histogram = || hdrhistogram::Histogram::new_with_bounds(1, 3_600_000_000, 2);
        let times = histogram().and_then(|wall| Ok(DecisionTimes { cpu: histogram()?, wall })).ok();
        Self { counts: ComputerCounts::default(), times: Mutex::new(times) }
    }
}

impl ComputerStats {
    /// Records how many threads decide.
    pub(crate) fn set_threads(&self, n: usize) {
        self.counts.threads.store(u64::try_from(n).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Counts a decision that never came back.
    pub(crate) fn failed(&self) {
        bump(&self.counts.failed);
    }

    /// Counts a decision: its wall time since it was asked for, its thread's CPU time
    /// (if the system tells it) and whether load cut its budget; an ask that found
    /// nothing to do (`acted` false) only as such.
    pub(crate) fn decided(&self, wall: Duration, cpu: Option<Duration>, cut: bool, acted: bool) {
        if !acted {
            bump(&self.counts.idle);
            return;
        }
        bump(&self.counts.decisions);
        if cut {
            bump(&self.counts.cut);
        }
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1);
        let mut times = self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(times) = times.as_mut() {
            times.wall.saturating_record(micros(wall));
            if let Some(cpu) = cpu {
                times.cpu.saturating_record(micros(cpu));
            }
        }
    }

    /// The `computers` object of `/api/stats`.
    pub(crate) fn snapshot(&self) -> ComputersSnapshot<'_> {
        let times = self.times.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        ComputersSnapshot {
            counts: &self.counts,
            wall_ms: times.as_ref().map(|t| Percentiles::of(&t.wall)),
            cpu_ms: times.as_ref().map(|t| Percentiles::of(&t.cpu)),
        }
    }
}

/// The `computers` object of `/api/stats`: totals since the server started.
#[derive(Debug, Serialize)]
pub(crate) struct ComputersSnapshot<'a> {
    #[serde(flatten)]
    counts: &'a ComputerCounts,
    /// Time from asking to the answer, without the think pause.
    wall_ms: Option<Percentiles>,
    /// CPU time of the deciding thread.
    cpu_ms: Option<Percentiles>,
}

/// Percentiles of a histogram of microseconds, in milliseconds.
#[derive(Debug, Serialize)]
struct Percentiles {
    p50: f64,
    p99: f64,
    max: f64,
    mean: f64,
}

impl Percentiles {
    fn of(h: &hdrhistogram::Histogram<u64>) -> Self {
        let ms = |us: u64| us as f64 / 1000.0;
        Self {
            p50: ms(h.value_at_quantile(0.5)),
            p99: ms(h.value_at_quantile(0.99)),
            max: ms(h.max()),
            mean: h.mean() / 1000.0,
        }
    }
}

/// The `reviews` object of `/api/stats`: round reviews since the server started.
#[derive(Debug, Default, Serialize)]
pub(crate) struct ReviewStats {
    /// Reviews computed.
    pub(crate) computed: AtomicU64,
    /// Served from memory or the store without computing.
    pub(crate) served_kept: AtomicU64,
    /// Asked while the asked queue was full (answered busy).
    pub(crate) refused: AtomicU64,
    /// Not reviewed ahead because that queue was full.
    pub(crate) skipped: AtomicU64,
    /// Milliseconds the last review took.
    pub(crate) last_ms: AtomicU64,
}
