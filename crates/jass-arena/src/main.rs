//! The `jass-arena` command: one duplicate match, its result line and a ladder row.
//! Usage is in the library's documentation.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use jass_arena::{
    Budget, Contracts, Estimate, FullMatch, Kind, MCTS_DEFAULT_ITERATIONS, Match, STRONG_SOLVE_KNODES,
    SeedList, Strong, Summary, Think, play_full_match, play_match,
};
use jass_engine::Contract;

/// A duplicate match between two card players, card points only (157 a round).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// Pair A: random, rules, challenge (pyschieber's rule-based bot), computer,
    /// strong, mcts or oracle (all-seeing); a
    /// player's own budget after a colon overrides the flags below for it alone, e.g.
    /// `strong:playouts=10000,solve=24,deals=32` or `mcts:iterations=5000` (keys:
    /// playouts, solve, deals, knodes (solver nodes a decision in thousands), infer (1:
    /// deals weighed by the contract choice), informed (1: deals played out by a sensible
    /// policy), play (K: deals weighed by the opponents' cards, K/256 a miss; 0: off),
    /// open (1: in those playouts a seat sees the later hands), choose (1: contracts by the
    /// round review's value of each choice), iterations, ms; `strong:ms=100` gives the strong
    /// player the table's wall-time budget per decision, which does not reproduce).
    #[arg(long, default_value = "computer")]
    a: String,
    /// Pair B, as pair A.
    #[arg(long, default_value = "random")]
    b: String,
    /// The second run: whole games to 1000 under the swisslos preset (Weis, Stöck,
    /// match bonus, multipliers, bedanken), each player making its own decisions.
    #[arg(long)]
    full_rules: bool,
    /// Games of `--full-rules` (each played twice, teams swapped).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Number of deals (each played twice, teams swapped).
    #[arg(long, default_value_t = 1000)]
    deals: u32,
    /// The published seed list: `tuning` (master seeds 1..=999, default 17) for
    /// pilots and tuning, `claim` (1000000..=1000999, default 1000000) for claims.
    #[arg(long)]
    seeds: Option<jass_arena::SeedList>,
    /// Master seed; without `--seeds` any, with it one of that list.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (the figures do not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Playouts per decision of a `computer` player.
    #[arg(long, default_value_t = 2000)]
    playouts: u32,
    /// Who chooses the contracts: `common` (one chooser for both pairs: card play
    /// alone, the headline) or `own` (each pair its own: contract choice and card play).
    #[arg(long, default_value = "common")]
    contracts: String,
    /// Playouts per decision of the common contract chooser.
    #[arg(long, default_value_t = 2000)]
    contract_playouts: u32,
    /// Playouts per decision of a `strong` player before it solves (the strong
    /// level's: ten times the computer's default).
    #[arg(long, default_value_t = jass_ai::Config::for_level(jass_ai::Level::Strong).playouts)]
    strong_playouts: u32,
    /// A `strong` player solves each sampled deal exactly from this many cards left
    /// in the hands on.
    #[arg(long, default_value_t = jass_arena::STRONG_SOLVE_AT_MOST)]
    solve_at_most: u32,
    /// Deals a `strong` player solves per decision, at most.
    #[arg(long, default_value_t = jass_ai::Config::STRONG_SOLVE_DEALS)]
    solve_deals: u32,
    /// Solver nodes per decision of a `strong` player in thousands, at most (0: no
    /// cap): a work budget that reproduces.
    #[arg(long, default_value_t = STRONG_SOLVE_KNODES)]
    solve_knodes: u32,
    /// UCT iterations per determinization of an `mcts` player (15 × tricks left
    /// determinizations per card); reproducible.
    #[arg(long, default_value_t = MCTS_DEFAULT_ITERATIONS)]
    mcts_iterations: u32,
    /// The all-seeing `oracle` solves the true deal exactly from this many cards left
    /// (all four hands) on; before, random playouts of the true deal. Only 36 makes
    /// it the ceiling (perfect play seeing every card), at seconds to minutes a deal.
    #[arg(long, default_value_t = jass_arena::ORACLE_SOLVE_AT_MOST)]
    oracle_solve_at_most: u32,
    /// Random playouts of the true deal per decision of an `oracle` before it solves.
    #[arg(long, default_value_t = jass_arena::ORACLE_PLAYOUTS)]
    oracle_playouts: u32,
    /// Wall time per card of an `mcts` player in ms, shared by its determinizations;
    /// replaces `--mcts-iterations` when given (not reproducible).
    #[arg(long)]
    mcts_ms: Option<u32>,
}

fn with_budget(kind: Kind, cli: &Cli) -> Kind {
    match kind {
        Kind::Computer { .. } => Kind::Computer { playouts: cli.playouts },
        Kind::Strong(s) => Kind::Strong(Strong {
            playouts: cli.strong_playouts,
            solve_at_most: cli.solve_at_most,
            solve_deals: cli.solve_deals,
            solve_knodes: cli.solve_knodes,
            ..s
        }),
        Kind::Mcts { .. } => {
            Kind::Mcts { budget: cli.mcts_ms.map_or(Budget::Iterations(cli.mcts_iterations), Budget::Millis) }
        }
        Kind::Oracle { .. } => {
            Kind::Oracle { solve_at_most: cli.oracle_solve_at_most, playouts: cli.oracle_playouts }
        }
        other => other,
    }
}

/// A player from the command line: its kind with the flags' budget, then its own
/// `key=value` overrides.
fn player(spec: &str, cli: &Cli) -> Result<Kind, String> {
    let (name, own) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kind = with_budget(name.parse()?, cli);
    for item in own.split(',').filter(|i| !i.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| format!("{item:?}: key=value expected"))?;
        let v: u32 = value.parse().map_err(|_| format!("{item:?}: a whole number expected"))?;
        kind = match (kind, key) {
            (Kind::Computer { .. }, "playouts") => Kind::Computer { playouts: v },
            (Kind::Strong(mut s), key)
                if matches!(
                    key,
                    "playouts"
                        | "solve"
                        | "deals"
                        | "knodes"
                        | "ms"
                        | "infer"
                        | "informed"
                        | "play"
                        | "open"
                        | "choose"
                ) =>
            {
                match key {
                    "playouts" => s.playouts = v,
                    "solve" => s.solve_at_most = v,
                    "deals" => s.solve_deals = v,
                    "knodes" => s.solve_knodes = v,
                    "ms" => s.budget_ms = v,
                    "informed" => s.informed = v != 0,
                    "play" => s.play = v,
                    "open" => s.open = v != 0,
                    "choose" => s.choose = v != 0,
                    _ => s.infer = v != 0,
                }
                Kind::Strong(s)
            }
            (Kind::Mcts { .. }, "iterations") => Kind::Mcts { budget: Budget::Iterations(v) },
            (Kind::Mcts { .. }, "ms") => Kind::Mcts { budget: Budget::Millis(v) },
            (Kind::Oracle { playouts, .. }, "solve") => Kind::Oracle { solve_at_most: v, playouts },
            (Kind::Oracle { solve_at_most, .. }, "playouts") => Kind::Oracle { solve_at_most, playouts: v },
            (k, _) => return Err(format!("{key:?} is not a setting of {k}")),
        };
    }
    Ok(kind)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (a, b) = match (player(&cli.a, &cli), player(&cli.b, &cli)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("jass-arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (seed, list) = match jass_arena::choose_seed(cli.seeds, cli.seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("jass-arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let contracts = match cli.contracts.as_str() {
        "common" => Contracts::Common,
        "own" => Contracts::Own,
        other => {
            eprintln!("jass-arena: unknown --contracts {other:?}; common or own");
            return ExitCode::FAILURE;
        }
    };
    let m = Match {
        a,
        b,
        seed,
        deals: cli.deals,
        threads: cli.threads,
        contract_playouts: cli.contract_playouts,
        contracts,
    };
    if cli.full_rules {
        return full_rules(&m, cli.games, list);
    }
    let start = Instant::now();
    let results = match play_match(&m) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let wall = start.elapsed();
    let ds: Vec<i64> = results.iter().map(jass_arena::DealResult::d).collect();
    let Some(s) = Summary::of(&ds) else {
        eprintln!("jass-arena: no deals played");
        return ExitCode::FAILURE;
    };
    // Wall time per card of each pair (all threads' time added up).
    let think = |side: usize| {
        results
            .iter()
            .flat_map(|r| r.runs.iter())
            .filter_map(|run| run.think.get(side).copied())
            .fold(Think::default(), Think::merge)
    };
    let per_card = |side: usize| think(side).ms_per_card();
    println!(
        "{} vs {}: n {} deals (x2, teams swapped), seed {} ({} list), mean D {:+.2} card points per 157-point round, SE {:.2}, 95 % CI {:+.2} .. {:+.2}, sd(D) {:.1}, A's share {:.1} %",
        m.a,
        m.b,
        s.n,
        m.seed,
        list,
        s.mean,
        s.se,
        s.ci.0,
        s.ci.1,
        s.sd,
        100.0 * s.share
    );
    println!();
    println!("| A | B | deals | mean D | 95 % CI | share A | sd(D) | ms/card A | ms/card B |");
    println!("|---|---|---:|---:|---|---:|---:|---:|---:|");
    println!(
        "| {} | {} | {} | {:+.1} | {:+.1} .. {:+.1} | {:.1} % | {:.1} | {:.3} | {:.3} |",
        m.a,
        m.b,
        s.n,
        s.mean,
        s.ci.0,
        s.ci.1,
        100.0 * s.share,
        s.sd,
        per_card(0),
        per_card(1)
    );
    println!();
    println!(
        "card points only (no Weis, Stöck, match bonus; multipliers 1); {}; {} threads, wall {:.1} s",
        if m.contracts == Contracts::Own {
            format!(
                "each pair chooses its own contracts (computer/strong their own, the others the computer at {} playouts)",
                m.contract_playouts
            )
        } else {
            format!("contract by a common chooser (computer, {} playouts)", m.contract_playouts)
        },
        m.threads,
        wall.as_secs_f64()
    );
    println!("A's cards: {}; B's: {}", think(0).summary(), think(1).summary());
    // The contract mix: the chooser is common, but which contracts it picks decides how
    // much card play can matter (no-trump contracts punish random play most).
    let mut mix = [0u32; 6];
    for run in results.iter().flat_map(|r| r.runs.iter()) {
        if let Some(n) = mix.get_mut(run.contract.index()) {
            *n += 1;
        }
    }
    let mix: Vec<String> = Contract::ALL
        .iter()
        .zip(mix)
        .map(|(k, n)| format!("{k} {:.1} %", 100.0 * f64::from(n) / (2 * results.len()).max(1) as f64))
        .collect();
    println!("contracts: {}", mix.join(", "));
    for k in [m.a, m.b] {
        if let Kind::Oracle { solve_at_most, .. } = k {
            if solve_at_most >= 36 {
                println!("oracle: exact solver on the true deal from the opening lead: the ceiling");
            } else {
                println!(
                    "oracle: exact solver on the true deal only from {solve_at_most} cards left, random playouts of the true deal before: below the ceiling (the ceiling needs --oracle-solve-at-most 36)"
                );
            }
            break;
        }
    }
    ExitCode::SUCCESS
}

/// The full-rules run: points per round and the win rate of games to 1000.
fn full_rules(m: &Match, games: u32, list: SeedList) -> ExitCode {
    let fm = FullMatch {
        a: m.a,
        b: m.b,
        seed: m.seed,
        games,
        threads: m.threads,
        contract_playouts: m.contract_playouts,
    };
    let start = Instant::now();
    let results = match play_full_match(&fm) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    let wall = start.elapsed();
    let ds: Vec<f64> = results.iter().map(jass_arena::PairedGame::d).collect();
    let wins: Vec<f64> = results.iter().map(jass_arena::PairedGame::a_wins).collect();
    let (Some(d), Some(w)) = (Estimate::of(&ds), Estimate::of(&wins)) else {
        eprintln!("jass-arena: no games played");
        return ExitCode::FAILURE;
    };
    let plays = || results.iter().flat_map(|r| r.plays.iter());
    let n_plays = (2 * results.len()).max(1) as f64;
    let a_per_round = plays().map(jass_arena::GamePlay::a_per_round).sum::<f64>() / n_plays;
    let rounds = plays().map(|p| f64::from(p.rounds)).sum::<f64>() / n_plays;
    let think =
        |side: usize| plays().filter_map(|p| p.think.get(side).copied()).fold(Think::default(), Think::merge);
    let per_card = |side: usize| think(side).ms_per_card();
    println!(
        "{} vs {}: full rules (swisslos, games to {}), n {} games (x2, teams swapped), seed {} ({} list), points per round A - B {:+.2}, SE {:.2}, 95 % CI {:+.2} .. {:+.2}, sd {:.1}; A won {:.1} % of the games, 95 % CI {:.1} .. {:.1} %; A {:.1} points per round, {:.2} rounds per game",
        fm.a,
        fm.b,
        jass_arena::FULL_RULES_TARGET,
        d.n,
        fm.seed,
        list,
        d.mean,
        d.se,
        d.ci.0,
        d.ci.1,
        d.sd,
        100.0 * w.mean,
        100.0 * w.ci.0.max(0.0),
        100.0 * w.ci.1.min(1.0),
        a_per_round,
        rounds
    );
    println!();
    println!(
        "| A | B | games | pts/round A − B | 95 % CI | A wins | 95 % CI | rounds/game | ms/card A | ms/card B |"
    );
    println!("|---|---|---:|---:|---|---:|---|---:|---:|---:|");
    println!(
        "| {} | {} | {} | {:+.1} | {:+.1} .. {:+.1} | {:.1} % | {:.1} .. {:.1} % | {:.2} | {:.3} | {:.3} |",
        fm.a,
        fm.b,
        d.n,
        d.mean,
        d.ci.0,
        d.ci.1,
        100.0 * w.mean,
        100.0 * w.ci.0.max(0.0),
        100.0 * w.ci.1.min(1.0),
        rounds,
        per_card(0),
        per_card(1)
    );
    println!();
    println!(
        "full rules: Weis, Stöck, match bonus, multipliers 1 1 2 2 3 3, bedanken; each seat chooses its own contract (players other than computer/strong: the computer's choice at {} playouts, its Weis, Stöck and bedanke); {} threads, wall {:.1} s",
        fm.contract_playouts,
        fm.threads,
        wall.as_secs_f64()
    );
    println!("A's cards: {}; B's: {}", think(0).summary(), think(1).summary());
    ExitCode::SUCCESS
}
