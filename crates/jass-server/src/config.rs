//! Every tunable of the server in one place, so tests can shrink timings and limits
//! instead of waiting for production values.

use std::path::PathBuf;
use std::time::Duration;

/// Server settings. [`Config::default`] holds the values `protocol.md` promises.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long a new socket may take to send `hello` before it is closed with 4008;
    /// an idle half-open socket would otherwise hold a slot for ever.
    pub hello_timeout: Duration,
    /// How often the server sends a WebSocket ping to a silent peer, so dead peers are
    /// noticed and proxies keep the connection open; at most half of `away_after`.
    pub ping_interval: Duration,
    /// A peer silent (no frame, no pong) for this long is dropped and its seat shown
    /// as disconnected.
    pub pong_timeout: Duration,
    /// A seated peer silent for this long is shown as away (`connected: false`) while
    /// its socket is still open (protocol.md 2): a phone in a tunnel shows no TCP close
    /// for minutes, and the others must not wait on it for `pong_timeout`. Clients
    /// heartbeat with `ping` well within it; the server's WebSocket ping goes to a peer
    /// silent for half of it, so any live client stays present.
    pub away_after: Duration,
    /// Longest a single frame may take to go out; a peer that stops reading must not
    /// hold its connection task (or its buffers) for ever.
    pub send_timeout: Duration,
    /// How long a closing socket waits for the peer's close reply before dropping it.
    pub close_linger: Duration,
    /// Token bucket size: the burst of messages a connection may send at once.
    pub rate_burst: u32,
    /// Token bucket refill, in messages per second.
    pub rate_per_second: u32,
    /// Messages refused with `rate_limited` in a row before the connection is closed
    /// with 1008 (a client that keeps going is flooding, not just bursty).
    pub rate_strikes: u32,
    /// Malformed messages a connection may send before it is closed with 4009.
    pub malformed_strikes: u32,
    /// Largest text frame accepted; larger ones close the socket with 1009.
    pub max_message_bytes: usize,
    /// Read buffer per socket. Small, because client frames are a few hundred bytes
    /// (it grows for a larger one, up to `max_message_bytes`) and the memory target
    /// is 64 KiB per table with four sockets; tungstenite's default is 128 KiB.
    pub read_buffer_bytes: usize,
    /// Bytes a socket may gather before writing without a flush: enough for a state
    /// and its ack, which then leave in one write (every other send flushes at once).
    pub write_buffer_bytes: usize,
    /// Hard cap of the write buffer; a peer that does not read is cut off rather
    /// than buffered for.
    pub max_write_buffer_bytes: usize,
    /// Tables held at once; creating more answers `busy`.
    pub max_tables: usize,
    /// Open WebSocket connections at once; more are refused with 503 `busy`.
    pub max_connections: usize,
    /// Open WebSocket connections per client address; more are refused with 429
    /// `busy`, so one host cannot take the whole `max_connections`.
    pub max_connections_per_ip: usize,
    /// Tables one client address may create per `table_window`; more answer 429
    /// `busy`, so one host cannot fill `max_tables`.
    pub max_tables_per_ip: u32,
    /// The window of `max_tables_per_ip`.
    pub table_window: Duration,
    /// Open HTTP connections per client address that have not become WebSockets
    /// (protocol.md 1); more are answered 429 and closed at once, so idle or slow
    /// connections from one host cannot take every descriptor.
    pub max_http_connections_per_ip: usize,
    /// How long a connection may take to send a complete request head, also between
    /// keep-alive requests; slower ones are closed (slowloris).
    pub http_header_timeout: Duration,
    /// How long a request body may take to arrive in full; slower ones get 408.
    pub http_body_timeout: Duration,
    /// Table API requests (`POST /api/tables`, `/seats`, `GET /api/tables/{table}`,
    /// `/record`) one client address may make in a burst; beyond it 429
    /// `rate_limited` (protocol.md 1).
    pub http_rate_burst: u32,
    /// Refill of `http_rate_burst`, in requests per second.
    pub http_rate_per_second: u32,
    /// Origins (`https://jass.example`) besides the server's own whose pages may
    /// open WebSockets; needed behind a proxy that rewrites `Host`.
    pub allowed_origins: Vec<String>,
    /// Commands queued per table actor; senders wait when it is full, which keeps a
    /// flood on one table from growing memory.
    pub table_mailbox: usize,
    /// A table with nobody connected and no activity for this long is dropped from
    /// memory (its record stays in the store).
    pub table_idle_timeout: Duration,
    /// A table no player ever connected to is dropped after this long (it only holds a
    /// slot).
    pub table_unjoined_timeout: Duration,
    /// Most tables created by one client address that are held at once.
    pub max_held_tables_per_ip: usize,
    /// Most spectators watching one table at once.
    pub max_spectators: usize,
    /// Playouts a computer player may run for one decision.
    pub computer_playouts: u32,
    /// Wall time a computer player may think for one decision; it shrinks with the
    /// decisions waiting behind it (as `computer_playouts` does).
    pub computer_time_budget: Duration,
    /// The cheapest decision under load: playouts, at least, however long the queue.
    pub computer_min_playouts: u32,
    /// Threads the computers think on, at nice 10; 0: one fewer than the cores
    /// (at least one), so the async runtime always has a core.
    pub computer_threads: usize,
    /// The longest pause a computer takes before its move is shown (it pauses like a
    /// person, longer for a contract, drawn from what every seat sees: see `pace`).
    pub computer_think: Duration,
    /// Most spectators watching one table at once from one client address.
    pub max_spectators_per_ip: usize,
    /// How long a finished table is kept in the store after it left memory
    /// (README, "What the database keeps"): its record is downloadable until then, then
    /// it is purged.
    pub finished_retention: Duration,
    /// A token that opens `/api/stats` to a request from any address
    /// (`Authorization: Bearer TOKEN`); without it only loopback requests see them.
    pub stats_token: Option<String>,
    /// This node's name, sent as `x-jass-node` on every answer: behind a balancer it
    /// tells which node served a request.
    pub node_name: Option<String>,
    /// Balancers whose connections start with a PROXY protocol header giving the
    /// client's address (`--trusted-proxy`): that address then counts for the
    /// per-address limits and the operator check, not the balancer's.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// With a shared store (several nodes on one PostgreSQL): how long a node counts
    /// as alive after its last heartbeat. A node that could not renew it for two
    /// thirds of this stops serving by itself; a killed node is seen dead at once.
    pub node_lease: Duration,
    /// With a shared store: how long a request for a table another live node holds
    /// waits for that node to let it go before it is answered "try again" (HTTP 503,
    /// close 1013).
    pub claim_wait: Duration,
    /// On shutdown, how long to wait for sockets and table actors to finish.
    pub shutdown_grace: Duration,
    /// A folder to serve the browser client from (at `/` and `/t/{table}`) instead of
    /// the copy built into the binary: for working on the client without a rebuild.
    pub web_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            hello_timeout: Duration::from_secs(5),
            ping_interval: Duration::from_secs(15),
            pong_timeout: Duration::from_secs(45),
            away_after: Duration::from_secs(10),
            send_timeout: Duration::from_secs(10),
            close_linger: Duration::from_secs(1),
            rate_burst: 20,
            rate_per_second: 5,
            rate_strikes: 10,
            malformed_strikes: 5,
            max_message_bytes: jass_protocol::MAX_MESSAGE_BYTES,
            read_buffer_bytes: 512,
            write_buffer_bytes: 8 * 1024,
            max_write_buffer_bytes: 64 * 1024,
            max_tables: 10_000,
            max_connections: 40_000,
            max_connections_per_ip: 64,
            max_tables_per_ip: 30,
            table_window: Duration::from_secs(10 * 60),
            max_http_connections_per_ip: 64,
            http_header_timeout: Duration::from_secs(10),
            http_body_timeout: Duration::from_secs(10),
            http_rate_burst: 40,
            http_rate_per_second: 4,
            allowed_origins: Vec::new(),
            table_mailbox: 32,
            table_idle_timeout: Duration::from_secs(24 * 60 * 60),
            table_unjoined_timeout: Duration::from_secs(10 * 60),
            max_held_tables_per_ip: 100,
            max_spectators: 32,
            computer_playouts: 2_000,
            computer_time_budget: Duration::from_millis(300),
            computer_min_playouts: 200,
            computer_threads: 0,
            computer_think: Duration::from_secs(2),
            max_spectators_per_ip: 4,
            finished_retention: Duration::from_secs(30 * 24 * 60 * 60),
            stats_token: None,
            node_name: None,
            trusted_proxies: Vec::new(),
            node_lease: Duration::from_secs(3),
            claim_wait: Duration::from_secs(2),
            shutdown_grace: Duration::from_secs(10),
            web_dir: None,
        }
    }
}
