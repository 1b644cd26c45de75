//! Suits, ranks and the 36 cards in their text form (R1).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit in R1 order. Swiss names are a display matter (R9); the engine never uses them.
/// On the wire by its letter, as in a card's name.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[repr(u8)]
pub enum Suit {
    /// `H`: hearts, Rosen in the Swiss decks.
    #[serde(rename = "H")]
    Hearts = 0,
    /// `D`: diamonds.
    #[serde(rename = "D")]
    Diamonds = 1,
    /// `C`: clubs.
    #[serde(rename = "C")]
    Clubs = 2,
    /// `S`: spades.
    #[serde(rename = "S")]
    Spades = 3,
}

impl Suit {
    /// All suits in R1 order.
    pub const ALL: [Self; 4] = [Self::Hearts, Self::Diamonds, Self::Clubs, Self::Spades];

    /// The suit's index 0..=3, as used for card indices and multiplier tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit with index `i & 3`.
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "masked to 0..4, the length of `ALL`")]
    pub const fn from_index(i: usize) -> Self {
        Self::ALL[i & 3]
    }

    /// The one-letter text form (`H`, `D`, `C`, `S`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Self::Hearts => 'H',
            Self::Diamonds => 'D',
            Self::Clubs => 'C',
            Self::Spades => 'S',
        }
    }

    /// Parses the one-letter form.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Self> {
        match c {
            'H' => Some(Self::Hearts),
            'D' => Some(Self::Diamonds),
            'C' => Some(Self::Clubs),
            'S' => Some(Self::Spades),
            _ => None,
        }
    }
}

/// A rank in the natural order 6..A; R6 runs use this order under every contract.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
#[repr(u8)]
pub enum Rank {
    /// 6
    Six = 0,
    /// 7
    Seven = 1,
    /// 8
    Eight = 2,
    /// 9 (Näll when trump)
    Nine = 3,
    /// 10, `T` in text, Banner in the Swiss deck
    Ten = 4,
    /// Jack, Under in the Swiss deck (Puur when trump)
    Jack = 5,
    /// Queen, Ober in the Swiss deck
    Queen = 6,
    /// King
    King = 7,
    /// Ace
    Ace = 8,
}

impl Rank {
    /// The rank with index `i % 9` (a card index's rank, or a rank index itself).
    #[inline]
    #[must_use]
    #[expect(clippy::indexing_slicing, reason = "reduced to 0..9, the length of `ALL`")]
    pub(crate) const fn wrapping(i: usize) -> Self {
        Self::ALL[i % 9]
    }

    /// All ranks, low to high in the natural order.
    pub const ALL: [Self; 9] = [
        Self::Six,
        Self::Seven,
        Self::Eight,
        Self::Nine,
        Self::Ten,
        Self::Jack,
        Self::Queen,
        Self::King,
        Self::Ace,
    ];

    /// The rank's index 0..=8 in the natural order.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-character text form (`6`..`9`, `T`, `J`, `Q`, `K`, `A`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Self::Six => '6',
            Self::Seven => '7',
            Self::Eight => '8',
            Self::Nine => '9',
            Self::Ten => 'T',
            Self::Jack => 'J',
            Self::Queen => 'Q',
            Self::King => 'K',
            Self::Ace => 'A',
        }
    }

    /// Parses the one-character form.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Self> {
        match c {
            '6' => Some(Self::Six),
            '7' => Some(Self::Seven),
            '8' => Some(Self::Eight),
            '9' => Some(Self::Nine),
            'T' => Some(Self::Ten),
            'J' => Some(Self::Jack),
            'Q' => Some(Self::Queen),
            'K' => Some(Self::King),
            'A' => Some(Self::Ace),
            _ => None,
        }
    }
}

/// One of the 36 cards; its index is `suit * 9 + rank`, the bit it occupies in a
/// [`CardSet`](crate::CardSet).
///
/// ```
/// use jass_engine::{Card, Rank, Suit};
/// let c: Card = "HJ".parse().unwrap();
/// assert_eq!(c, Card::new(Suit::Hearts, Rank::Jack));
/// assert_eq!(c.to_string(), "HJ");
/// assert!("H1".parse::<Card>().is_err());
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of `suit` and `rank`.
    #[must_use]
    pub const fn new(suit: Suit, rank: Rank) -> Self {
        Self(suit as u8 * 9 + rank as u8)
    }

    /// The card with index `i`, if `i < 36`.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Self> {
        if i < 36 { Some(Self(i)) } else { None }
    }

    /// The card's index 0..36.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card's suit.
    #[inline]
    #[must_use]
    pub const fn suit(self) -> Suit {
        Suit::from_index((self.0 / 9) as usize)
    }

    /// The card's rank.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::wrapping(self.0 as usize)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit().letter(), self.rank().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a card: it must be a suit letter then a rank letter, e.g. `HJ`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("not a card: {0:?} (expected suit H/D/C/S then rank 6-9/T/J/Q/K/A, e.g. \"HJ\")")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(a), Some(b), None) => match (Suit::from_letter(a), Rank::from_letter(b)) {
                (Some(suit), Some(rank)) => Ok(Self::new(suit, rank)),
                _ => Err(ParseCardError(s.chars().take(16).collect())),
            },
            _ => Err(ParseCardError(s.chars().take(16).collect())),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let buf = [self.suit().letter() as u8, self.rank().letter() as u8];
        // Both bytes are ASCII letters or digits, so this is always valid UTF-8.
        let text = std::str::from_utf8(&buf);
        debug_assert!(text.is_ok(), "card letters are ASCII");
        s.serialize_str(text.unwrap_or("??"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for i in 0..36 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(Card::new(c.suit(), c.rank()), c);
        }
        assert!(Card::from_index(36).is_none());
    }

    #[test]
    fn bad_text_is_an_error() {
        for s in ["", "H", "H1", "X6", "HJJ", "hj", "ÄÖ", "6H"] {
            assert!(s.parse::<Card>().is_err(), "{s}");
        }
    }
}
