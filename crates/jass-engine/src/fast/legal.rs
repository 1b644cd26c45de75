//! The legal cards of a following card (R5) without data-dependent branches, on raw
//! bits: random playouts call it for 27 cards a round, and its outcome (can the seat
//! follow? may it trump?) is a coin flip a branch predictor would miss. The readable
//! rule is [`legal_cards`](crate::legal_cards); the tests hold this to it.

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::contract::{Contract, UNDERTRUMPS};

/// The trump facts [`legal_follow`] needs, fixed for a whole round, as raw bits.
#[derive(Copy, Clone)]
pub(crate) struct TrumpMasks {
    /// The trump suit's cards (0 without trump).
    suit: u64,
    /// The Puur (0 without trump).
    puur: u64,
    /// Where the trump suit starts (9 × suit; 0 without trump, then never used).
    shift: u32,
}

impl TrumpMasks {
    /// The masks of `contract`.
    #[inline]
    pub(crate) fn new(contract: Contract) -> Self {
        match contract.trump() {
            Some(t) => Self {
                suit: CardSet::suit(t).bits(),
                puur: CardSet::single(Card::new(t, Rank::Jack)).bits(),
                shift: 9 * t as u32,
            },
            None => Self { suit: 0, puur: 0, shift: 0 },
        }
    }
}

/// [`legal_given`] for a card that follows (`led` is the suit led), written without
/// data-dependent branches: random playouts call it for 27 cards a round, and its
/// outcome (can the seat follow? may it trump?) is a coin flip a predictor would miss.
#[inline]
pub(crate) fn legal_follow(hand: CardSet, led: Suit, down: CardSet, t: TrumpMasks) -> CardSet {
    CardSet::from_bits(legal_follow_bits(hand.bits(), CardSet::suit(led).bits(), down.bits(), t))
}

/// [`legal_follow`] on raw bits (`led_mask`: the cards of the suit led), for the
/// batched playouts, which keep sets as plain words.
#[inline]
#[expect(clippy::indexing_slicing, reason = "masked to 0..512, the table's length")]
pub(crate) fn legal_follow_bits(hand: u64, led_mask: u64, down: u64, t: TrumpMasks) -> u64 {
    let follow = hand & led_mask;
    let trumps = hand & t.suit;
    // R5.1, R5.2: follow suit if you can (with trump led, the Puur alone does not
    // oblige); R5.3: trumping is allowed too (no trumps without trump; and with trump
    // led they are already in `follow`).
    let base = if follow & !t.puur == 0 { hand } else { follow };
    let ok = base | trumps;
    // R5.4: no undertrumping when another suit is led, unless the hand holds nothing
    // but trumps.
    let other_led = t.suit != 0 && led_mask != t.suit && trumps != hand;
    let under = u64::from(UNDERTRUMPS[(down >> t.shift) as usize & 511]) << t.shift;
    ok & !if other_led { under } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trick::legal_given;

    /// The branch-free form gives the readable rule's cards, for every contract and
    /// many hands and tricks (the readable rule is the oracle).
    #[test]
    fn legal_follow_is_the_readable_rule() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let hand = CardSet::from_bits(x & (x >> 3));
            let down = CardSet::from_bits(x.rotate_left(23) & x.rotate_left(41) & (x >> 7)) & !hand;
            let Some(first) = down.first() else { continue };
            let led = first.suit();
            for contract in Contract::ALL {
                let fast = legal_follow(hand, led, down, TrumpMasks::new(contract));
                assert_eq!(fast, legal_given(hand, Some(led), down, contract), "{hand} {down} {contract:?}");
            }
        }
    }
}
