//! How long a round's review takes: games between computers (the normal level, fixed
//! seeds), every round reviewed on one thread, the time of each round's review.
//!
//! `cargo run --release -p jass-review --example latency -- [GAMES=20] [FIRST_SEED=1] [--save DIR | --load DIR] [--nodes N] [--threads 1|2] [--exact-only]`
//! prints one line per round (time, the dearest solve's share, the contract) and the
//! median, p95 and max over all rounds; `--save DIR` writes each game's record there, `--load DIR` reviews those instead of
//! playing new games.

use std::time::{Duration, Instant};

use jass_ai::{Computer, Config};
use jass_engine::{Game, Options, Record, Seat, Seed, Viewer};
use jass_review::{Reviewer, Settings};

/// A game between four computers of the normal level with `playouts` each, dealt
/// from `seed`.
fn self_play(seed: u64, playouts: u32) -> Result<Record, String> {
    let options = Options::default();
    let seed_of = |round: u32| {
        let mut s = [0u8; 32];
        s[..8].copy_from_slice(&seed.to_le_bytes());
        s[8..12].copy_from_slice(&round.to_le_bytes());
        Seed(s)
    };
    let mut game = Game::new(options, seed_of(0)).map_err(|e| e.to_string())?;
    let config = Config { playouts, time_budget: None, seed, ..Config::default() };
    let mut computers = Seat::ALL.map(|s| Computer::new(s, options, config));
    let mut actions = 0;
    while game.result().is_none() {
        actions += 1;
        if actions > 5_000 {
            return Err("the game did not end".into());
        }
        let to_act = game.to_act().ok_or("nobody to act")?;
        // The other seats may say Stöck or bedanke first (R7, R10).
        let order = Seat::ALL.into_iter().filter(|&s| s != to_act).chain([to_act]);
        let mut chosen = None;
        for s in order {
            let c = computers.get_mut(s.index()).ok_or("seat")?;
            if let Some(a) = c.decide(&game.view(Viewer::Seat(s))) {
                chosen = Some((s, a));
                break;
            }
        }
        let (seat, action) = chosen.ok_or("no action")?;
        let next = seed_of(game.round_number() + 1);
        game.apply(seat, action, || next).map_err(|e| e.to_string())?;
        for (s, c) in Seat::ALL.into_iter().zip(computers.iter_mut()) {
            c.observe(&game.view(Viewer::Seat(s)));
        }
    }
    Ok(game.to_record())
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut rest: Vec<String> = Vec::new();
    let mut save = None;
    let mut load = None;
    let mut settings = Settings::default();
    while let Some(a) = args.next() {
        if a == "--save" {
            save = args.next();
        } else if a == "--load" {
            load = args.next();
        } else if a == "--nodes" {
            settings.solve_nodes = args.next().and_then(|n| n.parse().ok()).ok_or("--nodes N")?;
        } else if a == "--threads" {
            settings.threads = args.next().and_then(|n| n.parse().ok()).ok_or("--threads N")?;
        } else if a == "--exact-only" {
            // The "could see" half at almost no cost: what is left is the exact half.
            settings.seen = Config { playouts: 6, solve_deals: 1, solve_at_most: 0, ..settings.seen };
        } else {
            rest.push(a);
        }
    }
    let games: u64 = rest.first().and_then(|a| a.parse().ok()).unwrap_or(20);
    let first: u64 = rest.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut reviewer = Reviewer::new(settings);
    let mut times: Vec<Duration> = Vec::new();
    // Cards played whose loss (all hands known) is exact, and rounds whose best play is.
    let (mut cards, mut exact_cards, mut exact_rounds) = (0u32, 0u32, 0u32);
    for g in first..first + games {
        let record = match &load {
            Some(dir) => {
                let text =
                    std::fs::read_to_string(format!("{dir}/game-{g}.json")).map_err(|e| e.to_string())?;
                serde_json::from_str(&text).map_err(|e| e.to_string())?
            }
            None => self_play(g, 400)?,
        };
        if let Some(dir) = &save {
            let json = serde_json::to_string(&record).map_err(|e| e.to_string())?;
            std::fs::write(format!("{dir}/game-{g}.json"), json).map_err(|e| e.to_string())?;
        }
        for n in 0..u32::try_from(record.rounds.len()).unwrap_or(0) {
            let start = Instant::now();
            match reviewer.round(&record, n) {
                Ok(r) => {
                    let took = start.elapsed();
                    times.push(took);
                    for c in r.tricks.iter().flat_map(|t| &t.cards) {
                        cards += 1;
                        exact_cards += u32::from(c.exact.loss.at_least == c.exact.loss.at_most);
                    }
                    let best = r.teams[r.chosen_by.team()].best_play;
                    exact_rounds += u32::from(best.at_least == best.at_most);
                    let c = reviewer.cost();
                    println!(
                        "game {g} round {n}: {:.0} ms, {:?}; exact {:.0} ms ({} k nodes), could see {:.0} ms",
                        took.as_secs_f64() * 1e3,
                        r.contract,
                        c.exact.as_secs_f64() * 1e3,
                        c.exact_nodes / 1000,
                        c.seen.as_secs_f64() * 1e3
                    );
                }
                Err(e) => println!("game {g} round {n}: {e}"),
            }
        }
    }
    times.sort();
    let q = |p: f64| {
        times.get(((times.len() as f64 - 1.0) * p).round() as usize).map_or(0.0, |d| d.as_secs_f64())
    };
    println!(
        "{} rounds reviewed: median {:.2} s, p95 {:.2} s, max {:.2} s; the loss of {exact_cards} of {cards} cards played exact, best play exact in {exact_rounds} rounds",
        times.len(),
        q(0.5),
        q(0.95),
        q(1.0)
    );
    Ok(())
}
