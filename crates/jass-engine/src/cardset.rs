//! `CardSet`: a set of cards as 36 bits of a `u64`, so hands, tricks and masks are
//! single integers and the rules are a few mask operations.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitXor, Not};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};

/// A set of cards; bit `i` holds the card with index `i`.
///
/// ```
/// use jass_engine::{CardSet, Suit};
/// let hand: CardSet = "HA HK S6".parse().unwrap();
/// assert_eq!(hand.len(), 3);
/// assert_eq!((hand & CardSet::suit(Suit::Hearts)).len(), 2);
/// assert_eq!(hand.to_string(), "HK HA S6");
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct CardSet(u64);

const SUIT_MASK: u64 = 0x1FF;

impl CardSet {
    /// No card.
    pub const EMPTY: Self = Self(0);
    /// All 36 cards.
    pub const DECK: Self = Self((1 << 36) - 1);

    /// The set with these raw bits, masked to the deck.
    #[must_use]
    pub const fn from_bits(bits: u64) -> Self {
        Self(bits & Self::DECK.0)
    }

    /// The raw bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The nine cards of one suit.
    #[must_use]
    pub const fn suit(s: Suit) -> Self {
        Self(SUIT_MASK << (9 * s as u64))
    }

    /// The four cards of one rank.
    #[must_use]
    pub const fn rank(r: Rank) -> Self {
        let b = 1u64 << r as u64;
        Self(b | b << 9 | b << 18 | b << 27)
    }

    /// The set holding just `c`.
    #[must_use]
    pub const fn single(c: Card) -> Self {
        Self(1 << c.index())
    }

    /// Whether `c` is in the set.
    #[must_use]
    pub const fn contains(self, c: Card) -> bool {
        self.0 & (1 << c.index()) != 0
    }

    /// Whether every card of `other` is in the set.
    #[must_use]
    pub const fn contains_all(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Number of cards.
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `c` added.
    #[must_use]
    pub const fn with(self, c: Card) -> Self {
        Self(self.0 | 1 << c.index())
    }

    /// The set with `c` removed.
    #[must_use]
    pub const fn without(self, c: Card) -> Self {
        Self(self.0 & !(1 << c.index()))
    }

    /// The nine-bit pattern of one suit, bit `r` = rank `r` in the natural order.
    #[must_use]
    pub const fn suit_bits(self, s: Suit) -> u16 {
        ((self.0 >> (9 * s as u64)) & SUIT_MASK) as u16
    }

    /// The card with the lowest index, if any.
    #[must_use]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 { None } else { Card::from_index(self.0.trailing_zeros() as u8) }
    }

    /// The `n`-th card in index order (0-based), if the set has that many: what
    /// `self.iter().nth(n)` gives (the tests hold it to that), without a loop, as bots
    /// pick their card this way (the fast form is in `fast::select`).
    #[inline]
    #[must_use]
    pub fn nth(self, n: u32) -> Option<Card> {
        crate::fast::select::nth(self.0, n)
    }

    /// Iterates the cards in index order.
    #[must_use]
    pub const fn iter(self) -> Iter {
        Iter(self.0)
    }
}

/// Iterator over a [`CardSet`] in index order (pops the lowest bit).
#[derive(Clone, Debug)]
pub struct Iter(u64);

impl Iterator for Iter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Card::from_index(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        iter.into_iter().fold(Self::EMPTY, Self::with)
    }
}

impl BitAnd for CardSet {
    type Output = Self;
    fn bitand(self, o: Self) -> Self {
        Self(self.0 & o.0)
    }
}

impl BitOr for CardSet {
    type Output = Self;
    fn bitor(self, o: Self) -> Self {
        Self(self.0 | o.0)
    }
}

impl BitXor for CardSet {
    type Output = Self;
    fn bitxor(self, o: Self) -> Self {
        Self(self.0 ^ o.0)
    }
}

impl Not for CardSet {
    type Output = Self;
    fn not(self) -> Self {
        Self(!self.0 & Self::DECK.0)
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl std::str::FromStr for CardSet {
    type Err = crate::card::ParseCardError;

    /// Parses cards separated by spaces or commas, e.g. `"HA HK S6"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse::<Card>)
            .collect()
    }
}

/// Serialized as a JSON array of card strings in index order, the form clients read.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Reads an array of card strings; a repeated card is an error, so a set never
/// silently shrinks.
impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let set: Self = cards.iter().copied().collect();
        if set.len() as usize != cards.len() {
            return Err(serde::de::Error::custom("a card appears twice"));
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(CardSet::DECK.len(), 36);
        for s in Suit::ALL {
            assert_eq!(CardSet::suit(s).len(), 9);
        }
        for r in Rank::ALL {
            assert_eq!(CardSet::rank(r).len(), 4);
            assert!(CardSet::rank(r).iter().all(|c| c.rank() == r));
        }
        assert_eq!(!CardSet::EMPTY, CardSet::DECK);
    }

    /// The table-driven `nth` agrees with counting through the iterator, for sets of
    /// every size.
    #[test]
    fn nth_matches_the_iterator_on_many_sets() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Thin the bits out to get small sets too.
            let set = CardSet::from_bits(x & (x >> 3) & (x >> (x % 5)));
            let cards: Vec<Card> = set.iter().collect();
            for n in 0..=cards.len() as u32 + 2 {
                assert_eq!(set.nth(n), cards.get(n as usize).copied(), "{set:?} n={n}");
            }
        }
        assert_eq!(CardSet::DECK.nth(35), Card::from_index(35));
        assert_eq!(CardSet::DECK.nth(36), None);
        assert_eq!(CardSet::EMPTY.nth(0), None);
        assert_eq!(CardSet::DECK.nth(u32::MAX), None);
    }

    /// The playouts' branch-free pick takes the same card and leaves the same word as
    /// the multiply-shift draw followed by `nth`.
    #[test]
    fn pick_index_is_the_nth_card_of_the_drawn_index() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let set = CardSet::from_bits(x & (x >> 5) & (x >> (x % 7)));
            if set.is_empty() {
                continue;
            }
            let (mut word, mut expected) = (x.rotate_left(29), x.rotate_left(29));
            let m = u128::from(expected) * u128::from(set.len());
            expected = m as u64;
            let card = set.nth((m >> 64) as u32).map(Card::index);
            assert_eq!(Some(crate::fast::select::pick_index(set.bits(), &mut word)), card, "{set:?}");
            assert_eq!(word, expected);
        }
    }

    #[test]
    fn nth_and_iter_agree() {
        let s: CardSet = "H6 D9 CA S7".parse().unwrap();
        let v: Vec<Card> = s.iter().collect();
        for (i, c) in v.iter().enumerate() {
            assert_eq!(s.nth(i as u32), Some(*c));
        }
        assert_eq!(s.nth(4), None);
    }
}
