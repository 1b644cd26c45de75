//! Seeds, commitments, the specified shuffle and the 3-3-3 deal (R2, R12).
//!
//! The shuffle is spelled out here (and in protocol.md) rather than borrowed from
//! `rand`'s `shuffle`, whose batching is not a published spec: any client must be
//! able to re-deal a revealed seed.

use std::fmt;

use rand::rngs::ChaCha20Rng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

/// 32 bytes from a CSPRNG (the server's), one per round; text form is 64 hex digits.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Seed(pub [u8; 32]);

/// SHA-256 of a seed, published before the deal (R12).
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl Seed {
    /// The commitment clients hold before the seed is revealed.
    #[must_use]
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8; 32]) -> fmt::Result {
    bytes.iter().try_for_each(|b| write!(f, "{b:02x}"))
}

fn parse_hex(s: &str) -> Option<[u8; 32]> {
    let b = s.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let nib = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = nib(b[2 * i])? << 4 | nib(b[2 * i + 1])?;
    }
    Some(out)
}

macro_rules! hex_type {
    ($t:ident) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_hex(f, &self.0)
            }
        }
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($t), "({})"), self)
            }
        }
        impl std::str::FromStr for $t {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                parse_hex(s).map(Self).ok_or_else(|| "expected 64 hex digits".to_owned())
            }
        }
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
hex_type!(Seed);
hex_type!(Commitment);

/// A uniform integer in `0..n` by rejection sampling on `next_u32` (no modulo bias).
fn uniform(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % n;
        }
    }
}

/// The outcome of dealing a seed.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Deal {
    /// Hands by seat number.
    pub hands: [CardSet; 4],
    /// The dealer: the one given, or for the first round the seat the seed draws (R2).
    pub dealer: Seat,
}

/// Shuffles and deals (R2, R12).
///
/// The algorithm, as protocol.md states it: `rng = ChaCha20Rng::from_seed(seed)`;
/// `deck = [0, 1, …, 35]` (card index = suit × 9 + rank, H D C S, 6..A); for `i`
/// from 35 down to 1: `j = uniform(i + 1)`, swap `deck[i]` and `deck[j]`, where
/// `uniform(n)` draws `x = next_u32()` until `x <= zone` with
/// `zone = u32::MAX − (2³² mod n)` and returns `x mod n`. Then `drawn = uniform(4)`
/// is the first round's dealer (later rounds pass theirs in, R2, and ignore it).
/// Card `deck[p]` goes to seat `dealer + 1 + (p / 3) mod 4`: three cards at a time
/// from the dealer's right, ending with the dealer.
///
/// ```
/// use jass_engine::{deal, Seat, Seed};
/// let d = deal(Seed([0; 32]), Some(Seat::ALL[0]));
/// assert!(d.hands.iter().all(|h| h.len() == 9));
/// ```
#[must_use]
pub fn deal(seed: Seed, dealer: Option<Seat>) -> Deal {
    let mut rng = ChaCha20Rng::from_seed(seed.0);
    let mut deck: [u8; 36] = std::array::from_fn(|i| i as u8);
    for i in (1..36).rev() {
        let j = uniform(&mut rng, i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    let drawn = Seat::ALL[uniform(&mut rng, 4) as usize & 3];
    let dealer = dealer.unwrap_or(drawn);
    let mut hands = [CardSet::EMPTY; 4];
    for (p, &c) in deck.iter().enumerate() {
        let seat = dealer.plus(1 + (p / 3) % 4);
        if let Some(card) = Card::from_index(c) {
            hands[seat.index()] = hands[seat.index()].with(card);
        }
    }
    Deal { hands, dealer }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let s = Seed(std::array::from_fn(|i| i as u8 * 7));
        assert_eq!(s.to_string().parse::<Seed>().unwrap(), s);
        assert!("zz".parse::<Seed>().is_err());
        assert!("ab".repeat(33).parse::<Seed>().is_err());
    }

    /// R12: the commitment is SHA-256 of the 32 seed bytes.
    #[test]
    fn r12_commitment_is_sha256() {
        assert_eq!(
            Seed([0; 32]).commitment().to_string(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
