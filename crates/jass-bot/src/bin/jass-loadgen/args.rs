//! The command line, and the caps that keep a typo from turning the bench into a
//! flood.

use std::net::IpAddr;

use clap::Parser;

/// Hard caps, so a typo cannot turn the bench into a flood.
pub(crate) const MAX_TABLES: usize = 5_000;
pub(crate) const MAX_DURATION_S: u64 = 600;
pub(crate) const MAX_ROUNDS: u32 = 100;
/// The target of a `--rounds` game: out of reach, so the game neither ends nor starts
/// anew before every table has played its rounds.
pub(crate) const UNREACHABLE_TARGET: u32 = 100_000;

/// Command line.
#[derive(Parser, Debug)]
#[command(about = "Load bench: N tables × 4 bots against a local jass-server")]
pub(crate) struct Args {
    /// The server's base URL (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub(crate) server: String,
    /// Tables to open (4 sockets each, fewer with `--computers`).
    #[arg(long, default_value_t = 100)]
    pub(crate) tables: usize,
    /// Each seat acts this long after its turn comes (1000 ≈ one action per second per table).
    #[arg(long, default_value_t = 1000)]
    pub(crate) think_ms: u64,
    /// Seconds of play after all sockets are connected.
    #[arg(long, default_value_t = 60)]
    pub(crate) duration: u64,
    /// The server's process id, for its memory; found by name (`jass-server`) if omitted.
    #[arg(long)]
    pub(crate) server_pid: Option<u32>,
    /// Tables being created at once over HTTP.
    #[arg(long, default_value_t = 32)]
    pub(crate) create_concurrency: usize,
    /// WebSocket handshakes in flight at once.
    #[arg(long, default_value_t = 256)]
    pub(crate) connect_concurrency: usize,
    /// Measure memory over whole games: play (a game to 2,500 with the target out of
    /// reach) until every table has finished this many rounds, reading the server's
    /// memory per table after round 1 and after this round; `--duration` bounds the wait.
    #[arg(long)]
    pub(crate) rounds: Option<u32>,
    /// Computer seats per table (0–3): the host adds them in the last seats before
    /// the start; only the other seats are played (and timed) over sockets.
    #[arg(long, default_value_t = 0)]
    pub(crate) computers: usize,
    /// The computers' level (easy, normal, strong).
    #[arg(long, value_parser = parse_level)]
    pub(crate) computer_level: Option<jass_protocol::Level>,
    /// Ask for the review of every round as it ends (protocol.md, "Round review"),
    /// from each table's host seat, and count the answers: the game's latency must
    /// not notice.
    #[arg(long)]
    pub(crate) reviews: bool,
    /// Connect from this local address (loopback only, e.g. 127.0.0.2): several
    /// load generators then stand for several client addresses. `/api/stats` is
    /// still read from the machine's own address.
    #[arg(long)]
    pub(crate) bind: Option<IpAddr>,
}

fn parse_level(s: &str) -> Result<jass_protocol::Level, String> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).map_err(|e| e.to_string())
}
