//! R5 Playing a trick: the legal cards (R5.1–R5.4), the worked examples, seed 002's
//! 58-point trick, the trick winner and who leads next.

mod common;

use common::*;
use jass_engine::{Action, CardSet, Contract, Event, Options, RuleError, Seat, Trick, Viewer, legal_cards};

/// The legal cards of `hand` when `played` lie in the trick (led by seat 0).
fn legal(contract: Contract, played: &str, hand: &str) -> CardSet {
    let down: Vec<_> = played.split_whitespace().map(card).collect();
    legal_cards(cards(hand), &Trick::from_cards(Seat::ALL[0], &down), contract)
}

/// R5 worked example 1: lead HA, an opponent has trumped with S9; holding HK S8 S7 DQ,
/// only HK is legal (S8 and S7 would undertrump; the hand can follow suit).
#[test]
fn r5_example_1_follow_rather_than_undertrump() {
    assert_eq!(legal(Contract::Spades, "HA S9", "HK S8 S7 DQ"), cards("HK"));
}

/// R5 worked example 2: same trick, holding only S8 S7: both legal (only trumps left).
#[test]
fn r5_example_2_only_trumps_may_undertrump() {
    assert_eq!(legal(Contract::Spades, "HA S9", "S8 S7"), cards("S8 S7"));
}

/// R5 worked example 3: same trick, holding S8 DQ (no hearts): only DQ.
#[test]
fn r5_example_3_cannot_follow_still_no_undertrump() {
    assert_eq!(legal(Contract::Spades, "HA S9", "S8 DQ"), cards("DQ"));
}

/// R5 worked example 4: trump led (S6); holding SJ HA D7: all legal, the Puur alone
/// need not follow.
#[test]
fn r5_example_4_lone_puur_need_not_follow() {
    assert_eq!(legal(Contract::Spades, "S6", "SJ HA D7"), cards("SJ HA D7"));
}

/// R5 worked example 5: trump led; holding SJ S7 HA: SJ and S7 (must follow with a trump).
#[test]
fn r5_example_5_puur_with_another_trump_must_follow() {
    assert_eq!(legal(Contract::Spades, "S6", "SJ S7 HA"), cards("SJ S7"));
}

/// R5.3: trumping is always allowed, even when the hand could follow; overtrumping
/// too; and with no trump in the trick any trump may be played.
#[test]
fn r5_3_trumping_is_always_allowed() {
    assert_eq!(legal(Contract::Spades, "HA", "HK S7 DQ"), cards("HK S7"));
    assert_eq!(
        legal(Contract::Spades, "HA S8", "HK S9 S7 DQ"),
        cards("HK S9"),
        "S9 overtrumps S8, S7 would not"
    );
    assert_eq!(legal(Contract::Spades, "HA S8", "HK SA"), cards("HK SA"), "SA ranks above S8");
    assert_eq!(legal(Contract::Spades, "HA", "SJ HK"), cards("SJ HK"), "the Puur may trump a plain lead");
}

/// R5.3: a hand that cannot follow may play anything (except an undertrump, R5.4).
#[test]
fn r5_3_cannot_follow_any_card() {
    assert_eq!(legal(Contract::Spades, "HA", "DQ C7 S6"), cards("DQ C7 S6"));
    assert_eq!(legal(Contract::Spades, "HA HK", "DQ C7 S6"), cards("DQ C7 S6"));
    assert_eq!(legal(Contract::Spades, "HA SK", "DQ C7 S6 SJ"), cards("DQ C7 SJ"));
}

/// R5.4: with nothing but trumps, every trump is legal, undertrumps included; with
/// one other card left, undertrumps are not.
#[test]
fn r5_4_undertrump_only_with_nothing_but_trumps() {
    assert_eq!(legal(Contract::Spades, "HA SK", "S7 SA"), cards("S7 SA"));
    assert_eq!(legal(Contract::Spades, "HA SK", "S7 SA H6"), cards("SA H6"));
    assert_eq!(legal(Contract::Hearts, "DA HQ S6", "H6 H7 H8"), cards("H6 H7 H8"));
}

/// R5.2: when trump is led every trump may be played (no undertrump rule then), and a
/// hand without trump plays anything.
#[test]
fn r5_2_trump_led() {
    assert_eq!(
        legal(Contract::Spades, "S6 SJ", "S7 HA"),
        cards("S7"),
        "must follow trump, even below the Puur"
    );
    assert_eq!(legal(Contract::Spades, "SA S9", "S6 ST HA"), cards("S6 ST"));
    assert_eq!(legal(Contract::Spades, "S6", "HA D7 C8"), cards("HA D7 C8"));
    assert_eq!(legal(Contract::Hearts, "H6", "HJ"), cards("HJ"));
}

/// R5.1: obenabe and undenufe have no trump: follow suit if you can, else anything.
#[test]
fn r5_1_no_trump_contracts_follow_suit() {
    for k in [Contract::Obenabe, Contract::Undenufe] {
        assert_eq!(legal(k, "HA", "H6 SA SJ"), cards("H6"), "{k}");
        assert_eq!(legal(k, "HA", "DA SJ C6"), cards("DA SJ C6"), "{k}");
        assert_eq!(legal(k, "", "DA SJ C6"), cards("DA SJ C6"), "{k}: the first card is free");
    }
}

/// R5 seed 002 example, played through a game: Pik (spades, x2) is trump; Anna leads
/// HA, Ben trumps with S8 although he holds hearts, Carla (holding S7, HK and more)
/// must play HK, Dan plays S9 and wins: 11 + 0 + 4 + 14 = 29 points, x2 = 58.
#[test]
fn r5_seed_002_trick_is_worth_58() {
    // Anna = seat 0 (forehand), Ben = 1, Carla = 2, Dan = 3 (dealer).
    let h = hands([
        "HA HQ HJ SK SQ ST S6 DK DA",
        "S8 H6 H7 H8 C6 C7 C8 C9 CT",
        "S7 HK D6 D7 D8 D9 DT DJ DQ",
        "S9 SJ SA H9 HT CJ CQ CK CA",
    ]);
    let mut g = game_with(Options::default(), 3, 0, h, [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    play(&mut g, 0, "HA");
    assert_eq!(g.legal_cards(seat(1)), cards("S8 H6 H7 H8"), "Ben may follow or trump");
    play(&mut g, 1, "S8");
    assert_eq!(g.legal_cards(seat(2)), cards("HK"), "Carla must play HK");
    let e = refused(&mut g, seat(2), Action::play(card("S7")));
    assert_eq!(e, RuleError::IllegalCard { card: card("S7"), legal: cards("HK") });
    play(&mut g, 2, "HK");
    assert_eq!(g.legal_cards(seat(3)), cards("S9 SJ SA H9 HT"));
    let events = play(&mut g, 3, "S9");
    assert!(events.contains(&Event::TrickTaken { trick: 0, winner: seat(3), points: 29 }), "{events:?}");
    assert_eq!(g.totals(), [0, 58]);
    let v = g.view(Viewer::Seat(seat(0)));
    assert_eq!(v.round_points, [0, 29]);
    assert_eq!(v.totals, [0, 58]);
    assert_eq!(v.last_trick.as_ref().map(|t| (t.winner, t.points)), Some((seat(3), 29)));
    // R5: the winner leads the next trick.
    assert_eq!(g.to_act(), Some(seat(3)));
    assert_eq!(g.trick().leader(), seat(3));
    assert_eq!(g.legal_cards(seat(3)), g.hand(seat(3)));
}

/// R5: cards that are not held or not legal are refused, naming the legal cards, and
/// only the seat to act may play.
#[test]
fn r5_illegal_plays_are_refused() {
    let h = hands([
        "HA HQ HJ SK SQ ST S6 DK DA",
        "S8 H6 H7 H8 C6 C7 C8 C9 CT",
        "S7 HK D6 D7 D8 D9 DT DJ DQ",
        "S9 SJ SA H9 HT CJ CQ CK CA",
    ]);
    let mut g = game_with(Options::default(), 3, 0, h, [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Obenabe });
    assert_eq!(refused(&mut g, seat(0), Action::play(card("S8"))), RuleError::CardNotHeld(card("S8")));
    assert!(matches!(refused(&mut g, seat(1), Action::play(card("S8"))), RuleError::NotYourTurn { .. }));
    play(&mut g, 0, "HA");
    // Obenabe: Ben must follow hearts; his S8 is no trump.
    let e = refused(&mut g, seat(1), Action::play(card("S8")));
    assert_eq!(e, RuleError::IllegalCard { card: card("S8"), legal: cards("H6 H7 H8") });
    play(&mut g, 1, "H6");
    play(&mut g, 2, "HK");
    assert!(matches!(refused(&mut g, seat(3), Action::play(card("SJ"))), RuleError::IllegalCard { .. }));
    let events = play(&mut g, 3, "H9");
    // Obenabe: HA is the highest heart; 11 + 0 + 4 + 0 = 15, x3.
    assert!(events.contains(&Event::TrickTaken { trick: 0, winner: seat(0), points: 15 }));
    assert_eq!(g.totals(), [45, 0]);
    assert_eq!(g.to_act(), Some(seat(0)));
}
