//! `jass-loadgen`: the load bench. Opens N tables × 4 bot seats over real sockets
//! against a running server on this machine, plays for a fixed time and reports
//! actions/s, card→state latency percentiles, the socket ramp time and the server's
//! resident memory per table.
//!
//! ```text
//! cargo run --release -p jass-server -- --addr 127.0.0.1:8080 \
//!     --max-connections-per-ip 40000 --max-tables-per-ip 100000 --max-held-tables-per-ip 100000 \
//!     --max-http-connections-per-ip 40000 --http-rate-burst 100000 --http-rate-per-second 100000 &
//! cargo run --release -p jass-bot --bin jass-loadgen -- \
//!     --server http://127.0.0.1:8080 --tables 2500 --think-ms 1000 --duration 60
//! ```
//!
//! With `--rounds N` it measures memory over whole games instead: the tables play one
//! game each, with the target out of reach so that none ends or starts anew, and the
//! server's memory per table is read once every table has finished its first round
//! and again once every table has finished N rounds (a game to 2,500 lasts about 15),
//! with the sockets still open; `--duration` then bounds the wait. A short think time
//! gets there in minutes (a seat acts at most every four think times, inside the
//! server's 5 messages a second):
//!
//! ```text
//! cargo run --release -p jass-bot --bin jass-loadgen -- \
//!     --server http://127.0.0.1:8080 --tables 500 --think-ms 100 --rounds 15 --duration 600
//! ```
//!
//! With `--computers N` the host puts a computer in each table's last N seats
//! (`add_computer` before `start`) and only the other seats get sockets; the latency
//! figures are then the human seats' alone, and the report adds the server's computer
//! decisions from `/api/stats` (count, wall and CPU time per decision, how many were
//! cut down by load).
//!
//! With `--computers 3` the host seat also times each computer move as a player sees
//! it: from the state that gives a computer the turn to the state that shows its move
//! (the think pause included: start the server with `--computer-think-ms 1` to see the
//! delay alone). `--computer-level` picks their level and `--bind 127.0.0.N` makes the
//! tables and sockets come from another loopback address, so several load generators
//! stand for several client addresses:
//!
//! ```text
//! for n in 2 3 4 5 6 7; do target/release/jass-loadgen --bind 127.0.0.$n --tables 30 \
//!     --computers 3 --computer-level strong --think-ms 200 --duration 60 & done
//! target/release/jass-loadgen --bind 127.0.0.8 --tables 1 --computers 3 \
//!     --computer-level strong --think-ms 200 --duration 60
//! ```
//!
//! Bounded on purpose: loopback servers only, at most 5,000 tables and 600 s of play;
//! it stops by itself and closes every socket.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use jass_bot::BotError;
use jass_bot::http::Server;

mod args;
mod play;
mod probe;
mod procfs;
mod report;
mod rounds;
mod setup;

use args::{Args, MAX_DURATION_S, MAX_ROUNDS, MAX_TABLES};
use procfs::{find_server_pid, rss_kib};
use report::Ran;
use setup::{Ramp, Tables};

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-loadgen: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(e) => {
            eprintln!("jass-loadgen: {e}");
            ExitCode::FAILURE
        }
    }
}
fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.trim_matches(['[', ']']).parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}
async fn run(args: Args) -> Result<bool, BotError> {
    let stats_server = Server::parse(&args.server)?;
    let server = Server { bind: args.bind, ..stats_server.clone() };
    if args.bind.is_some_and(|ip| !ip.is_loopback()) {
        return Err(BotError::Usage("--bind takes a loopback address".into()));
    }
    if !is_loopback(&server.host) {
        return Err(BotError::Usage(
            "the load bench only targets a server on this machine (loopback)".into(),
        ));
    }
    if args.tables == 0
        || args.tables > MAX_TABLES
        || args.duration > MAX_DURATION_S
        || args.rounds.is_some_and(|n| !(1..=MAX_ROUNDS).contains(&n))
        || args.computers > 3
    {
        return Err(BotError::Usage(format!(
            "--tables 1..={MAX_TABLES}, --duration 0..={MAX_DURATION_S} seconds, --rounds 1..={MAX_ROUNDS}, \
             --computers 0..=3"
        )));
    }
    let humans = 4 - args.computers;
    let sockets = args.tables * humans;
    // A socket per human seat plus HTTP calls and slack: raise the soft limit to the hard one.
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(0);
    if limit < sockets as u64 + 256 {
        eprintln!("warning: open-file limit {limit} is below the {sockets} sockets needed");
    }
    let pid = args.server_pid.or_else(find_server_pid);
    if pid.is_none() {
        eprintln!("note: server pid unknown (pass --server-pid); memory is not reported");
    }
    let rss_before = pid.and_then(rss_kib);

    // 1. Tables over HTTP, a few at a time.
    let Tables { tables, setup_errors, setup } = setup::create_tables(&args, &server, humans).await?;

    // 2. The ramp: every socket connected and welcomed.
    let Ramp { conns, connect_errors, ramp } =
        setup::connect(&args, &server, &tables, humans, sockets).await?;
    // Let the presence states settle before reading the server's memory.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_connected = pid.and_then(rss_kib);

    // 3. Play for the duration.
    let (mut set, played) = play::play(&args, &server, &stats_server, &tables, conns, humans, pid).await;
    let seats = play::collect(&mut set).await;
    let ran = Ran { sockets, humans, setup, setup_errors, ramp, connect_errors, rss_before, rss_connected };
    report::report(&args, &stats_server, &tables, &ran, played, seats).await
}
