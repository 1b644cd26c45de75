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

/// The number of cards in each 9-bit suit pattern.
static SUIT_LEN: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut p = 0;
    while p < 512 {
        t[p] = (p as u16).count_ones() as u8;
        p += 1;
    }
    t
};

/// For each 9-bit suit pattern, the rank of its 0th, 1st, … card (0 past the end).
static SUIT_NTH: [[u8; 9]; 512] = {
    let mut t = [[0u8; 9]; 512];
    let mut p = 0;
    while p < 512 {
        let (mut r, mut n) = (0, 0);
        while r < 9 {
            if p & (1 << r) != 0 {
                t[p][n] = r as u8;
                n += 1;
            }
            r += 1;
        }
        p += 1;
    }
    t
};

/// [`SUIT_NTH`] with rows of 16, so a masked index needs no bounds check.
static SUIT_NTH16: [[u8; 16]; 512] = {
    let mut t = [[0u8; 16]; 512];
    let mut p = 0;
    while p < 512 {
        let mut n = 0;
        while n < 9 {
            t[p][n] = SUIT_NTH[p][n];
            n += 1;
        }
        p += 1;
    }
    t
};

/// For each byte pattern, the position of its 0th, 1st, … set bit (0 past the end):
/// the last step of the broadword select in [`CardSet::select`].
static BYTE_NTH: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut p = 0;
    while p < 256 {
        let (mut b, mut n) = (0, 0);
        while b < 8 {
            if p & (1 << b) != 0 {
                t[p][n] = b as u8;
                n += 1;
            }
            b += 1;
        }
        p += 1;
    }
    t
};

/// `0x01` in every byte: multiplying by it sums or broadcasts bytes.
const BYTES: u64 = 0x0101_0101_0101_0101;

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

    /// The `n`-th card in index order (0-based), if the set has that many.
    ///
    /// Bots pick their card this way, so it has no data-dependent branch (a loop
    /// counting down to the n-th card would mispredict): the suit holding the card is
    /// chosen by three comparisons, as in [`pick_index`](Self::pick_index), which took
    /// fewer instructions than counting the suits before it and shifting by that.
    #[inline]
    #[must_use]
    pub fn nth(self, n: u32) -> Option<Card> {
        let (suits, lens) = suits_of(self.0);
        if n >= lens.iter().sum() {
            return None;
        }
        Card::from_index(nth_index(suits, lens, n) as u8)
    }

    /// Byte `k` holds the number of cards among indices `0..8k + 8`, so the top byte is
    /// the set's size. Playouts need the size and then the n-th card; this serves both
    /// with a few shifts and one multiply (no popcount instruction in portable builds).
    #[inline]
    pub(crate) const fn prefix_counts(self) -> u64 {
        let x = self.0;
        let b = x - ((x >> 1) & 0x5555_5555_5555_5555);
        let b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
        let b = (b + (b >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        b.wrapping_mul(BYTES)
    }

    /// The `n`-th card in index order given [`prefix_counts`](Self::prefix_counts):
    /// a branch-free broadword select, since random playouts pick every card this way
    /// and a counting loop would mispredict.
    #[inline]
    pub(crate) fn select(self, prefix: u64, n: u32) -> Option<Card> {
        // Bytes whose running count is <= n (each count is < 128, so no borrow crosses
        // bytes): their number is the byte holding the n-th card.
        let le = ((u64::from(n) * BYTES) | (0x80 * BYTES)).wrapping_sub(prefix) & (0x80 * BYTES);
        let k = ((le >> 7).wrapping_mul(BYTES) >> 56) as u32 & 7;
        // Cards before byte k: the running count of byte k − 1 (0 for byte 0).
        let before = ((prefix << 8) >> (8 * k)) as u32 & 0xFF;
        let byte = (self.0 >> (8 * k)) as usize & 0xFF;
        let bit = BYTE_NTH[byte][(n.wrapping_sub(before) & 7) as usize];
        if n < (prefix >> 56) as u32 { Card::from_index(8 * k as u8 + bit) } else { None }
    }

    /// A uniformly random card index of the non-empty set `bits`, drawn from `word`
    /// as [`below`](crate::playout) does (the fraction carried on). Batched playouts
    /// call it for every card, so it has no branch and no `Option` on the card's
    /// dependency chain (the three `if`s below compile to conditional moves; the
    /// branch-simulated profile shows no new mispredictions). It works suit by suit
    /// with small tables (four counts, then the n-th card of one suit): fewer steps
    /// than a popcount and a broadword select over the whole word. For an empty set
    /// the index is meaningless but below 64.
    #[inline]
    pub(crate) fn pick_index(bits: u64, word: &mut u64) -> usize {
        let (suits, lens) = suits_of(bits);
        let m = u128::from(*word) * u128::from(lens[0] + lens[1] + lens[2] + lens[3]);
        *word = m as u64;
        nth_index(suits, lens, (m >> 64) as u32)
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

/// Each suit's 9-bit pattern and its number of cards.
#[inline(always)]
fn suits_of(bits: u64) -> ([usize; 4], [u32; 4]) {
    let suits = [0, 1, 2, 3].map(|s| (bits >> (9 * s)) as usize & 511);
    (suits, suits.map(|p| u32::from(SUIT_LEN[p])))
}

/// The index of the `n`-th card (`n` below the set's size) of the set with these
/// suits. The suit of the n-th card is the last one starting at or before it: its
/// pattern, first index and the cards before it are chosen by three comparisons,
/// which compile to conditional moves. Counting the suit and then shifting by it
/// took a third more instructions. Always inlined: as a call, the random path went
/// from 3,240 to 3,728 instructions a round (callgrind, `random-count 5000`).
#[inline(always)]
fn nth_index(suits: [usize; 4], lens: [u32; 4], n: u32) -> usize {
    // Cards in the suits before suits 1, 2 and 3.
    let (q1, q2, q3) = (lens[0], lens[0] + lens[1], lens[0] + lens[1] + lens[2]);
    let (mut pattern, mut before, mut first) = (suits[0], 0, 0);
    if n >= q1 {
        (pattern, before, first) = (suits[1], q1, 9);
    }
    if n >= q2 {
        (pattern, before, first) = (suits[2], q2, 18);
    }
    if n >= q3 {
        (pattern, before, first) = (suits[3], q3, 27);
    }
    first + usize::from(SUIT_NTH16[pattern][(n - before) as usize & 15])
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
            assert_eq!(Some(CardSet::pick_index(set.bits(), &mut word)), card, "{set:?}");
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
