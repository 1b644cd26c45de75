//! A trick in progress, the legal cards (R5) and the trick winner.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::contract::{Contract, tables, trumps_below};
use crate::seat::Seat;

/// The cards of one trick in playing order, from its leader.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Trick {
    leader: Seat,
    cards: [Option<Card>; 4],
    len: u8,
}

/// One card of a trick with the seat that played it, the form views carry.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct PlayedCard {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

impl Trick {
    /// An empty trick led by `leader`.
    #[must_use]
    pub const fn new(leader: Seat) -> Self {
        Self { leader, cards: [None; 4], len: 0 }
    }

    /// A trick from its leader and the cards played so far (at most four).
    #[must_use]
    pub fn from_cards(leader: Seat, cards: &[Card]) -> Self {
        let mut t = Self::new(leader);
        for &c in cards.iter().take(4) {
            t.push(c);
        }
        t
    }

    /// Who led.
    #[must_use]
    pub const fn leader(&self) -> Seat {
        self.leader
    }

    /// Number of cards played.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no card has been played.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether all four cards are down.
    #[must_use]
    pub const fn is_complete(&self) -> bool {
        self.len == 4
    }

    /// The seat whose card comes next.
    #[must_use]
    pub const fn next_seat(&self) -> Seat {
        self.leader.plus(self.len as usize)
    }

    /// Adds the next card; a fifth card is ignored (callers check `is_complete`).
    pub fn push(&mut self, c: Card) {
        if let Some(slot) = self.cards.get_mut(self.len as usize) {
            *slot = Some(c);
            self.len += 1;
        }
    }

    /// The cards played, in order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards.iter().take(self.len as usize).flatten().copied()
    }

    /// The cards with their seats, in order.
    pub fn played(&self) -> impl Iterator<Item = PlayedCard> + '_ {
        self.cards().enumerate().map(|(i, card)| PlayedCard { seat: self.leader.plus(i), card })
    }

    /// The cards as a set.
    #[must_use]
    pub fn set(&self) -> CardSet {
        self.cards().collect()
    }

    /// The suit led, if a card is down.
    #[must_use]
    pub fn led_suit(&self) -> Option<Suit> {
        self.cards[0].map(Card::suit)
    }

    /// The highest trump in the trick, if any (R5.4).
    #[must_use]
    pub fn highest_trump(&self, t: Suit) -> Option<Card> {
        let order = &tables(Contract::trump_of(t), false).order;
        self.cards().filter(|c| c.suit() == t).max_by_key(|c| order[c.index()])
    }

    /// The seat whose card currently wins the trick (R5, last bullet), if any card is down.
    #[must_use]
    pub fn winner(&self, contract: Contract) -> Option<Seat> {
        let led = self.led_suit()?;
        let order = &tables(contract, false).order;
        let trump = contract.trump();
        let key = |c: Card| {
            let o = u16::from(order[c.index()]);
            if Some(c.suit()) == trump {
                32 + o
            } else if c.suit() == led {
                16 + o
            } else {
                0
            }
        };
        let (i, _) = self.cards().enumerate().max_by_key(|&(_, c)| key(c))?;
        Some(self.leader.plus(i))
    }
}

/// The cards of `hand` that may be played to `trick` under `contract` (R5).
///
/// Never empty while `hand` is not. Written as mask operations so it can be checked
/// against R5 line by line.
///
/// ```
/// use jass_engine::{legal_cards, CardSet, Contract, Seat, Trick};
/// // R5 example 1: lead HA, an opponent trumped with S9; hold HK S8 S7 DQ.
/// let trick = Trick::from_cards(Seat::ALL[0], &["HA".parse().unwrap(), "S9".parse().unwrap()]);
/// let hand: CardSet = "HK S8 S7 DQ".parse().unwrap();
/// assert_eq!(legal_cards(hand, &trick, Contract::Spades), "HK".parse().unwrap());
/// ```
#[must_use]
pub fn legal_cards(hand: CardSet, trick: &Trick, contract: Contract) -> CardSet {
    let Some(led) = trick.led_suit() else { return hand }; // the first card is free
    let follow = hand & CardSet::suit(led);
    match contract.trump() {
        // R5.1: no trump: follow suit if you can.
        None => {
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
        // R5.2: trump led: follow with a trump, unless the Puur is your only trump.
        Some(t) if t == led => {
            let puur = Card::new(t, Rank::Jack);
            if follow.without(puur).is_empty() { hand } else { follow }
        }
        // R5.3: another suit led: follow or trump; anything if you cannot follow.
        Some(t) => {
            let trumps = hand & CardSet::suit(t);
            let mut ok = if follow.is_empty() { hand } else { follow | trumps };
            // R5.4: no undertrumping, unless the hand holds nothing but trumps.
            let only_trumps = (hand & !CardSet::suit(t)).is_empty();
            if let (Some(best), false) = (trick.highest_trump(t), only_trumps) {
                // Cannot empty `ok`: a non-trump card of the hand is always left in it.
                ok = ok & !(trumps & trumps_below(best, t));
            }
            ok
        }
    }
}
