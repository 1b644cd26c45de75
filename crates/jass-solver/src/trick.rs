//! The trick in the search's compact form, and R5 on its masks: which cards of a hand
//! may be played to it and which card takes it, checked against the engine's
//! [`jass_engine::legal_cards`] and trick winner on random deals (the test below).

#![expect(
    clippy::indexing_slicing,
    reason = "cards are below 36 (set bits of a 36-card hand) and a trump's power less 32 is its trump rank 0..9; a card played is the solver's innermost step, whose instructions are measured (docs/benchmarks.md)"
)]

use crate::rules::{Rules, SUIT_MASK};

/// The trick being played, in the search's compact form.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Cur {
    pub(crate) leader: u8,
    pub(crate) len: u8,
    /// The suit led (while `len > 0`).
    pub(crate) led: u8,
    /// The seat whose card takes the trick so far, and that card's power.
    pub(crate) win: u8,
    pub(crate) power: u8,
    /// The card points in the trick.
    pub(crate) points: i32,
    /// The cards in the trick.
    pub(crate) cards: u64,
}

impl Cur {
    pub(crate) fn new(leader: u8) -> Self {
        Self { leader, ..Self::default() }
    }
}

/// Puts `card` of the seat to move into the trick.
#[inline]
pub(crate) fn advance(rules: &Rules, cur: &mut Cur, card: usize) {
    let seat = (cur.leader + cur.len) & 3;
    if cur.len == 0 {
        cur.led = (card / 9) as u8;
        cur.win = seat;
        cur.power = rules.power(card, card / 9);
    } else {
        let p = rules.power(card, usize::from(cur.led));
        if p > cur.power {
            cur.win = seat;
            cur.power = p;
        }
    }
    cur.len += 1;
    cur.points += i32::from(rules.points[card]);
    cur.cards |= 1u64 << card;
}

/// R5 on masks: the cards of `hand` that may be played to `cur`.
#[inline]
pub(crate) fn legal_mask(rules: &Rules, hand: u64, cur: &Cur) -> u64 {
    if cur.len == 0 {
        return hand;
    }
    let led = usize::from(cur.led);
    let follow = hand & SUIT_MASK << (led * 9);
    match rules.trump {
        // R5.1: no trump: follow suit if you can.
        None => {
            if follow == 0 {
                hand
            } else {
                follow
            }
        }
        // R5.2: trump led: follow with a trump, unless the Puur is your only trump.
        Some(t) if t == led => {
            let puur = rules.puur;
            if follow & !puur == 0 { hand } else { follow }
        }
        // R5.3: another suit led: follow or trump; anything if you cannot follow.
        Some(t) => {
            let trumps = hand & SUIT_MASK << (t * 9);
            let ok = if follow == 0 { hand } else { follow | trumps };
            // R5.4: no undertrumping, unless the hand holds nothing but trumps.
            if trumps == hand || cur.power < 32 {
                return ok;
            }
            ok & !rules.trumps_below[usize::from(cur.power - 32)]
        }
    }
}

#[cfg(test)]
mod tests {
    use jass_engine::{CardSet, Contract, Seat, Trick, legal_cards};

    use super::{Cur, advance, legal_mask};
    use crate::rules::rules;

    /// The search's mask form of R5 gives the engine's legal cards, and its trick
    /// winner the engine's, on every trick prefix of many random deals.
    #[test]
    fn legal_masks_and_winners_match_the_engine() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rand = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for round in 0..3000 {
            let contract = Contract::ALL[round % 6];
            let r = rules(contract, false);
            let mut cards: Vec<usize> = (0..36).collect();
            for i in (1..36).rev() {
                cards.swap(i, rand(i as u64 + 1) as usize);
            }
            let mut hands = [0u64; 4];
            for (i, c) in cards.iter().enumerate() {
                hands[i % 4] |= 1 << c;
            }
            let mut leader = Seat::ALL[rand(4) as usize];
            for _ in 0..9 {
                let mut trick = Trick::new(leader);
                let mut cur = Cur::new(leader.index() as u8);
                for _ in 0..4 {
                    let seat = trick.next_seat().index();
                    let want = legal_cards(CardSet::from_bits(hands[seat]), &trick, contract).bits();
                    assert_eq!(
                        legal_mask(r, r.to_int_mask(hands[seat]), &cur),
                        r.to_int_mask(want),
                        "{contract} {trick:?}"
                    );
                    let n = want.count_ones();
                    let mut pick = rand(u64::from(n));
                    let mut bits = want;
                    while pick > 0 {
                        bits &= bits - 1;
                        pick -= 1;
                    }
                    let card = bits.trailing_zeros() as usize;
                    hands[seat] &= !(1 << card);
                    trick.push(jass_engine::Card::from_index(card as u8).unwrap());
                    advance(r, &mut cur, r.to_int(card));
                    assert_eq!(trick.winner(contract).map(|s| s.index() as u8), Some(cur.win));
                }
                leader = trick.winner(contract).unwrap();
            }
        }
    }
}
