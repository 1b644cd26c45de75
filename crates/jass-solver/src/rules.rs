//! Per-contract lookup tables for the search, built once from the engine's tables
//! (`jass_engine::tables`), so a card's points, its rank in its suit and the trick
//! winner are one array read each, and the search never restates R4.

#![expect(
    clippy::indexing_slicing,
    reason = "the tables are built for exactly the ranges they are read with: 36 cards, 9 ranks of 4 suits, 5- and 4-bit masks, 7 contract variants (the variant of `rules` is a contract's index 0..6 or 6); the compression lookups run at every node of the solver, whose instructions are measured (docs/benchmarks.md)"
)]

use std::collections::HashMap;
use std::sync::LazyLock;

use jass_engine::{Contract, tables};

/// The seven point readings: the six contracts and R4's "Altes Undenufe".
pub(crate) const VARIANTS: usize = 7;

/// The nine cards of a suit.
pub(crate) const SUIT_MASK: u64 = 0x1FF;

/// The search's card index: `suit * 9 + place`, where the place is the card's rank
/// in its suit under the contract (0 = lowest). A hand's 9 bits of a suit are then
/// its places, so higher cards are higher bits and the key, the moves and the bounds
/// need no translation; `to_int`/`to_ext` convert at the solver's edges.
pub(crate) struct Rules {
    /// Which of the seven readings these are (part of table keys).
    pub(crate) variant: u8,
    /// Card points per search index (R4).
    pub(crate) points: [u8; 36],
    /// The trump suit's index, if any.
    pub(crate) trump: Option<usize>,
    /// Per suit, for a set of places still in play, the smallest set of places whose
    /// cards have the same points in the same order: positions that differ only there
    /// play alike (the "relative ranks" of bridge solvers).
    pub(crate) canon: [[u16; 512]; 4],
    /// The trumps below each place of the trump suit (R5.4's undertrumps).
    pub(crate) trumps_below: [u64; 9],
    /// The Puur (R5.2's exception), as a search mask; 0 without trumps.
    pub(crate) puur: u64,
    /// Per suit, for a set of places and a count `n`, the points of its `n` cheapest
    /// cards (all of them if it holds fewer).
    pub(crate) low_points: [[[u8; 10]; 512]; 4],
    /// Per suit led, each card's power (`power`).
    powers: [[u8; 36]; 4],
    /// The engine's card index to the search's, and back.
    to_int: [u8; 36],
    pub(crate) to_ext: [u8; 36],
}

impl Rules {
    /// The power with which `card` contends for a trick led in suit `led`: trumps
    /// above the suit led above the rest (which never win).
    #[inline]
    pub(crate) fn power(&self, card: usize, led: usize) -> u8 {
        self.powers.get(led).and_then(|p| p.get(card)).copied().unwrap_or(0)
    }

    /// An engine card set as a search mask.
    pub(crate) fn to_int_mask(&self, cards: u64) -> u64 {
        (0..36).filter(|&c| cards >> c & 1 == 1).fold(0, |m, c| m | 1u64 << self.to_int[c])
    }

    /// An engine card index as a search index.
    pub(crate) fn to_int(&self, card: usize) -> usize {
        self.to_int.get(card).map_or(0, |&c| usize::from(c))
    }
}

fn build(variant: usize) -> Rules {
    let (contract, old) =
        if variant == 6 { (Contract::Undenufe, true) } else { (Contract::ALL[variant], false) };
    let t = tables(contract, old);
    let trump = contract.trump().map(|s| s.index());
    let mut to_int = [0u8; 36];
    let mut to_ext = [0u8; 36];
    for (c, int) in to_int.iter_mut().enumerate() {
        let i = c / 9 * 9 + usize::from(t.order[c]);
        *int = i as u8;
        to_ext[i] = c as u8;
    }
    let points: [u8; 36] = std::array::from_fn(|i| t.points[usize::from(to_ext[i])]);
    let mut canon = [[0u16; 512]; 4];
    for (s, per_suit) in canon.iter_mut().enumerate() {
        let mut first: HashMap<Vec<u8>, u16> = HashMap::new();
        for (places, out) in per_suit.iter_mut().enumerate() {
            let sig: Vec<u8> = (0..9).filter(|k| places >> k & 1 == 1).map(|k| points[s * 9 + k]).collect();
            *out = *first.entry(sig).or_insert(places as u16);
        }
    }
    let mut trumps_below = [0u64; 9];
    let mut puur = 0;
    if let Some(ts) = trump {
        for (place, out) in trumps_below.iter_mut().enumerate() {
            *out = ((1u64 << place) - 1) << (ts * 9);
        }
        // The Puur is the jack of trumps (rank index 5).
        puur = 1u64 << to_int[ts * 9 + 5];
    }
    let mut low_points = [[[0u8; 10]; 512]; 4];
    for (s, per_suit) in low_points.iter_mut().enumerate() {
        for (m, out) in per_suit.iter_mut().enumerate() {
            let mut p: Vec<u8> = (0..9).filter(|k| m >> k & 1 == 1).map(|k| points[s * 9 + k]).collect();
            p.sort_unstable();
            for (n, o) in out.iter_mut().enumerate() {
                *o = p.iter().take(n).sum();
            }
        }
    }
    let mut powers = [[0u8; 36]; 4];
    for (led, out) in powers.iter_mut().enumerate() {
        for (card, p) in out.iter_mut().enumerate() {
            let suit = card / 9;
            let place = (card % 9) as u8;
            *p = if Some(suit) == trump {
                32 + place
            } else if suit == led {
                16 + place
            } else {
                0
            };
        }
    }
    Rules {
        variant: variant as u8,
        points,
        trump,
        canon,
        trumps_below,
        puur,
        low_points,
        powers,
        to_int,
        to_ext,
    }
}

/// `compress(x, m)`: the bits of `x` at the set bits of `m`, packed from bit 0 (a
/// 9-bit PEXT), by two small tables (5 and 4 bits).
#[inline]
pub(crate) fn compress(x: u16, m: u16) -> u16 {
    let lo = COMPRESS5[usize::from(m & 31)][usize::from(x & 31)];
    let hi = COMPRESS4[usize::from(m >> 5 & 15)][usize::from(x >> 5 & 15)];
    u16::from(lo) | u16::from(hi) << (m & 31).count_ones()
}

const fn compress_table<const N: usize>() -> [[u8; N]; N] {
    let mut t = [[0u8; N]; N];
    let mut m = 0;
    while m < N {
        let mut x = 0;
        while x < N {
            let (mut out, mut i, mut b) = (0u8, 0, 0);
            while b < 8 {
                if m >> b & 1 == 1 {
                    out |= ((x >> b & 1) as u8) << i;
                    i += 1;
                }
                b += 1;
            }
            t[m][x] = out;
            x += 1;
        }
        m += 1;
    }
    t
}

static COMPRESS5: [[u8; 32]; 32] = compress_table::<32>();
static COMPRESS4: [[u8; 16]; 16] = compress_table::<16>();

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(|| (0..VARIANTS).map(build).collect());

/// The tables of `contract` under the given undenufe reading.
pub(crate) fn rules(contract: Contract, old_undenufe: bool) -> &'static Rules {
    let v = if old_undenufe && contract == Contract::Undenufe { 6 } else { contract.index() };
    &RULES[v]
}
