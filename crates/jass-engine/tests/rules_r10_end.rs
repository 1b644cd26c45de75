//! R10 End of the game: bedanken (right and wrong claims, the same-trick race decided by
//! the counting order, seed 000's 2434/2422 example), `counting_order`, `automatic`,
//! `fixed_rounds` and `schneider`.

mod common;

use common::*;
use jass_engine::{
    Action, Contract, CountingOrder, End, EndReason, Event, Game, GameResult, Options, Phase, Preset,
    RuleError, Seat, Team,
};
use rand::Rng;

/// Says bedanke for `s` on a copy of `g` and returns the result.
fn bedanke(g: &Game, s: u8) -> GameResult {
    let mut g = g.clone();
    let events = act(&mut g, seat(s), Action::Bedanke);
    let res = *g.result().expect("the game is over");
    let right = res.winner == Some(seat(s).team());
    assert_eq!(res.reason, EndReason::Bedanke { seat: seat(s), right });
    assert_eq!(events, vec![Event::Bedanke { seat: seat(s), right }, Event::GameOver(res)]);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(res.totals, g.totals(), "recounted with everything credited so far");
    res
}

/// The seed 002 hands of R5 (Anna = 0 leads HA, Dan = 3 takes trick 1 with S9: 29 x 2).
fn seed_002_game(options: Options, totals: [u32; 2]) -> Game {
    let h = hands([
        "HA HQ HJ SK SQ ST S6 DK DA",
        "S8 H6 H7 H8 C6 C7 C8 C9 CT",
        "S7 HK D6 D7 D8 D9 DT DJ DQ",
        "S9 SJ SA H9 HT CJ CQ CK CA",
    ]);
    let mut g = game_with(options, 3, 0, h, totals);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    play_cards(&mut g, &[(0, "HA"), (1, "S8"), (2, "HK"), (3, "S9")]);
    g
}

/// R10: a team that has reached the target says bedanke mid-round and wins at once;
/// the round so far is scored (incomplete) and nothing more can be done.
#[test]
fn r10_right_claim_mid_round_wins() {
    let g = seed_002_game(Options::default(), [100, 2450]);
    assert_eq!(g.totals(), [100, 2508]);
    for s in [1, 3] {
        let res = bedanke(&g, s);
        assert_eq!(res.winner, Some(Team::One));
        assert_eq!(res.totals, [100, 2508]);
        assert!(!res.schneider, "schneider is off by default");
    }
    let mut g = g;
    act(&mut g, seat(3), Action::Bedanke);
    let last = g.history().last().unwrap();
    assert!(!last.complete);
    assert_eq!((last.card_points.0, last.total.0, last.running_total.0), ([0, 29], [0, 58], [100, 2508]));
    assert_eq!(refused(&mut g, seat(3), Action::play(card("SJ"))), RuleError::GameOver);
    assert_eq!(refused(&mut g, seat(0), Action::Bedanke), RuleError::GameOver);
    assert_eq!(g.to_act(), None);
}

/// R10: a claim by a team that has not reached the target loses, even if the other
/// team has not reached it either; any seat may claim at any time, also out of turn.
#[test]
fn r10_wrong_claim_loses() {
    let g = seed_002_game(Options::default(), [100, 2000]);
    for s in 0..4u8 {
        let res = bedanke(&g, s);
        assert_eq!(res.winner, Some(seat(s).team().other()), "seat {s} claims too early");
    }
    // Before any card of the game, too.
    let fresh = Game::new(Options::default(), seed_n(1)).unwrap();
    assert_eq!(bedanke(&fresh, 2).winner, Some(Team::One));
    // One point short is short.
    let g = seed_002_game(Options::default(), [0, 2500 - 59]);
    assert_eq!(g.totals()[Team::One], 2499);
    assert_eq!(bedanke(&g, 1).winner, Some(Team::Zero));
}

/// Seed 000's example: one team at 2434 holding Stöck, the other at 2422 holding a 50
/// Weis, target 2500. The seed's numbers need both extras to cross the target in the
/// same trick, so the trump's multiplier is set to 4 (every multiplier is a table
/// option, R8): the Stöck (80) lifts 2434 to 2514 and the Weis (200) lifts 2422 to
/// 2622, both in trick 1 (the Stöck is announced before the first card).
fn seed_000_race(order: CountingOrder) -> Game {
    let mut options = Options { counting_order: order, ..Options::default() };
    options.multipliers.spades = 4;
    let mut g = game_with(options, 3, 0, fill(["SK SQ", "H6 H7 H8 H9", "", ""]), [2434, 2422]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    // Before the Stöck, nobody has reached the target.
    assert_eq!(bedanke(&g, 0).winner, Some(Team::One));
    act(&mut g, seat(0), Action::Stoeck);
    assert_eq!(g.totals(), [2514, 2422]);
    play_first_legal(&mut g);
    let c = g.legal_cards(seat(1)).first().unwrap();
    act(&mut g, seat(1), Action::Play { card: c, weis: vec![cards("H6 H7 H8 H9")], stoeck: false });
    play_first_legal(&mut g);
    play_first_legal(&mut g);
    assert_eq!(g.weis_result(), Some((Some(Team::One), 50)));
    assert!(g.totals()[Team::Zero] >= 2514 && g.totals()[Team::One] >= 2622);
    g
}

/// R10 (seed 000): both teams reached the target in the same trick; the counting order
/// (default Stöck, Weis, Stich) decides: the Stöck team reached it first, so its claim
/// is right and the Weis team's claim is wrong, whoever says it.
#[test]
fn r10_seed_000_stoeck_team_wins_the_race() {
    let g = seed_000_race(CountingOrder::StoeckWeisStich);
    for s in 0..4 {
        assert_eq!(bedanke(&g, s).winner, Some(Team::Zero), "seat {s} claims");
    }
    // Stöck also counts before the Weis in stoeck_stich_weis.
    let g = seed_000_race(CountingOrder::StoeckStichWeis);
    for s in 0..4 {
        assert_eq!(bedanke(&g, s).winner, Some(Team::Zero), "seat {s} claims");
    }
}

/// R10 `counting_order = weis_stoeck_stich` (seed 003): the same race goes to the Weis team.
#[test]
fn r10_weis_first_counting_order_reverses_the_race() {
    let g = seed_000_race(CountingOrder::WeisStoeckStich);
    for s in 0..4 {
        assert_eq!(bedanke(&g, s).winner, Some(Team::One), "seat {s} claims");
    }
}

/// R10 `counting_order`: Stich against Weis. Team 0 crosses with the card points of
/// trick 1 (SJ, 20 x 2), team 1 with a 50 Weis (x 2): Weis counts first by default and
/// in weis_stoeck_stich, the Stich first in stoeck_stich_weis.
#[test]
fn r10_counting_order_stich_against_weis() {
    for (order, first) in [
        (CountingOrder::StoeckWeisStich, Team::One),
        (CountingOrder::WeisStoeckStich, Team::One),
        (CountingOrder::StoeckStichWeis, Team::Zero),
    ] {
        let options = Options { counting_order: order, ..Options::default() };
        let h = fill(["SJ S6 S7 S8 S9 ST SQ SK SA", "H6 H7 H8 H9", "", ""]);
        let mut g = game_with(options, 3, 0, h, [2460, 2400]);
        act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
        play(&mut g, 0, "SJ");
        let c = g.legal_cards(seat(1)).first().unwrap();
        act(&mut g, seat(1), Action::Play { card: c, weis: vec![cards("H6 H7 H8 H9")], stoeck: false });
        play_first_legal(&mut g);
        play_first_legal(&mut g);
        assert!(g.totals()[Team::Zero] >= 2500 && g.totals()[Team::One] >= 2500);
        for s in 0..4 {
            assert_eq!(bedanke(&g, s).winner, Some(first), "{order:?}, seat {s} claims");
        }
        // Same trick, different slots.
        let (a, b) = (g.crossing(Team::Zero).unwrap(), g.crossing(Team::One).unwrap());
        assert_eq!((a.round, a.trick, b.round, b.trick), (0, 0, 0, 0));
    }
}

/// R10: if the other team reached the target in an earlier trick and did not say it,
/// the team that says it (having reached it too) wins.
#[test]
fn r10_earlier_crossing_unclaimed_loses_to_the_claimant() {
    // Both teams one point short; team 1 crosses with trick 1 (29 points).
    let mut g = seed_002_game(Options::default(), [2499, 2499]);
    assert_eq!(g.crossing(Team::One).map(|p| p.trick), Some(0));
    assert_eq!(g.crossing(Team::Zero), None);
    assert_eq!(bedanke(&g, 0).winner, Some(Team::One), "team 0 has not reached it yet");
    // Play on until team 0 takes a trick with points.
    while g.crossing(Team::Zero).is_none() {
        play_first_legal(&mut g);
        assert_eq!(g.round_number(), 0);
    }
    let later = g.crossing(Team::Zero).unwrap();
    assert!(later.trick > 0);
    for s in [0, 2] {
        assert_eq!(bedanke(&g, s).winner, Some(Team::Zero), "team 0 says it first");
    }
    for s in [1, 3] {
        assert_eq!(bedanke(&g, s).winner, Some(Team::One), "team 1 may still say it");
    }
}

/// R10: a bedanke between rounds is kept after the finished round's last action, and
/// the record replays to the same game.
#[test]
fn r10_bedanke_between_rounds() {
    // Target 75: of the 157 points of a round at x1 the better team has at least 79.
    let options = Options { target: 75, ..Options::preset(Preset::To1000) };
    let mut g = Game::new(options, seed_n(5)).unwrap();
    let f = g.forehand();
    act(&mut g, f, Action::Choose { contract: Contract::Obenabe });
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    let leader = if s.total[Team::Zero] > s.total[Team::One] { Team::Zero } else { Team::One };
    assert!(s.total[leader] >= 75, "{s:?}");
    assert_eq!(g.round_number(), 1);
    let events = act(&mut g, seat(leader.index() as u8), Action::Bedanke);
    assert!(matches!(events[0], Event::Bedanke { right: true, .. }));
    assert_eq!(g.result().unwrap().winner, Some(Seat::ALL[leader.index()].team()));
    assert_eq!(g.history().len(), 1, "the round not begun is not shown");
    let rec = g.record();
    assert_eq!(rec.rounds.len(), 2);
    assert_eq!(rec.rounds[0].actions.len(), 38);
    assert_eq!(rec.rounds[0].actions.last().unwrap().action, Action::Bedanke);
    assert!(rec.rounds[1].actions.is_empty());
    assert_eq!(rec.replay().unwrap(), g);
}

/// R10 `end = automatic` (seed 003): no bedanke; the round that crosses the target is
/// completed and the team that crossed first wins, even if the other ends higher.
#[test]
fn r10_automatic_end() {
    let options = Options { end: End::Automatic, target: 1000, ..Options::default() };
    // Team 1 crosses in trick 1; team 0 starts higher and stays higher.
    let mut g = seed_002_game(options, [999, 1000 - 58]);
    assert_eq!(g.crossing(Team::One).map(|p| p.trick), Some(0));
    assert!(!g.can_bedanke());
    assert_eq!(refused(&mut g, seat(1), Action::Bedanke), RuleError::BedankeNotAllowed);
    assert_eq!(g.phase(), Phase::Playing, "the round goes on");
    let events = finish_round(&mut g);
    let s = summaries(&events).pop().unwrap();
    assert!(s.complete);
    let res = *g.result().expect("game over after the crossing round");
    assert_eq!(events.last(), Some(&Event::GameOver(res)));
    assert_eq!(res.reason, EndReason::Automatic);
    assert_eq!(res.winner, Some(Team::One));
    assert!(res.totals[Team::Zero] > res.totals[Team::One], "team 0 ends higher but crossed later: {res:?}");
    let expect = [999 + s.total[Team::Zero], 942 + s.total[Team::One]];
    assert_eq!((res.totals.0, g.totals().0, s.running_total.0), (expect, expect, expect));
    assert_eq!(g.view(jass_engine::Viewer::Spectator).totals, expect);
    assert_eq!(g.record().rounds.len(), 1, "no next round is dealt");

    // Without a crossing the game goes on.
    let mut g = seed_002_game(options, [0, 0]);
    finish_round(&mut g);
    assert_eq!((g.phase(), g.round_number()), (Phase::Choosing, 1));
}

/// R10 `fixed_rounds = N`: N rounds with multipliers, then the higher total wins; no
/// Weis, Stöck, match bonus, target or bedanke.
#[test]
fn r10_fixed_rounds() {
    // The target does not end the game, even with end = automatic.
    let options = Options { fixed_rounds: Some(3), target: 1, end: End::Automatic, ..Options::default() };
    let mut g = Game::new(options, seed_n(2)).unwrap();
    for r in 0..3 {
        assert_eq!(g.round_number(), r);
        let f = g.forehand();
        act(&mut g, f, Action::Choose { contract: Contract::Clubs });
        assert!(g.declarable_weis(f).is_empty());
        finish_round(&mut g);
    }
    let res = *g.result().unwrap();
    assert_eq!(res.reason, EndReason::FixedRounds);
    assert_eq!(g.history().len(), 3);
    assert!(g.history().iter().all(|s| s.total[Team::Zero] + s.total[Team::One] == 157 * 2));
    // The final totals are the sum of the rounds, in the result, the game and every view.
    let sum = g.history().iter().fold([0, 0], |a, s| [a[0] + s.total[Team::Zero], a[1] + s.total[Team::One]]);
    assert_eq!(res.totals, sum);
    assert_eq!(g.totals(), sum);
    assert_eq!(g.view(jass_engine::Viewer::Seat(seat(0))).totals, sum);
    assert_eq!(g.history()[2].running_total, sum);
    let expect = if res.totals[Team::Zero] > res.totals[Team::One] { Team::Zero } else { Team::One };
    assert_eq!(res.winner, Some(expect));
    assert!(!res.schneider);

    // Weis, Stöck and bedanke are illegal actions; a match earns no bonus.
    let options = Options { fixed_rounds: Some(1), ..Options::default() };
    let mut g = game_with(options, 3, 0, fill(["SJ S6 S7 S8 S9 ST SQ SK SA", "", "", ""]), [0, 0]);
    assert_eq!(refused(&mut g, seat(1), Action::Bedanke), RuleError::BedankeNotAllowed);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    assert!(!g.can_announce_stoeck(seat(0)));
    assert_eq!(refused(&mut g, seat(0), Action::Stoeck), RuleError::NoExtras);
    let e = refused(
        &mut g,
        seat(0),
        Action::Play { card: card("S6"), weis: vec![cards("S6 S7 S8")], stoeck: false },
    );
    assert_eq!(e, RuleError::NoExtras);
    let e = refused(&mut g, seat(0), Action::Play { card: card("SK"), weis: vec![], stoeck: true });
    assert_eq!(e, RuleError::NoExtras);
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(
        (s.card_points.0, s.match_bonus.0, s.stoeck.0, s.total.0),
        ([157, 0], [0, 0], [0, 0], [314, 0])
    );
    assert_eq!(g.result().unwrap().winner, Some(Team::Zero));
}

/// R10 `fixed_rounds`: equal totals are a draw. (Found by trying seeded random games of
/// two rounds at x1 until both teams have 157.)
#[test]
fn r10_fixed_rounds_draw() {
    let options = Options { fixed_rounds: Some(2), ..Options::preset(Preset::To1000) };
    let found = (0..100_000u64).find_map(|n| {
        let mut g = Game::new(options, seed_n(n)).unwrap();
        let mut r = rng(n);
        while g.phase() != Phase::Over {
            let s = g.to_act()?;
            let a = if g.phase() == Phase::Choosing {
                Action::Choose { contract: Contract::ALL[(r.next_u32() % 6) as usize] }
            } else {
                let legal = g.legal_cards(s);
                Action::play(legal.nth(r.next_u32() % legal.len())?)
            };
            act(&mut g, s, a);
        }
        (g.totals() == [157, 157]).then_some(g)
    });
    let g = found.expect("some game ends 157:157");
    let res = g.result().unwrap();
    assert_eq!((res.winner, res.reason, res.totals.0), (None, EndReason::FixedRounds, [157, 157]));
}

/// R10 `schneider`: a loser strictly below half the target loses double; the result
/// reports it and the totals stay as they are.
#[test]
fn r10_schneider() {
    // Seat 0 holds Stöck in hearts (x1): announced early it lifts 980 to the target 1000.
    let play_to_claim = |schneider: bool, loser: u32, claimant: u8| {
        let options = Options { schneider, target: 1000, ..Options::default() };
        let mut g = game_with(options, 3, 0, fill(["HK HQ", "", "", ""]), [980, loser]);
        act(&mut g, seat(0), Action::Choose { contract: Contract::Hearts });
        act(&mut g, seat(0), Action::Stoeck);
        bedanke(&g, claimant)
    };
    let res = play_to_claim(true, 499, 2);
    assert_eq!((res.winner, res.schneider, res.totals.0), (Some(Team::Zero), true, [1000, 499]));
    assert!(!play_to_claim(true, 500, 2).schneider, "exactly half is not below half");
    assert!(!play_to_claim(false, 0, 2).schneider, "option off");
    // A wrong claim: the claimant's team loses, and below half it loses double.
    let res = play_to_claim(true, 499, 1);
    assert_eq!((res.winner, res.schneider), (Some(Team::Zero), true));

    // Automatic end reports it too.
    let options = Options { end: End::Automatic, schneider: true, target: 1000, ..Options::default() };
    let mut g = seed_002_game(options, [0, 1000 - 58]);
    finish_round(&mut g);
    let res = g.result().unwrap();
    assert_eq!(res.winner, Some(Team::One));
    assert_eq!(res.totals, g.history()[0].running_total);
    assert_eq!(res.schneider, res.totals[Team::Zero] * 2 < 1000);
    assert!(res.schneider, "team 0 stays below 500: {res:?}");
}
