//! The writer task: takes every write waiting in its queue, runs them in one
//! transaction and commits once (group commit, as the embedded store does), and only
//! after `COMMIT` has returned tells their callers. A batch that fails tells each of its
//! callers so, and nothing of it counts: the next appends take the same places.

use std::collections::HashMap;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::Client;

use crate::{PgError, unix_now};

/// Most writes one transaction carries.
const BATCH: usize = 512;

/// One write: an append (nearly every write), or one of the rare others.
#[derive(Debug)]
pub(crate) enum Op {
    Append { table: String, entry: String },
    Other(Other),
}

/// The writes that are no append.
#[derive(Debug)]
pub(crate) enum Other {
    Delete { table: String },
    Archive { table: String },
    Quarantine { table: String },
    SetAside { table: String, keep: u64, reason: String },
    KeepGame { table: String, game: u32, record: String },
    PurgeGames { before: i64, limit: u32 },
    PurgeArchived { before: i64, limit: u32 },
}

/// A write and whom to tell; purges answer how many rows went.
#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) op: Op,
    pub(crate) done: oneshot::Sender<Result<u64, PgError>>,
}

/// Counters for operators, shared with the handle.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) commits: std::sync::atomic::AtomicU64,
    pub(crate) writes: std::sync::atomic::AtomicU64,
    pub(crate) largest_batch: std::sync::atomic::AtomicU64,
    pub(crate) commit_micros: std::sync::atomic::AtomicU64,
}

/// Gathered appends in one statement: each table's `last_active` and its entries.
const APPEND: &str = "WITH touched AS (\
    INSERT INTO tables (id, last_active) SELECT DISTINCT unnest($1::text[]), $4::bigint \
    ON CONFLICT (id) DO UPDATE SET last_active = EXCLUDED.last_active) \
    INSERT INTO entries (table_id, seq, entry) SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])";

pub(crate) struct Writer {
    pub(crate) client: Client,
    /// The next free place in each table's history.
    pub(crate) next: HashMap<String, i64>,
    pub(crate) counters: std::sync::Arc<Counters>,
    /// [`APPEND`], prepared on first use.
    pub(crate) append: Option<tokio_postgres::Statement>,
}

impl Writer {
    /// Runs until every handle is gone.
    pub(crate) async fn run(mut self, mut queue: mpsc::Receiver<Job>) {
        let mut batch = Vec::with_capacity(BATCH);
        while let Some(first) = queue.recv().await {
            batch.push(first);
            while batch.len() < BATCH {
                match queue.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let started = Instant::now();
            let mut next = self.next.clone();
            let done = if batch.iter().all(|j| matches!(j.op, Op::Append { .. })) {
                self.commit_appends(&batch, &mut next).await
            } else {
                self.commit(&batch, &mut next).await
            };
            match done {
                Ok(answers) => {
                    self.next = next;
                    self.count(batch.len(), started);
                    for (job, n) in batch.drain(..).zip(answers) {
                        let _ = job.done.send(Ok(n));
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, writes = batch.len(), "a store transaction failed; none of it counts");
                    for job in batch.drain(..) {
                        let _ = job.done.send(Err(PgError::Failed(e.to_string())));
                    }
                    // A broken connection stays broken: every later write fails
                    // the same way, and the server refuses those actions.
                }
            }
        }
    }

    fn count(&self, writes: usize, started: Instant) {
        use std::sync::atomic::Ordering::Relaxed;
        let c = &self.counters;
        c.commits.fetch_add(1, Relaxed);
        let writes = u64::try_from(writes).unwrap_or(u64::MAX);
        c.writes.fetch_add(writes, Relaxed);
        c.largest_batch.fetch_max(writes, Relaxed);
        c.commit_micros.fetch_add(u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX), Relaxed);
    }

    /// [`APPEND`], prepared once per connection.
    async fn append_statement(&mut self) -> Result<tokio_postgres::Statement, PgError> {
        if let Some(statement) = &self.append {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(APPEND).await?;
        self.append = Some(statement.clone());
        Ok(statement)
    }

    /// A batch of appends: `BEGIN`, one prepared statement and `COMMIT` sent together
    /// (pipelined: one round trip to the database, not four), answered once the
    /// `COMMIT` has returned. If the statement fails, the `COMMIT` only ends the
    /// aborted transaction and the batch fails.
    async fn commit_appends(
        &mut self,
        batch: &[Job],
        next: &mut HashMap<String, i64>,
    ) -> Result<Vec<u64>, PgError> {
        let statement = self.append_statement().await?;
        let mut appends = Appends::default();
        for job in batch {
            if let Op::Append { table, entry } = &job.op {
                appends.add(table, entry, next);
            }
        }
        let now = unix_now();
        let params = appends.params(&now);
        let client = &self.client;
        let (begun, inserted, committed) = tokio::join!(
            client.batch_execute("BEGIN"),
            client.execute(&statement, &params),
            client.batch_execute("COMMIT"),
        );
        begun?;
        inserted?;
        committed?;
        Ok(vec![1; batch.len()])
    }

    /// One transaction for the whole batch; what each write answers.
    async fn commit(&mut self, batch: &[Job], next: &mut HashMap<String, i64>) -> Result<Vec<u64>, PgError> {
        let now = unix_now();
        let statement = self.append_statement().await?;
        let tx = self.client.transaction().await?;
        let mut answers = Vec::with_capacity(batch.len());
        // Appends go in as few statements as the batch allows, in call order (a
        // table's places follow it): gathered until another kind of write comes.
        let mut appends = Appends::default();
        for job in batch {
            let other = match &job.op {
                Op::Append { table, entry } => {
                    appends.add(table, entry, next);
                    answers.push(1);
                    continue;
                }
                Op::Other(other) => other,
            };
            appends.flush(&tx, &statement, now).await?;
            let n = match other {
                Other::Delete { table } => {
                    tx.execute("DELETE FROM entries WHERE table_id = $1", &[table]).await?;
                    next.remove(table);
                    tx.execute("DELETE FROM tables WHERE id = $1", &[table]).await?
                }
                Other::Archive { table } => {
                    tx.execute(
                        "UPDATE tables SET archived_at = $2 WHERE id = $1 AND archived_at IS NULL",
                        &[table, &now],
                    )
                    .await?
                }
                Other::Quarantine { table } => {
                    tx.execute(
                        "UPDATE tables SET quarantined_at = $2 WHERE id = $1 AND quarantined_at IS NULL",
                        &[table, &now],
                    )
                    .await?
                }
                Other::SetAside { table, keep, reason } => {
                    let keep = i64::try_from(*keep).unwrap_or(i64::MAX);
                    let moved = tx
                        .execute(
                            "WITH gone AS (DELETE FROM entries WHERE table_id = $1 AND seq > $2 \
                             RETURNING table_id, seq, entry) \
                             INSERT INTO damaged (table_id, seq, entry, reason, at) \
                             SELECT table_id, seq, entry, $3, $4 FROM gone",
                            &[table, &keep, reason, &now],
                        )
                        .await?;
                    next.insert(table.clone(), keep + 1);
                    moved
                }
                Other::KeepGame { table, game, record } => {
                    let game = i32::try_from(*game).unwrap_or(i32::MAX);
                    tx.execute(
                        "INSERT INTO games (table_id, game, finished_at, record) VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (table_id, game) DO NOTHING",
                        &[table, &game, &now, record],
                    )
                    .await?
                }
                Other::PurgeGames { before, limit } => {
                    let limit = i64::from(*limit);
                    tx.execute(
                        "DELETE FROM games WHERE ctid IN \
                         (SELECT ctid FROM games WHERE finished_at < $1 LIMIT $2)",
                        &[before, &limit],
                    )
                    .await?
                }
                Other::PurgeArchived { before, limit } => {
                    let limit = i64::from(*limit);
                    let gone = tx
                        .query(
                            "DELETE FROM tables WHERE id IN \
                             (SELECT id FROM tables WHERE archived_at < $1 LIMIT $2) RETURNING id",
                            &[before, &limit],
                        )
                        .await?;
                    let ids: Vec<String> = gone.iter().map(|r| r.get(0)).collect();
                    tx.execute("DELETE FROM entries WHERE table_id = ANY($1)", &[&ids]).await?;
                    for id in &ids {
                        next.remove(id);
                    }
                    u64::try_from(ids.len()).unwrap_or(u64::MAX)
                }
            };
            answers.push(n);
        }
        appends.flush(&tx, &statement, now).await?;
        tx.commit().await?;
        Ok(answers)
    }
}

/// Appends gathered for one statement.
#[derive(Default)]
struct Appends<'a> {
    ids: Vec<&'a str>,
    seqs: Vec<i64>,
    texts: Vec<&'a str>,
}

impl<'a> Appends<'a> {
    /// Gathers an append at its table's next place.
    fn add(&mut self, table: &'a str, entry: &'a str, next: &mut HashMap<String, i64>) {
        let seq = next.entry(table.to_owned()).or_insert(1);
        self.ids.push(table);
        self.seqs.push(*seq);
        self.texts.push(entry);
        *seq += 1;
    }

    /// [`APPEND`]'s parameters.
    fn params<'p>(&'p self, now: &'p i64) -> [&'p (dyn tokio_postgres::types::ToSql + Sync); 4] {
        [&self.ids, &self.seqs, &self.texts, now]
    }

    /// Writes what is gathered, then starts empty.
    async fn flush(
        &mut self,
        tx: &tokio_postgres::Transaction<'_>,
        statement: &tokio_postgres::Statement,
        now: i64,
    ) -> Result<(), PgError> {
        if self.ids.is_empty() {
            return Ok(());
        }
        tx.execute(statement, &self.params(&now)).await?;
        *self = Self::default();
        Ok(())
    }
}
