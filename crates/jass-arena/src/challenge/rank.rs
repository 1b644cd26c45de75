//! The original's card values and orders, mapped onto the engine's cards: pyschieber
//! numbers the ranks 6..14 (10 the Banner, 11 the Under/jack, 12 the Ober/queen, 13
//! the king, 14 the ace), ranks trumps by the same numbers with the nine at 15 and
//! the jack at 16, and gives a card the "score" 50 + that trump rank in the trump
//! suit, its number otherwise. Its suits ROSE, BELL, ACORN, SHIELD are taken as the
//! engine's suits in their order (hearts, diamonds, clubs, spades): the order only
//! breaks ties, and deals are random.

use jass_engine::{Card, CardSet, Contract, Rank, Suit};

/// The original's suit order (`Suit` enum), as the engine's suits.
pub(super) const SUITS: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

/// The original's numbers and orders under one contract.
#[derive(Copy, Clone, Debug)]
pub(super) struct Ranks(pub(super) Contract);

impl Ranks {
    /// pyschieber's `Card.value`: 6..14.
    pub(super) const fn value(c: Card) -> u8 {
        c.rank().index() as u8 + 6
    }

    /// pyschieber's `get_trumpf_rank`: the value, with the nine at 15, the jack at 16.
    const fn trump_rank(c: Card) -> u8 {
        match c.rank() {
            Rank::Nine => 15,
            Rank::Jack => 16,
            _ => Self::value(c),
        }
    }

    pub(super) fn trump(self) -> Option<Suit> {
        self.0.trump()
    }

    pub(super) fn is_trump(self, c: Card) -> bool {
        self.trump() == Some(c.suit())
    }

    /// pyschieber's `get_score` under the contract.
    pub(super) fn score(self, c: Card) -> u8 {
        if self.is_trump(c) { 50 + Self::trump_rank(c) } else { Self::value(c) }
    }

    /// Whether `a` is above `b` of the same suit as the no-trump modes and the side
    /// suits see it: by value, the other way round in Undenufe.
    fn above(self, a: Card, b: Card) -> bool {
        if self.0 == Contract::Undenufe {
            Self::value(a) < Self::value(b)
        } else {
            Self::value(a) > Self::value(b)
        }
    }

    /// The original's `stronger_cards_remaining` (with `pool` the cards not yet in a
    /// completed trick) and `stronger_cards_unknown` (with `pool` the unknown cards):
    /// the cards of `pool` that would beat `c`. In a trump contract every trump beats
    /// a side card, whatever suit it is of.
    pub(super) fn stronger_alive(self, c: Card, pool: CardSet) -> CardSet {
        let same = pool & CardSet::suit(c.suit());
        match self.trump() {
            Some(t) if c.suit() == t => {
                same.iter().filter(|&x| Self::trump_rank(x) > Self::trump_rank(c)).collect()
            }
            Some(t) => {
                (pool & CardSet::suit(t)) | same.iter().filter(|&x| self.above(x, c)).collect::<CardSet>()
            }
            None => same.iter().filter(|&x| self.above(x, c)).collect(),
        }
    }

    /// The original's `bock_distance`: unknown cards of `c`'s suit above it by value
    /// (below in Undenufe), trumps counted by value too.
    pub(super) fn bock_distance(self, c: Card, unknown: CardSet) -> usize {
        (unknown & CardSet::suit(c.suit())).iter().filter(|&x| self.above(x, c)).count()
    }

    /// The original's `sort_by_rank`: strongest first, weakest last (by score in a
    /// trump contract, by value in Obenabe, by value upwards in Undenufe). Stable.
    pub(super) fn strongest_first(self, cards: &mut [Card]) {
        match self.0 {
            Contract::Undenufe => cards.sort_by_key(|&c| Self::value(c)),
            _ => cards.sort_by_key(|&c| std::cmp::Reverse(self.score(c))),
        }
    }

    /// The card values the original gives a partner's trick or takes a trick with
    /// first: the 10, and in Obenabe the 8 too.
    pub(super) fn is_fat(self, c: Card) -> bool {
        let v = Self::value(c);
        v == 10 || (self.0 == Contract::Obenabe && v == 8)
    }
}
