//! The PostgreSQL store: the same table log as the embedded SQLite store
//! (`jass_store`), in a database several nodes can reach, so a table outlives the
//! machine that served it.
//!
//! # Layout
//! - [`PgDatabase`]: the handle async code holds; cheap to clone. Its calls mirror
//!   `jass_store::Database`'s, and return the same row types.
//! - `writer`: one task with its own connection takes every waiting write, runs them in
//!   **one** transaction and answers only after `COMMIT` returned (group commit).
//! - `schema`: the tables, the check that a database is ours (a foreign or newer one
//!   is refused untouched), and reading back.
//! - `owner`: which node holds which table: claims, the fence, the node's lease.
//! - [`export`]: one table as stored, for an operator, writing nothing.
//! - [`throwaway`]: a PostgreSQL cluster on loopback for tests and benches.
//!
//! Reads (a record download, a kept game) go through a small pool, so they never wait
//! behind the writer.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use jass_store::{KeptGame, Metrics, TableRows};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::NoTls;

mod clock;
mod error;
mod export;
mod owner;
mod schema;
pub mod throwaway;
mod writer;

pub use error::PgError;
pub use export::export;
pub use owner::{ClaimError, NodeConfig};
pub use schema::{APPLICATION, SCHEMA_VERSION};
use writer::{Counters, Job, Op, Other, Writer};

/// Handoff requests waiting for the server; more are dropped (the asker retries).
const HANDOFFS: usize = 1024;

/// How long a claim retries a place taken under it by a concurrent append or claim.
const CLAIM_TRIES: u32 = 5;

/// Writes waiting for the writer; a full queue fails a write at once (the server
/// refuses that action and nothing changes), as in the embedded store.
const QUEUE: usize = 8192;

/// Connections the read pool keeps.
const READERS: usize = 4;

/// The store's handle: one node's view of the shared database.
#[derive(Clone, Debug)]
pub struct PgDatabase {
    queue: mpsc::Sender<Job>,
    readers: Pool,
    counters: Arc<Counters>,
    lease: Arc<owner::Lease>,
    name: Arc<str>,
    handoffs: Arc<std::sync::Mutex<Option<mpsc::Receiver<String>>>>,
}

impl PgDatabase {
    /// Connects to `url` (`postgres://user@host:port/db`), creates the layout in an
    /// empty database or checks it is ours (bringing an older layout up to date), and
    /// registers this process as a new node. Tables are not read here: a node claims
    /// each when it is asked for ([`PgDatabase::claim`]).
    ///
    /// # Errors
    /// The database cannot be reached, or is foreign or newer (left untouched).
    pub async fn open(url: &str, node: NodeConfig) -> Result<Self, PgError> {
        let config: tokio_postgres::Config = url.parse()?;
        let mut client = writer::connect(&config).await?;
        schema::prepare(&mut client).await?;
        let lease = Arc::new(owner::Lease::new(node.lease));
        let counters = Arc::new(Counters::default());
        let (queue, rx) = mpsc::channel(QUEUE);
        tokio::spawn(
            Writer {
                client,
                config: config.clone(),
                reconnected: None,
                node: lease.node,
                next: std::collections::HashMap::new(),
                counters: Arc::clone(&counters),
                append: None,
            }
            .run(rx),
        );
        let (handoff_tx, handoff_rx) = mpsc::channel(HANDOFFS);
        tokio::spawn(owner::control(config.clone(), node.name.clone(), Arc::clone(&lease), handoff_tx));
        let manager =
            Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let readers =
            Pool::builder(manager).max_size(READERS).build().map_err(|e| PgError::Pool(e.to_string()))?;
        let db = Self {
            queue,
            readers,
            counters,
            lease,
            name: node.name.into(),
            handoffs: Arc::new(std::sync::Mutex::new(Some(handoff_rx))),
        };
        // Serving starts once the node is registered, so its first claims count.
        let deadline = Instant::now() + db.lease.lease;
        while !db.lease.fresh() {
            if Instant::now() > deadline {
                return Err(PgError::Unavailable("could not register the node in time"));
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        Ok(db)
    }

    /// This node's id in the database (random per start).
    #[must_use]
    pub fn node(&self) -> i64 {
        self.lease.node
    }

    /// Whether this node's lease is fresh: while it is not, other nodes may already
    /// have taken its tables, so it must not serve them (see `owner`).
    #[must_use]
    pub fn lease_fresh(&self) -> bool {
        self.lease.fresh()
    }

    /// How often the lease was renewed only after it may have run out: each time,
    /// other nodes may have taken this node's tables, so it lets them all go.
    #[must_use]
    pub fn lease_lapses(&self) -> u64 {
        self.lease.lapses()
    }

    /// Takes `table` for this node unless a live node holds it, and reads its
    /// history back; appends then continue its log after the claim.
    ///
    /// # Errors
    /// Unknown (or archived), held by a live node, or the database failed.
    pub async fn claim(&self, table: &str) -> Result<TableRows, ClaimError> {
        let mut tries = 0;
        let claimed = loop {
            let mut client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
            match owner::claim(&mut client, table, &self.lease, &self.name).await {
                Err(ClaimError::Db(PgError::Db(e)))
                    if tries < CLAIM_TRIES
                        && e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) =>
                {
                    // Someone wrote at that place meanwhile: look again.
                    tries += 1;
                }
                other => break other?,
            }
        };
        self.submit(Op::Adopt { table: table.to_owned(), next: claimed.next }).await?;
        Ok(claimed.rows)
    }

    /// Up to `limit` tables nobody alive holds whose last write is older than
    /// `before` (Unix seconds), neither archived nor quarantined: tables whose node
    /// died and to which nobody came back, for a node to claim and expire.
    ///
    /// # Errors
    /// The database could not be asked.
    pub async fn orphans(&self, before: i64, limit: i64) -> Result<Vec<String>, PgError> {
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        let ttl = i32::try_from(self.lease.lease.as_millis()).unwrap_or(i32::MAX);
        let rows = client
            .query(
                "SELECT id FROM tables WHERE archived_at IS NULL AND quarantined_at IS NULL \
                 AND last_active < $1 AND (owner IS NULL OR (owner <> $2 AND NOT jass_node_alive(owner, $3))) \
                 LIMIT $4",
                &[&before, &self.lease.node, &ttl, &limit],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Asks whichever node holds `table` to let it go (see [`PgDatabase::handoffs`]).
    ///
    /// # Errors
    /// The database could not be asked.
    pub async fn ask_handoff(&self, table: &str) -> Result<(), PgError> {
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        owner::ask_handoff(&**client, table).await
    }

    /// The tables other nodes asked to be let go, once: the first caller gets them.
    #[must_use]
    pub fn handoffs(&self) -> Option<mpsc::Receiver<String>> {
        self.handoffs.lock().ok()?.take()
    }

    /// Lets `table` go: no longer held, so another node takes it without waiting.
    pub fn release(&self, table: &str) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::Release { table: table.to_owned() }));
        async move { fut.await.map(|_| ()) }
    }

    /// A planned stop: lets every table of this node go and unregisters it (its lease
    /// ends now, not after it runs out).
    ///
    /// # Errors
    /// The database could not be told; the lease then runs out by itself.
    pub async fn leave(&self) -> Result<(), PgError> {
        let released = self.submit(Op::Other(Other::ReleaseAll)).await;
        self.lease.left.store(true, Ordering::Relaxed);
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        client.execute("DELETE FROM nodes WHERE id = $1", &[&self.lease.node]).await?;
        released.map(|_| ())
    }

    fn submit(&self, op: Op) -> impl Future<Output = Result<u64, PgError>> + Send + 'static {
        let (done, rx) = oneshot::channel();
        let sent = self.queue.try_send(Job { op, done });
        async move {
            match sent {
                Ok(()) => rx.await.map_err(|_| PgError::Unavailable("the writer stopped"))?,
                Err(mpsc::error::TrySendError::Full(_)) => Err(PgError::Unavailable("store queue full")),
                Err(mpsc::error::TrySendError::Closed(_)) => Err(PgError::Unavailable("the writer stopped")),
            }
        }
    }

    /// Appends `entry` to `table`'s history; resolves once committed.
    pub fn append(
        &self,
        table: &str,
        entry: String,
    ) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Append { table: table.to_owned(), entry });
        async move { fut.await.map(|_| ()) }
    }

    /// Deletes a table and its history (an unfinished table that expired idle).
    pub fn delete_table(&self, table: &str) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::Delete { table: table.to_owned() }));
        async move { fut.await.map(|_| ()) }
    }

    /// Keeps a finished table out of start-up; purged after the retention.
    pub fn archive(&self, table: &str) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::Archive { table: table.to_owned() }));
        async move { fut.await.map(|_| ()) }
    }

    /// Marks a table that could not be rebuilt; its history is kept whole.
    pub fn quarantine(&self, table: &str) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::Quarantine { table: table.to_owned() }));
        async move { fut.await.map(|_| ()) }
    }

    /// Moves a table's entries after its first `keep` into `damaged` (kept, not
    /// deleted), so the next append follows the last good entry.
    pub fn set_aside(
        &self,
        table: &str,
        keep: u64,
        reason: &str,
    ) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::SetAside {
            table: table.to_owned(),
            keep,
            reason: reason.to_owned(),
        }));
        async move { fut.await.map(|_| ()) }
    }

    /// Keeps a finished game's record (once: a second keep changes nothing).
    pub fn keep_game(
        &self,
        table: &str,
        game: u32,
        record: String,
    ) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::KeepGame { table: table.to_owned(), game, record }));
        async move { fut.await.map(|_| ()) }
    }

    /// Keeps the review of a round (JSON, computed by code of `version`), replacing
    /// one kept before.
    pub fn keep_review(
        &self,
        table: &str,
        game: u32,
        round: u32,
        version: u32,
        review: String,
    ) -> impl Future<Output = Result<(), PgError>> + Send + 'static {
        let fut = self.submit(Op::Other(Other::KeepReview {
            table: table.to_owned(),
            game,
            round,
            version,
            review,
        }));
        async move { fut.await.map(|_| ()) }
    }

    /// The kept review of a round: its version and JSON.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn read_review(
        &self,
        table: &str,
        game: u32,
        round: u32,
    ) -> Result<Option<(u32, String)>, PgError> {
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        schema::read_review(&**client, table, game, round).await
    }

    /// Deletes up to `limit` kept games that finished before `before` (Unix seconds),
    /// and up to `limit` reviews computed before then (the larger count).
    pub fn purge_games(
        &self,
        before: i64,
        limit: u32,
    ) -> impl Future<Output = Result<u64, PgError>> + Send + 'static {
        self.submit(Op::Other(Other::PurgeGames { before, limit }))
    }

    /// Deletes up to `limit` tables archived before `before`, with their histories.
    pub fn purge_archived(
        &self,
        before: i64,
        limit: u32,
    ) -> impl Future<Output = Result<u64, PgError>> + Send + 'static {
        self.submit(Op::Other(Other::PurgeArchived { before, limit }))
    }

    /// One table's history, archived or not.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn read_table(&self, table: &str) -> Result<Option<TableRows>, PgError> {
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        schema::read_table(&**client, table).await
    }

    /// Game `game` of `table` as kept, or its latest for `None`.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn read_game(&self, table: &str, game: Option<u32>) -> Result<Option<KeptGame>, PgError> {
        let client = self.readers.get().await.map_err(|e| PgError::Pool(e.to_string()))?;
        schema::read_game(&**client, table, game).await
    }

    /// What the writer has done since it started.
    #[must_use]
    pub fn metrics(&self) -> Metrics {
        let c = &self.counters;
        Metrics {
            commits: c.commits.load(Ordering::Relaxed),
            writes: c.writes.load(Ordering::Relaxed),
            largest_batch: c.largest_batch.load(Ordering::Relaxed),
            commit_micros: c.commit_micros.load(Ordering::Relaxed),
            fenced: c.fenced.load(Ordering::Relaxed),
            ..Metrics::default()
        }
    }
}
