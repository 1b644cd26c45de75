//! Contracts, their rank orders and card points (R3, R4).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;

/// What the round is played as (R3): a trump suit, Obenabe or Undenufe.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contract {
    /// Trump hearts.
    Hearts,
    /// Trump diamonds.
    Diamonds,
    /// Trump clubs.
    Clubs,
    /// Trump spades.
    Spades,
    /// No trump, aces high; 8s count 8.
    Obenabe,
    /// No trump, sixes high; 6s count 11, 8s count 8.
    Undenufe,
}

impl Contract {
    /// The six contracts, in multiplier-table order.
    pub const ALL: [Self; 6] =
        [Self::Hearts, Self::Diamonds, Self::Clubs, Self::Spades, Self::Obenabe, Self::Undenufe];

    /// The trump contract of `s`.
    #[must_use]
    pub const fn trump_of(s: Suit) -> Self {
        match s {
            Suit::Hearts => Self::Hearts,
            Suit::Diamonds => Self::Diamonds,
            Suit::Clubs => Self::Clubs,
            Suit::Spades => Self::Spades,
        }
    }

    /// The trump suit, if the contract has one.
    #[must_use]
    pub const fn trump(self) -> Option<Suit> {
        match self {
            Self::Hearts => Some(Suit::Hearts),
            Self::Diamonds => Some(Suit::Diamonds),
            Self::Clubs => Some(Suit::Clubs),
            Self::Spades => Some(Suit::Spades),
            Self::Obenabe | Self::Undenufe => None,
        }
    }

    /// Index 0..6 in [`Contract::ALL`] order.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// This contract's entry of a per-contract array in [`Contract::ALL`] order.
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "a contract's index is below six, the array's length")]
    pub const fn of<T>(self, values: &[T; 6]) -> &T {
        &values[self.index()]
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Hearts => "hearts",
            Self::Diamonds => "diamonds",
            Self::Clubs => "clubs",
            Self::Spades => "spades",
            Self::Obenabe => "obenabe",
            Self::Undenufe => "undenufe",
        })
    }
}

/// Position of a rank in the trump order 6 7 8 T Q K A 9 J (R4), low = 0.
const TRUMP_ORDER: [u8; 9] = [0, 1, 2, 7, 3, 8, 4, 5, 6];

/// Per-contract lookup tables: everything a trick needs is one array read.
#[derive(Copy, Clone, Debug)]
pub struct Tables {
    /// Card points per card index (R4).
    pub points: [u8; 36],
    /// Order within its suit under this contract, 0 = lowest (trump order for trumps).
    pub order: [u8; 36],
}

impl Tables {
    /// The card points of `card` (R4).
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "a card's index is below 36, the table's length")]
    pub const fn points_of(&self, card: Card) -> u8 {
        self.points[card.index()]
    }

    /// The order of `card` within its suit (trump order for trumps), 0 = lowest.
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "a card's index is below 36, the table's length")]
    pub const fn order_of(&self, card: Card) -> u8 {
        self.order[card.index()]
    }
}

const fn rank_points(contract: Contract, rank: Rank, is_trump: bool, old_undenufe: bool) -> u8 {
    match contract {
        Contract::Obenabe => match rank {
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            Rank::Eight => 8,
            _ => 0,
        },
        Contract::Undenufe => match rank {
            Rank::Six if !old_undenufe => 11,
            Rank::Ace if old_undenufe => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            Rank::Eight => 8,
            _ => 0,
        },
        _ if is_trump => match rank {
            Rank::Jack => 20,
            Rank::Nine => 14,
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            _ => 0,
        },
        _ => match rank {
            Rank::Ace => 11,
            Rank::Ten => 10,
            Rank::King => 4,
            Rank::Queen => 3,
            Rank::Jack => 2,
            _ => 0,
        },
    }
}

#[expect(clippy::indexing_slicing, reason = "evaluated at compile time (the static tables): i < 36, r < 9")]
pub(crate) const fn build(contract: Contract, old_undenufe: bool) -> Tables {
    let mut points = [0u8; 36];
    let mut order = [0u8; 36];
    let trump = contract.trump();
    let mut i = 0;
    while i < 36 {
        let suit = i / 9;
        let r = i % 9;
        let is_trump = match trump {
            Some(t) => t as usize == suit,
            None => false,
        };
        points[i] = rank_points(contract, Rank::ALL[r], is_trump, old_undenufe);
        order[i] = match contract {
            Contract::Undenufe => 8 - r as u8,
            _ if is_trump => TRUMP_ORDER[r],
            _ => r as u8,
        };
        i += 1;
    }
    Tables { points, order }
}

static TABLES: [Tables; 7] = [
    build(Contract::Hearts, false),
    build(Contract::Diamonds, false),
    build(Contract::Clubs, false),
    build(Contract::Spades, false),
    build(Contract::Obenabe, false),
    build(Contract::Undenufe, false),
    build(Contract::Undenufe, true),
];

/// The lookup tables of `contract`; `old_undenufe` selects R4's "Altes Undenufe".
#[must_use]
#[expect(clippy::indexing_slicing, reason = "a contract's index is below six, and `TABLES` has seven")]
pub fn tables(contract: Contract, old_undenufe: bool) -> &'static Tables {
    if old_undenufe && contract == Contract::Undenufe { &TABLES[6] } else { &TABLES[contract.index()] }
}

/// Card points of `card` under `contract` (R4).
///
/// ```
/// use jass_engine::{card_points, Contract};
/// let p = |c: &str, k| card_points(c.parse().unwrap(), k, false);
/// assert_eq!(p("SJ", Contract::Spades), 20);
/// assert_eq!(p("HJ", Contract::Spades), 2);
/// assert_eq!(p("C8", Contract::Obenabe), 8);
/// assert_eq!(p("C6", Contract::Undenufe), 11);
/// assert_eq!(p("CA", Contract::Undenufe), 0);
/// ```
#[must_use]
pub fn card_points(card: Card, contract: Contract, old_undenufe: bool) -> u32 {
    u32::from(tables(contract, old_undenufe).points_of(card))
}

/// Sum of the card points of a set.
#[must_use]
pub fn set_points(cards: CardSet, contract: Contract, old_undenufe: bool) -> u32 {
    let t = tables(contract, old_undenufe);
    cards.iter().map(|c| u32::from(t.points_of(c))).sum()
}

/// For each 9-bit pattern of trump ranks (bit r = rank r in the natural order), the
/// pattern of the ranks below its highest card in the trump order (0 for no trump):
/// the undertrumps of R5.4 in one lookup.
#[expect(clippy::indexing_slicing, reason = "evaluated at compile time: p < 512, r < 9")]
pub(crate) static UNDERTRUMPS: [u16; 512] = {
    let mut out = [0u16; 512];
    let mut p = 1;
    while p < 512 {
        let mut best = 0; // trump-order position of the highest trump in `p`
        let mut r = 0;
        while r < 9 {
            if p & (1 << r) != 0 && TRUMP_ORDER[r] > best {
                best = TRUMP_ORDER[r];
            }
            r += 1;
        }
        let mut below = 0u16;
        let mut r = 0;
        while r < 9 {
            if TRUMP_ORDER[r] < best {
                below |= 1 << r;
            }
            r += 1;
        }
        out[p] = below;
        p += 1;
    }
    out
};

/// The trumps of suit `t` ranked below the highest trump among `trumps` (R5.4); empty
/// if `trumps` holds no card of suit `t`.
#[inline]
#[must_use]
#[expect(clippy::indexing_slicing, reason = "masked to 0..512, the table's length")]
pub(crate) fn undertrumps(trumps: CardSet, t: Suit) -> CardSet {
    let below = UNDERTRUMPS[trumps.suit_bits(t) as usize & 511];
    CardSet::from_bits(u64::from(below) << (9 * t.index()))
}

/// The trumps of suit `t` ranked below `card` in the trump order.
#[must_use]
pub fn trumps_below(card: Card, t: Suit) -> CardSet {
    undertrumps(CardSet::single(Card::new(t, card.rank())), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R4: every deal holds 152 card points under every contract and both undenufe readings.
    #[test]
    fn r4_every_contract_counts_152() {
        for k in Contract::ALL {
            for old in [false, true] {
                assert_eq!(set_points(CardSet::DECK, k, old), 152, "{k} old={old}");
            }
        }
    }

    /// R4: old_undenufe swaps the values of A and 6.
    #[test]
    fn r4_old_undenufe() {
        let a: Card = "DA".parse().unwrap();
        let six: Card = "D6".parse().unwrap();
        assert_eq!(card_points(a, Contract::Undenufe, true), 11);
        assert_eq!(card_points(six, Contract::Undenufe, true), 0);
        assert_eq!(card_points(a, Contract::Obenabe, true), 11);
    }

    /// R5.4: the undertrump table gives, for every set of trumps in a trick, exactly the
    /// trumps ranked below its highest one.
    #[test]
    fn r5_undertrumps_table() {
        for t in Suit::ALL {
            let k = Contract::trump_of(t);
            let order = &tables(k, false).order;
            for p in 0..512u64 {
                let down = CardSet::from_bits(p << (9 * t.index()));
                let best = down.iter().map(|c| order[c.index()]).max();
                let expect: CardSet =
                    CardSet::suit(t).iter().filter(|c| best.is_some_and(|b| order[c.index()] < b)).collect();
                assert_eq!(undertrumps(down | CardSet::suit(Suit::from_index(t.index() + 1)), t), expect);
            }
        }
    }

    /// R4: trump order J 9 A K Q T 8 7 6.
    #[test]
    fn r4_trump_order() {
        let t = tables(Contract::Spades, false);
        let order: Vec<String> = {
            let mut v: Vec<Card> = CardSet::suit(Suit::Spades).iter().collect();
            v.sort_by_key(|c| std::cmp::Reverse(t.order[c.index()]));
            v.iter().map(ToString::to_string).collect()
        };
        assert_eq!(order.join(" "), "SJ S9 SA SK SQ ST S8 S7 S6");
        let below: CardSet = trumps_below("S9".parse().unwrap(), Suit::Spades);
        assert_eq!(below, "SA SK SQ ST S8 S7 S6".parse().unwrap());
    }
}
