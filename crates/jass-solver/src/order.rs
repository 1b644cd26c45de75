//! Which cards to search, and in which order.
//!
//! Equivalent cards are searched once: two cards of one hand and one suit with equal
//! points, with no card still in play (in a hand or on the table) between them in the
//! contract's order, take and lose exactly the same tricks in every continuation, so
//! they have the same value. The order puts likely best cards first, so alpha-beta
//! cuts off early; it changes the speed, never the value.

use arrayvec::ArrayVec;

use crate::rules::{Rules, SUIT_MASK};
use crate::search::Cur;

/// The legal cards worth searching (card indices), best guess first; `first`, if
/// among them, goes before all.
pub(crate) fn moves(
    rules: &Rules,
    legal: u64,
    live: u64,
    cur: &Cur,
    seat: usize,
    first: Option<u8>,
) -> ArrayVec<u8, 9> {
    let mut reps: ArrayVec<(i32, u8), 9> = ArrayVec::new();
    for suit in 0..4 {
        if legal >> (suit * 9) & SUIT_MASK == 0 {
            continue;
        }
        let mut run: Option<u8> = None;
        for &card in &rules.by_order[suit] {
            let bit = 1u64 << card;
            if live & bit == 0 {
                continue;
            }
            if legal & bit == 0 {
                run = None;
                continue;
            }
            let p = rules.points[usize::from(card)];
            if run == Some(p) {
                // Equivalent to the card below it: already searched.
                continue;
            }
            run = Some(p);
            let s = if first == Some(card) { i32::MAX } else { score(rules, usize::from(card), cur, seat) };
            reps.push((s, card));
        }
    }
    reps.sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
    reps.into_iter().map(|(_, c)| c).collect()
}

/// A guess at how good `card` is for the seat playing it: taking the trick is good
/// (cheaply if the partner's card is not already taking it), giving points to a
/// trick the partner takes is good, throwing points to the other side is bad.
fn score(rules: &Rules, card: usize, cur: &Cur, seat: usize) -> i32 {
    let p = i32::from(rules.points[card]);
    let strength = i32::from(rules.order[card]);
    if cur.len == 0 {
        // Lead high: a card that takes tricks sets up the search's best lines first.
        return strength * 4 + p;
    }
    let partner_has_it = usize::from(cur.win) % 2 == seat % 2;
    let takes = rules.power(card, usize::from(cur.led)) > cur.power;
    match (takes, partner_has_it) {
        (true, _) => 200 - strength * 2 + p,
        (false, true) => 100 + p,
        (false, false) => -p * 4 - strength,
    }
}
