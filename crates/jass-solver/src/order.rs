//! Which cards to search, and in which order.
//!
//! Equivalent cards are searched once: two cards of one hand and one suit with equal
//! points, with no card still in play (in a hand or on the table) between them in the
//! contract's order, take and lose exactly the same tricks in every continuation, so
//! they have the same value. Where the trick's winner cannot depend on the choice (a
//! last seat, a held trick), one card of such a run is searched even when the points
//! differ: the one that is never worse (`dominated`). The order puts likely best
//! cards first, so alpha-beta cuts off early; it changes the speed, never the value.

#![expect(
    clippy::indexing_slicing,
    reason = "seats are 0..4, suit * 9 + rank is below 36 (suit 0..4, rank 0..9), cards are set bits of a 36-card hand, and the insertion sort stays within the nine moves it was given; move ordering runs at every node of the solver, whose instructions are measured (docs/benchmarks.md)"
)]

use crate::rules::{Rules, SUIT_MASK};
use crate::trick::Cur;

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

/// The legal cards worth searching (card indices), best guess first.
#[inline]
pub(crate) fn moves(
    rules: &Rules,
    hands: &[u64; 4],
    legal: u64,
    cur: &Cur,
    seat: usize,
    held: bool,
) -> Moves {
    let mut out = Moves { keys: [0; 9], len: 0 };
    let live = live(hands, cur);
    let beat = if cur.len == 1 || cur.len == 2 { best_power(rules, hands, cur, seat) } else { 0 };
    let mut legal_left = legal;
    while legal_left != 0 {
        let suit = (legal_left.trailing_zeros() / 9) as usize;
        legal_left &= !(SUIT_MASK << (suit * 9));
        let live_places = (live >> (suit * 9) & SUIT_MASK) as u16;
        let lead =
            if cur.len == 0 { lead_info(rules, hands, seat, suit, live_places) } else { LeadInfo::default() };
        let mut todo = searched_places(rules, live, legal, cur, seat, held, suit);
        while todo != 0 {
            let k = todo.trailing_zeros();
            todo &= todo - 1;
            let card = (suit * 9) as u8 + k as u8;
            let sc = if cur.len == 0 {
                lead_score(rules, usize::from(card), &lead, k)
            } else {
                score(rules, usize::from(card), cur, seat, beat)
            };
            let s = (sc + 4096) as u32;
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

/// Whether `moves` would list `card` (legal for the seat to move): the table's lead
/// and the killer are searched before the other cards are ordered, but only if they
/// are not skipped.
#[inline]
pub(crate) fn listed(
    rules: &Rules,
    hands: &[u64; 4],
    legal: u64,
    cur: &Cur,
    seat: usize,
    held: bool,
    card: u8,
) -> bool {
    let c = usize::from(card);
    if c >= 36 || legal >> c & 1 == 0 {
        return false;
    }
    searched_places(rules, live(hands, cur), legal, cur, seat, held, c / 9) >> (c % 9) & 1 == 1
}

/// The cards in play: held, or on the table.
#[inline]
fn live(hands: &[u64; 4], cur: &Cur) -> u64 {
    cur.cards | hands[0] | hands[1] | hands[2] | hands[3]
}

/// The places of `suit` that `moves` searches: the legal ones less those `skipped`.
/// The trick's winner does not depend on which card of a run this seat plays when it
/// is the last to play or nobody still to play can beat the trick (`held`).
#[inline]
fn searched_places(
    rules: &Rules,
    live: u64,
    legal: u64,
    cur: &Cur,
    seat: usize,
    held: bool,
    suit: usize,
) -> u16 {
    let settled = cur.len == 3 || (held && cur.len > 0);
    let legal_places = (legal >> (suit * 9) & SUIT_MASK) as u16;
    let live_places = (live >> (suit * 9) & SUIT_MASK) as u16;
    legal_places & !skipped(rules, cur, seat, suit, legal_places, live_places, settled)
}

/// The places of `suit` in `legal_places` that are not searched: a card equivalent to
/// the card just below it in play (held by this seat, equal points), or when the
/// trick is `settled`, the run mates `dominated` leaves out.
#[inline]
fn skipped(
    rules: &Rules,
    cur: &Cur,
    seat: usize,
    suit: usize,
    legal_places: u16,
    live_places: u16,
    settled: bool,
) -> u16 {
    if settled {
        return dominated(rules, cur, seat, suit, legal_places, live_places);
    }
    let mut skip = 0;
    let mut todo = legal_places;
    while todo != 0 {
        let k = todo.trailing_zeros();
        todo &= todo - 1;
        let below = live_places & ((1u16 << k) - 1);
        if below != 0 {
            let j = 15 - below.leading_zeros();
            if legal_places >> j & 1 == 1
                && rules.points[suit * 9 + j as usize] == rules.points[suit * 9 + k as usize]
            {
                skip |= 1 << k;
            }
        }
    }
    skip
}

/// The places of `suit` in `legal_places` that need no search once the trick's winner
/// does not depend on this seat's choice within a run (a last seat, or a held trick).
///
/// A run is cards of this seat, one suit, with no other card in play between them
/// (`live_places`, the trick's cards included): they take and lose the same tricks in
/// every continuation, so swapping two of them changes only which trick gets whose
/// points (the Puur is left out: R5.2's exception holds for it alone). When the
/// current trick goes to this seat's side, the run's dearest card now is at least as
/// good as any other of it in every line of play (its points come here now; the
/// other's go wherever its trick goes); when it goes to the other side, the cheapest.
/// So one card a run is searched, and the value is unchanged.
#[inline]
fn dominated(rules: &Rules, cur: &Cur, seat: usize, suit: usize, legal_places: u16, live_places: u16) -> u16 {
    let led = usize::from(cur.led);
    let puur_place =
        if rules.trump == Some(suit) { (rules.puur >> (suit * 9)) as u16 & SUIT_MASK as u16 } else { 0 };
    let mut skip = 0u16;
    let mut todo = legal_places & !puur_place;
    while todo != 0 {
        // The run from the lowest card left: higher legal places with nothing in play
        // between.
        let low = todo.trailing_zeros();
        let mut run = 1u16 << low;
        let mut top = low;
        loop {
            let above = live_places & !((2u16 << top) - 1);
            if above == 0 {
                break;
            }
            let next = above.trailing_zeros();
            if todo >> next & 1 == 0 {
                break;
            }
            run |= 1 << next;
            top = next;
        }
        todo &= !run;
        if run.count_ones() < 2 {
            continue;
        }
        let card = suit * 9 + top as usize;
        let winner = if rules.power(card, led) > cur.power { seat } else { usize::from(cur.win) };
        let ours = winner % 2 == seat % 2;
        // The run's card to keep: the most points if ours, the fewest if not.
        let mut keep = top;
        let mut best = rules.points[card];
        let mut rest = run;
        while rest != 0 {
            let k = rest.trailing_zeros();
            rest &= rest - 1;
            let p = rules.points[suit * 9 + k as usize];
            if (ours && p > best) || (!ours && p < best) {
                (keep, best) = (k, p);
            }
        }
        skip |= run & !(1u16 << keep);
    }
    skip
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

#[cfg(test)]
mod tests {
    use jass_engine::{Card, CardSet, Contract};

    use super::moves;
    use crate::rules::rules;
    use crate::trick::{Cur, advance, legal_mask};

    /// The cards the last seat (3) searches after the leader (0) and seats 1 and 2
    /// played `trick`, holding `hand`, the other hands empty (nothing else in play).
    fn searched(contract: Contract, trick: [&str; 3], hand: &str) -> Vec<Card> {
        let r = rules(contract, false);
        let mut cur = Cur::new(0);
        for c in trick {
            let card: Card = c.parse().unwrap();
            advance(r, &mut cur, r.to_int(card.index()));
        }
        let hand = r.to_int_mask(hand.parse::<CardSet>().unwrap().bits());
        let hands = [0, 0, 0, hand];
        let legal = legal_mask(r, hand, &cur);
        let m = moves(r, &hands, legal, &cur, 3, false);
        (0..9).map_while(|i| m.get(i)).map(|c| Card::from_index(r.to_ext[usize::from(c)]).unwrap()).collect()
    }

    /// A last seat holding a run (jack, queen, king of the suit led, nothing between)
    /// that cannot take the trick gives the other side its cheapest card and its
    /// partner its dearest: the others of the run are never better.
    #[test]
    fn a_last_seat_searches_one_card_of_a_run() {
        let cheap = searched(Contract::Hearts, ["SA", "S6", "S7"], "SJ SQ SK D6");
        assert_eq!(cheap, ["SJ".parse::<Card>().unwrap()], "the opponents' trick: the jack (2)");
        let dear = searched(Contract::Hearts, ["S6", "SA", "S7"], "SJ SQ SK D6");
        assert_eq!(dear, ["SK".parse::<Card>().unwrap()], "the partner's trick: the king (4)");
    }

    /// The Puur is never merged into a run: holding it alone as a trump later allows
    /// what holding the Nell does not (R5.2), so both are searched.
    #[test]
    fn the_puur_stays_apart_from_a_run() {
        let cards = searched(Contract::Hearts, ["S6", "SA", "S7"], "HJ H9 D6");
        assert_eq!(cards.len(), 3, "{cards:?}");
        // Without trumps the jack is a card like any other, and a run is what has
        // nothing in play between: here the six, the jack and the queen.
        let dear = searched(Contract::Obenabe, ["S6", "SA", "S7"], "DJ DQ D6");
        assert_eq!(dear, ["DQ".parse::<Card>().unwrap()], "discards onto the partner's trick");
        let cheap = searched(Contract::Obenabe, ["SA", "S6", "S7"], "DJ DQ D6");
        assert_eq!(cheap, ["D6".parse::<Card>().unwrap()], "discards onto the opponents' trick");
    }
}
