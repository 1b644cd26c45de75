//! R4 Ranking and card points: the four tables (and `old_undenufe`), 152 per deal,
//! 157 with the last trick, 257 for a match.

mod common;

use common::*;
use jass_engine::{
    Action, Card, CardSet, Contract, Event, Game, Options, Rank, Seat, Suit, Team, Trick, card_points,
    set_points,
};

/// Points by rank in the natural order 6 7 8 9 T J Q K A.
const TRUMP: [u32; 9] = [0, 0, 0, 14, 10, 20, 3, 4, 11];
const PLAIN_UNDER_TRUMP: [u32; 9] = [0, 0, 0, 0, 10, 2, 3, 4, 11];
const OBENABE: [u32; 9] = [0, 0, 8, 0, 10, 2, 3, 4, 11];
const UNDENUFE: [u32; 9] = [11, 0, 8, 0, 10, 2, 3, 4, 0];
const OLD_UNDENUFE: [u32; 9] = [0, 0, 8, 0, 10, 2, 3, 4, 11];

/// R4: the points table of every contract, card by card.
#[test]
fn r4_points_tables() {
    for k in Contract::ALL {
        for suit in Suit::ALL {
            let expected = match (k.trump(), k) {
                (Some(t), _) if t == suit => TRUMP,
                (Some(_), _) => PLAIN_UNDER_TRUMP,
                (None, Contract::Obenabe) => OBENABE,
                (None, _) => UNDENUFE,
            };
            for r in Rank::ALL {
                let c = Card::new(suit, r);
                assert_eq!(card_points(c, k, false), expected[r.index()], "{c} under {k}");
                // old_undenufe changes undenufe only.
                let old = if k == Contract::Undenufe { OLD_UNDENUFE[r.index()] } else { expected[r.index()] };
                assert_eq!(card_points(c, k, true), old, "{c} under {k}, old_undenufe");
            }
        }
    }
}

/// R4: every deal holds 152 card points, under every contract and both undenufe readings.
#[test]
fn r4_every_deal_holds_152() {
    for k in Contract::ALL {
        for old in [false, true] {
            assert_eq!(set_points(CardSet::DECK, k, old), 152, "{k} old_undenufe={old}");
        }
    }
}

/// Asserts that in `contract`, within one suit, `high_to_low` is the ranking: each card
/// beats every lower one whichever is led.
fn assert_order(contract: Contract, high_to_low: &str) {
    let cards: Vec<Card> = high_to_low.split(' ').map(card).collect();
    let s0 = Seat::ALL[0];
    for (i, &hi) in cards.iter().enumerate() {
        for &lo in &cards[i + 1..] {
            assert_eq!(
                Trick::from_cards(s0, &[lo, hi]).winner(contract),
                Some(s0.next()),
                "{hi} > {lo} in {contract}"
            );
            assert_eq!(
                Trick::from_cards(s0, &[hi, lo]).winner(contract),
                Some(s0),
                "{hi} > {lo} in {contract}"
            );
        }
    }
}

/// R4: the rank orders, high to low: trump J 9 A K Q T 8 7 6; other suits under a
/// trump and obenabe A K Q J T 9 8 7 6; undenufe 6 7 8 9 T J Q K A.
#[test]
fn r4_rank_orders() {
    assert_order(Contract::Spades, "SJ S9 SA SK SQ ST S8 S7 S6");
    assert_order(Contract::Hearts, "HJ H9 HA HK HQ HT H8 H7 H6");
    assert_order(Contract::Spades, "HA HK HQ HJ HT H9 H8 H7 H6");
    assert_order(Contract::Obenabe, "DA DK DQ DJ DT D9 D8 D7 D6");
    assert_order(Contract::Undenufe, "C6 C7 C8 C9 CT CJ CQ CK CA");
}

/// R4/R5: the lowest trump beats the highest card of another suit, and a card that
/// neither follows nor trumps never wins.
#[test]
fn r4_trump_beats_every_plain_card_and_off_suit_never_wins() {
    let s0 = Seat::ALL[0];
    let t = Trick::from_cards(s0, &[card("HA"), card("S6"), card("HK"), card("DA")]);
    assert_eq!(t.winner(Contract::Spades), Some(s0.next()));
    let t = Trick::from_cards(s0, &[card("H6"), card("SA"), card("DA"), card("CA")]);
    assert_eq!(t.winner(Contract::Obenabe), Some(s0), "only H6 follows");
    assert_eq!(t.winner(Contract::Diamonds), Some(s0.plus(2)), "DA is trump");
    let t = Trick::from_cards(s0, &[card("HA"), card("S6"), card("H7"), card("D6")]);
    assert_eq!(t.winner(Contract::Undenufe), Some(s0.plus(2)), "H7 is the best heart in undenufe");
}

/// R4: a played round credits 157 card points in all, the last trick carrying 5 extra.
#[test]
fn r4_a_round_counts_157_with_five_for_the_last_trick() {
    for (i, k) in Contract::ALL.into_iter().enumerate() {
        for old_undenufe in [false, true] {
            let mut g = Game::new(Options { old_undenufe, ..Options::default() }, seed_n(i as u64)).unwrap();
            let f = g.forehand();
            act(&mut g, f, Action::Choose { contract: k });
            let mut trick_cards = CardSet::EMPTY;
            let mut sum = 0;
            let mut events = Vec::new();
            while g.round_number() == 0 {
                for e in play_first_legal(&mut g) {
                    match &e {
                        Event::CardPlayed(p) => trick_cards = trick_cards.with(p.card),
                        Event::TrickTaken { trick, points, .. } => {
                            let cards = set_points(trick_cards, k, old_undenufe);
                            let bonus = if *trick == 8 { 5 } else { 0 };
                            assert_eq!(*points, cards + bonus, "trick {trick} under {k}");
                            sum += points;
                            trick_cards = CardSet::EMPTY;
                        }
                        _ => {}
                    }
                    events.push(e);
                }
            }
            assert_eq!(sum, 157);
            let s = summaries(&events).pop().unwrap();
            if s.match_bonus == [0, 0] {
                assert_eq!(s.card_points[Team::Zero] + s.card_points[Team::One], 157);
            }
        }
    }
}

/// R4: a team that takes all nine tricks makes a match: 157 + 100 = 257 (before the
/// multiplier; spades count double, so 514).
#[test]
fn r4_match_is_257() {
    // Seat 0 holds every spade and leads: nobody can follow or beat it.
    let h = fill(["S6 S7 S8 S9 ST SJ SQ SK SA", "", "", ""]);
    let mut g = game_with(Options::default(), 3, 0, h, [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.card_points, [157, 0]);
    assert_eq!(s.match_bonus, [100, 0]);
    assert_eq!(s.total, [514, 0]);
    assert_eq!(s.running_total, [514, 0]);
}
