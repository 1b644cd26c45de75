//! What the cards the other seats played say of their hands.
//!
//! A player who discards a six while holding a card that takes the trick for sure
//! probably had no such card: a deal that gives it one explains the play badly. Each
//! sampled deal is weighed by how well it explains every card the opponents played
//! this round, under a model of a card-table player who remembers which cards are
//! still out but not who holds them ([`modelled`]): the round is replayed from the
//! deal's dealt hands, and every opponent card the model would not have played, where
//! it had a choice, multiplies the weight by the miss factor. The partner is not
//! weighed: it is this seat's own kind of player, which the model does not describe.
//!
//! The model, and why: a second or third seat of a trick that cannot be sure to keep
//! it plays low (a model that takes whenever it can reads such a duck as "had nothing
//! to take it with", and weighing by it did worse); a lead is the dearest card nothing
//! still out beats, else the cheapest card. The miss factor is soft: people do not
//! play by the model, and a hard miss throws out the deals where they did not. What
//! the weighing is worth, and the variants that did worse: docs/bots.md.
//!
//! The model looks at no hand but the mover's (its legal cards) and at which cards are
//! still out, so the weight depends on no card the seat cannot see other than the
//! sampled ones.

use jass_engine::{Card, CardSet, Contract, Seat, Tables, Trick, legal_cards, tables};

use crate::memory::Memory;
use crate::playout::{power, respond};

/// The likelihood, up to a constant, that the opponents would have played this
/// round's cards so far holding `hands` (the unplayed cards of a sampled deal) and
/// what `memory` saw them play: `miss` to the power of the plays the model would not
/// have made. 1 when the memory misses part of the round (nothing to replay).
pub(crate) fn likelihood(
    memory: &Memory,
    me: Seat,
    hands: &[CardSet; 4],
    contract: Contract,
    old_undenufe: bool,
    miss: f64,
) -> f64 {
    let t = tables(contract, old_undenufe);
    let mut held: [CardSet; 4] = Seat::ALL.map(|s| *s.of(hands) | *s.of(&memory.played_by));
    let mut weight = 1.0;
    for (leader, cards) in &memory.tricks {
        let Some(leader) = *leader else { break };
        let mut trick = Trick::new(leader);
        for card in cards.iter().map_while(|c| *c) {
            let seat = trick.next_seat();
            let hand = *seat.of(&held);
            if !hand.contains(card) {
                // The deal does not hold what was played: nothing to weigh it by.
                return 1.0;
            }
            if seat.team() != me.team() {
                let legal = legal_cards(hand, &trick, contract);
                if legal.len() > 1 {
                    // What the mover could not see: the unplayed cards of the other seats.
                    let out = Seat::ALL
                        .iter()
                        .filter(|&&s| s != seat)
                        .fold(CardSet::EMPTY, |a, s| a | *s.of(&held));
                    if modelled(&trick, contract, legal, out, t).is_some_and(|c| c != card) {
                        weight *= miss;
                    }
                }
            }
            *seat.of_mut(&mut held) = hand.without(card);
            trick.push(card);
        }
        if !trick.is_complete() {
            break;
        }
    }
    weight
}

/// The model's card among `legal` (at least two) for the seat to move in `trick`, who
/// knows the cards `out` still in the other hands but not who holds them:
/// - a lead: the dearest card that beats every card of its suit still out (a side
///   suit only once no trumps are out; a trump first), else the cheapest card (a
///   side suit first, then fewest points, then the lowest);
/// - the last seat: as the playouts' sensible policy ([`crate::playout::sensible`]),
///   nothing after it to fear;
/// - an earlier seat: onto the partner's card that nothing still out of the suit led
///   beats, its most points, else its fewest; against the opponents', the cheapest
///   card that beats every card out of the suit led (a ruff counts), else its fewest.
pub(crate) fn modelled(
    trick: &Trick,
    contract: Contract,
    legal: CardSet,
    out: CardSet,
    t: &Tables,
) -> Option<Card> {
    let trump = contract.trump();
    let is_trump = |c: Card| Some(c.suit()) == trump;
    let Some(led) = trick.led_suit() else {
        let trumps_out = out.iter().any(is_trump);
        let sure = legal
            .iter()
            .filter(|&c| {
                let top = out.iter().filter(|&o| o.suit() == c.suit()).all(|o| t.order_of(o) < t.order_of(c));
                top && (is_trump(c) || !trumps_out)
            })
            .max_by_key(|&c| (is_trump(c), t.points_of(c)));
        return sure.or_else(|| legal.iter().min_by_key(|&c| (is_trump(c), t.points_of(c), t.order_of(c))));
    };
    // Nobody plays after the last seat: nothing out threatens its card.
    let threat = if trick.len() == 3 {
        0
    } else {
        out.iter().filter(|&c| c.suit() == led).map(|c| power(c, led, trump, t)).max().unwrap_or(0)
    };
    respond(trick, contract, legal, t, Some(threat))
}

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Trick, Viewer, tables};

    use super::{likelihood, modelled};
    use crate::memory::Memory;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// Seat 3, last to a trick seat 0's queen holds, plays the six of spades: a deal
    /// giving it the ace too (the true one) explains that worse than one in which the
    /// six was its only spade (and seat 0, the observer's partner, had the ace: the
    /// partner's cards weigh nothing).
    #[test]
    fn a_cheap_last_card_says_there_was_nothing_better() {
        let hands = [
            set("SQ H6 H7 H8 H9 HT HJ HQ HK"),
            set("S7 C6 C7 C8 C9 CT CJ CQ CK"),
            set("S8 S9 ST SJ SK D6 D7 D8 D9"),
            set("SA S6 HA CA DT DJ DQ DK DA"),
        ];
        let [s0, s1, s2, s3] = Seat::ALL;
        let mut game =
            Game::with_hands(Options::default(), s3, hands, s0, [0, 0]).unwrap_or_else(|e| panic!("{e}"));
        let contract = Contract::Obenabe;
        let mut memory = Memory::default();
        let card = |c: &str| set(c).first().unwrap_or_else(|| panic!("card"));
        for (seat, action) in [
            (s0, Action::Choose { contract }),
            (s0, Action::play(card("SQ"))),
            (s1, Action::play(card("S7"))),
            (s2, Action::play(card("S8"))),
            (s3, Action::play(card("S6"))),
        ] {
            game.apply(seat, action, || Seed([0; 32])).unwrap_or_else(|e| panic!("{e}"));
            memory.observe(&game.view(Viewer::Seat(s2)));
        }
        // Seat 2's view of the unplayed cards: seat 3 with the ace (the true deal), or
        // seat 0 with it instead of a heart.
        let clubs = set("C6 C7 C8 C9 CT CJ CQ CK");
        let mine = set("S9 ST SJ SK D6 D7 D8 D9");
        let with_ace = [set("H6 H7 H8 H9 HT HJ HQ HK"), clubs, mine, set("SA HA CA DT DJ DQ DK DA")];
        let without = [set("SA H6 H7 H8 H9 HT HJ HQ"), clubs, mine, set("HK HA CA DT DJ DQ DK DA")];
        let w = |h: &[CardSet; 4]| likelihood(&memory, s2, h, contract, false, 0.25);
        assert!((w(&with_ace) - 0.25).abs() < 1e-9, "{}", w(&with_ace));
        assert!((w(&without) - 1.0).abs() < 1e-9, "{}", w(&without));
    }

    fn model(contract: Contract, leader: usize, down: &str, legal: &str, out: &str) -> String {
        let cards: Vec<_> = down.split_whitespace().filter_map(|c| c.parse().ok()).collect();
        let trick = Trick::from_cards(Seat::ALL[leader], &cards);
        let t = tables(contract, false);
        modelled(&trick, contract, set(legal), set(out), t).map(|c| c.to_string()).unwrap_or_default()
    }

    /// A second seat takes only with a card nothing still out beats; otherwise it
    /// ducks with its cheapest card, as people and `rules` do.
    #[test]
    fn the_model_ducks_unless_sure() {
        assert_eq!(model(Contract::Obenabe, 0, "SQ", "SK S6", "SA S7 C6"), "S6");
        assert_eq!(model(Contract::Obenabe, 0, "SQ", "SK S6", "S7 C6"), "SK");
    }

    /// Onto the partner's card that nothing out beats, the most points.
    #[test]
    fn the_model_gives_points_onto_a_sure_trick() {
        assert_eq!(model(Contract::Obenabe, 0, "SA S7", "ST S6", "S8 C6 CA"), "ST");
        assert_eq!(model(Contract::Obenabe, 0, "SK S7", "ST S6", "SA C6 CA"), "S6");
    }

    /// A lead: a trump nothing out beats first, then a side card nothing out beats
    /// once no trumps are out, else the cheapest side card.
    #[test]
    fn the_model_leads_sure_cards_or_low() {
        assert_eq!(model(Contract::Hearts, 0, "", "HJ SA C6", "H9 S6"), "HJ");
        assert_eq!(model(Contract::Hearts, 0, "", "SA C6 DK", "H9 S6"), "C6");
        assert_eq!(model(Contract::Hearts, 0, "", "SA C6 DK", "S6 D6"), "SA");
    }
}
