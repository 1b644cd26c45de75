//! The writer task: takes every write waiting in its queue, runs them in one
//! transaction and commits once (group commit, as the embedded store does), and only
//! after `COMMIT` has returned tells their callers.
//!
//! Each append goes to the next place of its table's log as this node knows it. A
//! place another node took (its claim row) is skipped by the database (`ON CONFLICT
//! DO NOTHING`), and that append is answered *fenced*, never acknowledged; the table
//! is then unknown to this writer until the node claims it again (`Adopt`).
//!
//! A batch that fails tells each of its callers so. Whether it committed is then
//! unknown (the connection may have died after `COMMIT` went out), so its tables are
//! forgotten like fenced ones: their next append cannot land anywhere but on a taken
//! place, and the server claims them again, reading back what the log really holds.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, NoTls};

use crate::clock::unix_now;
use crate::error::PgError;

/// Most writes one transaction carries.
const BATCH: usize = 512;

/// One write: an append (nearly every write), or one of the rare others; or news
/// that the node claimed a table and where its log continues.
#[derive(Debug)]
pub(crate) enum Op {
    Append { table: String, entry: String },
    Adopt { table: String, next: i64 },
    Other(Other),
}

/// The writes that are no append.
#[derive(Debug)]
pub(crate) enum Other {
    Delete {
        table: String,
    },
    Archive {
        table: String,
    },
    Quarantine {
        table: String,
    },
    SetAside {
        table: String,
        keep: u64,
        reason: String,
    },
    KeepGame {
        table: String,
        game: u32,
        record: String,
    },
    PurgeGames {
        before: i64,
        limit: u32,
    },
    KeepReview {
        table: String,
        game: u32,
        round: u32,
        version: u32,
        review: String,
    },
    PurgeArchived {
        before: i64,
        limit: u32,
    },
    /// Lets a table go (a handoff): unheld, so another node claims it at once.
    Release {
        table: String,
    },
    /// Lets every table of this node go (a planned stop).
    ReleaseAll,
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
    /// Appends refused because another node had taken the table over.
    pub(crate) fenced: std::sync::atomic::AtomicU64,
}

/// Gathered appends in one statement: each table's `last_active` (a new table is
/// held by this node from its first entry) and its entries; answers the places it
/// took, so a place another node holds shows as missing.
const APPEND: &str = "WITH touched AS (\
    INSERT INTO tables (id, last_active, owner, epoch) SELECT DISTINCT unnest($1::text[]), $4::bigint, $5::bigint, 1 \
    ON CONFLICT (id) DO UPDATE SET last_active = EXCLUDED.last_active) \
    INSERT INTO entries (table_id, seq, entry) SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) \
    ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq";

/// How often a writer whose connection broke tries to connect again (in between,
/// writes fail at once instead of waiting).
const RECONNECT_EVERY: Duration = Duration::from_millis(250);

pub(crate) struct Writer {
    pub(crate) client: Client,
    /// To connect again after the database went away.
    pub(crate) config: tokio_postgres::Config,
    /// When the last attempt to connect again was made.
    pub(crate) reconnected: Option<Instant>,
    /// This node (the holder of the tables it creates).
    pub(crate) node: i64,
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
            if let Err(e) = self.connected().await {
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(PgError::Unavailable(e)));
                }
                continue;
            }
            let started = Instant::now();
            let mut next = self.next.clone();
            let done = if batch.iter().all(|j| !matches!(j.op, Op::Other(_))) {
                self.commit_appends(&batch, &mut next).await
            } else {
                self.commit(&batch, &mut next).await
            };
            match done {
                Ok(answers) => {
                    self.next = next;
                    self.count(batch.len(), started);
                    for (job, answer) in batch.drain(..).zip(answers) {
                        if matches!(answer, Err(PgError::Fenced)) {
                            self.counters.fenced.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        let _ = job.done.send(answer);
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, writes = batch.len(), "a store transaction failed; none of it is acknowledged");
                    for job in batch.drain(..) {
                        match &job.op {
                            Op::Append { table, .. } | Op::Adopt { table, .. } => {
                                self.next.remove(table);
                            }
                            Op::Other(_) => {}
                        }
                        let _ = job.done.send(Err(PgError::Failed(e.to_string())));
                    }
                }
            }
        }
    }

    /// Makes sure the connection is up: a broken one is replaced, at most every
    /// [`RECONNECT_EVERY`] (writes fail at once in between).
    async fn connected(&mut self) -> Result<(), &'static str> {
        if !self.client.is_closed() {
            return Ok(());
        }
        if self.reconnected.is_some_and(|at| at.elapsed() < RECONNECT_EVERY) {
            return Err("the database is not reachable");
        }
        self.reconnected = Some(Instant::now());
        match connect(&self.config).await {
            Ok(client) => {
                tracing::info!("the store's writer connected to the database again");
                self.client = client;
                self.append = None;
                Ok(())
            }
            Err(e) => {
                tracing::warn!(error = %e, "the store's writer cannot reach the database");
                Err("the database is not reachable")
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
    ) -> Result<Vec<Result<u64, PgError>>, PgError> {
        let statement = self.append_statement().await?;
        let mut appends = Appends::default();
        for job in batch {
            appends.gather(&job.op, next);
        }
        let now = unix_now();
        let params = appends.params(&now, &self.node);
        let client = &self.client;
        let (begun, inserted, committed) = tokio::join!(
            client.batch_execute("BEGIN"),
            client.query(&statement, &params),
            client.batch_execute("COMMIT"),
        );
        begun?;
        let taken = taken(&inserted?);
        committed?;
        let mut cursor = 0;
        Ok(batch.iter().map(|job| appends.answer(&job.op, &taken, next, &mut cursor)).collect())
    }

    /// One transaction for the whole batch; what each write answers.
    async fn commit(
        &mut self,
        batch: &[Job],
        next: &mut HashMap<String, i64>,
    ) -> Result<Vec<Result<u64, PgError>>, PgError> {
        let now = unix_now();
        let me = self.node;
        let statement = self.append_statement().await?;
        let tx = self.client.transaction().await?;
        let mut others = Vec::with_capacity(batch.len());
        let mut taken = HashSet::new();
        // Appends go in as few statements as the batch allows, in call order (a
        // table's places follow it): gathered until another kind of write comes.
        let mut appends = Appends::default();
        for job in batch {
            let Op::Other(other) = &job.op else {
                appends.gather(&job.op, next);
                others.push(0);
                continue;
            };
            taken.extend(appends.flush(&tx, &statement, now, me).await?);
            let n = match other {
                Other::Delete { table } => {
                    next.remove(table);
                    let n =
                        tx.execute("DELETE FROM tables WHERE id = $1 AND owner = $2", &[table, &me]).await?;
                    if n > 0 {
                        tx.execute("DELETE FROM entries WHERE table_id = $1", &[table]).await?;
                    }
                    n
                }
                Other::Archive { table } => {
                    next.remove(table);
                    tx.execute(
                        "UPDATE tables SET archived_at = $2, owner = NULL \
                         WHERE id = $1 AND archived_at IS NULL AND owner = $3",
                        &[table, &now, &me],
                    )
                    .await?
                }
                Other::Quarantine { table } => {
                    tx.execute(
                        "UPDATE tables SET quarantined_at = $2 \
                         WHERE id = $1 AND quarantined_at IS NULL AND owner = $3",
                        &[table, &now, &me],
                    )
                    .await?
                }
                Other::SetAside { table, keep, reason } => {
                    // Entries only: claim rows keep their places, and the log goes on
                    // after its last place as before.
                    let keep = i64::try_from(*keep).unwrap_or(i64::MAX);
                    tx.execute(
                        "WITH doomed AS (SELECT seq FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n \
                             FROM entries WHERE table_id = $1 AND kind = 0) x WHERE n > $2), \
                         gone AS (DELETE FROM entries e USING doomed d \
                             WHERE e.table_id = $1 AND e.seq = d.seq \
                             AND EXISTS (SELECT 1 FROM tables WHERE id = $1 AND owner = $5) \
                             RETURNING e.table_id, e.seq, e.entry) \
                         INSERT INTO damaged (table_id, seq, entry, reason, at) \
                         SELECT table_id, seq, entry, $3, $4 FROM gone",
                        &[table, &keep, reason, &now, &me],
                    )
                    .await?
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
                    let games = tx
                        .execute(
                            "DELETE FROM games WHERE ctid IN \
                             (SELECT ctid FROM games WHERE finished_at < $1 LIMIT $2)",
                            &[before, &limit],
                        )
                        .await?;
                    // Reviews are derived data and go by the same retention, from when
                    // they were computed.
                    let reviews = tx
                        .execute(
                            "DELETE FROM reviews WHERE ctid IN \
                             (SELECT ctid FROM reviews WHERE computed_at < $1 LIMIT $2)",
                            &[before, &limit],
                        )
                        .await?;
                    games.max(reviews)
                }
                Other::KeepReview { table, game, round, version, review } => {
                    let [game, round, version] =
                        [*game, *round, *version].map(|n| i32::try_from(n).unwrap_or(i32::MAX));
                    tx.execute(
                        "INSERT INTO reviews (table_id, game, round, version, computed_at, review) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (table_id, game, round) \
                         DO UPDATE SET version = $4, computed_at = $5, review = $6",
                        &[table, &game, &round, &version, &now, review],
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
                Other::Release { table } => {
                    next.remove(table);
                    tx.execute("UPDATE tables SET owner = NULL WHERE id = $1 AND owner = $2", &[table, &me])
                        .await?
                }
                Other::ReleaseAll => {
                    next.clear();
                    tx.execute("UPDATE tables SET owner = NULL WHERE owner = $1", &[&me]).await?
                }
            };
            others.push(n);
        }
        taken.extend(appends.flush(&tx, &statement, now, me).await?);
        tx.commit().await?;
        let mut cursor = 0;
        Ok(batch
            .iter()
            .zip(others)
            .map(|(job, n)| match &job.op {
                Op::Other(_) => Ok(n),
                op => appends.answer(op, &taken, next, &mut cursor),
            })
            .collect())
    }
}

/// The places an append statement took.
fn taken(rows: &[tokio_postgres::Row]) -> HashSet<(String, i64)> {
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// Appends gathered for one statement.
#[derive(Default)]
struct Appends<'a> {
    ids: Vec<&'a str>,
    seqs: Vec<i64>,
    texts: Vec<&'a str>,
    /// Where each gathered append goes, in call order (kept across flushes).
    placed: Vec<i64>,
}

impl<'a> Appends<'a> {
    /// Gathers an append at its table's next place, or learns where a claimed
    /// table's log goes on.
    fn gather(&mut self, op: &'a Op, next: &mut HashMap<String, i64>) {
        match op {
            Op::Append { table, entry } => {
                let seq = next.entry(table.clone()).or_insert(1);
                self.ids.push(table);
                self.seqs.push(*seq);
                self.placed.push(*seq);
                self.texts.push(entry);
                *seq += 1;
            }
            Op::Adopt { table, next: at } => {
                next.insert(table.clone(), *at);
            }
            Op::Other(_) => {}
        }
    }

    /// What `op` answers once the statement took the places in `taken`. An append
    /// whose place was not taken was fenced: its table is forgotten.
    fn answer(
        &self,
        op: &Op,
        taken: &HashSet<(String, i64)>,
        next: &mut HashMap<String, i64>,
        cursor: &mut usize,
    ) -> Result<u64, PgError> {
        let Op::Append { table, .. } = op else { return Ok(0) };
        let seq = self.placed.get(*cursor).copied().unwrap_or(0);
        *cursor += 1;
        if taken.contains(&(table.clone(), seq)) {
            Ok(1)
        } else {
            next.remove(table);
            Err(PgError::Fenced)
        }
    }

    /// [`APPEND`]'s parameters.
    fn params<'p>(
        &'p self,
        now: &'p i64,
        node: &'p i64,
    ) -> [&'p (dyn tokio_postgres::types::ToSql + Sync); 5] {
        [&self.ids, &self.seqs, &self.texts, now, node]
    }

    /// Writes what is gathered, then starts empty; the places it took.
    async fn flush(
        &mut self,
        tx: &tokio_postgres::Transaction<'_>,
        statement: &tokio_postgres::Statement,
        now: i64,
        node: i64,
    ) -> Result<HashSet<(String, i64)>, PgError> {
        if self.ids.is_empty() {
            return Ok(HashSet::new());
        }
        let rows = tx.query(statement, &self.params(&now, &node)).await?;
        self.ids.clear();
        self.seqs.clear();
        self.texts.clear();
        Ok(taken(&rows))
    }
}

/// A connection for the writer, its task driven in the background.
pub(crate) async fn connect(config: &tokio_postgres::Config) -> Result<Client, PgError> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!(error = %e, "the store's connection to PostgreSQL ended");
        }
    });
    Ok(client)
}
