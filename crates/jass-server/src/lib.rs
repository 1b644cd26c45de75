//! The Schieber Jass table server: private tables over HTTP, play over WebSockets,
//! one actor task per table as the only writer of its game (protocol.md is the
//! contract; this crate implements its server side).
//!
//! # Layout
//! - [`config`]: [`Config`], every tunable (timeouts, rate limits, sizes, limits).
//! - `serve`: the accept loop and HTTP/1.1 connections (header timeout, per-address
//!   connection cap, clean closes).
//! - `http`: the router: table API, WebSocket upgrade, health check, static client.
//! - `ws`: one task per socket: `hello`, views out, requests in, pings, kicks.
//! - `table`: a table's handle and commands; `table::actor` owns the game and seats.
//! - `registry`: table id → handle, behind a short-held std mutex.
//! - [`store`]: [`Store`], where every change goes before anyone is told.
//! - `shutdown`: stop signal and task tracking (axum does not track upgraded sockets).
//! - `ratelimit`: the per-connection token bucket.
//! - `per_ip`, `origin`, `headers`: per-address limits, the WebSocket `Origin` check,
//!   security headers.
//! - `stats`: the counters behind `GET /api/stats`.
//!
//! # Example
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! jass_server::run(listener, jass_server::Config::default(), tokio::signal::ctrl_c()).await
//! # }
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod config;
mod headers;
mod http;
mod origin;
mod per_ip;
mod ratelimit;
mod registry;
mod serve;
mod shutdown;
mod stats;
pub mod store;
mod table;
mod ws;

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use config::Config;
pub use store::{MemoryStore, Store};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::registry::Registry;
use crate::shutdown::{Coordinator, GuardFactory, Shutdown};

/// What every request handler and socket task shares.
pub(crate) struct App {
    /// The tunables.
    pub(crate) config: Config,
    /// The tables.
    pub(crate) registry: Arc<Registry>,
    /// Durability for every change.
    pub(crate) store: Arc<dyn Store>,
    /// Tells tasks the server is stopping.
    pub(crate) shutdown: Shutdown,
    /// Counts tasks so `run` can wait for them.
    pub(crate) guards: GuardFactory,
    /// One permit per open socket (`max_connections`); a full semaphore answers `busy`.
    pub(crate) connections: Arc<Semaphore>,
    /// Source of connection ids.
    next_conn: AtomicU64,
    /// Open sockets and table creations per client address.
    pub(crate) per_ip: Arc<per_ip::PerIp>,
    /// Counters for `GET /api/stats`.
    pub(crate) stats: stats::Stats,
}

impl App {
    /// What a table actor needs from the server, for a new or a restored table.
    pub(crate) fn table_spawn(
        &self,
        id: Arc<str>,
        options: jass_engine::Options,
        guard: shutdown::TaskGuard,
    ) -> table::actor::Spawn {
        table::actor::Spawn {
            id,
            options,
            store: Arc::clone(&self.store),
            registry: Arc::clone(&self.registry),
            shutdown: self.shutdown.clone(),
            guard,
            mailbox: self.config.table_mailbox,
            idle_timeout: self.config.table_idle_timeout,
        }
    }

    /// A new connection id.
    pub(crate) fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// Serves until `shutdown` resolves, keeping tables in a [`MemoryStore`]. See
/// [`run_with_store`].
///
/// # Errors
/// The listener failed.
pub async fn run(listener: TcpListener, config: Config, shutdown: impl Future) -> io::Result<()> {
    run_with_store(listener, config, Arc::new(MemoryStore::new()), shutdown).await
}

/// Serves HTTP and WebSockets on `listener` until `shutdown` resolves (mini-redis
/// `server::run` shape, so tests bind `127.0.0.1:0` and run it in-process), with every
/// change handed to `store` before anyone is told. On shutdown every socket is closed with
/// 1012 and every table actor stops; this returns once they have, or after
/// `config.shutdown_grace`.
///
/// # Errors
/// The listener failed.
pub async fn run_with_store(
    listener: TcpListener,
    config: Config,
    store: Arc<dyn Store>,
    shutdown: impl Future,
) -> io::Result<()> {
    run_restoring(listener, config, store, Vec::new(), shutdown).await
}

/// Serves with the embedded SQLite store at `db` (created if missing): every table
/// the store holds is rebuilt by replaying its entries first, so players reconnect
/// with their tokens and continue exactly where they were (issue: durable tables).
///
/// # Errors
/// The database cannot be opened, or the listener failed.
pub async fn run_durable(
    listener: TcpListener,
    config: Config,
    db: &std::path::Path,
    shutdown: impl Future,
) -> io::Result<()> {
    let (store, tables) = store::SqliteStore::open(db).map_err(|e| io::Error::other(e.to_string()))?;
    tracing::info!(db = %db.display(), tables = tables.len(), "store opened");
    run_restoring(listener, config, Arc::new(store), tables, shutdown).await
}

/// Like [`run_with_store`], first bringing back `tables` read from `store`. Tables
/// idle longer than `config.table_idle_timeout` are not brought back: an unfinished
/// one is deleted, a finished one keeps its record in the store for download.
///
/// # Errors
/// The listener failed.
pub async fn run_restoring(
    listener: TcpListener,
    config: Config,
    store: Arc<dyn Store>,
    tables: Vec<store::StoredTable>,
    shutdown: impl Future,
) -> io::Result<()> {
    let coordinator = Coordinator::new();
    let grace = config.shutdown_grace;
    let per_ip = Arc::new(per_ip::PerIp::new(per_ip::Limits {
        sockets: config.max_connections_per_ip,
        http: config.max_http_connections_per_ip,
        tables: config.max_tables_per_ip,
        window: config.table_window,
        request_burst: config.http_rate_burst,
        request_rate: config.http_rate_per_second,
    }));
    let app = Arc::new(App {
        registry: Arc::new(Registry::new(config.max_tables)),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        config,
        store,
        shutdown: coordinator.shutdown(),
        guards: coordinator.guards(),
        next_conn: AtomicU64::new(1),
        per_ip,
        stats: stats::Stats::new(),
    });
    restore_tables(&app, tables).await;
    let router = http::router(Arc::clone(&app));
    // Our own accept loop rather than `axum::serve`: header timeouts, a per-address
    // connection cap and clean closes (issue 13 points 8 and 17; see `serve`).
    let serve = serve::serve(listener, router, Arc::clone(&app), coordinator.shutdown());
    tokio::pin!(serve);
    // The caller's future is polled here rather than handed to the accept loop, so it
    // need not be `Send`; once it resolves every task is told, the accept loop too.
    let notify = coordinator.notifier();
    tokio::select! {
        () = &mut serve => {}
        () = async move { shutdown.await; notify.signal(); } => serve.await,
    }
    tracing::info!(tables = app.registry.len(), "shutting down");
    drop(app);
    if !coordinator.finish(grace).await {
        tracing::warn!("some connections or tables did not stop in time");
    }
    Ok(())
}

/// Rebuilds stored tables into live actors (see [`run_restoring`]).
async fn restore_tables(app: &Arc<App>, tables: Vec<store::StoredTable>) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    let idle = i64::try_from(app.config.table_idle_timeout.as_secs()).unwrap_or(i64::MAX);
    let (mut restored, mut expired) = (0usize, 0usize);
    for t in tables {
        let rebuilt = table::rebuild::Rebuilt::from_entries(&t.id, &t.entries);
        if rebuilt.used < t.stored {
            // A torn or inconsistent tail was skipped: cut it off so new entries follow
            // the last good one.
            tracing::warn!(table = %t.id, kept = rebuilt.used, stored = t.stored, "cutting a table's history");
            if let Err(e) = app.store.truncate(&t.id, rebuilt.used).await {
                tracing::warn!(table = %t.id, error = %e, "could not cut a table's history");
            }
        }
        let finished = rebuilt.game.as_ref().is_some_and(|g| g.result().is_some());
        if now.saturating_sub(t.last_active) > idle {
            if !finished && let Err(e) = app.store.forget(&t.id).await {
                tracing::warn!(table = %t.id, error = %e, "could not delete an expired table");
            }
            expired += 1;
            continue;
        }
        let Some(guard) = app.guards.guard() else { break };
        let id: Arc<str> = t.id.as_str().into();
        let spawn = app.table_spawn(Arc::clone(&id), rebuilt.options, guard);
        let handle = table::actor::restore(spawn, rebuilt);
        if app.registry.insert(id, handle) {
            restored += 1;
        } else {
            tracing::warn!(table = %t.id, "no room to restore a table");
        }
    }
    tracing::info!(restored, expired, "tables restored from the store");
}
