//! The arena's measuring stick (docs/bots.md, "How strength is measured"): duplicate
//! pairing, the 157 card points, the statistics, reproducibility across thread counts
//! and a null match of random against random.

use jass_arena::{
    DealResult, Kind, Match, ROUND_POINTS, Summary, card_points_options, deal_seed, play_deal, play_match,
};
use jass_engine::{Game, Team, deal};

/// Small budgets: the tests run in a debug build.
fn small(a: Kind, b: Kind, deals: u32, threads: usize) -> Match {
    Match { a, b, seed: 5, deals, threads, contract_playouts: 60, contracts: jass_arena::Contracts::Common }
}

/// Each deal's two runs hold the same hands at the same seats, dealt from the deal's
/// seed by the engine's shuffle (R2, R12), with pair A as team 0 and then team 1, and
/// the common chooser gives both runs the same forehand and contract.
#[test]
fn duplicate_runs_hold_the_same_hands_with_the_teams_swapped() {
    let m = small(Kind::Rules, Kind::Random, 12, 1);
    for i in 0..m.deals {
        let r = play_deal(&m, i).unwrap();
        let [first, second] = &r.runs;
        let dealt = deal(deal_seed(m.seed, i), None).hands;
        assert_eq!(first.hands, dealt, "deal {i}");
        assert_eq!(second.hands, dealt, "deal {i}");
        assert_eq!((first.a_team, second.a_team), (Team::ALL[0], Team::ALL[1]));
        assert_eq!((first.forehand, first.contract), (second.forehand, second.contract), "deal {i}");
        // The game the arena plays deals the same cards.
        let game = Game::new(card_points_options(), deal_seed(m.seed, i)).unwrap();
        assert_eq!(jass_engine::Seat::ALL.map(|s| game.hand(s)), dealt);
    }
}

/// Card points only: every run's two teams share exactly 157 (R4; no match bonus,
/// Weis or Stöck under `fixed_rounds`, R10), so D lies in −157..=157.
#[test]
fn card_points_of_a_run_sum_to_157() {
    let m = small(Kind::Rules, Kind::Random, 30, 2);
    for r in play_match(&m).unwrap() {
        for run in &r.runs {
            assert_eq!(run.card_points[0] + run.card_points[1], ROUND_POINTS, "deal {}", r.deal);
        }
        assert!(r.d().abs() <= 157);
    }
}

/// Mean, SE, interval and share on values worked out by hand: D = −2 0 1 3 8 has mean
/// 2, squared deviations 16 4 1 1 36 = 58, variance 58/4 = 14.5, SE √(14.5/5) = √2.9.
#[test]
fn statistics_of_a_fixed_set() {
    let s = Summary::of(&[-2, 0, 1, 3, 8]).unwrap();
    let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
    assert_eq!(s.n, 5);
    assert!(close(s.mean, 2.0));
    assert!(close(s.sd, 14.5f64.sqrt()));
    assert!(close(s.se, 2.9f64.sqrt()));
    assert!(close(s.ci.0, 2.0 - 1.96 * 2.9f64.sqrt()) && close(s.ci.1, 2.0 + 1.96 * 2.9f64.sqrt()));
    assert!(close(s.share, 0.5 + 2.0 / 314.0));
    assert!(Summary::of(&[]).is_none());
    let one = Summary::of(&[7]).unwrap();
    assert!(close(one.mean, 7.0) && close(one.sd, 0.0) && close(one.se, 0.0));
}

/// What a result is, without the (unreproducible) thinking times.
fn figures(rs: &[DealResult]) -> Vec<(u32, i64, [u32; 2], [u32; 2])> {
    rs.iter().map(|r| (r.deal, r.d(), r.runs[0].card_points, r.runs[1].card_points)).collect()
}

/// The same master seed gives the same deals and the same play with one thread or
/// two: every random choice comes from (master seed, deal, seat).
#[test]
fn same_seed_same_result_with_one_or_two_threads() {
    let m = small(Kind::Computer { playouts: 40 }, Kind::Rules, 8, 1);
    let one = play_match(&m).unwrap();
    let two = play_match(&Match { threads: 2, ..m }).unwrap();
    assert_eq!(figures(&one), figures(&two));
    assert_eq!(one.iter().map(|r| r.deal).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
    let other = play_match(&Match { seed: 6, ..m }).unwrap();
    assert_ne!(figures(&one), figures(&other), "another master seed deals other cards");
}

/// A null match: random against random has no edge, so its 95 % interval holds 0 and
/// the mean is small; a seat or team mix-up in the arena would show here.
#[test]
fn random_against_random_is_even() {
    let ds: Vec<i64> =
        play_match(&small(Kind::Random, Kind::Random, 200, 2)).unwrap().iter().map(DealResult::d).collect();
    let s = Summary::of(&ds).unwrap();
    assert!(s.ci.0 <= 0.0 && 0.0 <= s.ci.1, "{s:?}");
    assert!(s.mean.abs() < 5.0 && s.sd > 5.0, "{s:?}");
}

/// The rule-based player is a real rung above random play.
#[test]
fn rules_beat_random() {
    let ds: Vec<i64> =
        play_match(&small(Kind::Rules, Kind::Random, 100, 2)).unwrap().iter().map(DealResult::d).collect();
    let s = Summary::of(&ds).unwrap();
    assert!(s.ci.0 > 15.0, "{s:?}");
}

/// The command prints its result line and a ladder row, and refuses an unknown player
/// with a clear message.
#[test]
fn command_prints_a_result_line_and_a_ladder_row() {
    let bin = env!("CARGO_BIN_EXE_jass-arena");
    let out = std::process::Command::new(bin)
        .args([
            "--a",
            "rules",
            "--b",
            "random",
            "--deals",
            "6",
            "--contract-playouts",
            "30",
            "--threads",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("rules vs random: n 6 deals"), "{text}");
    assert!(text.contains("| rules | random | 6 |"), "{text}");
    let bad = std::process::Command::new(bin).args(["--a", "seer"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("players: random, rules, computer, strong, mcts, oracle")
    );
}

/// The separate run for contract choice (`--contracts own`): each pair chooses its own
/// contracts, a `computer` pair with its own computer and the other with the table
/// computer seeded for its pair; replaying the choosing phase with those choosers gives
/// the contract each run had, the two runs of a deal can differ, and the result still
/// does not depend on the threads.
#[test]
fn own_contracts_are_chosen_by_each_pair() {
    use jass_ai::{Computer, Config};
    use jass_arena::{Contracts, player_seed};
    use jass_engine::{Phase, Seat, Seed, Viewer};
    let m =
        Match { contracts: Contracts::Own, ..small(Kind::Computer { playouts: 300 }, Kind::Random, 16, 1) };
    let results = play_match(&m).unwrap();
    let mut differ = 0;
    for r in &results {
        for run in &r.runs {
            let mut game = Game::new(card_points_options(), deal_seed(m.seed, r.deal)).unwrap();
            let mut choosers: Vec<Computer> = Seat::ALL
                .iter()
                .map(|&s| {
                    let a = s.team() == run.a_team;
                    let seed = player_seed(m.seed, r.deal, s, if a { 1 } else { 2 });
                    let playouts = if a { 300 } else { m.contract_playouts };
                    Computer::new(
                        s,
                        card_points_options(),
                        Config { playouts, time_budget: None, seed, ..Config::default() },
                    )
                })
                .collect();
            while game.phase() == Phase::Choosing {
                let s = game.to_act().unwrap();
                let action = choosers[s.index()].decide(&game.view(Viewer::Seat(s))).unwrap();
                game.apply(s, action, || Seed([0; 32])).unwrap();
            }
            assert_eq!(game.contract(), Some(run.contract), "deal {}", r.deal);
        }
        differ += usize::from(r.runs[0].contract != r.runs[1].contract);
    }
    assert!(differ > 0, "own choosers never disagreed over 16 deals");
    let two = play_match(&Match { threads: 2, ..m }).unwrap();
    assert_eq!(figures(&results), figures(&two));
}
