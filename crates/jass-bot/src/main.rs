//! `jass-bot`: plays Schieber at any server that speaks protocol.md, with random legal
//! cards. Create a table and wait for three others, join one, or fill one alone:
//!
//! ```text
//! jass-bot --server http://127.0.0.1:8080 --create --preset to_1000 --name Bot
//! jass-bot --server http://127.0.0.1:8080 --table ID [--seat N]
//! jass-bot --server http://127.0.0.1:8080 --fill --preset to_1000 --options '{"target":300}'
//! ```
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use jass_bot::BotError;
use jass_bot::client::{BotConfig, Connection, NoObserver, Outcome};
use jass_bot::http::Server;
use jass_bot::policy::Policy;
use jass_engine::{Preset, Seat};
use jass_protocol::http::{CreateTable, JoinTable};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Command line; exactly one of `--create`, `--table`, `--fill`.
#[derive(Parser, Debug)]
#[command(version, about = "A Schieber bot that plays random legal cards over the documented protocol")]
struct Args {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// Create a table (you host, seat 0) and start once four are seated.
    #[arg(long, conflicts_with_all = ["table", "fill"])]
    create: bool,
    /// Join this table id.
    #[arg(long)]
    table: Option<String>,
    /// With --table: the seat wanted (default the first free one).
    #[arg(long, requires = "table")]
    seat: Option<u8>,
    /// With --table: reconnect with this seat token instead of joining.
    #[arg(long, requires = "table")]
    token: Option<String>,
    /// Create a table and play all four seats.
    #[arg(long, conflicts_with = "table")]
    fill: bool,
    /// Player name (1–24 characters).
    #[arg(long, default_value = "Bot")]
    name: String,
    /// Rules preset when creating: swisslos, manual, pagat, to_1000.
    #[arg(long, value_parser = parse_preset)]
    preset: Option<Preset>,
    /// Option overrides as a JSON object, e.g. '{"target":300,"end":"automatic"}'.
    #[arg(long)]
    options: Option<String>,
    /// Think time before each action, in milliseconds.
    #[arg(long, default_value_t = 300)]
    think_ms: u64,
    /// Chance of pushing (schiebe) when allowed.
    #[arg(long, default_value_t = 0.3)]
    schiebe: f64,
    /// Claim the win ("bedanke") once the own team reached the target.
    #[arg(long)]
    bedanke: bool,
    /// Vote for a rematch after each game instead of exiting.
    #[arg(long)]
    rematch: bool,
    /// Seed of the bot's own random choices.
    #[arg(long)]
    seed: Option<u64>,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    serde_json::from_value(serde_json::Value::String(s.to_owned()))
        .map_err(|_| "expected swisslos, manual, pagat or to_1000".to_owned())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-bot: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jass-bot: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), BotError> {
    let server = Server::parse(&args.server)?;
    let options = match &args.options {
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| BotError::Usage(format!("--options is not a JSON object: {e}")))?,
        ),
        None => None,
    };
    let config = BotConfig {
        think: Duration::from_millis(args.think_ms),
        policy: Policy { schiebe: args.schiebe, bedanke: args.bedanke, rematch: args.rematch, start: true },
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let create = CreateTable {
        name: args.name.clone(),
        preset: args.preset,
        options,
        timing: None,
        computers: false,
        computer_level: None,
    };
    if args.fill {
        let filled = jass_bot::fill::fill(&server, &create, &config, seed, |j| {
            println!("table {}\nlink {}", j.table, server.link(&j.link));
        })
        .await?;
        for o in &filled.seats {
            report(o);
        }
        return Ok(());
    }
    let (table, token) = if args.create {
        let j = server.create_table(&create).await?;
        println!("table {}\nlink {}\nseat {} token {}", j.table, server.link(&j.link), j.seat, j.token);
        (j.table, j.token)
    } else {
        let table = args.table.ok_or_else(|| BotError::Usage("one of --create, --table, --fill".into()))?;
        match args.token {
            Some(t) => (table, t),
            None => {
                let seat =
                    args.seat.map(|n| Seat::new(n).ok_or_else(|| BotError::Usage("--seat 0..3".into())));
                let j = server
                    .join_table(&table, &JoinTable { name: args.name, seat: seat.transpose()? })
                    .await?;
                println!("table {}\nseat {} token {}", j.table, j.seat, j.token);
                (j.table, j.token)
            }
        }
    };
    let conn = Connection::open(&server, &table, Some(&token)).await?;
    eprintln!("connected to {} as seat {:?}", conn.welcome.server, conn.welcome.seat);
    let mut rng = StdRng::seed_from_u64(seed);
    let outcome = conn.play(&config, &mut rng, &mut NoObserver, std::future::pending()).await?;
    report(&outcome);
    Ok(())
}

/// One JSON line per seat: seat, messages sent, refusals, and the result.
fn report(o: &Outcome) {
    let line = serde_json::json!({
        "seat": o.seat,
        "sent": o.sent,
        "refused": o.refused,
        "stale": o.stale,
        "result": o.result,
    });
    println!("{line}");
}
