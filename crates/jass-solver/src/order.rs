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
        let legal_here = (legal >> (suit * 9) & SUIT_MASK) as usize;
        if legal_here == 0 {
            continue;
        }
        let places = &rules.to_places[suit];
        let legal_places = places[legal_here];
        let mut live_places = places[(live >> (suit * 9) & SUIT_MASK) as usize];
        let mut run: Option<u8> = None;
        while live_places != 0 {
            let k = live_places.trailing_zeros();
            live_places &= live_places - 1;
            if legal_places >> k & 1 == 0 {
                run = None;
                continue;
            }
            let card = rules.by_order[suit][k as usize];
            let p = rules.points[usize::from(card)];
            if run == Some(p) {
                // Equivalent to the card below it: already searched.
                continue;
            }
            run = Some(p);
            let s = if first == Some(card) { i32::MAX } else { score(rules, usize::from(card), cur, seat) };
            // Insertion by score, best first (at most nine cards).
            let mut i = reps.len();
            reps.push((s, card));
            while i > 0 && reps[i - 1].0 < s {
                reps.swap(i - 1, i);
                i -= 1;
            }
        }
    }
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
    if cur.len == 3 && partner_has_it {
        // Last to play and the partner takes it: give points, no need to overtake
        // (24 cards: 5 % fewer nodes).
        return if takes { p * 2 - 1 } else { p * 2 };
    }
    if cur.len == 2 && partner_has_it && !takes {
        // Third, the partner's lead holds: a cheap card before overtaking it.
        return 150 - p * 4 - strength;
    }
    match (takes, partner_has_it) {
        (true, _) => 200 - strength * 2 + p,
        (false, true) => 100 + p,
        (false, false) => -p * 4 - strength,
    }
}
