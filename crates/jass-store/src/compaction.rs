//! Moving log rows into `entries`, many of a table's rows at a time, a little with
//! every commit.
//!
//! Why: `entries` is indexed by table, so an append there also writes an index page
//! at a random place, one per table. In the load bench (2,500 tables acting once a
//! second) that dirtied ~2,500 scattered pages a second, and flushing them at each
//! checkpoint stalled the WAL's fsyncs: commits over 10 ms, card latency p99 20–40 ms.
//! Appends to `log` write only its last pages. A *move* takes everything logged so far
//! (every [`Tuning::move_every`], or sooner when many rows wait); each commit then
//! carries one step of it, a few tables' rows in table order, so a table's index page
//! is written once per move instead of once per action.
//!
//! Crash safety: a step's rows and the `compaction` row that records them commit in
//! one transaction, and moved log rows are deleted later (oldest first), so a log row
//! is read back either from `log` or from `entries`, never both or neither
//! ([`crate::schema::Progress::moved`]).

use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::schema::{Pending, Progress};

/// When the store moves log rows into `entries`.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// A move starts at most this often. Longer means fewer index writes per action
    /// and more rows read from `log` at startup.
    pub move_every: Duration,
    /// A move starts early once this many rows wait, bounding the log.
    pub move_rows: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Self { move_every: Duration::from_secs(30), move_rows: 100_000 }
    }
}

/// Rows one commit moves at most (twice its own writes if more), however far behind
/// its pace a move is: a step adds this much work to the commit that carries it.
const STEP_ROWS: usize = 64;
/// Moved rows deleted from `log` per commit at most (twice the commit's own writes if
/// more; a range delete at the log's start).
const DELETE_ROWS: i64 = 64;

/// What a write did to the log, applied to [`Compactor`] once its commit succeeded.
#[derive(Debug)]
pub(crate) enum Effect {
    /// A row was logged for a table.
    Logged(String, i64),
    /// A table's unmoved log rows are gone (deleted with it, or moved by a cut).
    Cleared(String),
}

/// A move in progress: the tables with rows up to `end`, in id order.
#[derive(Debug)]
struct Move {
    end: i64,
    work: Vec<(String, Vec<i64>)>,
    /// Tables before this index are moved.
    next: usize,
    /// Paces the move over half of [`Tuning::move_every`]: moved in one go, a move's
    /// extra pages made the commits of those seconds slow (the load bench's
    /// deliveries over 10 ms clustered there).
    started: Instant,
    rows: usize,
    moved_rows: usize,
    /// Rows of tables deleted or cut before their turn: never moved.
    dropped_rows: usize,
}

impl Move {
    fn new(end: i64, work: Vec<(String, Vec<i64>)>) -> Self {
        let rows = work.iter().map(|(_, ids)| ids.len()).sum();
        Self { end, work, next: 0, started: Instant::now(), rows, moved_rows: 0, dropped_rows: 0 }
    }

    /// How many rows this step may move to stay on pace.
    fn budget(&self, spread: Duration, cap: usize) -> usize {
        let due = if spread.is_zero() {
            self.rows
        } else {
            let share = (self.started.elapsed().as_secs_f64() / spread.as_secs_f64()).min(1.0);
            (self.rows as f64 * share).ceil() as usize
        };
        due.saturating_sub(self.moved_rows).min(cap)
    }
}

impl Move {
    fn rows_of(&self, table: &str) -> Option<&Vec<i64>> {
        let i = self.work.binary_search_by(|(t, _)| t.as_str().cmp(table)).ok()?;
        if i < self.next { None } else { self.work.get(i).map(|(_, ids)| ids) }
    }
}

/// What one step wrote; becomes the compactor's state if its transaction commits.
#[derive(Debug, Default)]
pub(crate) struct Step {
    next: Option<usize>,
    moved_rows: usize,
    finished: bool,
    deleted_upto: i64,
}

/// The store thread's view of the log: which rows are not in `entries` yet.
#[derive(Debug)]
pub(crate) struct Compactor {
    tuning: Tuning,
    /// Rows logged since the current move started (or all, when none runs).
    fresh: Pending,
    fresh_rows: usize,
    fresh_max: i64,
    running: Option<Move>,
    /// Log rows up to this id are in `entries` (the committed `compaction.done_upto`).
    done_upto: i64,
    /// Log rows up to this id are deleted.
    deleted_upto: i64,
    last_start: Instant,
}

impl Compactor {
    /// Picks up where the stored `progress` left off, with the rows `load` found unmoved.
    pub(crate) fn resume(
        tuning: Tuning,
        progress: &Progress,
        pending: Pending,
        oldest_log_id: Option<i64>,
    ) -> Self {
        let mut fresh = Pending::new();
        let mut work = Vec::new();
        for (table, ids) in pending {
            let (old, new): (Vec<i64>, Vec<i64>) = ids.into_iter().partition(|&id| id <= progress.epoch_end);
            if !old.is_empty() {
                work.push((table.clone(), old));
            }
            if !new.is_empty() {
                fresh.insert(table, new);
            }
        }
        let running = (progress.epoch_end > progress.done_upto).then(|| Move::new(progress.epoch_end, work));
        let fresh_rows = fresh.values().map(Vec::len).sum();
        let fresh_max = fresh.values().filter_map(|v| v.last().copied()).max().unwrap_or(0);
        let done_upto = progress.done_upto;
        let deleted_upto = oldest_log_id.map_or(done_upto, |id| id - 1);
        Self {
            tuning,
            fresh,
            fresh_rows,
            fresh_max,
            running,
            done_upto,
            deleted_upto,
            last_start: Instant::now(),
        }
    }

    /// Log rows not in `entries` yet: what a restart would read from `log`.
    pub(crate) fn unmoved_rows(&self) -> usize {
        let running =
            self.running.as_ref().map_or(0, |m| m.rows.saturating_sub(m.moved_rows + m.dropped_rows));
        self.fresh_rows + running
    }

    /// A table's rows still only in `log`, oldest first, counting the effects of the
    /// writes before it in the current transaction.
    pub(crate) fn unmoved(&self, table: &str, effects: &[Effect]) -> Vec<i64> {
        let mut ids: Vec<i64> =
            self.running.as_ref().and_then(|m| m.rows_of(table)).cloned().unwrap_or_default();
        ids.extend(self.fresh.get(table).into_iter().flatten().copied());
        for e in effects {
            match e {
                Effect::Logged(t, id) if t == table => ids.push(*id),
                Effect::Cleared(t) if t == table => ids.clear(),
                _ => {}
            }
        }
        ids
    }

    /// Moves the next few tables' rows and deletes some moved rows, inside the
    /// caller's transaction. Call [`Compactor::committed`] with the result once it
    /// commits; if it does not, nothing here has changed.
    pub(crate) fn step(&mut self, tx: &Connection, batch: usize) -> rusqlite::Result<Step> {
        if self.running.is_none()
            && !self.fresh.is_empty()
            && (self.fresh_rows >= self.tuning.move_rows
                || self.last_start.elapsed() >= self.tuning.move_every)
        {
            // Starting is bookkeeping only: the stored state changes with the first step.
            self.last_start = Instant::now();
            let work: Vec<(String, Vec<i64>)> = std::mem::take(&mut self.fresh).into_iter().collect();
            self.running = Some(Move::new(self.fresh_max, work));
            self.fresh_rows = 0;
        }
        let mut step = Step { deleted_upto: self.deleted_upto, ..Step::default() };
        let mut done_upto = self.done_upto;
        if let Some(m) = &self.running {
            let budget = m.budget(self.tuning.move_every / 2, STEP_ROWS.max(2 * batch));
            let mut insert = tx.prepare_cached(
                "INSERT INTO entries (table_id, entry) SELECT table_id, entry FROM log WHERE id = ?1",
            )?;
            let (mut next, mut moved) = (m.next, 0);
            while let Some((_, ids)) = m.work.get(next) {
                // Whole tables only; one at least once the pace allows any row.
                if moved + ids.len() > budget && (moved > 0 || budget == 0) {
                    break;
                }
                for id in ids {
                    insert.execute([id])?;
                }
                moved += ids.len();
                next += 1;
            }
            step.moved_rows = moved;
            step.finished = next >= m.work.len();
            let cursor =
                if step.finished { None } else { m.work.get(next.wrapping_sub(1)).map(|(t, _)| t.as_str()) };
            if step.finished {
                done_upto = m.end;
            }
            if next > m.next || step.finished {
                tx.prepare_cached(
                    "UPDATE compaction SET done_upto = ?1, epoch_end = ?2, cursor = ?3 WHERE id = 0",
                )?
                .execute(rusqlite::params![done_upto, m.end, cursor])?;
            }
            step.next = Some(next);
        }
        if self.deleted_upto < done_upto {
            let to = done_upto.min(self.deleted_upto + DELETE_ROWS.max(2 * batch as i64));
            tx.prepare_cached("DELETE FROM log WHERE id > ?1 AND id <= ?2")?
                .execute([self.deleted_upto, to])?;
            step.deleted_upto = to;
        }
        Ok(step)
    }

    /// The transaction holding `effects` (and `step`, if any) committed.
    pub(crate) fn committed(&mut self, effects: &[Effect], step: Option<Step>) {
        if let Some(step) = step {
            if let (Some(m), Some(next)) = (self.running.as_mut(), step.next) {
                m.next = next;
                m.moved_rows += step.moved_rows;
            }
            if step.finished
                && let Some(m) = self.running.take()
            {
                self.done_upto = m.end;
            }
            self.deleted_upto = step.deleted_upto;
        }
        for e in effects {
            match e {
                Effect::Logged(table, id) => {
                    match self.fresh.get_mut(table) {
                        Some(ids) => ids.push(*id),
                        None => {
                            self.fresh.insert(table.clone(), vec![*id]);
                        }
                    }
                    self.fresh_rows += 1;
                    self.fresh_max = self.fresh_max.max(*id);
                }
                Effect::Cleared(table) => {
                    if let Some(ids) = self.fresh.remove(table) {
                        self.fresh_rows -= ids.len();
                    }
                    if let Some(m) = self.running.as_mut()
                        && let Ok(i) = m.work.binary_search_by(|(t, _)| t.as_str().cmp(table))
                        && let Some((_, ids)) = m.work.get_mut(i)
                    {
                        if i >= m.next {
                            m.dropped_rows += ids.len();
                        }
                        ids.clear();
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn move_started(ago: Duration, rows: usize) -> Move {
        let mut m = Move::new(rows as i64, vec![("t".into(), (1..=rows as i64).collect())]);
        m.started = Instant::now().checked_sub(ago).unwrap();
        m
    }

    #[test]
    fn a_move_is_paced_over_its_spread_and_capped_per_commit() {
        let spread = Duration::from_secs(10);
        let half = move_started(Duration::from_secs(5), 1000);
        let due = half.budget(spread, usize::MAX);
        assert!((500..=510).contains(&due), "half way, half the rows are due: {due}");
        assert_eq!(half.budget(spread, 64), 64, "one commit moves at most the cap");
        let mut late = move_started(Duration::from_secs(60), 1000);
        late.moved_rows = 990;
        assert_eq!(late.budget(spread, 64), 10, "past the spread, whatever is left");
        assert_eq!(move_started(Duration::ZERO, 1000).budget(Duration::ZERO, 64), 64, "no spread: at once");
    }
}
