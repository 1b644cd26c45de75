//! What every request handler and socket task shares: the server's parts, built once
//! by `run`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Semaphore;

use crate::config::Config;
use crate::registry::Registry;
use crate::shutdown::{self, Shutdown, Tasks};
use crate::store::Store;
use crate::{cluster, computer, per_ip, review, stats, table, web};

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
    pub(crate) next_conn: AtomicU64,
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
