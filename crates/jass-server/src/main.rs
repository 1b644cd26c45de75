//! `jass-server`: parses flags, sets up logging, binds, and serves until Ctrl-C or
//! SIGTERM.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use jass_server::{Config, Storage};
use tracing_subscriber::EnvFilter;

/// Command line; every flag can also come from the environment.
#[derive(Parser, Debug)]
#[command(version, about = "The Schieber Jass table server")]
struct Args {
    /// Address to listen on.
    #[arg(long, env = "JASS_ADDR", default_value = "0.0.0.0:8080")]
    addr: SocketAddr,
    /// Serve the browser client from this folder instead of the copy built into the
    /// binary (for working on the client: edits show without a rebuild).
    #[arg(long, env = "JASS_WEB_DIR")]
    web_dir: Option<PathBuf>,
    /// The SQLite database holding every table (created if missing; back it up with
    /// `sqlite3 FILE ".backup copy.sqlite3"` while the server runs), or a PostgreSQL
    /// database given as `postgres://user@host:port/db` (laid out if empty).
    #[arg(long, env = "JASS_DB", default_value = "data/jass.sqlite3")]
    db: PathBuf,
    /// Keep tables in memory only (nothing survives a restart; for experiments).
    #[arg(long, env = "JASS_MEMORY")]
    memory: bool,
    /// Most tables held at once (more answer `busy`).
    #[arg(long, env = "JASS_MAX_TABLES")]
    max_tables: Option<usize>,
    /// Most open WebSockets at once (more answer `busy`).
    #[arg(long, env = "JASS_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Most open WebSockets per client address (more answer 429 `busy`); raise it
    /// when many clients share an address (a load bench on loopback, a NAT).
    #[arg(long, env = "JASS_MAX_CONNECTIONS_PER_IP")]
    max_connections_per_ip: Option<usize>,
    /// Most tables one client address may create per 10 minutes (more answer 429 `busy`).
    #[arg(long, env = "JASS_MAX_TABLES_PER_IP")]
    max_tables_per_ip: Option<u32>,
    /// Most open HTTP connections per client address that are not WebSockets (more
    /// are answered 429 and closed); raise it with `--max-connections-per-ip`.
    #[arg(long, env = "JASS_MAX_HTTP_CONNECTIONS_PER_IP")]
    max_http_connections_per_ip: Option<usize>,
    /// Seconds a connection may take to send a request head (also between keep-alive
    /// requests) before it is closed.
    #[arg(long, env = "JASS_HTTP_HEADER_TIMEOUT_SECS")]
    http_header_timeout_secs: Option<u64>,
    /// Seconds a request body may take to arrive (slower ones get 408).
    #[arg(long, env = "JASS_HTTP_BODY_TIMEOUT_SECS")]
    http_body_timeout_secs: Option<u64>,
    /// Table API requests one client address may make in a burst (more answer 429
    /// `rate_limited`).
    #[arg(long, env = "JASS_HTTP_RATE_BURST")]
    http_rate_burst: Option<u32>,
    /// Table API requests per second that refill the burst.
    #[arg(long, env = "JASS_HTTP_RATE_PER_SECOND")]
    http_rate_per_second: Option<u32>,
    /// An origin besides the server's own whose pages may open WebSockets, e.g.
    /// `https://jass.example` behind a proxy that rewrites `Host` (repeatable; the
    /// environment variable takes a comma-separated list).
    #[arg(long = "allowed-origin", env = "JASS_ALLOWED_ORIGINS", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Messages a connection may send in a burst (protocol.md says 20; raise it only
    /// for trusted bots).
    #[arg(long, env = "JASS_RATE_BURST")]
    rate_burst: Option<u32>,
    /// Messages per second that refill the burst (protocol.md says 5).
    #[arg(long, env = "JASS_RATE_PER_SECOND")]
    rate_per_second: Option<u32>,
    /// Seconds a table may sit with nobody connected before it expires (default one
    /// day); an unfinished table is then deleted, a finished game keeps its record.
    #[arg(long, env = "JASS_IDLE_TIMEOUT_SECS")]
    idle_timeout_secs: Option<u64>,
    /// Seconds a table that no player ever connected to is kept (default 600): such a
    /// table only holds a slot.
    #[arg(long, env = "JASS_UNJOINED_TIMEOUT_SECS")]
    unjoined_timeout_secs: Option<u64>,
    /// Seconds of silence after which a seated player is shown as away (default 10);
    /// clients send a `ping` heartbeat every few seconds.
    #[arg(long, env = "JASS_AWAY_AFTER_SECS")]
    away_after_secs: Option<u64>,
    /// Playouts a computer player may run for one decision (default 2000).
    #[arg(long, env = "JASS_COMPUTER_PLAYOUTS")]
    computer_playouts: Option<u32>,
    /// Milliseconds a computer player may think for one decision (default 300).
    #[arg(long, env = "JASS_COMPUTER_BUDGET_MS")]
    computer_budget_ms: Option<u64>,
    /// Fewest playouts of a computer's decision when the queue cuts its budget
    /// (default 200).
    #[arg(long, env = "JASS_COMPUTER_MIN_PLAYOUTS")]
    computer_min_playouts: Option<u32>,
    /// Threads the computer players think on, at nice 10 (default 0: one fewer
    /// than the cores, at least one).
    #[arg(long, env = "JASS_COMPUTER_THREADS")]
    computer_threads: Option<usize>,
    /// Longest pause in milliseconds before a computer's move is shown (default 2000;
    /// 0 plays at once).
    #[arg(long, env = "JASS_COMPUTER_THINK_MS")]
    computer_think_ms: Option<u64>,
    /// Most tables created by one client address that are held at once (default 100).
    #[arg(long, env = "JASS_MAX_HELD_TABLES_PER_IP")]
    max_held_tables_per_ip: Option<usize>,
    /// Most spectators on one table at once (default 32).
    #[arg(long, env = "JASS_MAX_SPECTATORS")]
    max_spectators: Option<usize>,
    /// Most spectators on one table at once from one client address (default 4).
    #[arg(long, env = "JASS_MAX_SPECTATORS_PER_IP")]
    max_spectators_per_ip: Option<usize>,
    /// Days a finished game's record is kept after its table left memory (default 30);
    /// then it is deleted from the database.
    #[arg(long, env = "JASS_RETENTION_DAYS")]
    retention_days: Option<u64>,
    /// A token that lets a request from any address read `/api/stats` (sent as
    /// `Authorization: Bearer TOKEN`); without it only the server's own machine may.
    #[arg(long, env = "JASS_STATS_TOKEN", hide_env_values = true)]
    stats_token: Option<String>,
    /// This node's name, sent as `x-jass-node` on every answer (behind a balancer:
    /// which node served a request).
    #[arg(long, env = "JASS_NODE_NAME")]
    node_name: Option<String>,
    /// A balancer (an IP address; repeat, or separate with commas) whose connections
    /// start with a PROXY protocol header (HAProxy's `send-proxy-v2`): the client's
    /// address in it counts for the per-address limits and the operator check.
    #[arg(long = "trusted-proxy", env = "JASS_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// With `--db postgres://…`: milliseconds a node counts as alive after its last
    /// heartbeat (default 3000). A node that cannot renew it in time stops serving
    /// by itself; a killed node's tables are taken over at once.
    #[arg(long, env = "JASS_NODE_LEASE_MS")]
    node_lease_ms: Option<u64>,
    /// With `--db postgres://…`: milliseconds a request for a table another live node
    /// holds waits for it to be let go (default 2000), before "try again".
    #[arg(long, env = "JASS_CLAIM_WAIT_MS")]
    claim_wait_ms: Option<u64>,
    /// An operator's task instead of serving.
    #[command(subcommand)]
    command: Option<Task>,
}

/// What `jass-server TASK` does instead of serving.
#[derive(clap::Subcommand, Debug)]
enum Task {
    /// Prints one table's stored entries as JSON, exactly as stored (a quarantined
    /// table's too, and entries set aside as damaged), without changing the file.
    Export {
        /// The database (default: the server's `--db`).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The table id.
        #[arg(long)]
        table: String,
    },
}

/// Runs an operator's task; returns the exit code.
async fn run_task(task: &Task, server_db: &std::path::Path) -> i32 {
    match task {
        Task::Export { db, table } => {
            let db = db.as_deref().unwrap_or(server_db);
            export(db, table).await
        }
    }
}

/// `jass-server export`: the table as JSON on stdout, or why not on stderr.
async fn export(db: &std::path::Path, table: &str) -> i32 {
    let found = match db.to_str().filter(|d| d.starts_with("postgres://") || d.starts_with("postgresql://")) {
        Some(url) => jass_store_pg::export(url, table).await.map_err(|e| e.to_string()),
        None => jass_store::export(db, table).map_err(|e| format!("{}: {e}", db.display())),
    };
    let json = found.and_then(|t| t.ok_or_else(|| format!("no table {table:?} in {}", db.display())));
    match json.and_then(|t| serde_json::to_string_pretty(&t).map_err(|e| e.to_string())) {
        Ok(json) => {
            println!("{json}");
            0
        }
        Err(why) => {
            eprintln!("jass-server export: {why}");
            1
        }
    }
}

impl Args {
    /// The defaults, with whatever the flags override.
    fn config(&self) -> Config {
        let d = Config::default();
        Config {
            max_tables: self.max_tables.unwrap_or(d.max_tables),
            max_connections: self.max_connections.unwrap_or(d.max_connections),
            max_connections_per_ip: self.max_connections_per_ip.unwrap_or(d.max_connections_per_ip),
            max_tables_per_ip: self.max_tables_per_ip.unwrap_or(d.max_tables_per_ip),
            max_http_connections_per_ip: self
                .max_http_connections_per_ip
                .unwrap_or(d.max_http_connections_per_ip),
            http_header_timeout: self
                .http_header_timeout_secs
                .map_or(d.http_header_timeout, std::time::Duration::from_secs),
            http_body_timeout: self
                .http_body_timeout_secs
                .map_or(d.http_body_timeout, std::time::Duration::from_secs),
            http_rate_burst: self.http_rate_burst.unwrap_or(d.http_rate_burst),
            http_rate_per_second: self.http_rate_per_second.unwrap_or(d.http_rate_per_second),
            allowed_origins: self.allowed_origins.clone(),
            stats_token: self.stats_token.clone().filter(|t| !t.is_empty()),
            node_name: self.node_name.clone().filter(|t| !t.is_empty()),
            trusted_proxies: self.trusted_proxies.clone(),
            node_lease: self
                .node_lease_ms
                .map_or(d.node_lease, |ms| std::time::Duration::from_millis(ms.max(300))),
            claim_wait: self.claim_wait_ms.map_or(d.claim_wait, std::time::Duration::from_millis),
            rate_burst: self.rate_burst.unwrap_or(d.rate_burst),
            rate_per_second: self.rate_per_second.unwrap_or(d.rate_per_second),
            table_idle_timeout: self
                .idle_timeout_secs
                .map_or(d.table_idle_timeout, std::time::Duration::from_secs),
            table_unjoined_timeout: self
                .unjoined_timeout_secs
                .map_or(d.table_unjoined_timeout, std::time::Duration::from_secs),
            away_after: self.away_after_secs.map_or(d.away_after, std::time::Duration::from_secs),
            computer_playouts: self.computer_playouts.unwrap_or(d.computer_playouts),
            computer_time_budget: self
                .computer_budget_ms
                .map_or(d.computer_time_budget, std::time::Duration::from_millis),
            computer_think: self.computer_think_ms.map_or(d.computer_think, std::time::Duration::from_millis),
            computer_min_playouts: self.computer_min_playouts.unwrap_or(d.computer_min_playouts),
            computer_threads: self.computer_threads.unwrap_or(d.computer_threads),
            max_held_tables_per_ip: self.max_held_tables_per_ip.unwrap_or(d.max_held_tables_per_ip),
            max_spectators: self.max_spectators.unwrap_or(d.max_spectators),
            max_spectators_per_ip: self.max_spectators_per_ip.unwrap_or(d.max_spectators_per_ip),
            finished_retention: self.retention_days.map_or(d.finished_retention, |days| {
                std::time::Duration::from_secs(days.saturating_mul(86_400))
            }),
            web_dir: self.web_dir.clone(),
            ..d
        }
    }
}

/// Most connections waiting to be accepted. Linux caps it at `net.core.somaxconn`
/// (4096 on current kernels); the usual 128–1024 overflows when thousands of clients
/// reconnect at once after a restart, and each overflow costs a client a SYN retry
/// (a second or more).
const ACCEPT_BACKLOG: u32 = 4096;

/// Binds with `SO_REUSEADDR` (a restart need not wait out old sockets in TIME_WAIT)
/// and a deep accept backlog.
fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket =
        if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// Raises the soft limit of open descriptors to the hard one: each socket is one, and
/// distributions start services with a soft limit of 1024, far below `max_connections`;
/// at the limit `accept` fails for everyone.
fn raise_nofile_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => tracing::info!(limit = n, "open file limit"),
        Err(e) => tracing::warn!(error = %e, "could not raise the open file limit"),
    }
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM, whichever comes first.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutdown signal received");
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // Colour only for a person at a terminal: a file, journald or `docker logs` gets
    // plain text, not escape codes.
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .init();
    let args = Args::parse();
    if let Some(task) = &args.command {
        std::process::exit(run_task(task, &args.db).await);
    }
    raise_nofile_limit();
    let web = args.web_dir.as_ref().map_or_else(|| "built in".to_owned(), |d| d.display().to_string());
    let listener = bind(args.addr)?;
    tracing::info!(addr = %listener.local_addr()?, %web, "serving");
    let config = args.config();
    if args.memory {
        jass_server::run(listener, config, Storage::memory(), shutdown_signal()).await
    } else {
        let (storage, shown) = match args.db.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                // Named without its user and password.
                let host = url.rsplit_once('@').map_or(url, |(_, host)| host);
                (Storage::Postgres(url.to_owned()), format!("postgres {host}"))
            }
            _ => (Storage::Sqlite(args.db.clone()), args.db.display().to_string()),
        };
        let served = jass_server::run(listener, config, storage, shutdown_signal()).await;
        // A refused database (another application's file, a newer layout) is told
        // plainly, not as a debug dump of the error.
        if let Err(e) = &served {
            tracing::error!(db = %shown, "{e}");
            eprintln!("jass-server: {e}");
            std::process::exit(1);
        }
        served
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bind_listens_and_a_restart_can_rebind_at_once() {
        let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (server_side, _) = listener.accept().await.unwrap();
        // Closing the server side first leaves the port in TIME_WAIT, as after a
        // restart; SO_REUSEADDR lets the next process bind it anyway.
        drop(server_side);
        drop(client);
        drop(listener);
        let again = bind(addr).unwrap();
        assert_eq!(again.local_addr().unwrap(), addr);
    }

    #[test]
    fn flags_reach_the_config() {
        let args = Args::parse_from([
            "jass-server",
            "--max-connections-per-ip",
            "7",
            "--max-tables-per-ip",
            "3",
            "--allowed-origin",
            "https://a.example",
            "--allowed-origin",
            "https://b.example",
        ]);
        let c = args.config();
        assert_eq!((c.max_connections_per_ip, c.max_tables_per_ip), (7, 3));
        assert_eq!(c.allowed_origins, ["https://a.example", "https://b.example"]);
    }

    #[test]
    fn http_flags_reach_the_config() {
        let args = Args::parse_from([
            "jass-server",
            "--max-http-connections-per-ip",
            "9",
            "--http-header-timeout-secs",
            "4",
            "--http-body-timeout-secs",
            "6",
            "--http-rate-burst",
            "11",
            "--http-rate-per-second",
            "3",
        ]);
        let c = args.config();
        assert_eq!(c.max_http_connections_per_ip, 9);
        assert_eq!((c.http_header_timeout.as_secs(), c.http_body_timeout.as_secs()), (4, 6));
        assert_eq!((c.http_rate_burst, c.http_rate_per_second), (11, 3));
    }

    #[test]
    fn the_soft_descriptor_limit_is_raised_to_the_hard_one() {
        raise_nofile_limit();
        let (soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        // macOS caps the soft limit below an infinite hard one.
        assert!(soft == hard || cfg!(target_os = "macos"), "{soft} < {hard}");
    }
}
