//! Which node holds which table, so several nodes can share one database and any of
//! them can take a table over when its holder dies.
//!
//! # The fence
//! Safety rests on one thing only: the log's key `(table_id, seq)`. A node that takes
//! a table over (a *claim*) writes a claim row at the table's next place, so the last
//! holder's next append lands on a taken place, is refused by the database and is
//! never acknowledged (the writer reports it *fenced*). No clock, heartbeat or
//! balancer decision can make two nodes write one history.
//!
//! # Liveness
//! Whether a claim may take a table from its holder is a liveness question, answered
//! by the database alone (`jass_node_alive`): the holder is dead when its heartbeat
//! (renewed every [`Lease::renew_every`]) is older than the lease, or when the
//! session lock it holds on its control connection is free (a killed process's
//! sessions end at once, so a SIGKILL is seen without waiting for the lease). A node
//! that could not renew for most of its lease stops serving by itself
//! ([`Lease::fresh`]): it cannot know whether others already count it dead.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jass_store::TableRows;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, Client, GenericClient, NoTls};

use crate::clock::unix_now;
use crate::error::PgError;

/// The channel on which a node asks a table's holder to let it go.
pub(crate) const HANDOFF: &str = "jass_handoff";

/// What a node needs to know about itself.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// Shown to operators (`nodes.name`): the node's name or address.
    pub name: String,
    /// How long a node counts as alive after its last heartbeat.
    pub lease: Duration,
}

impl Default for NodeConfig {
    fn default() -> Self {
        Self { name: "node".to_owned(), lease: Duration::from_secs(3) }
    }
}

/// The node's hold on its tables, as its control task keeps it.
#[derive(Debug)]
pub(crate) struct Lease {
    /// This incarnation's id: random per start, and the key of its session lock.
    pub(crate) node: i64,
    /// See [`NodeConfig::lease`].
    pub(crate) lease: Duration,
    /// When the lease was last renewed, in milliseconds after `base`.
    renewed_ms: AtomicU64,
    /// The clock `renewed_ms` counts on (monotonic: a wall clock jump fences no one).
    base: Instant,
    /// The node left (SIGTERM): it renews no more.
    pub(crate) left: AtomicBool,
    /// Times a renewal came after the lease may have run out (a frozen or cut-off
    /// node): the node's tables may have been taken meanwhile, even though the lease
    /// is fresh again.
    lapses: AtomicU64,
}

impl Lease {
    pub(crate) fn new(lease: Duration) -> Self {
        // Positive and never 0, so it is a plain advisory lock key and a valid owner.
        let node = i64::try_from(rand::random::<u64>() >> 2).unwrap_or(1).max(1);
        Self {
            node,
            lease,
            renewed_ms: AtomicU64::new(0),
            base: Instant::now(),
            left: AtomicBool::new(false),
            lapses: AtomicU64::new(0),
        }
    }

    /// How often the heartbeat is renewed: six times per lease.
    pub(crate) fn renew_every(&self) -> Duration {
        self.lease / 6
    }

    /// See the field.
    pub(crate) fn lapses(&self) -> u64 {
        self.lapses.load(Ordering::Relaxed)
    }

    fn renewed(&self) {
        if self.renewed_ms.load(Ordering::Relaxed) != 0 && !self.fresh() {
            self.lapses.fetch_add(1, Ordering::Relaxed);
        }
        let ms = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.renewed_ms.store(ms.max(1), Ordering::Relaxed);
    }

    /// Renewed within two thirds of the lease: another node cannot have counted this
    /// one dead yet (the database's clock runs the lease from the last renewal, which
    /// was no earlier than what this clock saw). False before the first renewal.
    pub(crate) fn fresh(&self) -> bool {
        let renewed = self.renewed_ms.load(Ordering::Relaxed);
        if renewed == 0 || self.left.load(Ordering::Relaxed) {
            return false;
        }
        let now = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        now.saturating_sub(renewed) < u64::try_from((self.lease * 2 / 3).as_millis()).unwrap_or(u64::MAX)
    }

    fn ttl_ms(&self) -> i32 {
        i32::try_from(self.lease.as_millis()).unwrap_or(i32::MAX)
    }
}

/// Keeps the node registered: its row, its session lock, its heartbeat, and the
/// handoff requests addressed to anyone (the server picks out its own tables). Runs
/// until the node leaves; reconnects when the database goes away.
pub(crate) async fn control(
    config: tokio_postgres::Config,
    name: String,
    lease: Arc<Lease>,
    handoffs: mpsc::Sender<String>,
) {
    let retry = Duration::from_millis(250);
    while !lease.left.load(Ordering::Relaxed) {
        match session(&config, &name, &lease, &handoffs).await {
            Ok(()) => return,
            Err(e) => tracing::warn!(error = %e, "the node's control connection failed; reconnecting"),
        }
        tokio::time::sleep(retry).await;
    }
}

/// One control connection's life.
async fn session(
    config: &tokio_postgres::Config,
    name: &str,
    lease: &Lease,
    handoffs: &mpsc::Sender<String>,
) -> Result<(), PgError> {
    let (client, mut connection) = config.connect(NoTls).await?;
    // The connection is driven here, so its notifications (handoffs) can be read.
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages =
            std::pin::pin!(futures_util::stream::poll_fn(move |cx| connection.poll_message(cx)));
        while let Some(m) = futures_util::StreamExt::next(&mut messages).await {
            match m {
                Ok(AsyncMessage::Notification(n)) => {
                    let _ = notes_tx.send(n.payload().to_owned());
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "the node's control connection ended");
                    break;
                }
            }
        }
    });
    let result = renew(&client, name, lease, handoffs, &mut notes).await;
    if lease.left.load(Ordering::Relaxed) {
        // Leaving: the row goes, and closing the session frees the lock.
        let _ = client.execute("DELETE FROM nodes WHERE id = $1", &[&lease.node]).await;
    }
    drop(client);
    driver.abort();
    result
}

async fn renew(
    client: &Client,
    name: &str,
    lease: &Lease,
    handoffs: &mpsc::Sender<String>,
    notes: &mut mpsc::UnboundedReceiver<String>,
) -> Result<(), PgError> {
    let limit = format!("SET statement_timeout = {}", lease.renew_every().as_millis().max(100) * 2);
    client.batch_execute(&limit).await?;
    // Until the lock is held the node is not alive to others; a lost session's lock
    // (a network cut, not a restart) is free once PostgreSQL notices the session gone.
    loop {
        let held: bool = client.query_one("SELECT pg_try_advisory_lock($1)", &[&lease.node]).await?.get(0);
        if held {
            break;
        }
        tokio::time::sleep(lease.renew_every()).await;
    }
    client.batch_execute(&format!("LISTEN {HANDOFF}")).await?;
    let beat = client
        .prepare(
            "INSERT INTO nodes (id, name, started, heartbeat) VALUES ($1, $2, $3, clock_timestamp()) \
             ON CONFLICT (id) DO UPDATE SET heartbeat = clock_timestamp()",
        )
        .await?;
    let started = unix_now();
    let mut every = tokio::time::interval(lease.renew_every());
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {
                if lease.left.load(Ordering::Relaxed) {
                    return Ok(());
                }
                client.execute(&beat, &[&lease.node, &name, &started]).await?;
                lease.renewed();
            }
            Some(table) = notes.recv() => {
                // Full: the server is behind on handoffs; the asker retries.
                let _ = handoffs.try_send(table);
            }
        }
    }
}

/// Why a table could not be claimed.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// No such table, or one that finished and was archived (not served live).
    #[error("no such table")]
    Unknown,
    /// A live node holds it.
    #[error("held by node {0}")]
    Held(i64),
    /// The database could not be asked.
    #[error(transparent)]
    Db(#[from] PgError),
}

impl From<tokio_postgres::Error> for ClaimError {
    fn from(e: tokio_postgres::Error) -> Self {
        Self::Db(e.into())
    }
}

/// A table claimed by this node: its rows, where its next entry goes, and the
/// claim's epoch.
#[derive(Debug)]
pub(crate) struct Claimed {
    pub(crate) rows: TableRows,
    pub(crate) next: i64,
}

/// Takes `table` for this node if nobody alive holds it: one transaction that marks
/// the node as holder and writes the claim row at the log's next place, then reads the
/// history back. A concurrent append or claim on the same place makes the insert fail
/// (unique key): the caller retries.
pub(crate) async fn claim(
    client: &mut deadpool_postgres::Object,
    table: &str,
    lease: &Lease,
    name: &str,
) -> Result<Claimed, ClaimError> {
    let tx = client.transaction().await?;
    let row = tx
        .query_opt(
            "SELECT owner, archived_at IS NOT NULL, quarantined_at FROM tables WHERE id = $1 FOR UPDATE",
            &[&table],
        )
        .await?;
    let now = unix_now();
    let problem = match row {
        None => {
            let orphaned: bool = tx
                .query_one("SELECT EXISTS (SELECT 1 FROM entries WHERE table_id = $1)", &[&table])
                .await?
                .get(0);
            if !orphaned {
                return Err(ClaimError::Unknown);
            }
            // Damage: entries whose table row was lost. The row is written back,
            // quarantined, so nothing of them can be lost by a later purge.
            tracing::error!(table, "entries without their table row: quarantined, kept whole");
            tx.execute(
                "INSERT INTO tables (id, last_active, quarantined_at) VALUES ($1, $2, $2)",
                &[&table, &now],
            )
            .await?;
            Some("entries without their table row (kept, quarantined)".to_owned())
        }
        Some(row) => {
            let (owner, archived): (Option<i64>, bool) = (row.get(0), row.get(1));
            if archived {
                return Err(ClaimError::Unknown);
            }
            if let Some(owner) = owner.filter(|o| *o != lease.node) {
                let alive: bool =
                    tx.query_one("SELECT jass_node_alive($1, $2)", &[&owner, &lease.ttl_ms()]).await?.get(0);
                if alive {
                    return Err(ClaimError::Held(owner));
                }
            }
            None
        }
    };
    tx.execute("UPDATE tables SET owner = $2, epoch = epoch + 1 WHERE id = $1", &[&table, &lease.node])
        .await?;
    let note = format!("{{\"claim\":{{\"node\":{},\"name\":{name:?},\"at\":{now}}}}}", lease.node);
    let seq: i64 = tx
        .query_one(
            "INSERT INTO entries (table_id, seq, kind, entry) \
             SELECT $1, coalesce(max(seq), 0) + 1, 1, $2 FROM entries WHERE table_id = $1 RETURNING seq",
            &[&table, &note],
        )
        .await?
        .get(0);
    let mut rows = crate::schema::read_table(&*tx, table).await?.ok_or(ClaimError::Unknown)?;
    tx.commit().await?;
    rows.problem = problem;
    Ok(Claimed { rows, next: seq + 1 })
}

/// Asks every node to let `table` go (the holder does, if it is alive and willing).
pub(crate) async fn ask_handoff(client: &impl GenericClient, table: &str) -> Result<(), PgError> {
    client.execute("SELECT pg_notify($1, $2)", &[&HANDOFF, &table]).await?;
    Ok(())
}
