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
//! - `cluster`: with a store several nodes share, claiming tables when asked for,
//!   letting them go, and stopping when the node's lease may have run out.
//!
//! # Example
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let storage = jass_server::Storage::Sqlite("data/jass.sqlite3".into());
//! jass_server::run(listener, jass_server::Config::default(), storage, tokio::signal::ctrl_c()).await
//! # }
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

mod cluster;
mod computer;
pub mod config;
mod headers;
mod http;
mod operator;
mod origin;
mod pace;
mod per_ip;
mod proxy;
mod ratelimit;
mod registry;
mod review;
mod serve;
mod shutdown;
mod stats;
pub mod store;
mod table;
mod web;
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
use crate::shutdown::{Shutdown, Tasks};

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
    pub(crate) guards: Tasks,
    /// One permit per open socket (`max_connections`); a full semaphore answers `busy`.
    pub(crate) connections: Arc<Semaphore>,
    /// Source of connection ids.
    next_conn: AtomicU64,
    /// Open sockets and table creations per client address.
    pub(crate) per_ip: Arc<per_ip::PerIp>,
    /// Counters for `GET /api/stats`.
    pub(crate) stats: stats::Stats,
    /// Where computer players think.
    pub(crate) computers: Arc<computer::Pool>,
    /// The browser client's files.
    pub(crate) web: web::Web,
    /// `x-jass-node` on every answer (`--node-name`), checked once at start.
    pub(crate) node_header: Option<axum::http::HeaderValue>,
    /// Claims in progress, one per table (shared store only).
    pub(crate) gates: cluster::Gates,
    /// Round reviews.
    pub(crate) reviews: Arc<review::Reviews>,
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
            unjoined_timeout: self.config.table_unjoined_timeout,
            max_spectators: self.config.max_spectators,
            max_spectators_per_ip: self.config.max_spectators_per_ip,
            held: None,
            computers: Arc::clone(&self.computers),
            creator: None,
            idle_already: false,
            reviews: Some(Arc::clone(&self.reviews)),
        }
    }

    /// A new connection id.
    pub(crate) fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// Where the server keeps its tables.
pub enum Storage {
    /// The embedded SQLite database at this path (created if missing). Every table it
    /// holds is rebuilt by replaying its entries first, so players reconnect with
    /// their tokens and continue exactly where they were; finished tables archived
    /// longer than `config.finished_retention` are purged at start and then every
    /// [`PURGE_EVERY`].
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database (`postgres://user@host:port/db`), laid out if empty,
    /// which several nodes may share (README, "Many nodes"): each table is held by one
    /// node at a time, claimed from the database by the node a request for it reaches
    /// (`config.node_lease`, `config.claim_wait`), with the same retention as SQLite.
    Postgres(String),
    /// A store of the caller's, and the tables to bring back from it first (none for a
    /// fresh start). A [`MemoryStore`] keeps nothing across a restart (`--memory`,
    /// tests).
    Given {
        /// Where changes go.
        store: Arc<dyn Store>,
        /// Tables to rebuild before serving.
        restore: Vec<store::StoredTable>,
    },
}

impl Storage {
    /// A fresh [`MemoryStore`].
    #[must_use]
    pub fn memory() -> Self {
        Self::Given { store: Arc::new(MemoryStore::new()), restore: Vec::new() }
    }
}

/// Serves HTTP and WebSockets on `listener` until `shutdown` resolves (mini-redis
/// `server::run` shape, so tests bind `127.0.0.1:0` and run it in-process), with every
/// change handed to the store before anyone is told. Stored tables come back first:
/// every one, however long the server was down (downtime is not idleness); one that
/// cannot be rebuilt is quarantined instead (see `restore_tables`). On shutdown every
/// socket is closed with 1012 and every table actor stops; this returns once they
/// have, or after `config.shutdown_grace`.
///
/// # Errors
/// The database cannot be opened (or is another application's file), or the
/// listener failed.
pub async fn run(
    listener: TcpListener,
    config: Config,
    storage: Storage,
    shutdown: impl Future,
) -> io::Result<()> {
    match storage {
        Storage::Given { store, restore } => serve_tables(listener, config, store, restore, shutdown).await,
        Storage::Sqlite(db) => {
            let (store, tables) =
                store::SqliteStore::open(&db).map_err(|e| io::Error::other(e.to_string()))?;
            tracing::info!(db = %db.display(), tables = tables.len(), "store opened");
            serve_purging(listener, config, store, tables, shutdown).await
        }
        Storage::Postgres(url) => {
            let node = jass_store_pg::NodeConfig {
                name: config.node_name.clone().unwrap_or_else(|| {
                    listener.local_addr().map_or_else(|_| "node".to_owned(), |a| a.to_string())
                }),
                lease: config.node_lease,
            };
            let store =
                store::PgStore::open(&url, node).await.map_err(|e| io::Error::other(e.to_string()))?;
            tracing::info!(node = ?store.node(), "PostgreSQL store opened; tables are claimed when asked for");
            serve_purging(listener, config, store, Vec::new(), shutdown).await
        }
    }
}

/// Serves with `store`, deleting what is past the retention at start and then every
/// [`PURGE_EVERY`].
async fn serve_purging<S: Store + store::Purges>(
    listener: TcpListener,
    config: Config,
    store: S,
    tables: Vec<store::StoredTable>,
    shutdown: impl Future,
) -> io::Result<()> {
    let retention = config.finished_retention;
    let purger = store.clone();
    // Ends with the server: `select!` drops it once serving returns.
    let purge = async move {
        let mut every = tokio::time::interval(PURGE_EVERY);
        loop {
            every.tick().await;
            match purger.purge_archived(retention).await {
                Ok(0) => {}
                Ok(purged) => tracing::info!(purged, "finished tables past their retention deleted"),
                Err(e) => tracing::warn!(error = %e, "could not purge finished tables"),
            }
            match purger.purge_games(retention).await {
                Ok(0) => {}
                Ok(purged) => tracing::info!(purged, "finished games past their retention deleted"),
                Err(e) => tracing::warn!(error = %e, "could not purge finished games"),
            }
        }
    };
    tokio::select! {
        served = serve_tables(listener, config, Arc::new(store), tables, shutdown) => served,
        () = purge => Ok(()),
    }
}

/// How often finished tables past their retention are looked for.
pub const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(60 * 60);

async fn serve_tables(
    listener: TcpListener,
    config: Config,
    store: Arc<dyn Store>,
    tables: Vec<store::StoredTable>,
    shutdown: impl Future,
) -> io::Result<()> {
    let stop = Shutdown::new();
    let tasks = Tasks::default();
    let grace = config.shutdown_grace;
    let per_ip = Arc::new(per_ip::PerIp::new(per_ip::Limits {
        sockets: config.max_connections_per_ip,
        http: config.max_http_connections_per_ip,
        tables: config.max_tables_per_ip,
        held_tables: config.max_held_tables_per_ip,
        window: config.table_window,
        request_burst: config.http_rate_burst,
        request_rate: config.http_rate_per_second,
    }));
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let stats = stats::Stats::new();
    let computers = Arc::new(computer::Pool::new(
        computer::Settings {
            threads: match config.computer_threads {
                0 => cores.saturating_sub(1).max(1),
                n => n,
            },
            config: jass_ai::Config {
                playouts: config.computer_playouts,
                time_budget: Some(config.computer_time_budget),
                ..jass_ai::Config::default()
            },
            min_playouts: config.computer_min_playouts,
            think: config.computer_think,
        },
        Arc::clone(&stats.computers),
    ));
    let web = match &config.web_dir {
        Some(dir) => web::Web::dir(dir)
            .map_err(|e| std::io::Error::other(format!("--web-dir {}: {e}", dir.display())))?,
        None => web::Web::embedded(),
    };
    let node_header = match &config.node_name {
        Some(name) => Some(
            axum::http::HeaderValue::from_str(name)
                .map_err(|_| std::io::Error::other(format!("--node-name {name:?}: not a header value")))?,
        ),
        None => None,
    };
    let (reviews, reviewed) = review::Reviews::start(
        Arc::clone(&store),
        tokio::runtime::Handle::current(),
        Arc::clone(&stats.reviews),
    );
    let app = Arc::new(App {
        reviews,
        gates: cluster::Gates::default(),
        web,
        node_header,
        computers,
        registry: Arc::new(Registry::new(config.max_tables)),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        config,
        store,
        shutdown: stop.clone(),
        guards: tasks.clone(),
        next_conn: AtomicU64::new(1),
        per_ip,
        stats,
    });
    restore_tables(&app, tables).await;
    tokio::spawn(review::tell_tables(Arc::clone(&app.registry), reviewed));
    if app.store.shared() {
        app.stats.cluster.set_node(app.store.node(), app.store.serving());
        tokio::spawn(cluster::hold(Arc::clone(&app)));
    }
    let router = http::router(Arc::clone(&app));
    // Our own accept loop rather than `axum::serve`: header timeouts, a per-address
    // connection cap and clean closes (issue 13 points 8 and 17; see `serve`).
    let serve = serve::serve(listener, router, Arc::clone(&app), stop.clone());
    tokio::pin!(serve);
    // The caller's future is polled here rather than handed to the accept loop, so it
    // need not be `Send`; once it resolves every task is told, the accept loop too.
    let notify = stop.clone();
    tokio::select! {
        () = &mut serve => {}
        () = async move { shutdown.await; notify.cancel(); } => serve.await,
    }
    tracing::info!(tables = app.registry.len(), "shutting down");
    app.reviews.close();
    let store = Arc::clone(&app.store);
    drop(app);
    stop.cancel();
    if !tasks.finish(grace).await {
        tracing::warn!("some connections or tables did not stop in time");
    }
    // Each table let itself go as it stopped; this ends the node's lease too, so no
    // other node waits for it to run out.
    if let Err(e) = store.leave().await {
        tracing::warn!(error = %e, "could not leave the shared store; the lease runs out by itself");
    }
    Ok(())
}

/// Rebuilds stored tables into live actors (see [`run`]).
///
/// Nothing stored is ever deleted here (issue 13 points 1, 2): the idle timer of a
/// restored table starts now, and a table whose history cannot be replayed whole is
/// quarantined: kept in the store as it is, not served, reported at ERROR and in
/// `/api/stats`, exportable with `jass-server export`. Only a torn last write (an
/// entry that is not even JSON, where a crash cut it) is dropped from the replay,
/// and it is moved to the store's `damaged` list, not deleted.
async fn restore_tables(app: &Arc<App>, tables: Vec<store::StoredTable>) {
    let (mut restored, mut quarantined) = (0usize, 0usize);
    for t in tables {
        if app.guards.is_closed() {
            break;
        }
        match bring_back(app, t, false).await {
            Some(_) => restored += 1,
            None => quarantined += 1,
        }
    }
    if restored > app.config.max_tables {
        tracing::warn!(
            restored,
            max_tables = app.config.max_tables,
            "more tables stored than --max-tables: all were restored; new tables answer busy until enough expire"
        );
    }
    tracing::info!(restored, quarantined, "tables restored from the store");
}

/// Rebuilds one stored table into a live actor in the registry (at start-up, or when
/// claimed from a shared store; `idle`: it sat idle its whole timeout already, so it
/// expires at once); `None` if it cannot be served whole (quarantined) or the server
/// is stopping.
pub(crate) async fn bring_back(
    app: &Arc<App>,
    t: store::StoredTable,
    idle: bool,
) -> Option<table::TableHandle> {
    let state = match rebuild_stored(&t) {
        Ok(state) => state,
        Err(why) => {
            quarantine(app, &t.id, &why).await;
            return None;
        }
    };
    if let Some(u) = &t.unreadable {
        tracing::warn!(table = %t.id, entry = u.index, error = %u.error, "setting a torn last entry aside");
        let reason = format!("torn last write: {}", u.error);
        if let Err(e) = app.store.set_aside(&t.id, u.index, &reason).await {
            // Served anyway, new entries would land behind the torn one.
            quarantine(app, &t.id, &format!("its torn last entry could not be set aside: {e}")).await;
            return None;
        }
    }
    keep_finished_games(app, &t, &state).await;
    let guard = app.guards.guard()?;
    let id: Arc<str> = t.id.as_str().into();
    let mut spawn = app.table_spawn(Arc::clone(&id), state.options, guard);
    spawn.idle_already = idle;
    let handle = table::actor::restore(spawn, state);
    app.registry.insert_restored(id, handle.clone());
    Some(handle)
}

/// Keeps every finished game of a restored table that is not kept on its own yet: a
/// crash between a game's last entry and its keeping, or a table stored before games
/// were kept. Replays the entries a second time only when one is missing.
async fn keep_finished_games(app: &Arc<App>, t: &store::StoredTable, state: &table::state::TableState) {
    // Every game before the latest ended (a rematch starts only after the end).
    let finished = state.games.saturating_sub(u32::from(!state.finished()));
    if (1..=finished).all(|n| t.kept_games.contains(&n)) {
        return;
    }
    for (game, record) in table::state::finished_games(&t.entries) {
        if t.kept_games.contains(&game) {
            continue;
        }
        if let Err(e) = app.store.keep_game(&t.id, game, &record).await {
            tracing::warn!(table = %t.id, game, error = %e, "could not keep a finished game");
        }
    }
}

/// Replays a stored table, or says why it cannot be served whole.
fn rebuild_stored(t: &store::StoredTable) -> Result<table::state::TableState, String> {
    if let Some(problem) = &t.problem {
        return Err(problem.clone());
    }
    if let Some(u) = &t.unreadable
        && !(u.torn && u.index + 1 == t.stored)
    {
        let what = if u.torn { "is not JSON" } else { "is no entry this server knows" };
        return Err(format!("entry {} of {} {what}: {}", u.index + 1, t.stored, u.error));
    }
    if t.entries.is_empty() {
        return Err(format!("none of its {} stored entries is readable", t.stored));
    }
    match table::state::TableState::replay(&t.entries) {
        (state, None) => Ok(state),
        (_, Some((i, why))) => {
            Err(format!("entry {} of {} is refused by the replay: {why}", i + 1, t.stored))
        }
    }
}

/// Sets a table aside: never served, never cut, reported.
async fn quarantine(app: &Arc<App>, id: &str, why: &str) {
    // A damaged id is shown escaped and short, never as the raw bytes.
    let shown: String =
        if jass_store::valid_table_id(id) { id.to_owned() } else { id.escape_debug().take(80).collect() };
    tracing::error!(
        table = %shown,
        why,
        "table quarantined: kept in the store as it is but not served; `jass-server export --table ID` prints its entries"
    );
    if let Err(e) = app.store.quarantine(id).await {
        tracing::warn!(table = %shown, error = %e, "could not mark a quarantined table in the store");
    }
    app.stats.quarantine(shown);
}
