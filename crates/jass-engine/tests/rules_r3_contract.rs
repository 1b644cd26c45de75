//! R3 Contract: the forehand chooses or schiebt; the partner must then choose
//! (or, with `push_back`, may push back once); nobody else may choose.

mod common;

use common::*;
use jass_engine::{Action, Contract, Event, Game, Options, Phase, RuleError, Viewer};

fn new_game(options: Options) -> Game {
    Game::new(options, seed_n(3)).unwrap()
}

/// R3: the forehand may pick any of the six contracts directly; it fixes the round.
#[test]
fn r3_forehand_chooses_any_of_six_contracts() {
    for k in Contract::ALL {
        let mut g = new_game(Options::default());
        let f = g.forehand();
        assert_eq!(g.phase(), Phase::Choosing);
        let events = act(&mut g, f, Action::Choose { contract: k });
        assert_eq!(events, vec![Event::ContractChosen { seat: f, contract: k }]);
        assert_eq!(g.contract(), Some(k));
        assert_eq!(g.phase(), Phase::Playing);
        let v = g.view(Viewer::Seat(f));
        assert_eq!((v.contract, v.chosen_by, v.pushed), (Some(k), Some(f), false));
    }
}

/// R3: after schieben the partner must choose; the forehand can no longer choose and
/// (default, no `push_back`) the partner may not push back.
#[test]
fn r3_schieben_passes_the_choice_to_the_partner_who_must_choose() {
    let mut g = new_game(Options::default());
    let f = g.forehand();
    assert!(g.can_schiebe(f));
    assert_eq!(act(&mut g, f, Action::Schiebe), vec![Event::Pushed { seat: f }]);
    assert_eq!(g.phase(), Phase::Choosing);
    assert_eq!(g.to_act(), Some(f.partner()));
    assert!(!g.can_schiebe(f.partner()));
    let v = g.view(Viewer::Seat(f.partner()));
    assert!(v.pushed && v.allowed.choose && !v.allowed.schiebe);
    assert!(!g.view(Viewer::Seat(f)).allowed.choose);

    // The partner may not push back…
    assert!(matches!(refused(&mut g, f.partner(), Action::Schiebe), RuleError::CannotPush(_)));
    // …the forehand may no longer choose or push…
    let e = refused(&mut g, f, Action::Choose { contract: Contract::Spades });
    assert_eq!(e, RuleError::NotYourTurn { to_act: Some(f.partner()) });
    assert!(matches!(refused(&mut g, f, Action::Schiebe), RuleError::NotYourTurn { .. }));
    // …and the opponents neither.
    for s in [f.next(), f.plus(3)] {
        assert!(matches!(
            refused(&mut g, s, Action::Choose { contract: Contract::Clubs }),
            RuleError::NotYourTurn { .. }
        ));
    }
    act(&mut g, f.partner(), Action::Choose { contract: Contract::Undenufe });
    assert_eq!(g.contract(), Some(Contract::Undenufe));
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.chosen_by, v.pushed, v.pushed_back), (Some(f.partner()), true, false));
}

/// R3 (`push_back`, "Zurückschieben"): the partner may push back once; then the
/// forehand must choose and may not push again.
#[test]
fn r3_push_back_once_then_the_forehand_must_choose() {
    let mut g = new_game(Options { push_back: true, ..Options::default() });
    let f = g.forehand();
    act(&mut g, f, Action::Schiebe);
    assert!(g.can_schiebe(f.partner()));
    assert!(g.view(Viewer::Seat(f.partner())).allowed.schiebe);
    assert_eq!(act(&mut g, f.partner(), Action::Schiebe), vec![Event::Pushed { seat: f.partner() }]);
    assert_eq!(g.to_act(), Some(f));
    assert!(g.view(Viewer::Seat(f)).pushed_back);
    // A second push (by the forehand) is refused, so is a choice by the partner.
    assert!(!g.can_schiebe(f));
    assert!(matches!(refused(&mut g, f, Action::Schiebe), RuleError::CannotPush(_)));
    let e = refused(&mut g, f.partner(), Action::Choose { contract: Contract::Hearts });
    assert_eq!(e, RuleError::NotYourTurn { to_act: Some(f) });
    act(&mut g, f, Action::Choose { contract: Contract::Diamonds });
    assert_eq!(g.contract(), Some(Contract::Diamonds));
    // The forehand still leads.
    assert_eq!(g.to_act(), Some(f));
}

/// R3: a choice or push by a seat that is not to act is refused and changes nothing.
#[test]
fn r3_choose_or_push_by_the_wrong_seat_is_refused() {
    let mut g = new_game(Options::default());
    let f = g.forehand();
    for s in [f.next(), f.partner(), f.plus(3)] {
        let e = refused(&mut g, s, Action::Choose { contract: Contract::Obenabe });
        assert_eq!(e, RuleError::NotYourTurn { to_act: Some(f) });
        assert!(matches!(refused(&mut g, s, Action::Schiebe), RuleError::NotYourTurn { .. }));
    }
}

/// R3: nothing is played before the contract, and the contract cannot be changed.
#[test]
fn r3_no_card_before_the_contract_and_no_second_choice() {
    let mut g = new_game(Options::default());
    let f = g.forehand();
    let c = g.hand(f).first().unwrap();
    assert!(matches!(refused(&mut g, f, jass_engine::Action::play(c)), RuleError::WrongPhase(_)));
    assert!(g.legal_cards(f).is_empty());
    act(&mut g, f, Action::Choose { contract: Contract::Clubs });
    assert!(matches!(
        refused(&mut g, f, Action::Choose { contract: Contract::Hearts }),
        RuleError::WrongPhase(_)
    ));
    assert!(matches!(refused(&mut g, f, Action::Schiebe), RuleError::WrongPhase(_)));
    assert_eq!(g.contract(), Some(Contract::Clubs));
}

/// R3: the round summary records who chose and whether the forehand pushed.
#[test]
fn r3_summary_records_the_push() {
    let mut g = new_game(Options::default());
    let f = g.forehand();
    act(&mut g, f, Action::Schiebe);
    act(&mut g, f.partner(), Action::Choose { contract: Contract::Obenabe });
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(
        (s.contract, s.chosen_by, s.pushed, s.forehand),
        (Some(Contract::Obenabe), Some(f.partner()), true, f)
    );
    assert_eq!(s.multiplier, 3);
}
