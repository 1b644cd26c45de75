//! What the cards the other seats played say of their hands.
//!
//! A player who discards a six while holding a card that takes the trick probably
//! had no such card: a deal that gives it one explains the play badly. Each sampled
//! deal is weighed by how well it explains every card the other seats played this
//! round, under the playouts' sensible policy ([`crate::playout`]) as the model of a
//! player: the round is replayed from the deal's dealt hands, and every last-seat card
//! of an opponent that the policy would not have played, where it had a choice,
//! multiplies the weight by the miss factor. The last seat sees the whole trick, so
//! its card is the least ambiguous: weighing every opponent card did worse (+24.3
//! against +25.6 points a round against `rules`, 1,000 tuning deals), as a second
//! seat may duck on purpose where the policy takes.
//!
//! The policy looks only at the mover's hand and the trick, so the weight depends on
//! no card the seat cannot see other than the sampled ones.

use jass_engine::{CardSet, Contract, Seat, Trick, legal_cards, tables};

use crate::memory::Memory;

use crate::playout::sensible;

/// The likelihood, up to a constant, that the other seats would have played this
/// round's cards so far holding `hands` (the unplayed cards of a sampled deal) and
/// what `memory` saw them play: `miss` to the power of the plays the policy would not
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
    let mut held: [CardSet; 4] = std::array::from_fn(|i| hands[i] | memory.played_by[i]);
    let mut weight = 1.0;
    for (leader, cards) in &memory.tricks {
        let Some(leader) = *leader else { break };
        let mut trick = Trick::new(leader);
        for card in cards.iter().map_while(|c| *c) {
            let seat = trick.next_seat();
            let hand = held[seat.index()];
            if !hand.contains(card) {
                // The deal does not hold what was played: nothing to weigh it by.
                return 1.0;
            }
            // Only the last seat's card of an opponent is weighed: earlier seats may
            // duck on purpose, and the partner is this seat's own kind of player.
            if trick.len() == 3 && seat.team() != me.team() {
                let legal = legal_cards(hand, &trick, contract);
                if legal.len() > 1 && sensible(&trick, contract, legal, t).is_some_and(|c| c != card) {
                    weight *= miss;
                }
            }
            held[seat.index()] = hand.without(card);
            trick.push(card);
        }
        if !trick.is_complete() {
            break;
        }
    }
    weight
}

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Viewer};

    use super::likelihood;
    use crate::memory::Memory;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// Seat 3, last to a trick seat 0's queen holds, plays the six of spades: a deal
    /// giving it the ace too (the true one) explains that worse than one in which the
    /// six was its only spade; seat 1 ducked at the second seat, which weighs nothing.
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
        // seat 1 with it instead of a club.
        let hearts = set("H6 H7 H8 H9 HT HJ HQ HK");
        let mine = set("S9 ST SJ SK D6 D7 D8 D9");
        let with_ace = [hearts, set("C6 C7 C8 C9 CT CJ CQ CK"), mine, set("SA HA CA DT DJ DQ DK DA")];
        let without = [hearts, set("SA C6 C7 C8 C9 CT CJ CQ"), mine, set("CK HA CA DT DJ DQ DK DA")];
        let w = |h: &[CardSet; 4]| likelihood(&memory, s2, h, contract, false, 0.25);
        assert!((w(&with_ace) - 0.25).abs() < 1e-9, "{}", w(&with_ace));
        assert!((w(&without) - 1.0).abs() < 1e-9, "{}", w(&without));
    }
}
