//! A trick in progress, the legal cards (R5) and the trick winner: each rule stated
//! once, readably. Their fast forms for playouts are in `fast/`, tested against these.

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::contract::{Contract, tables, undertrumps};
use crate::seat::Seat;

/// The cards of one trick in playing order, from its leader.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Trick {
    leader: Seat,
    /// The cards in playing order with their seats, already in the form views carry
    /// (every view copies them). Slot `i` always holds seat `leader + i`; the slots from
    /// `len` on hold the card [`UNUSED`].
    played: [PlayedCard; 4],
    len: u8,
    /// The cards played, as a set (kept with `played` so the rules are mask operations).
    set: CardSet,
}

/// Fills the free slots of a trick, so equal tricks compare equal.
const UNUSED: Card = Card::new(Suit::Hearts, Rank::Six);

/// One card of a trick with the seat that played it, the form views carry.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct PlayedCard {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// The cards of a trick with their seats, in playing order (at most four, inline).
pub type PlayedCards = ArrayVec<PlayedCard, 4>;

impl Trick {
    /// An empty trick led by `leader`.
    #[must_use]
    pub const fn new(leader: Seat) -> Self {
        let played = [
            PlayedCard { seat: leader, card: UNUSED },
            PlayedCard { seat: leader.plus(1), card: UNUSED },
            PlayedCard { seat: leader.plus(2), card: UNUSED },
            PlayedCard { seat: leader.plus(3), card: UNUSED },
        ];
        Self { leader, played, len: 0, set: CardSet::EMPTY }
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
    #[inline]
    pub fn push(&mut self, c: Card) {
        if let Some(slot) = self.played.get_mut(self.len as usize) {
            slot.card = c;
            self.len += 1;
            self.set = self.set.with(c);
        }
    }

    /// The cards played, in order.
    #[inline]
    pub fn cards(&self) -> impl ExactSizeIterator<Item = Card> + '_ {
        self.down().iter().map(|p| p.card)
    }

    /// The cards with their seats, in order.
    #[inline]
    pub fn played(&self) -> impl ExactSizeIterator<Item = PlayedCard> + '_ {
        self.down().iter().copied()
    }

    /// The cards with their seats, in order, as an inline list (what views carry).
    #[inline]
    #[must_use]
    pub fn played_cards(&self) -> PlayedCards {
        // Copied as a whole array, not card by card: byte-wise pushes would make the
        // copy that follows wait on store forwarding.
        let mut items = PlayedCards::from(self.played);
        items.truncate(usize::from(self.len));
        items
    }

    /// The cards played, in order, as a slice.
    #[inline]
    fn down(&self) -> &[PlayedCard] {
        self.played.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// The cards as a set.
    #[inline]
    #[must_use]
    pub const fn set(&self) -> CardSet {
        self.set
    }

    /// The suit led, if a card is down.
    #[inline]
    #[must_use]
    pub fn led_suit(&self) -> Option<Suit> {
        self.down().first().map(|p| p.card.suit())
    }

    /// The highest trump in the trick, if any (R5.4).
    #[must_use]
    pub fn highest_trump(&self, t: Suit) -> Option<Card> {
        let tables = tables(Contract::trump_of(t), false);
        self.cards().filter(|c| c.suit() == t).max_by_key(|&c| tables.order_of(c))
    }

    /// The seat whose card currently wins the trick (R5, last bullet), if any card is down.
    #[inline]
    #[must_use]
    pub fn winner(&self, contract: Contract) -> Option<Seat> {
        let first = self.down().first()?.card;
        let tables = tables(contract, false);
        let trump = contract.trump();
        let (mut best, mut best_card) = (0, first);
        for (i, p) in self.down().iter().enumerate().skip(1) {
            let (c, b) = (p.card, best_card);
            let higher = tables.order_of(c) > tables.order_of(b);
            // A trump beats every other card, a higher trump a lower one; otherwise only
            // a higher card of the winning card's suit (the suit led) takes the lead.
            let takes = if Some(c.suit()) == trump {
                Some(b.suit()) != trump || higher
            } else {
                c.suit() == b.suit() && higher
            };
            if takes {
                (best, best_card) = (i, c);
            }
        }
        Some(self.leader.plus(best))
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
#[inline]
#[must_use]
pub fn legal_cards(hand: CardSet, trick: &Trick, contract: Contract) -> CardSet {
    legal_given(hand, trick.led_suit(), trick.set(), contract)
}

/// [`legal_cards`] from the suit led and the set of cards already in the trick: the
/// rule itself, and the oracle the fast form (`fast::legal`) is tested against.
#[inline]
pub(crate) fn legal_given(hand: CardSet, led: Option<Suit>, down: CardSet, contract: Contract) -> CardSet {
    let Some(led) = led else { return hand }; // the first card is free
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
            let ok = if follow.is_empty() { hand } else { follow | trumps };
            // R5.4: no undertrumping, unless the hand holds nothing but trumps.
            if trumps == hand {
                return ok;
            }
            // The trumps below the highest trump in the trick (none if it holds no trump).
            // Cannot empty `ok`: a non-trump card of the hand is always left in it.
            ok & !undertrumps(down, t)
        }
    }
}
