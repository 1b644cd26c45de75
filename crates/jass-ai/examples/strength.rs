//! Strength and cost of the computer player on duplicate deals (docs/bots.md, "How
//! strength is measured").
//!
//! Each deal (a round dealt from a fixed seed) is played twice: once with the
//! computers in seats 0 and 2 against random-legal-card players in seats 1 and 3, once
//! with the teams swapped. Per deal, D = the computers' card points in both runs − 157:
//! card points with the last-trick 5, without Weis, Stöck, the match bonus and
//! multipliers (157 per round, as the published figures). The computers declare Weis
//! and Stöck as usual; they are not counted in D. A second line gives the full score
//! (Weis, Stöck, match bonus, multipliers) as (computers − randoms) per round, the
//! mean of the two runs: the figure the contract choice and pushing are made for.
//!
//! By default the contract is part of what is measured: the computer chooses its own
//! (or pushes), the random player picks a random contract and never pushes. With
//! `--cards-only` both sides choose with the computer's method, so only card play
//! differs (as the published comparison, which used one common trump selector).
//! With `--vs-playouts N` the other pair is computers too, with N playouts: a ladder
//! of budgets (and, by editing a config, of methods) on the same deals.
//!
//! ```text
//! cargo run --release -p jass-ai --example strength -- --deals 1000
//! cargo run --release -p jass-ai --example strength -- --deals 10000 --cards-only
//! cargo run --release -p jass-ai --example strength -- --deals 2000 --playouts 8000 --vs-playouts 2000
//! ```
//!
//! Figures measured when this was written (one core, release build, seed 14,
//! 2,000 playouts a decision, no time budget):
//!
//! | run | card points per round, 95 % CI | time per decision (median / p99) |
//! | --- | --- | --- |
//! | vs random, own contract choice, 10,000 deals | +82.8 (+82.0 .. +83.5) | 0.64 / 2.1 ms |
//! | vs random, cards only, 1,000 deals | +62.5 (+60.6 .. +64.3) | 0.62 / 2.2 ms |
//! | vs random, cards only, 250 playouts | +56.4 (+54.5 .. +58.3) | 0.08 / 0.2 ms |
//! | vs random, cards only, 8,000 playouts | +62.5 (+60.6 .. +64.4) | 2.6 / 6.7 ms (CPU) |
//! | 2,000 vs 250 playouts, 1,000 deals | +7.7 (+5.9 .. +9.5) | |
//! | 8,000 vs 2,000 playouts, 1,000 deals | +1.1 (−0.3 .. +2.4) | |

use std::time::{Duration, Instant};

use jass_ai::{Computer, Config};
use jass_engine::{Action, Contract, Game, Options, Seat, Seed, Viewer};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

struct Args {
    deals: u32,
    playouts: u32,
    seed: u64,
    cards_only: bool,
    time_ms: Option<u64>,
    push_below: f64,
    /// The other pair: computers with this many playouts instead of random players.
    vs_playouts: Option<u32>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        deals: 1_000,
        playouts: Config::default().playouts,
        seed: 14,
        cards_only: false,
        time_ms: None,
        push_below: Config::default().push_below,
        vs_playouts: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut num = || -> Result<u64, String> {
            it.next().and_then(|v| v.parse().ok()).ok_or_else(|| format!("{flag} needs a number"))
        };
        match flag.as_str() {
            "--deals" => a.deals = u32::try_from(num()?).map_err(|e| e.to_string())?,
            "--playouts" => a.playouts = u32::try_from(num()?).map_err(|e| e.to_string())?,
            "--seed" => a.seed = num()?,
            "--time-ms" => a.time_ms = Some(num()?),
            "--cards-only" => a.cards_only = true,
            "--vs-playouts" => a.vs_playouts = Some(u32::try_from(num()?).map_err(|e| e.to_string())?),
            "--push-below" => {
                a.push_below = it.next().and_then(|v| v.parse().ok()).ok_or("--push-below needs a number")?;
            }
            other => {
                return Err(format!(
                    "unknown flag {other}; flags: --deals N --playouts N --seed N --time-ms N --push-below X --cards-only --vs-playouts N"
                ));
            }
        }
    }
    Ok(a)
}

/// A seed for one deal of the list (`master`, `deal`).
fn deal_seed(master: u64, deal: u32) -> Seed {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(master ^ (u64::from(deal) << 20));
    let mut s = [0u8; 32];
    for b in &mut s {
        *b = rng.random();
    }
    Seed(s)
}

/// Plays the first round of the deal with the computers on `computer_team` and returns
/// the card points per team.
fn play(
    args: &Args,
    deal: u32,
    computer_team: usize,
    times: &mut Vec<Duration>,
    cpu: &mut Vec<Duration>,
) -> Option<([u32; 2], [u32; 2])> {
    let options = Options::default();
    let mut game = Game::new(options, deal_seed(args.seed, deal)).ok()?;
    let config = |seat: usize| Config {
        playouts: if seat % 2 == computer_team {
            args.playouts
        } else {
            args.vs_playouts.unwrap_or(args.playouts)
        },
        time_budget: args.time_ms.map(Duration::from_millis),
        seed: args.seed ^ (u64::from(deal) << 8) ^ seat as u64,
        push_below: args.push_below,
        ..Config::default()
    };
    let mut computers: Vec<Computer> =
        Seat::ALL.iter().map(|&s| Computer::new(s, options, config(s.index()))).collect();
    let mut random =
        Xoshiro256PlusPlus::seed_from_u64(args.seed ^ (u64::from(deal) << 32) ^ computer_team as u64);
    while game.round_number() == 0 && game.result().is_none() {
        let seat = game.to_act()?;
        let view = game.view(Viewer::Seat(seat));
        let computer = computers.get_mut(seat.index())?;
        let action = if seat.team().index() == computer_team {
            let (start, start_cpu) = (Instant::now(), cpu_time::ThreadTime::now());
            let a = computer.decide(&view)?;
            cpu.push(start_cpu.elapsed());
            times.push(start.elapsed());
            a
        } else if args.vs_playouts.is_some() {
            computer.decide(&view)?
        } else if view.allowed.choose {
            if args.cards_only {
                computer.decide(&view)?
            } else {
                Action::Choose { contract: Contract::ALL[random.random_range(0..6)] }
            }
        } else {
            let cards = view.allowed.cards;
            Action::play(cards.nth(random.random_range(0..cards.len()))?)
        };
        game.apply(seat, action, || Seed([0; 32])).ok()?;
    }
    game.history().first().map(|r| (r.card_points.into_inner(), r.total.into_inner()))
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut diffs = Vec::with_capacity(args.deals as usize);
    let mut full = Vec::with_capacity(args.deals as usize);
    let start = Instant::now();
    for deal in 0..args.deals {
        let (Some(a), Some(b)) =
            (play(&args, deal, 0, &mut times, &mut cpu), play(&args, deal, 1, &mut times, &mut cpu))
        else {
            eprintln!("deal {deal} failed");
            std::process::exit(1);
        };
        diffs.push(f64::from(a.0[0] + b.0[1]) - 157.0);
        full.push((f64::from(a.1[0] + b.1[1]) - f64::from(a.1[1] + b.1[0])) / 2.0);
    }
    let (mean, sd, se) = stats(&diffs);
    let (full_mean, full_sd, full_se) = stats(&full);
    times.sort();
    cpu.sort();
    let pct = |xs: &[Duration], p: f64| {
        xs.get(((xs.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default()
    };
    let searched: Vec<_> = times.iter().filter(|t| **t > Duration::from_micros(20)).collect();
    println!(
        "deals {} (x2, teams swapped), playouts/decision {}, time budget {:?} ms, against {}, {}",
        args.deals,
        args.playouts,
        args.time_ms,
        args.vs_playouts.map_or("random legal cards".to_owned(), |n| format!("computers with {n} playouts")),
        if args.vs_playouts.is_some() {
            "each pair its own contract choice"
        } else if args.cards_only {
            "common contract choice (cards only)"
        } else {
            "own contract choice vs random contract"
        }
    );
    println!(
        "computer pair - other pair, card points per 157-point round: {mean:+.1} (95 % CI {:+.1} .. {:+.1}; sd(D) {:.1}; share {:.1} %)",
        mean - 1.96 * se,
        mean + 1.96 * se,
        sd,
        100.0 * (0.5 + mean / 314.0)
    );
    println!(
        "full scoring (Weis, Stöck, match bonus, multipliers), mean per round of (computers - others): {full_mean:+.1} (95 % CI {:+.1} .. {:+.1}; sd {full_sd:.1})",
        full_mean - 1.96 * full_se,
        full_mean + 1.96 * full_se,
    );
    println!(
        "time per decision over {} decisions: median {:?}, p99 {:?}, max {:?}; {} searched (not forced)",
        times.len(),
        pct(&times, 0.5),
        pct(&times, 0.99),
        times.last().copied().unwrap_or_default(),
        searched.len()
    );
    println!(
        "thread CPU per decision: median {:?}, p99 {:?}, max {:?}, mean {:?}",
        pct(&cpu, 0.5),
        pct(&cpu, 0.99),
        cpu.last().copied().unwrap_or_default(),
        cpu.iter().sum::<Duration>() / u32::try_from(cpu.len().max(1)).unwrap_or(u32::MAX)
    );
    let cpu = cpu_seconds();
    println!(
        "wall {:?} on one thread; process CPU {}",
        start.elapsed(),
        cpu.map_or("unknown".to_owned(), |c| format!(
            "{c:.1} s, {:.0} µs per computer decision (all work of the run, random side included)",
            c * 1e6 / times.len().max(1) as f64
        ))
    );
}

/// User and system CPU time of this process, from `/proc/self/stat` (Linux; clock
/// ticks of 1/100 s, the kernel's `USER_HZ`).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Mean, standard deviation and standard error of the mean.
fn stats(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt(), (var / n).sqrt())
}
