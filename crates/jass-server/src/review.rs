//! Round reviews (protocol.md, "Round review"): computed on a thread of their own at
//! the lowest priority (nice 19, below the computer players' 10 and the runtime's 0),
//! so a review only ever takes time nobody else wants; kept in the store as derived
//! data with the version of the code that made them (another version is computed
//! again), and a few in memory.
//!
//! Two kinds of work, both bounded: a review someone asked for (at most
//! [`ASKED`] waiting: past that the request is answered "busy, try again") and, when
//! a round ends, the same review ahead of the question (at most [`AHEAD`] waiting:
//! past that the round is simply not reviewed ahead, and is on request). Asked
//! reviews go first. Nothing of a round is computed before the round is over: the
//! table hands out a round's record only then (`TableCmd::ReviewRecord`).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use jass_engine::Record;
use jass_protocol::review::REVIEW_VERSION;
use tokio::sync::{mpsc, oneshot};

use crate::stats::ReviewStats;
use crate::store::Store;

/// Asked reviews waiting, at most.
pub(crate) const ASKED: usize = 32;
/// Reviews ahead of the question waiting, at most.
pub(crate) const AHEAD: usize = 64;
/// Reviews kept in memory (each a few tens of kilobytes of JSON).
const CACHED: usize = 64;

/// Which review: a table's game (numbered from 1, as the table counts them) and round
/// (from 0, as the round summaries count them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) table: String,
    pub(crate) game: u32,
    pub(crate) round: u32,
}

impl Key {
    /// The review of an uploaded record (`POST /api/review`): kept in memory only.
    pub(crate) fn uploaded(&self) -> bool {
        self.table.starts_with("record:")
    }
}

/// A review's JSON, shared by everyone who asked.
pub(crate) type Json = Arc<str>;

/// What an asked review comes to.
pub(crate) type Answer = Result<Json, String>;

/// The reviews being computed, with whoever waits for each.
type Running = Mutex<HashMap<Key, Vec<oneshot::Sender<Answer>>>>;

/// One review to compute.
struct Job {
    key: Key,
    record: Arc<Record>,
    waiters: Vec<oneshot::Sender<Answer>>,
}

#[derive(Default)]
struct Queue {
    asked: VecDeque<Job>,
    ahead: VecDeque<Job>,
    closed: bool,
}

impl Queue {
    fn has(&self, key: &Key) -> bool {
        self.asked.iter().chain(self.ahead.iter()).any(|j| j.key == *key)
    }
}

/// The reviews of a server.
pub(crate) struct Reviews {
    queue: Arc<(Mutex<Queue>, Condvar)>,
    /// Keys being computed right now (a question for one waits for it).
    running: Arc<Running>,
    cache: Arc<Mutex<VecDeque<(Key, Json)>>>,
    store: Arc<dyn Store>,
    pub(crate) stats: Arc<ReviewStats>,
}

impl std::fmt::Debug for Reviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reviews").finish_non_exhaustive()
    }
}

/// Where a review of a table's current game got ready, for the table to say so.
pub(crate) type Ready = mpsc::UnboundedReceiver<Key>;

impl Reviews {
    /// Starts the reviewing thread; `ready` hears of every review computed. `runtime`
    /// runs the store's writes of reviews.
    pub(crate) fn start(
        store: Arc<dyn Store>,
        runtime: tokio::runtime::Handle,
        stats: Arc<ReviewStats>,
    ) -> (Arc<Self>, Ready) {
        let (ready_tx, ready) = mpsc::unbounded_channel();
        let reviews = Arc::new(Self {
            queue: Arc::default(),
            running: Arc::default(),
            cache: Arc::default(),
            store,
            stats,
        });
        let worker = Arc::clone(&reviews);
        let spawned = std::thread::Builder::new().name("jass-review".to_owned()).spawn(move || {
            lowest_priority();
            worker.work(&ready_tx, &runtime);
        });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "cannot start the review thread: reviews are refused");
            reviews.close();
        }
        (reviews, ready)
    }

    /// Stops taking work; the thread ends once the queue is empty.
    pub(crate) fn close(&self) {
        let (lock, ready) = &*self.queue;
        lock.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        ready.notify_all();
    }

    /// A review kept in memory or in the store (of this code's version).
    pub(crate) async fn kept(&self, key: &Key) -> Option<Json> {
        if let Some(json) = self.cached(key) {
            self.stats.served_kept.fetch_add(1, Ordering::Relaxed);
            return Some(json);
        }
        if key.uploaded() {
            return None;
        }
        let store = Arc::clone(&self.store);
        let k = key.clone();
        let stored = tokio::task::spawn_blocking(move || store.load_review(&k.table, k.game, k.round))
            .await
            .ok()?
            .map_err(|e| tracing::warn!(error = %e, "a kept review could not be read"))
            .ok()??;
        let (version, json) = stored;
        if version != REVIEW_VERSION {
            return None;
        }
        let json: Json = json.into();
        self.remember(key.clone(), Arc::clone(&json));
        self.stats.served_kept.fetch_add(1, Ordering::Relaxed);
        Some(json)
    }

    fn cached(&self, key: &Key) -> Option<Json> {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.iter().find(|(k, _)| k == key).map(|(_, j)| Arc::clone(j))
    }

    fn remember(&self, key: Key, json: Json) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.retain(|(k, _)| *k != key);
        if cache.len() >= CACHED {
            cache.pop_front();
        }
        cache.push_back((key, json));
    }

    /// Asks for a review: the answer comes on the receiver, with how many reviews
    /// are ahead of it (0: it is being computed or is next). `None` when too many
    /// wait already (busy).
    pub(crate) fn ask(&self, key: Key, record: Arc<Record>) -> Option<(oneshot::Receiver<Answer>, usize)> {
        let (tx, rx) = oneshot::channel();
        {
            let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(waiters) = running.get_mut(&key) {
                waiters.push(tx);
                return Some((rx, 0));
            }
        }
        let (lock, ready) = &*self.queue;
        let mut q = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if q.closed {
            return None;
        }
        let ahead_at = q.ahead.iter().position(|j| j.key == key);
        let asked_at = q.asked.iter().position(|j| j.key == key);
        let place = if let Some(at) = asked_at {
            if let Some(job) = q.asked.get_mut(at) {
                job.waiters.push(tx);
            }
            at
        } else if q.asked.len() >= ASKED {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
            return None;
        } else {
            // Asked now: a review waiting to be computed ahead moves up to the asked ones.
            let mut job = ahead_at.and_then(|at| q.ahead.remove(at)).unwrap_or_else(|| Job {
                key,
                record,
                waiters: Vec::new(),
            });
            job.waiters.push(tx);
            q.asked.push_back(job);
            q.asked.len() - 1
        };
        ready.notify_one();
        Some((rx, place))
    }

    /// Reviews a round that just ended ahead of the question, if there is room.
    /// `record` is called only then (it copies the game's record).
    pub(crate) fn ahead(&self, key: Key, record: impl FnOnce() -> Option<Record>) {
        let (lock, ready) = &*self.queue;
        let mut q = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if q.closed || q.has(&key) {
            return;
        }
        if q.ahead.len() >= AHEAD {
            self.stats.skipped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let Some(record) = record() else { return };
        q.ahead.push_back(Job { key, record: Arc::new(record), waiters: Vec::new() });
        ready.notify_one();
    }

    /// The thread's loop: one review at a time, asked ones first.
    fn work(&self, ready_tx: &mpsc::UnboundedSender<Key>, runtime: &tokio::runtime::Handle) {
        loop {
            let job = {
                let (lock, ready) = &*self.queue;
                let mut q = lock.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if let Some(job) = q.asked.pop_front().or_else(|| q.ahead.pop_front()) {
                        break job;
                    }
                    if q.closed {
                        return;
                    }
                    q = ready.wait(q).unwrap_or_else(PoisonError::into_inner);
                }
            };
            let Job { key, record, waiters } = job;
            self.running.lock().unwrap_or_else(PoisonError::into_inner).insert(key.clone(), waiters);
            let started = std::time::Instant::now();
            // A reviewer per review: its solver's table grows to 48 MiB on a whole deal,
            // given back when it is dropped rather than held while the thread waits. A
            // panic in a review must not take the thread with it.
            let reviewed = std::panic::catch_unwind(|| {
                jass_review::Reviewer::new(jass_review::Settings::default()).round(&record, key.round)
            });
            let answer: Answer = match reviewed {
                Ok(Ok(review)) => serde_json::to_string(&review).map(Json::from).map_err(|e| e.to_string()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("the review failed".to_owned()),
            };
            self.stats
                .last_ms
                .store(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX), Ordering::Relaxed);
            if let Ok(json) = &answer {
                self.stats.computed.fetch_add(1, Ordering::Relaxed);
                self.remember(key.clone(), Arc::clone(json));
                // Derived data: kept for later, nobody waits for it to be durable; an
                // uploaded record's only in memory.
                if key.uploaded() {
                    answer_waiters(&self.running, &key, &answer);
                    continue;
                }
                let stored =
                    self.store.keep_review(&key.table, key.game, key.round, REVIEW_VERSION, json.to_string());
                let table = key.table.clone();
                runtime.spawn(async move {
                    if let Err(e) = stored.await {
                        tracing::warn!(table, error = %e, "a review could not be kept");
                    }
                });
                let _ = ready_tx.send(key.clone());
            }
            answer_waiters(&self.running, &key, &answer);
        }
    }
}

/// Gives everyone waiting for `key` its answer.
fn answer_waiters(running: &Running, key: &Key, answer: &Answer) {
    let waiters = running.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
    for w in waiters.into_iter().flatten() {
        let _ = w.send(answer.clone());
    }
}

/// Tells each table whose review got ready, so its view says so.
pub(crate) async fn tell_tables(registry: Arc<crate::registry::Registry>, mut ready: Ready) {
    while let Some(key) = ready.recv().await {
        if let Some(table) = registry.get(&key.table) {
            table.reviewed(key.game, key.round).await;
        }
    }
}

/// The niceness of the review thread: the lowest, so it takes only time nobody
/// else wants (the computers' threads are at 10).
const NICE: i32 = 19;

fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        if let Err(e) = rustix::process::setpriority_process(Some(tid), NICE) {
            tracing::warn!(error = %e, "the review thread runs at normal priority");
        }
    }
}
