//! R7 Stöck: the trump K and Q of the dealt hand, worth 20 (times the multiplier);
//! announced with the second card at the latest, or any time earlier after the
//! contract; too late once the next card is down; none in obenabe/undenufe;
//! `auto_stoeck`; it always scores, whatever the Weis comparison.

mod common;

use common::*;
use jass_engine::{Action, Contract, CountPos, Event, Game, Options, RuleError, Team};

/// Seat 0 (forehand) holds all nine spades: under spades (x2) it leads and takes every
/// trick, playing SK in trick 1 and SQ in trick 2 (then the rest).
const ALL_SPADES: &str = "SK SQ S6 S7 S8 S9 ST SJ SA";

fn spades_game(options: Options, totals: [u32; 2]) -> Game {
    let mut g = game_with(options, 3, 0, fill([ALL_SPADES, "", "", ""]), totals);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    g
}

/// Others play their first legal card until seat 0 is to act again.
fn others_play(g: &mut Game) {
    while g.to_act() != Some(seat(0)) {
        play_first_legal(g);
    }
}

fn stoeck_events(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| matches!(e, Event::StoeckAnnounced { .. })).collect()
}

/// R7: announced together with the second of the two cards: 20 x 2 (spades) credited
/// at once, and written in the round summary.
#[test]
fn r7_announced_with_the_second_card() {
    let mut g = spades_game(Options::default(), [0, 0]);
    assert!(g.can_announce_stoeck(seat(0)));
    play(&mut g, 0, "SK");
    others_play(&mut g);
    let before = g.totals()[Team::Zero];
    let events = act(&mut g, seat(0), Action::Play { card: card("SQ"), weis: vec![], stoeck: true });
    assert_eq!(stoeck_events(&events), vec![&Event::StoeckAnnounced { seat: seat(0), auto: false }]);
    assert_eq!(g.totals()[Team::Zero], before + 40);
    assert_eq!(g.stoeck_announced_by(), Some(seat(0)));
    assert_eq!(g.view(jass_engine::Viewer::Seat(seat(1))).stoeck, Some(seat(0)));
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.stoeck, [20, 0]);
    assert_eq!(s.total, [(157 + 100 + 20) * 2, 0]);
}

/// R7: right after the second card (before the next card) is still in time; once the
/// next card is played it is too late, alone or with a later card of the holder.
#[test]
fn r7_right_after_the_second_card_then_too_late() {
    let mut g = spades_game(Options::default(), [0, 0]);
    play(&mut g, 0, "SK");
    others_play(&mut g);
    play(&mut g, 0, "SQ");
    let mut in_time = g.clone();
    let events = act(&mut in_time, seat(0), Action::Stoeck);
    assert_eq!(stoeck_events(&events).len(), 1);
    assert_eq!(in_time.totals()[Team::Zero], g.totals()[Team::Zero] + 40);
    // The next card (by seat 1) ends the chance.
    play_first_legal(&mut g);
    assert!(!g.can_announce_stoeck(seat(0)));
    assert_eq!(refused(&mut g, seat(0), Action::Stoeck), RuleError::StoeckTooLate);
    others_play(&mut g);
    let e = refused(&mut g, seat(0), Action::Play { card: card("SA"), weis: vec![], stoeck: true });
    assert_eq!(e, RuleError::StoeckTooLate);
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.stoeck, [0, 0]);
    assert_eq!(s.total, [(157 + 100) * 2, 0]);
}

/// R7: announcing with the card after the second one is too late as well (the chance
/// ends with that card), even when the holder plays that card itself; on its own,
/// before that card, it is still in time and counts in the second card's trick.
#[test]
fn r7_not_with_the_next_card() {
    // Seat 1 leads; seat 0 trumps hearts with SK (trick 1) and, as the fourth card of
    // trick 3, with SQ, which takes the trick: seat 0 also plays the next card.
    let h = hands([
        "SK SQ SJ S9 SA D6 D7 D8 D9",
        "HA HK HQ HJ HT H9 DQ DK DA",
        "H8 H7 H6 S6 S7 S8 ST DT DJ",
        "C6 C7 C8 C9 CT CJ CQ CK CA",
    ]);
    let mut g = game_with(Options { target: 3000, ..Options::default() }, 0, 1, h, [0, 0]);
    act(&mut g, seat(1), Action::Choose { contract: Contract::Spades });
    play_cards(&mut g, &[(1, "HA"), (2, "H6"), (3, "C6"), (0, "SK")]);
    play_cards(&mut g, &[(0, "D6"), (1, "DA"), (2, "DT"), (3, "C7")]);
    // Team 0's total before trick 3's credits.
    let t = g.totals()[Team::Zero];
    play_cards(&mut g, &[(1, "HK"), (2, "H7"), (3, "C8"), (0, "SQ")]);
    assert_eq!(g.to_act(), Some(seat(0)));
    let e = refused(&mut g, seat(0), Action::Play { card: card("D7"), weis: vec![], stoeck: true });
    assert_eq!(e, RuleError::StoeckTooLate);
    // On its own, right after SQ: in time, and it belongs to trick 3 (before its Stich,
    // R10), so starting 40 + t below the target the Stöck crosses it.
    let mut g = game_with(Options { target: 3000, ..Options::default() }, 0, 1, h, [3000 - 40 - t, 0]);
    act(&mut g, seat(1), Action::Choose { contract: Contract::Spades });
    play_cards(&mut g, &[(1, "HA"), (2, "H6"), (3, "C6"), (0, "SK")]);
    play_cards(&mut g, &[(0, "D6"), (1, "DA"), (2, "DT"), (3, "C7")]);
    play_cards(&mut g, &[(1, "HK"), (2, "H7"), (3, "C8"), (0, "SQ")]);
    act(&mut g, seat(0), Action::Stoeck);
    assert_eq!(g.crossing(Team::Zero), Some(CountPos { round: 0, trick: 2, slot: 0 }));
    play(&mut g, 0, "D7");
    assert_eq!(g.crossing(Team::Zero), Some(CountPos { round: 0, trick: 2, slot: 0 }));
}

/// R7: Stöck may be announced earlier, any time after the contract: before any card it
/// counts in trick 1, before the Weis and the first trick (counting order R10).
#[test]
fn r7_early_before_any_card_counts_in_trick_one() {
    let mut g = spades_game(Options { target: 1000, ..Options::default() }, [960, 0]);
    let events = act(&mut g, seat(0), Action::Stoeck);
    assert_eq!(stoeck_events(&events), vec![&Event::StoeckAnnounced { seat: seat(0), auto: false }]);
    assert_eq!(g.totals(), [1000, 0]);
    assert_eq!(g.crossing(Team::Zero), Some(CountPos { round: 0, trick: 0, slot: 0 }));
    // Later plays of the two cards change nothing; a second announcement is refused.
    play(&mut g, 0, "SK");
    assert_eq!(refused(&mut g, seat(0), Action::Stoeck), RuleError::StoeckAlreadyAnnounced);
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.stoeck, [20, 0]);
}

/// R7: a Stöck announced with (or right after) a card counts in that card's trick;
/// otherwise in the trick being played. Checked through where the team reaches the
/// target (R10): each case starts just far enough below it that the Stöck crosses.
#[test]
fn r7_stoeck_counts_in_the_right_trick() {
    let target = 5000;
    // Each script ends with the announcement; `trick` is where it must count.
    type Script = fn(&mut Game);
    let cases: [(Script, u8); 3] = [
        // With SQ, the first card of trick 2.
        (
            |g| {
                play(g, 0, "SK");
                others_play(g);
                act(g, seat(0), Action::Play { card: card("SQ"), weis: vec![], stoeck: true });
            },
            1,
        ),
        // On its own right after SQ (the lead of trick 2): trick 2 as well.
        (
            |g| {
                play(g, 0, "SK");
                others_play(g);
                play(g, 0, "SQ");
                act(g, seat(0), Action::Stoeck);
            },
            1,
        ),
        // Early, in the middle of trick 3 (after seat 1's card): counts in trick 3.
        (
            |g| {
                play(g, 0, "S6");
                others_play(g);
                play(g, 0, "S7");
                others_play(g);
                play(g, 0, "S8");
                play_first_legal(g);
                act(g, seat(0), Action::Stoeck);
            },
            2,
        ),
    ];
    for (script, trick) in cases {
        let options = Options { target, ..Options::default() };
        // Probe: how far does team 0 get, Stöck excluded?
        let mut probe = spades_game(options, [0, 0]);
        script(&mut probe);
        let without_stoeck = probe.totals()[Team::Zero] - 40;
        // Start 40 + that below the target: only the Stöck can cross it.
        let mut g = spades_game(options, [target - 40 - without_stoeck, 0]);
        script(&mut g);
        assert_eq!(g.totals()[Team::Zero], target);
        assert_eq!(g.crossing(Team::Zero), Some(CountPos { round: 0, trick, slot: 0 }), "trick {trick}");
    }
}

/// R7: only the holder of both cards may announce; K and Q split between partners is
/// no Stöck; nothing before the contract.
#[test]
fn r7_not_held() {
    let mut g = spades_game(Options::default(), [0, 0]);
    for s in 1..4 {
        assert!(!g.can_announce_stoeck(seat(s)));
        assert_eq!(refused(&mut g, seat(s), Action::Stoeck), RuleError::StoeckNotHeld);
    }
    // Split between partners.
    let mut g = game_with(Options::default(), 3, 0, fill(["HK", "", "HQ", ""]), [0, 0]);
    let e = refused(&mut g, seat(0), Action::Stoeck);
    assert!(matches!(e, RuleError::WrongPhase(_)), "before the contract: {e:?}");
    act(&mut g, seat(0), Action::Choose { contract: Contract::Hearts });
    for s in 0..4 {
        assert_eq!(refused(&mut g, seat(s), Action::Stoeck), RuleError::StoeckNotHeld);
    }
    // Not with a card either.
    let e = refused(&mut g, seat(0), Action::Play { card: card("HK"), weis: vec![], stoeck: true });
    assert_eq!(e, RuleError::StoeckNotHeld);
}

/// R7: no Stöck in obenabe or undenufe, even holding K and Q of every suit.
#[test]
fn r7_no_stoeck_without_trump() {
    for k in [Contract::Obenabe, Contract::Undenufe] {
        let mut g =
            game_with(Options::default(), 3, 0, fill(["HK HQ DK DQ CK CQ SK SQ", "", "", ""]), [0, 0]);
        act(&mut g, seat(0), Action::Choose { contract: k });
        assert!(!g.can_announce_stoeck(seat(0)));
        assert_eq!(refused(&mut g, seat(0), Action::Stoeck), RuleError::StoeckNotHeld);
        let e = refused(&mut g, seat(0), Action::Play { card: card("HK"), weis: vec![], stoeck: true });
        assert_eq!(e, RuleError::StoeckNotHeld);
    }
    // The same hand has Stöck under each trump.
    for k in [Contract::Hearts, Contract::Diamonds, Contract::Clubs, Contract::Spades] {
        let mut g =
            game_with(Options::default(), 3, 0, fill(["HK HQ DK DQ CK CQ SK SQ", "", "", ""]), [0, 0]);
        act(&mut g, seat(0), Action::Choose { contract: k });
        assert!(g.can_announce_stoeck(seat(0)), "{k}");
    }
}

/// R7 `auto_stoeck`: the server announces it when the second card is played; without
/// the option an unannounced Stöck does not score.
#[test]
fn r7_auto_stoeck() {
    let mut g = spades_game(Options { auto_stoeck: true, ..Options::default() }, [0, 0]);
    assert!(stoeck_events(&play(&mut g, 0, "SK")).is_empty(), "not with the first card");
    others_play(&mut g);
    let events = play(&mut g, 0, "SQ");
    assert_eq!(stoeck_events(&events), vec![&Event::StoeckAnnounced { seat: seat(0), auto: true }]);
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.stoeck, [20, 0]);

    let mut g = spades_game(Options::default(), [0, 0]);
    play(&mut g, 0, "SK");
    others_play(&mut g);
    assert!(stoeck_events(&play(&mut g, 0, "SQ")).is_empty());
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.stoeck, [0, 0]);
}

/// R7: if the second card ends the round, Stöck goes with it or not at all.
#[test]
fn r7_second_card_as_the_last_card_of_the_round() {
    // Seat 1 leads every trick and takes the first eight; seat 0 plays SK in trick 2 and
    // keeps SQ for the 36th card, which takes the last trick.
    let h = hands([
        "SK SQ S6 H6 H7 H8 D6 D7 D8",
        "SJ S9 HA HK HQ DA DK DQ CA",
        "SA ST H9 HT HJ C6 C7 C8 C9",
        "S8 S7 D9 DT DJ CT CJ CQ CK",
    ]);
    for announce in [true, false] {
        let mut g = game_with(Options::default(), 0, 1, h, [0, 0]);
        act(&mut g, seat(1), Action::Choose { contract: Contract::Spades });
        for t in [
            ["SJ", "SA", "S8", "S6"],
            ["S9", "ST", "S7", "SK"],
            ["HA", "H9", "CT", "H6"],
            ["HK", "HT", "CJ", "H7"],
            ["HQ", "HJ", "CQ", "H8"],
            ["DA", "C6", "D9", "D6"],
            ["DK", "C7", "DT", "D7"],
            ["DQ", "C8", "DJ", "D8"],
        ] {
            play_cards(&mut g, &[(1, t[0]), (2, t[1]), (3, t[2]), (0, t[3])]);
        }
        play_cards(&mut g, &[(1, "CA"), (2, "C9"), (3, "CK")]);
        assert!(g.can_announce_stoeck(seat(0)), "still in time before the last card");
        let events = act(&mut g, seat(0), Action::Play { card: card("SQ"), weis: vec![], stoeck: announce });
        let s = summaries(&events).pop().unwrap();
        assert_eq!(s.card_points, [11 + 4 + 3 + 5, 157 - 23]);
        assert_eq!(s.stoeck, [if announce { 20 } else { 0 }, 0]);
        assert_eq!(s.total[Team::Zero], (23 + s.stoeck[Team::Zero]) * 2);
        // The next round has begun: the old Stöck cannot be announced any more.
        assert_eq!(g.round_number(), 1);
        assert!(!g.can_announce_stoeck(seat(0)));
        assert!(matches!(refused(&mut g, seat(0), Action::Stoeck), RuleError::WrongPhase(_)));
    }
}

/// R7: Stöck always scores, also for the team that lost the Weis comparison.
#[test]
fn r7_stoeck_scores_whatever_the_weis() {
    // Seat 0 holds Stöck; seat 1 declares a 100 that beats seat 0's 20.
    let h = fill(["SK SQ SJ HA HK HQ", "D6 D7 D8 D9 DT", "", ""]);
    let mut g = game_with(Options::default(), 3, 0, h, [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    act(&mut g, seat(0), Action::Stoeck);
    act(&mut g, seat(0), Action::Play { card: card("HA"), weis: vec![cards("HQ HK HA")], stoeck: false });
    let c = g.legal_cards(seat(1)).first().unwrap();
    act(&mut g, seat(1), Action::Play { card: c, weis: vec![cards("D6 D7 D8 D9 DT")], stoeck: false });
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.weis, [0, 100]);
    assert_eq!(s.stoeck, [20, 0]);
    assert_eq!(s.total[Team::Zero], (s.card_points[Team::Zero] + s.match_bonus[Team::Zero] + 20) * 2);
}
