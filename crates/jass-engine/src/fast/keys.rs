//! The trick winner (R5, last bullet) as one table lookup per card: random playouts
//! rank every card they play, and a lookup replaces the comparisons of
//! [`Trick::winner`](crate::Trick::winner), against which the tests hold it.

#![expect(
    clippy::indexing_slicing,
    reason = "the tables are built at compile time (an index out of range is a build error), and the lookups index them by a contract (0..6), a suit (0..4) and a card index (0..36), or a card index masked to 0..64 into the 64-wide rows"
)]

use crate::contract::{Contract, build};

/// The trick keys for every suit led and card under `contract`, for loops that look up
/// many cards of one contract.
#[inline]
pub(crate) fn trick_keys(contract: Contract) -> &'static [[u8; 36]; 4] {
    &TRICK_KEYS[contract.index()]
}

/// How each card ranks in a trick, for every contract, suit led and card (R5, last
/// bullet): any trump above any card of the suit led, each by the contract's order;
/// other cards score 0 and never win. Cards that can win have distinct keys, so the
/// trick's maximum is unique.
pub(crate) static TRICK_KEYS: [[[u8; 36]; 4]; 6] = {
    let mut keys = [[[0u8; 36]; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let contract = Contract::ALL[k];
        let order = build(contract, false).order;
        let mut led = 0;
        while led < 4 {
            let mut c = 0;
            while c < 36 {
                let suit = c / 9;
                keys[k][led][c] = match contract.trump() {
                    Some(t) if t as usize == suit => 32 + order[c],
                    _ if suit == led => 16 + order[c],
                    _ => 0,
                };
                c += 1;
            }
            led += 1;
        }
        k += 1;
    }
    keys
};

/// Per contract, suit led and card index: the card's trick key (as
/// [`trick_keys`]) times 256 plus its points (`old_undenufe` off). One load serves
/// both, and the 64-wide rows let a masked index skip the bounds check.
pub(crate) static KEY_POINTS: [[[u16; 64]; 4]; 6] = {
    let mut t = [[[0u16; 64]; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let contract = Contract::ALL[k];
        let built = build(contract, false);
        let keys = &TRICK_KEYS[k];
        let mut led = 0;
        while led < 4 {
            let mut c = 0;
            while c < 36 {
                t[k][led][c] = (keys[led][c] as u16) << 8 | built.points[c] as u16;
                c += 1;
            }
            led += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, Suit};
    use crate::seat::Seat;

    fn trick_key(card: Card, led: Suit, contract: Contract) -> u8 {
        TRICK_KEYS[contract.index()][led.index()][card.index()]
    }
    use crate::trick::Trick;

    /// The table names the same winner as the readable [`Trick::winner`], for every
    /// contract and many tricks.
    #[test]
    fn keys_pick_the_readable_winner() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut cards = Vec::new();
            let mut y = x;
            while cards.len() < 4 {
                let Some(c) = Card::from_index((y % 36) as u8) else { unreachable!() };
                if !cards.contains(&c) {
                    cards.push(c);
                }
                y = y.rotate_right(7) ^ 0x5851_F42D_4C95_7F2D;
            }
            let leader = Seat::ALL[(x >> 60) as usize & 3];
            let trick = Trick::from_cards(leader, &cards);
            for contract in Contract::ALL {
                let led = cards[0].suit();
                let best = (0..4).max_by_key(|&i| trick_key(cards[i], led, contract)).unwrap_or(0);
                assert_eq!(trick.winner(contract), Some(leader.plus(best)), "{cards:?} {contract:?}");
            }
        }
    }
}
