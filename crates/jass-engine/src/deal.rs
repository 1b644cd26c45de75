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

use crate::by::BySeat;
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

/// The 64 hex digits of `bytes`. Every state message carries the round's commitment,
/// and formatting it digit by digit through `fmt` was ~3 % of the server's CPU in the
/// load bench.
fn hex_digits(bytes: &[u8; 32]) -> [u8; 64] {
    let mut out = [0u8; 64];
    // Cannot fail: the output is exactly twice the input.
    let _ = hex::encode_to_slice(bytes, &mut out);
    out
}

fn parse_hex(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

macro_rules! hex_type {
    ($t:ident) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let digits = hex_digits(&self.0);
                f.write_str(std::str::from_utf8(&digits).map_err(|_| fmt::Error)?)
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
                let digits = hex_digits(&self.0);
                s.serialize_str(std::str::from_utf8(&digits).map_err(serde::ser::Error::custom)?)
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
    // The shuffle's bounds come from a table: two divisions per draw (the zone and the
    // remainder) were a large share of the time a deal takes.
    let Some(&(zone, m)) = UNIFORM.get(n as usize) else {
        return uniform_slow(rng, n);
    };
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return mod_by(x, m, n);
        }
    }
}

/// [`uniform`] with divisions, for bounds past the table (no deal needs them).
#[cold]
fn uniform_slow(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % n;
        }
    }
}

/// Per bound `n` in `1..=36`: the rejection zone `u32::MAX − (2³² mod n)` and the
/// multiplier `⌊(2⁶⁴ − 1) / n⌋ + 1` of [`mod_by`] (index 0 is unused).
#[expect(clippy::indexing_slicing, reason = "evaluated at compile time: n < 37, the table's length")]
static UNIFORM: [(u32, u64); 37] = {
    let mut t = [(0u32, 0u64); 37];
    let mut n = 1;
    while n < 37 {
        let zone = u32::MAX - (u32::MAX - n as u32 + 1) % n as u32;
        t[n] = (zone, (u64::MAX / n as u64).wrapping_add(1));
        n += 1;
    }
    t
};

/// `x mod n` by multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: exact for every 32-bit `x` and `n`), given `m` from [`UNIFORM`].
#[inline]
fn mod_by(x: u32, m: u64, n: u32) -> u32 {
    let low = m.wrapping_mul(u64::from(x));
    ((u128::from(low) * u128::from(n)) >> 64) as u32
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
    let drawn = Seat::wrapping(uniform(&mut rng, 4) as usize);
    let dealer = dealer.unwrap_or(drawn);
    // Packet k of three cards goes to the k-th seat (mod 4) after the dealer. Collected
    // per place after the dealer first, so every hand builds in a register.
    let mut after_dealer = BySeat([0u64; 4]);
    for (k, packet) in deck.chunks_exact(3).enumerate() {
        after_dealer[Seat::wrapping(k)] |= packet.iter().fold(0, |bits, &c| bits | 1 << (c & 63));
    }
    let hands =
        Seat::ALL.map(|s| CardSet::from_bits(after_dealer[Seat::wrapping(s.distance_from(dealer) + 3)]));
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

    /// The table-driven remainder equals `%` for every bound a deal uses, on the
    /// edges of the range and on many words in between.
    #[test]
    fn mod_by_matches_the_remainder() {
        let mut x = 0x9E37_79B9u32;
        for n in 1..=36u32 {
            let (zone, m) = UNIFORM[n as usize];
            assert_eq!(zone, u32::MAX - (u32::MAX - n + 1) % n);
            let edges = [0, 1, n - 1, n, n + 1, zone, zone.wrapping_add(1), u32::MAX - 1, u32::MAX];
            for v in edges {
                assert_eq!(mod_by(v, m, n), v % n, "{v} mod {n}");
            }
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                assert_eq!(mod_by(x, m, n), x % n, "{x} mod {n}");
            }
        }
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
