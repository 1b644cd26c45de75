//! The full-rules run: games to 1000 under the swisslos preset on duplicate deal
//! sequences, each played twice with the teams swapped.

use jass_arena::{
    Estimate, FULL_RULES_TARGET, FullMatch, Kind, PairedGame, full_rules_options, play_full_match, round_seed,
};
use jass_engine::{Game, Preset, Seat, Team};

fn small(a: Kind, b: Kind, games: u32, threads: usize) -> FullMatch {
    FullMatch { a, b, seed: 5, games, threads, contract_playouts: 30 }
}

/// One play's result: A's team, rounds, totals, winner.
type Play = (Team, u32, [u32; 2], Option<Team>);

/// What a result is, without the (unreproducible) thinking times.
fn figures(rs: &[PairedGame]) -> Vec<(u32, [Play; 2])> {
    rs.iter().map(|r| (r.game, r.plays.clone().map(|p| (p.a_team, p.rounds, p.totals, p.winner)))).collect()
}

/// The options are the swisslos preset's with the target at 1000 (R11).
#[test]
fn full_rules_are_swisslos_to_1000() {
    let o = full_rules_options();
    assert_eq!(o, jass_engine::Options { target: 1000, ..jass_engine::Options::preset(Preset::Swisslos) });
    assert!(o.has_extras());
}

/// A tiny fixed run is the same with one thread or two, and another master seed plays
/// other games.
#[test]
fn full_rules_run_is_deterministic_and_independent_of_threads() {
    let m = small(Kind::Rules, Kind::Random, 4, 1);
    let one = play_full_match(&m).unwrap();
    let two = play_full_match(&FullMatch { threads: 2, ..m }).unwrap();
    assert_eq!(figures(&one), figures(&two));
    assert_eq!(figures(&one), figures(&play_full_match(&m).unwrap()));
    let other = play_full_match(&FullMatch { seed: 6, ..m }).unwrap();
    assert_ne!(figures(&one), figures(&other));
}

/// The pairing: both plays of a game start from the same deal (round 0 of the game's
/// sequence), with pair A as team 0 and then team 1; every game ends with a winner
/// that has reached the target (bedanke, R10), after rounds with a contract.
#[test]
fn full_rules_pairing_swaps_the_teams_on_the_same_deals() {
    let m = small(
        Kind::Computer { playouts: 30 },
        Kind::Mcts { budget: jass_arena::Budget::Iterations(4) },
        3,
        2,
    );
    for r in play_full_match(&m).unwrap() {
        let dealt = Game::new(full_rules_options(), round_seed(m.seed, r.game, 0)).unwrap();
        let hands = Seat::ALL.map(|s| dealt.hand(s));
        let [first, second] = &r.plays;
        assert_eq!((first.first_hands, second.first_hands), (hands, hands), "game {}", r.game);
        assert_eq!((first.a_team, second.a_team), (Team::ALL[0], Team::ALL[1]));
        for p in &r.plays {
            let w = p.winner.unwrap();
            assert!(p.totals[w.index()] >= FULL_RULES_TARGET, "game {}: {p:?}", r.game);
            assert!(p.rounds >= 2, "game {}: {p:?}", r.game);
        }
        assert!((0.0..=1.0).contains(&r.a_wins()));
    }
}

/// The rule-based player takes more points per round than random card play under
/// full rules too (both with the table computer's contracts, Weis and Stöck).
#[test]
fn rules_beat_random_under_full_rules() {
    let rs = play_full_match(&small(Kind::Rules, Kind::Random, 12, 2)).unwrap();
    let d = Estimate::of(&rs.iter().map(PairedGame::d).collect::<Vec<_>>()).unwrap();
    assert!(d.ci.0 > 0.0, "{d:?}");
    let w = Estimate::of(&rs.iter().map(PairedGame::a_wins).collect::<Vec<_>>()).unwrap();
    assert!(w.mean > 0.5, "{w:?}");
}

/// The command's full-rules line and ladder row.
#[test]
fn command_runs_full_rules() {
    let bin = env!("CARGO_BIN_EXE_jass-arena");
    let out = std::process::Command::new(bin)
        .args([
            "--full-rules",
            "--games",
            "2",
            "--a",
            "rules",
            "--b",
            "random",
            "--contract-playouts",
            "30",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("rules vs random: full rules (swisslos, games to 1000), n 2 games"), "{text}");
    assert!(text.contains("| rules | random | 2 |"), "{text}");
}
