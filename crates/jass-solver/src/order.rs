//! Which cards to search, and in which order.
//!
//! Equivalent cards are searched once: two cards of one hand and one suit with equal
//! points, with no card still in play (in a hand or on the table) between them in the
//! contract's order, take and lose exactly the same tricks in every continuation, so
//! they have the same value. The order puts likely best cards first, so alpha-beta
//! cuts off early; it changes the speed, never the value.

use crate::rules::{Rules, SUIT_MASK};
use crate::search::Cur;

/// The cards to search, best guess first: sort keys (score, then the order found,
/// then the card index in the low byte) in a fixed array, so building and walking them copies nothing.
pub(crate) struct Moves {
    keys: [u32; 9],
    len: usize,
}

impl Moves {
    /// The `i`-th card to search (card index).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<u8> {
        (i < self.len).then(|| self.keys.get(i).map_or(0, |&k| k as u8))
    }
}

/// No card: a search index is below 36.
pub(crate) const NO_CARD: u8 = 0xFF;

/// The legal cards worth searching (card indices), best guess first; the cards of
/// `first` (`NO_CARD` for none), those among them, go before all, in that order.
#[inline]
pub(crate) fn moves(
    rules: &Rules,
    hands: &[u64; 4],
    legal: u64,
    live: u64,
    cur: &Cur,
    seat: usize,
    first: [u8; 2],
) -> Moves {
    let mut out = Moves { keys: [0; 9], len: 0 };
    let beat = if cur.len == 1 || cur.len == 2 { best_power(rules, hands, cur, seat) } else { 0 };
    let mut legal_left = legal;
    while legal_left != 0 {
        let suit = (legal_left.trailing_zeros() / 9) as usize;
        legal_left &= !(SUIT_MASK << (suit * 9));
        let legal_here = (legal >> (suit * 9) & SUIT_MASK) as usize;
        let legal_places = legal_here as u16;
        let live_places = (live >> (suit * 9) & SUIT_MASK) as u16;
        let lead =
            if cur.len == 0 { lead_info(rules, hands, seat, suit, live_places) } else { LeadInfo::default() };
        let mut todo = legal_places;
        while todo != 0 {
            let k = todo.trailing_zeros();
            todo &= todo - 1;
            let card = (suit * 9) as u8 + k as u8;
            let p = rules.points[usize::from(card)];
            // Equivalent to the card just below it in play (held by this seat, equal
            // points): already searched.
            let below = live_places & ((1u16 << k) - 1);
            if below != 0 {
                let j = 15 - below.leading_zeros();
                if legal_places >> j & 1 == 1 && rules.points[suit * 9 + j as usize] == p {
                    continue;
                }
            }
            let s = if first[0] == card {
                0xF_FFFF
            } else if first[1] == card {
                0xF_FFFE
            } else {
                let sc = if cur.len == 0 {
                    lead_score(rules, usize::from(card), &lead, k)
                } else {
                    score(rules, usize::from(card), cur, seat, beat)
                };
                (sc + 4096) as u32
            };
            // Equal scores keep the order found (the lower place first).
            let key = s << 12 | (15 - out.len as u32) << 8 | u32::from(card);
            // Insertion by key, best first (at most nine cards).
            let mut i = out.len;
            while i > 0 && out.keys[i - 1] < key {
                out.keys[i] = out.keys[i - 1];
                i -= 1;
            }
            out.keys[i] = key;
            out.len += 1;
        }
    }
    out
}

/// The most power a card of a seat after `seat` in this trick can have.
#[inline]
fn best_power(rules: &Rules, hands: &[u64; 4], cur: &Cur, seat: usize) -> u8 {
    let led = usize::from(cur.led);
    let mut best = 0;
    let mut s = (seat + 1) & 3;
    for _ in cur.len + 1..4 {
        let h = hands[s];
        let p = match rules.trump {
            Some(t) if h >> (t * 9) & SUIT_MASK != 0 => 32 + 63 - (h >> (t * 9) & SUIT_MASK).leading_zeros(),
            _ if h >> (led * 9) & SUIT_MASK != 0 => 16 + 63 - (h >> (led * 9) & SUIT_MASK).leading_zeros(),
            _ => 0,
        };
        best = best.max(p);
        s = (s + 1) & 3;
    }
    best as u8
}

/// What a lead in one suit meets: who holds its top card, and whether an opponent
/// of the leader can ruff it.
#[derive(Default)]
struct LeadInfo {
    /// 0 = the leader, 1 = its partner, 2 = an opponent.
    top_side: u8,
    top_place: u32,
    ruffed: bool,
}

/// `LeadInfo` for a lead in `suit` by `seat`; `live_places` are the suit's cards in
/// play (the leader holds one, so it is not empty).
#[inline]
fn lead_info(rules: &Rules, hands: &[u64; 4], seat: usize, suit: usize, live_places: u16) -> LeadInfo {
    let top_place = 15 - u32::from(live_places).leading_zeros().saturating_sub(16);
    let card = suit * 9 + (top_place & 15) as usize;
    let holder = (0..4).find(|&h| hands[h] >> card & 1 == 1).unwrap_or(seat);
    let top_side = if holder == seat {
        0
    } else if holder == (seat + 2) & 3 {
        1
    } else {
        2
    };
    let ruffed = match rules.trump {
        Some(t) if t != suit => [(seat + 1) & 3, (seat + 3) & 3]
            .iter()
            .any(|&o| hands[o] >> (suit * 9) & SUIT_MASK == 0 && hands[o] >> (t * 9) & SUIT_MASK != 0),
        _ => false,
    };
    LeadInfo { top_side, top_place, ruffed }
}

/// A guess at how good a lead is: cash a top card, lead low to the partner's top
/// card, lead low into the opponents' top card, and not into a ruff.
#[inline]
fn lead_score(rules: &Rules, card: usize, lead: &LeadInfo, place: u32) -> i32 {
    let p = i32::from(rules.points[card]);
    let strength = (card % 9) as i32;
    let base = match lead.top_side {
        0 if place == lead.top_place => 300 + p,
        0 => 100 + strength,
        1 => 250 - p * 4 - strength,
        _ => 50 - p * 4 - strength,
    };
    if lead.ruffed { base - 400 } else { base }
}

/// A guess at how good `card` is for the seat playing it: taking the trick is good
/// (cheaply if the partner's card is not already taking it), giving points to a
/// trick the partner takes is good, throwing points to the other side is bad.
fn score(rules: &Rules, card: usize, cur: &Cur, seat: usize, beat: u8) -> i32 {
    let p = i32::from(rules.points[card]);
    let strength = (card % 9) as i32;
    let partner_has_it = usize::from(cur.win) % 2 == seat % 2;
    let power = rules.power(card, usize::from(cur.led));
    let takes = power > cur.power;
    if cur.len == 3 && partner_has_it {
        // Last to play and the partner takes it: give points, no need to overtake
        // (24 cards: 5 % fewer nodes).
        return if takes { p * 2 - 1 } else { p * 2 };
    }
    if partner_has_it && !takes {
        // The partner's card holds against the seats still to play: give points;
        // else a cheap card.
        return if cur.power > beat { 300 + p * 2 } else { 150 - p * 4 - strength };
    }
    match (takes, partner_has_it) {
        // A card that takes the trick and that nothing still to come beats: the
        // cheapest such first; one that may be beaten after the cheap cards.
        (true, _) if power > beat || cur.len == 3 => 200 - strength * 2 + p,
        (true, _) => 180 - strength * 2 + p,
        (false, true) => 100 + p,
        (false, false) => -p * 4 - strength,
    }
}
