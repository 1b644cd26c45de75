//! Per-contract lookup tables for the search, built once from the engine's tables
//! (`jass_engine::tables`), so a card's points, its rank in its suit and the trick
//! winner are one array read each, and the search never restates R4.

use std::collections::HashMap;
use std::sync::LazyLock;

use jass_engine::{Contract, tables};

/// The seven point readings: the six contracts and R4's "Altes Undenufe".
pub(crate) const VARIANTS: usize = 7;

/// The nine cards of a suit.
pub(crate) const SUIT_MASK: u64 = 0x1FF;

pub(crate) struct Rules {
    /// Which of the seven readings these are (part of table keys).
    pub(crate) variant: u8,
    /// Card points per card index (R4).
    pub(crate) points: [u8; 36],
    /// The card's place in its suit under the contract, 0 = lowest.
    pub(crate) order: [u8; 36],
    /// The trump suit's index, if any.
    pub(crate) trump: Option<usize>,
    /// Per suit, the card index at each place, lowest first.
    pub(crate) by_order: [[u8; 9]; 4],
    /// Per suit, a 9-bit set of the suit's cards (bit = rank index) as a set of places
    /// (bit = place in the contract's order).
    pub(crate) to_places: [[u16; 512]; 4],
    /// Per suit, for a set of places still in play, the smallest set of places whose
    /// cards have the same points in the same order: positions that differ only there
    /// play alike (the "relative ranks" of bridge solvers).
    pub(crate) canon: [[u16; 512]; 4],
    /// The trumps below each place of the trump suit (R5.4's undertrumps).
    pub(crate) trumps_below: [u64; 9],
    /// Per suit, for a 9-bit set of the suit's cards and a count `n`, the points of
    /// its `n` cheapest cards (all of them if it holds fewer).
    pub(crate) low_points: [[[u8; 10]; 512]; 4],
}

impl Rules {
    /// The power with which `card` contends for a trick led in suit `led`: trumps
    /// above the suit led above the rest (which never win).
    #[inline]
    pub(crate) fn power(&self, card: usize, led: usize) -> u8 {
        let suit = card / 9;
        if Some(suit) == self.trump {
            32 + self.order[card]
        } else if suit == led {
            16 + self.order[card]
        } else {
            0
        }
    }
}

fn build(variant: usize) -> Rules {
    let (contract, old) =
        if variant == 6 { (Contract::Undenufe, true) } else { (Contract::ALL[variant], false) };
    let t = tables(contract, old);
    let trump = contract.trump().map(|s| s.index());
    let mut by_order = [[0u8; 9]; 4];
    let mut to_places = [[0u16; 512]; 4];
    let mut canon = [[0u16; 512]; 4];
    for s in 0..4 {
        for r in 0..9 {
            let c = s * 9 + r;
            by_order[s][usize::from(t.order[c])] = c as u8;
        }
        for (m, out) in to_places[s].iter_mut().enumerate() {
            *out =
                (0..9).filter(|r| m >> r & 1 == 1).map(|r| 1u16 << t.order[s * 9 + r]).fold(0, |a, b| a | b);
        }
        let mut first: HashMap<Vec<u8>, u16> = HashMap::new();
        for (places, out) in canon[s].iter_mut().enumerate() {
            let sig: Vec<u8> = (0..9)
                .filter(|k| places >> k & 1 == 1)
                .map(|k| t.points[usize::from(by_order[s][k])])
                .collect();
            *out = *first.entry(sig).or_insert(places as u16);
        }
    }
    let mut trumps_below = [0u64; 9];
    if let Some(ts) = trump {
        for (place, out) in trumps_below.iter_mut().enumerate() {
            *out = by_order[ts][..place].iter().fold(0, |a, &c| a | 1u64 << c);
        }
    }
    let mut low_points = [[[0u8; 10]; 512]; 4];
    for (s, per_suit) in low_points.iter_mut().enumerate() {
        for (m, out) in per_suit.iter_mut().enumerate() {
            let mut p: Vec<u8> = (0..9).filter(|r| m >> r & 1 == 1).map(|r| t.points[s * 9 + r]).collect();
            p.sort_unstable();
            for (n, o) in out.iter_mut().enumerate() {
                *o = p.iter().take(n).sum();
            }
        }
    }
    Rules {
        variant: variant as u8,
        low_points,
        points: t.points,
        order: t.order,
        trump,
        by_order,
        to_places,
        canon,
        trumps_below,
    }
}

static RULES: LazyLock<Vec<Rules>> = LazyLock::new(|| (0..VARIANTS).map(build).collect());

/// The tables of `contract` under the given undenufe reading.
pub(crate) fn rules(contract: Contract, old_undenufe: bool) -> &'static Rules {
    let v = if old_undenufe && contract == Contract::Undenufe { 6 } else { contract.index() };
    &RULES[v]
}
