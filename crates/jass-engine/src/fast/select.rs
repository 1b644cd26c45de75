//! A set's n-th card without a loop: per-suit tables and a broadword select. Bots
//! and playouts pick every card this way, and a loop counting down to the n-th card
//! would mispredict on random picks. The readable statement is "the n-th card of
//! `CardSet::iter`"; the tests in `cardset.rs` hold these to it.

#![expect(
    clippy::indexing_slicing,
    reason = "the tables are built at compile time (an index out of range is a build error), and the lookups index them by a 9-bit suit pattern (0..512), a byte (0..256) and a count masked below the row length; a set's n-th card is picked for every card of every random playout, where these loads are measured in instructions (docs/benchmarks.md)"
)]

use crate::card::Card;

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

/// [`CardSet::nth`](crate::CardSet::nth) on the set's bits.
///
/// Bots pick their card this way, so it has no data-dependent branch (a loop
/// counting down to the n-th card would mispredict): the suit holding the card is
/// chosen by three comparisons, as in [`pick_index`], which took fewer instructions
/// than counting the suits before it and shifting by that.
#[inline]
pub(crate) fn nth(bits: u64, n: u32) -> Option<Card> {
    let (suits, lens) = suits_of(bits);
    if n >= lens.iter().sum() {
        return None;
    }
    Card::from_index(nth_index(suits, lens, n) as u8)
}

/// Byte `k` holds the number of cards among indices `0..8k + 8`, so the top byte is
/// the set's size. Playouts need the size and then the n-th card; this serves both
/// with a few shifts and one multiply (no popcount instruction in portable builds).
#[inline]
pub(crate) const fn prefix_counts(bits: u64) -> u64 {
    let x = bits;
    let b = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    let b = (b + (b >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    b.wrapping_mul(BYTES)
}

/// The `n`-th card in index order given [`prefix_counts`]:
/// a branch-free broadword select, since random playouts pick every card this way
/// and a counting loop would mispredict.
#[inline]
pub(crate) fn select(bits: u64, prefix: u64, n: u32) -> Option<Card> {
    // Bytes whose running count is <= n (each count is < 128, so no borrow crosses
    // bytes): their number is the byte holding the n-th card.
    let le = ((u64::from(n) * BYTES) | (0x80 * BYTES)).wrapping_sub(prefix) & (0x80 * BYTES);
    let k = ((le >> 7).wrapping_mul(BYTES) >> 56) as u32 & 7;
    // Cards before byte k: the running count of byte k − 1 (0 for byte 0).
    let before = ((prefix << 8) >> (8 * k)) as u32 & 0xFF;
    let byte = (bits >> (8 * k)) as usize & 0xFF;
    let bit = BYTE_NTH[byte][(n.wrapping_sub(before) & 7) as usize];
    if n < (prefix >> 56) as u32 { Card::from_index(8 * k as u8 + bit) } else { None }
}

/// A uniformly random card index of the non-empty set `bits`, drawn from `word`
/// as `below` in the playouts does (the fraction carried on). Batched playouts
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
