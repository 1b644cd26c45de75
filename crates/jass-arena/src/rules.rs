//! A simple rule-based card player: the rung between random play and search on the
//! ladder, like the open rule-based bots the published work compared against.
//!
//! It remembers every card it has seen this round (a view shows the trick on the table
//! and the one before, so its own turns see every card) and plays by these rules, in
//! order (R4 orders and points, R5 legality; it only ever picks a legal card):
//!
//! **Leading**
//! 1. Trump contract chosen by its own team, opponents may still hold trumps, and it
//!    holds the highest trump still out: lead that trump (draw trumps with the boss).
//! 2. A non-trump card that is the highest of its suit still out (an ace in obenabe
//!    or a trump contract, a six in undenufe, or whatever has become the boss): lead
//!    the one worth most.
//! 3. Otherwise the lowest card: no trump if possible, fewest points, lowest rank.
//!
//! **Following**
//! 1. Partner is winning and cannot be beaten (it plays last, or no unseen card would
//!    take the trick from the partner's card): smear — the non-trump card worth most,
//!    keeping a card that is the boss of its suit if it can.
//! 2. Otherwise, if a legal card wins the trick now and keeps it (it plays last, or
//!    no unseen card beats it): the cheapest such card (no trump if possible, then the
//!    lowest rank) — but a trump only when the trick already holds 10 points or more.
//! 3. Otherwise discard the lowest card, as when leading (rule 3).
//!
//! "No unseen card beats it" ignores who holds the unseen cards and whether they may
//! be played: cautious, and cheap.

use jass_engine::{Card, CardSet, Contract, Seat, SeatView, Trick, card_points, tables};

use crate::player::Player;

/// The rule-based player of one seat, with its memory of the round.
#[derive(Clone, Debug)]
pub struct Rules {
    seat: Seat,
    /// The round the memory belongs to.
    round: Option<u32>,
    /// Cards seen played this round (completed tricks and the one on the table).
    played: CardSet,
}

impl Rules {
    /// A player for `seat`.
    #[must_use]
    pub const fn new(seat: Seat) -> Self {
        Self { seat, round: None, played: CardSet::EMPTY }
    }

    fn observe(&mut self, view: &SeatView) {
        if self.round != Some(view.round) {
            self.round = Some(view.round);
            self.played = CardSet::EMPTY;
        }
        if let Some(last) = &view.last_trick {
            self.played = last.cards.iter().fold(self.played, |s, p| s.with(p.card));
        }
        self.played = view.trick.cards.iter().fold(self.played, |s, p| s.with(p.card));
    }

    /// The card by the rules of the module documentation.
    fn choose(&self, view: &SeatView, contract: Contract) -> Option<Card> {
        let legal = view.allowed.cards;
        // Played cards and the hand are disjoint parts of the deck.
        let unseen = CardSet::DECK ^ (self.played | view.hand);
        let down: Vec<Card> = view.trick.cards.iter().map(|p| p.card).collect();
        let trick = Trick::from_cards(view.trick.leader, &down);
        let k = Know { contract, unseen };
        if trick.is_empty() {
            return k.lead(legal, view, self.seat).or_else(|| k.lowest(legal));
        }
        let winner = trick.winner(contract)?;
        let last = trick.len() == 3;
        if winner == self.seat.partner() && (last || k.holds(&trick)) {
            return k.smear(legal).or_else(|| k.lowest(legal));
        }
        let trick_points: u32 = down.iter().map(|&c| k.points(c)).sum();
        let winning = legal.iter().filter(|&c| {
            let mut t = trick;
            t.push(c);
            t.winner(contract) == Some(self.seat)
                && (last || k.holds(&t))
                && (!k.is_trump(c) || trick_points >= 10)
        });
        winning.min_by_key(|&c| (k.is_trump(c), k.order(c))).or_else(|| k.lowest(legal))
    }
}

impl Player for Rules {
    fn card(&mut self, view: &SeatView) -> Option<Card> {
        self.observe(view);
        let contract = view.contract?;
        self.choose(view, contract)
    }
}

/// What the rules look at: the contract and the cards still out.
struct Know {
    contract: Contract,
    unseen: CardSet,
}

impl Know {
    fn order(&self, c: Card) -> u8 {
        tables(self.contract, false).order_of(c)
    }

    fn points(&self, c: Card) -> u32 {
        // The arena plays the default undenufe (R4); the player's choice does not
        // depend on the option otherwise.
        card_points(c, self.contract, false)
    }

    fn is_trump(&self, c: Card) -> bool {
        self.contract.trump() == Some(c.suit())
    }

    /// Whether `c` is higher than every unseen card of its suit.
    fn is_boss(&self, c: Card) -> bool {
        (self.unseen & CardSet::suit(c.suit())).iter().all(|u| self.order(u) < self.order(c))
    }

    /// Whether the trick's current winner keeps it against any one unseen card.
    fn holds(&self, trick: &Trick) -> bool {
        let Some(winner) = trick.winner(self.contract) else { return false };
        self.unseen.iter().all(|u| {
            let mut t = *trick;
            t.push(u);
            t.winner(self.contract) == Some(winner)
        })
    }

    /// Leading rules 1 and 2.
    fn lead(&self, legal: CardSet, view: &SeatView, seat: Seat) -> Option<Card> {
        if let Some(t) = self.contract.trump() {
            let ours = view.chosen_by.is_some_and(|s| s.team() == seat.team());
            let trumps = legal & CardSet::suit(t);
            let out = !(self.unseen & CardSet::suit(t)).is_empty();
            if ours && out {
                let top = trumps.iter().max_by_key(|&c| self.order(c));
                if let Some(top) = top.filter(|&c| self.is_boss(c)) {
                    return Some(top);
                }
            }
        }
        legal
            .iter()
            .filter(|&c| !self.is_trump(c) && self.is_boss(c))
            .max_by_key(|&c| (self.points(c), self.order(c)))
    }

    /// Following rule 1: the non-trump worth most, bosses kept back when possible.
    fn smear(&self, legal: CardSet) -> Option<Card> {
        let side = legal.iter().filter(|&c| !self.is_trump(c));
        side.max_by_key(|&c| (!self.is_boss(c), self.points(c), std::cmp::Reverse(self.order(c))))
    }

    /// Leading rule 3 and following rule 3.
    fn lowest(&self, legal: CardSet) -> Option<Card> {
        legal.iter().min_by_key(|&c| (self.is_trump(c), self.points(c), self.order(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.parse().unwrap_or_default()
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap_or_else(|_| Card::new(jass_engine::Suit::Hearts, jass_engine::Rank::Six))
    }

    /// A boss is higher than every unseen card of its suit, in the contract's order.
    #[test]
    fn boss_follows_the_contract_order() {
        let k = Know { contract: Contract::Obenabe, unseen: set("HK HQ H6") };
        assert!(k.is_boss(card("HA")));
        let k = Know { contract: Contract::Undenufe, unseen: set("H7 HA") };
        assert!(k.is_boss(card("H6")) && !k.is_boss(card("H8")));
        let k = Know { contract: Contract::Spades, unseen: set("SJ") };
        assert!(!k.is_boss(card("S9")));
    }

    /// Smearing gives the partner points, not a trump, and keeps a boss back.
    #[test]
    fn smear_prefers_a_ten_to_a_boss_ace() {
        let k = Know { contract: Contract::Spades, unseen: set("HK DK") };
        assert_eq!(k.smear(set("HA HT SJ D6")), Some(card("HT")));
    }
}
