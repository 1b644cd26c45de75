//! `jass-verify RECORD.json`: replays a game record (protocol.md, "Game record") and
//! prints one JSON line per round, then the result. At the first illegal action it
//! exits 1 and names the round, the action's index and the reason.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::process::ExitCode;

use jass_engine::{Event, Record};
use serde_json::json;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), None) = (args.next(), args.next()) else {
        eprintln!("usage: jass-verify RECORD.json");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("jass-verify: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let record: Record = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-verify: {path} is not a game record: {e}");
            return ExitCode::from(2);
        }
    };
    let replay = record.replay_with(|_, events| {
        for e in events {
            if let Event::RoundScored(s) = e {
                println!("{}", round_line(s));
            }
        }
    });
    match replay {
        Ok(game) => {
            // A round cut short by bedanke is scored only in the game's history.
            if let Some(s) = game.history().last().filter(|s| !s.complete) {
                println!("{}", round_line(s));
            }
            match game.result() {
                Some(res) => println!("{}", json!({ "result": res })),
                None => {
                    println!("{}", json!({ "result": null, "totals": game.totals(), "unfinished": true }))
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", json!({ "error": e.to_string() }));
            eprintln!("jass-verify: {e}");
            ExitCode::from(1)
        }
    }
}

fn round_line(s: &jass_engine::RoundSummary) -> serde_json::Value {
    json!({
        "round": s.round,
        "contract": s.contract,
        "multiplier": s.multiplier,
        "card_points": s.card_points,
        "weis": s.weis,
        "stoeck": s.stoeck,
        "match": s.match_bonus,
        "total": s.total,
        "running_total": s.running_total,
        "complete": s.complete,
    })
}
