//! The store thread: the only writer. It drains its queue, runs every pending write
//! in **one** transaction, adds a step of moving the log into `entries`, and commits
//! once, so many tables' actions share one fsync (group commit). Only then are their
//! callers told.

use rusqlite::{Connection, params};
use tokio::sync::{mpsc, oneshot};

use crate::compaction::{Compactor, Effect};
use crate::metrics::Counters;

/// At most this many writes share one transaction, so one commit never grows unbounded.
const BATCH: usize = 4096;
/// A table's `last_active` is rewritten at most this often (seconds). It only serves
/// idle expiry after a restart, where a minute is nothing against a 24 h timeout, and
/// rewriting it on every action would add a page to nearly every commit.
const TOUCH_EVERY_S: i64 = 60;

pub(crate) enum Op {
    Append { id: String, entry: String },
    DeleteTable { id: String },
    Archive { id: String },
    Quarantine { id: String },
    SetAside { id: String, keep: u64, reason: String },
    Purge { before: i64, limit: u32 },
    KeepGame { id: String, game: u32, record: String },
    PurgeGames { before: i64, limit: u32 },
    KeepReview { id: String, game: u32, round: u32, version: u32, review: String },
}

/// A write and whom to tell; the answer counts what it did (tables purged), 0 for
/// plain writes.
pub(crate) struct Job {
    pub op: Op,
    pub done: oneshot::Sender<Result<u64, String>>,
}

/// What the store thread owns.
pub(crate) struct Writer {
    pub conn: Connection,
    pub touched: Touched,
    pub compactor: Compactor,
    /// The id the next log row gets (see `schema`'s note on `log.id`). Ids of a
    /// transaction that rolls back are skipped, never reused.
    pub next_log_id: i64,
}

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// When each table's `last_active` was last written, so appends rewrite it only
/// every [`TOUCH_EVERY_S`]. Known only to the store thread. Changes are undone with
/// the transaction or savepoint that made them, so the map never claims a write that
/// was rolled back (a table row missing would lose the table's entries at load).
#[derive(Default)]
pub(crate) struct Touched {
    at: std::collections::HashMap<String, i64>,
    undo: Vec<(String, Option<i64>)>,
}

impl Touched {
    pub(crate) fn load(tables: &[crate::schema::TableRows]) -> Self {
        // A quarantined table's flag must be cleared by its next append, so its row
        // counts as never written.
        let at = tables.iter().filter(|t| t.quarantined_at.is_none()).map(|t| (t.id.clone(), t.last_active));
        Self { at: at.collect(), undo: Vec::new() }
    }

    fn due(&self, id: &str, ts: i64) -> bool {
        self.at.get(id).is_none_or(|&t| ts - t >= TOUCH_EVERY_S)
    }

    fn set(&mut self, id: &str, ts: i64) {
        let prev = self.at.insert(id.to_owned(), ts);
        self.undo.push((id.to_owned(), prev));
    }

    fn remove(&mut self, id: &str) {
        if let Some(prev) = self.at.remove(id) {
            self.undo.push((id.to_owned(), Some(prev)));
        }
    }

    fn mark(&self) -> usize {
        self.undo.len()
    }

    fn rollback_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let Some((id, prev)) = self.undo.pop() else { break };
            match prev {
                Some(t) => self.at.insert(id, t),
                None => self.at.remove(&id),
            };
        }
    }

    fn committed(&mut self) {
        self.undo.clear();
    }
}

/// Moves a table's rows still in `log` into `entries` (in order) inside `tx`, so
/// everything it holds is in `entries` and nothing of it is read from `log` again.
fn settle(
    tx: &Connection,
    id: &str,
    compactor: &Compactor,
    effects: &mut Vec<Effect>,
) -> rusqlite::Result<()> {
    for row in compactor.unmoved(id, effects) {
        tx.prepare_cached(
            "INSERT INTO entries (table_id, entry) SELECT table_id, entry FROM log WHERE id = ?1",
        )?
        .execute([row])?;
        tx.prepare_cached("DELETE FROM log WHERE id = ?1")?.execute([row])?;
    }
    effects.push(Effect::Cleared(id.to_owned()));
    Ok(())
}

/// Deletes a table with everything it holds inside `tx`.
fn delete(
    tx: &Connection,
    id: &str,
    touched: &mut Touched,
    compactor: &Compactor,
    effects: &mut Vec<Effect>,
) -> rusqlite::Result<()> {
    for row in compactor.unmoved(id, effects) {
        tx.prepare_cached("DELETE FROM log WHERE id = ?1")?.execute([row])?;
    }
    effects.push(Effect::Cleared(id.to_owned()));
    tx.prepare_cached("DELETE FROM entries WHERE table_id = ?1")?.execute([id])?;
    tx.prepare_cached("DELETE FROM damaged WHERE table_id = ?1")?.execute([id])?;
    tx.prepare_cached("DELETE FROM tables WHERE id = ?1")?.execute([id])?;
    touched.remove(id);
    Ok(())
}

/// One write inside the open transaction `tx`; what it did to the log goes to
/// `effects`, to be applied to the compactor if the transaction commits.
fn apply(
    tx: &Connection,
    op: &Op,
    ts: i64,
    touched: &mut Touched,
    compactor: &Compactor,
    next_log_id: &mut i64,
    effects: &mut Vec<Effect>,
) -> rusqlite::Result<u64> {
    match op {
        Op::Append { id, entry } => {
            // Cached statements: appends are the hot path (every accepted action).
            if touched.due(id, ts) {
                // A table written to is live: its new rows are in `log`, so it must
                // not keep a flag that lets reads skip the log.
                tx.prepare_cached(
                    "INSERT INTO tables (id, last_active) VALUES (?1, ?2)
                     ON CONFLICT(id) DO UPDATE SET last_active = excluded.last_active,
                         archived_at = NULL, quarantined_at = NULL",
                )?
                .execute(params![id, ts])?;
                touched.set(id, ts);
            }
            let row = *next_log_id;
            *next_log_id += 1;
            tx.prepare_cached("INSERT INTO log (id, table_id, entry) VALUES (?1, ?2, ?3)")?
                .execute(params![row, id, entry])?;
            effects.push(Effect::Logged(id.clone(), row));
        }
        Op::Archive { id } | Op::Quarantine { id } => {
            settle(tx, id, compactor, effects)?;
            let sql = if matches!(op, Op::Archive { .. }) {
                "UPDATE tables SET archived_at = ?2 WHERE id = ?1"
            } else {
                // A table found without its row (damage) gets one, so it is kept.
                "INSERT INTO tables (id, last_active, quarantined_at) VALUES (?1, ?2, ?2)
                 ON CONFLICT(id) DO UPDATE SET quarantined_at = coalesce(quarantined_at, excluded.quarantined_at)"
            };
            tx.prepare_cached(sql)?.execute(params![id, ts])?;
            // The next append must rewrite the row, clearing the flag.
            touched.remove(id);
        }
        Op::SetAside { id, keep, reason } => {
            // Settled first, so the cut counts every entry.
            settle(tx, id, compactor, effects)?;
            let keep = i64::try_from(*keep).unwrap_or(i64::MAX);
            tx.execute(
                "INSERT INTO damaged (table_id, entry, reason, at)
                 SELECT table_id, entry, ?3, ?4 FROM entries WHERE table_id = ?1 AND id NOT IN
                     (SELECT id FROM entries WHERE table_id = ?1 ORDER BY id LIMIT ?2)
                 ORDER BY id",
                params![id, keep, reason, ts],
            )?;
            tx.execute(
                "DELETE FROM entries WHERE table_id = ?1 AND id NOT IN
                 (SELECT id FROM entries WHERE table_id = ?1 ORDER BY id LIMIT ?2)",
                params![id, keep],
            )?;
        }
        Op::DeleteTable { id } => delete(tx, id, touched, compactor, effects)?,
        Op::KeepGame { id, game, record } => {
            tx.prepare_cached(
                "INSERT OR IGNORE INTO games (table_id, game, finished_at, record) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![id, game, ts, record])?;
        }
        Op::PurgeGames { before, limit } => {
            let n = tx
                .prepare_cached(
                    "DELETE FROM games WHERE (table_id, game) IN (SELECT table_id, game FROM games
                     WHERE finished_at >= ?1 AND finished_at < ?2 ORDER BY finished_at LIMIT ?3)",
                )?
                .execute(params![crate::schema::EARLIEST_TIME, before, limit])?;
            // Reviews are derived data and go by the same retention, from when they
            // were computed.
            let r = tx
                .prepare_cached(
                    "DELETE FROM reviews WHERE (table_id, game, round) IN (SELECT table_id, game, round FROM reviews
                     WHERE computed_at >= ?1 AND computed_at < ?2 ORDER BY computed_at LIMIT ?3)",
                )?
                .execute(params![crate::schema::EARLIEST_TIME, before, limit])?;
            return Ok(n.max(r) as u64);
        }
        Op::KeepReview { id, game, round, version, review } => {
            tx.prepare_cached(
                "INSERT INTO reviews (table_id, game, round, version, computed_at, review) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (table_id, game, round) DO UPDATE SET version = ?4, computed_at = ?5, review = ?6",
            )?
            .execute(params![id, game, round, version, ts, review])?;
        }
        Op::Purge { before, limit } => {
            let ids: Vec<String> = tx
                .prepare_cached(
                    "SELECT id FROM tables WHERE archived_at >= ?1 AND archived_at < ?2 ORDER BY archived_at LIMIT ?3",
                )?
                .query_map(params![crate::schema::EARLIEST_TIME, before, limit], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            for id in &ids {
                delete(tx, id, touched, compactor, effects)?;
            }
            return Ok(ids.len() as u64);
        }
    }
    Ok(0)
}

impl Writer {
    /// All writes of a batch in one transaction (the common case), with a step of the
    /// log's move in a savepoint: if the step fails, the writes still commit.
    fn commit_batch(&mut self, batch: &[Job], ts: i64) -> rusqlite::Result<Vec<Result<u64, String>>> {
        let Self { conn, touched, compactor, next_log_id } = self;
        let mut effects = Vec::with_capacity(batch.len());
        let mut results = Vec::with_capacity(batch.len());
        let mut tx = conn.transaction()?;
        for job in batch {
            results.push(Ok(apply(&tx, &job.op, ts, touched, compactor, next_log_id, &mut effects)?));
        }
        let sp = tx.savepoint()?;
        let step = match compactor.step(&sp, batch.len()) {
            Ok(step) => {
                sp.commit()?;
                Some(step)
            }
            Err(e) => {
                tracing::warn!(error = %e, "moving the log into entries failed; the next commit retries");
                drop(sp);
                None
            }
        };
        tx.commit()?;
        compactor.committed(&effects, step);
        Ok(results)
    }

    /// The slow path after a failed batch: a savepoint per write, one commit.
    fn commit_each(&mut self, batch: &[Job], ts: i64) -> Vec<Result<u64, String>> {
        let Self { conn, touched, compactor, next_log_id } = self;
        let mut results: Vec<Result<u64, String>> = Vec::with_capacity(batch.len());
        let mut effects = Vec::new();
        let outcome = (|| -> rusqlite::Result<()> {
            let mut tx = conn.transaction()?;
            for job in batch {
                let sp = tx.savepoint()?;
                let (mark, effects_mark) = (touched.mark(), effects.len());
                match apply(&sp, &job.op, ts, touched, compactor, next_log_id, &mut effects) {
                    Ok(n) => {
                        sp.commit()?;
                        results.push(Ok(n));
                    }
                    Err(e) => {
                        // Dropping a savepoint rolls it back.
                        drop(sp);
                        touched.rollback_to(mark);
                        effects.truncate(effects_mark);
                        results.push(Err(e.to_string()));
                    }
                }
            }
            tx.commit()
        })();
        match outcome {
            Ok(()) => {
                compactor.committed(&effects, None);
                results
            }
            Err(e) => {
                tracing::error!(error = %e, "store commit failed");
                touched.rollback_to(0);
                vec![Err(e.to_string()); batch.len()]
            }
        }
    }
}
/// The store thread: drain the queue, one transaction per batch, one fsync per commit.
/// There is no waiting window: whatever queued up while the last commit was being
/// fsynced forms the next batch, so a quiet store commits at once and a busy one
/// batches more (group commit without adding latency).
/// The whole batch is tried at once; only if a write in it fails is the batch redone
/// with a savepoint per write, so one bad write never costs the others.
pub(crate) fn run(mut w: Writer, mut rx: mpsc::Receiver<Job>, counters: &Counters) {
    let mut batch: Vec<Job> = Vec::with_capacity(256);
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let ts = now();
        let started = std::time::Instant::now();
        let results = match w.commit_batch(&batch, ts) {
            Ok(results) => results,
            Err(_) => {
                w.touched.rollback_to(0);
                w.commit_each(&batch, ts)
            }
        };
        w.touched.committed();
        counters.record(batch.len(), started.elapsed(), w.compactor.unmoved_rows());
        for (job, res) in batch.drain(..).zip(results) {
            let _ = job.done.send(res);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Touched;

    #[test]
    fn touches_are_undone_with_their_transaction() {
        let mut t = Touched::default();
        assert!(t.due("a", 100));
        t.set("a", 100);
        t.committed();
        assert!(!t.due("a", 159), "rewritten at most once a minute");
        assert!(t.due("a", 160));
        let mark = t.mark();
        t.set("b", 170);
        t.remove("a");
        t.rollback_to(mark);
        assert!(!t.due("a", 120), "the delete was rolled back");
        assert!(t.due("b", 171), "the new table's row was rolled back, so it is written again");
    }
}
