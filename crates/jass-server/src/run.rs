//! Starting and stopping: the store opened, stored tables brought back, then serving
//! until shut down, with finished tables and games past their retention purged.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::app::App;
use crate::config::Config;
use crate::registry::Registry;
use crate::restore::restore_tables;
use crate::shutdown::{Shutdown, Tasks};
use crate::store::{self, MemoryStore, Store};
use crate::{claim, cluster, computer, http, per_ip, review, serve, stats, web};

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
        tokio::spawn(claim::hold(Arc::clone(&app)));
    }
    let router = http::router(Arc::clone(&app));
    // Our own accept loop rather than `axum::serve`: header timeouts, a per-address
    // connection cap and clean closes (protocol.md 1 and 8; see `serve`).
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
