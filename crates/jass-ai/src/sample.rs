//! Deals of the unseen cards consistent with what a seat knows.
//!
//! A deal is drawn exactly uniformly over the deals meeting every constraint: the
//! per-card ones (cards played, voids, revealed Weis, Stöck) by a count table, and
//! the declarations whose cards stay hidden (R6) by drawing under one witness of
//! each (a set of Weis the declarer could have declared) in proportion to its deals,
//! then keeping the deal with probability one over the number of witnesses it meets:
//! every consistent deal is then kept with the same probability. Declarations with
//! too many witnesses for that are met by drawing again, which is exact as well.

#![expect(
    clippy::indexing_slicing,
    reason = "every per-seat array here has four entries and is read by `Seat::index` (0..4), by a seat number from `0..4`, or by a place known to be a seat (a place of 4, no one, is never used as an index); the deal sampler draws thousands of deals per decision, and its instruction counts are measured (docs/benchmarks.md)"
)]

use jass_engine::{BySeat, Card, CardSet, Seat, WeisKey};
use rand::Rng;
use rand::RngExt;

use crate::memory::{Memory, minus};
use declared::{Beaten, Declared, Witness};

mod declared;

/// Most combinations of witnesses (one per declaration) drawn under; declarations
/// that do not fit (the likeliest met are added last) are met by drawing again.
const MAX_COMBINATIONS: usize = 256;

/// Most combinations when adding a declaration that is likely met anyway (drawing
/// again for it costs little).
const LIKELY_COMBINATIONS: usize = 16;

/// A declaration with an estimated chance of at least this is likely met.
const LIKELY: f64 = 0.3;

/// Draws for one deal before giving up (only declarations met by drawing again
/// can use more than one, and only if most deals break them).
const ATTEMPTS: u32 = 1_000;

/// What the sampler needs: the seat, its hand, how many cards each seat still holds,
/// and the memory's constraints.
pub(crate) struct Constraints {
    /// Per seat: cards it must hold.
    must: [CardSet; 4],
    /// How many ways the free cards can be dealt (the unseen cards that were played
    /// while this seat was not watching are dealt to no one).
    counts: Counts,
    me: Seat,
    hand: CardSet,
    /// The declarations whose cards this seat was not shown, of seats whose every
    /// play it saw (R6); the first `exact.seats` of them are drawn under witnesses.
    pub(crate) declared: Vec<Declared>,
    exact: Option<Exact>,
}

/// The draws under one witness of each of the first `seats` declarations.
struct Exact {
    seats: usize,
    /// One per combination of witnesses with deals.
    heads: Vec<Head>,
    /// Their deals in all (a deal meeting several combinations counted once each).
    total: u64,
}

impl Constraints {
    /// `strict`: use the memory's constraints; otherwise only the card counts.
    /// `None` when the view and memory do not add up (a view of another round, a
    /// corrupted memory, constraints no deal meets): the caller then samples without
    /// constraints.
    pub(crate) fn new(
        me: Seat,
        hand: CardSet,
        hand_counts: BySeat<u8>,
        memory: &Memory,
        strict: bool,
        small_weis: bool,
    ) -> Option<Self> {
        Self::limited(me, hand, hand_counts, memory, strict, small_weis, MAX_COMBINATIONS)
    }

    /// [`Constraints::new`] with at most `max_combinations` combinations of
    /// witnesses drawn under (tests: 0 meets every declaration by drawing again).
    pub(crate) fn limited(
        me: Seat,
        hand: CardSet,
        hand_counts: BySeat<u8>,
        memory: &Memory,
        strict: bool,
        small_weis: bool,
        max_combinations: usize,
    ) -> Option<Self> {
        let unseen = minus(minus(CardSet::DECK, hand), memory.played);
        let mut need = hand_counts.into_inner().map(u32::from);
        need[me.index()] = 0;
        let total: u32 = need.iter().sum();
        unseen.len().checked_sub(total)?;
        let mut must = [CardSet::EMPTY; 4];
        let mut cannot = [CardSet::EMPTY; 4];
        let mut declared = Vec::new();
        if strict {
            let mut taken = CardSet::EMPTY;
            for s in Seat::ALL {
                if s == me {
                    continue;
                }
                let i = s.index();
                let m = memory.dealt_with[i] & unseen;
                if m.len() > need[i] || !(m & taken).is_empty() {
                    return None;
                }
                taken = taken | m;
                must[i] = m;
                cannot[i] = memory.cannot_hold[i];
                let points = &memory.hidden_weis[i];
                if !points.is_empty() && memory.played_by[i].len() + need[i] == 9 {
                    let beaten = memory.weis_won.as_ref().filter(|w| w.team != s.team()).and_then(|w| {
                        let key = |(seat, weis): &(Seat, jass_engine::Weis)| {
                            WeisKey::new(weis, *seat, w.forehand, w.contract, small_weis)
                        };
                        let best = w.weis.iter().map(key).max()?;
                        Some(Beaten { best, forehand: w.forehand, contract: w.contract })
                    });
                    declared.push(Declared::new(s, memory.played_by[i], points.clone(), small_weis, beaten));
                }
            }
        }
        let fixed = must.iter().fold(CardSet::EMPTY, |a, &m| a | m);
        let mut places = [0u8; 36];
        let mut free: Vec<(Card, u8)> = minus(unseen, fixed)
            .iter()
            .map(|c| {
                let may = Seat::ALL.iter().filter(|s| **s != me && !cannot[s.index()].contains(c));
                let p = may.fold(0u8, |a, s| a | 1 << s.index());
                if let Some(slot) = places.get_mut(c.index()) {
                    *slot = p;
                }
                (c, p)
            })
            .collect();
        let room = Seat::ALL.map(|s| (need[s.index()] - must[s.index()].len()) as usize);
        let missed = free.len().saturating_sub(room.iter().sum());
        // Each declaration's witnesses that the card constraints leave possible.
        let witnesses: Vec<(Declared, Vec<Witness>)> = declared
            .into_iter()
            .map(|d| {
                let (i, mine) = (d.seat.index(), d.played | must[d.seat.index()]);
                let list = d.witnesses(|w| {
                    (w.away & mine).is_empty()
                        && minus(d.needs(w), mine)
                            .iter()
                            .all(|c| places.get(c.index()).is_some_and(|p| p & 1 << i != 0))
                });
                (d, list)
            })
            .collect();
        if witnesses.iter().any(|(_, l)| l.is_empty()) {
            return None;
        }
        // The least likely met first (estimated as if the cards fell independently,
        // each to a seat in proportion to its room): those most need drawing under.
        let share = |c: Card, i: usize| {
            let p = places.get(c.index()).copied().unwrap_or(0);
            let all: usize = (0..4).filter(|s| p & 1 << s != 0).map(|s| room[s]).sum();
            if p & 1 << i == 0 || all == 0 { 0.0 } else { room[i] as f64 / all as f64 }
        };
        let likely = |(d, l): &(Declared, Vec<Witness>)| {
            let (i, mine) = (d.seat.index(), d.played | must[d.seat.index()]);
            let p: f64 = l
                .iter()
                .map(|w| {
                    let get: f64 = minus(d.needs(w), mine).iter().map(|c| share(c, i)).product();
                    let keep: f64 = (w.away & unseen).iter().map(|c| 1.0 - share(c, i)).product();
                    get * keep
                })
                .sum();
            p
        };
        let mut witnesses: Vec<(f64, (Declared, Vec<Witness>))> =
            witnesses.into_iter().map(|x| (likely(&x), x)).collect();
        witnesses.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The declarations drawn under exactly: as many as fit (none when cards were
        // played unseen, which a witness's card could be among).
        let mut seats = 0;
        let mut combinations = 1;
        if missed == 0 {
            // The least likely first; one that does not fit waits for the draws again.
            let mut i = 0;
            while i < witnesses.len() {
                let Some((p, (_, l))) = witnesses.get(i) else { break };
                let cap =
                    if *p < LIKELY { max_combinations } else { max_combinations.min(LIKELY_COMBINATIONS) };
                if combinations * l.len() <= cap {
                    combinations *= l.len();
                    witnesses.swap(seats, i);
                    seats += 1;
                }
                i += 1;
            }
        }
        let witnesses: Vec<(Declared, Vec<Witness>)> = witnesses.into_iter().map(|x| x.1).collect();
        let chosen = witnesses.get(..seats).unwrap_or_default();
        // The free cards the witnesses touch come first, so that each combination
        // changes only the first layers of the count table.
        let touched = chosen.iter().flat_map(|(_, l)| l).fold(CardSet::EMPTY, |a, w| a | w.cards | w.away);
        if !touched.is_empty() {
            free.sort_by_key(|&(c, _)| !touched.contains(c));
        }
        let head_len = free.iter().take_while(|(c, _)| touched.contains(*c)).count();
        let counts = Counts::new(free, room);
        counts.ways(counts.start)?;
        let exact = (seats > 0).then(|| {
            let mut heads = Vec::new();
            let mut pick = vec![0usize; seats];
            'combinations: loop {
                let mut head_places: Vec<u8> = counts.cards.iter().take(head_len).map(|&(_, p)| p).collect();
                for ((d, l), &k) in chosen.iter().zip(&pick) {
                    let (bit, Some(w)) = (1u8 << d.seat.index(), l.get(k)) else { continue };
                    for (p, &(c, _)) in head_places.iter_mut().zip(&counts.cards) {
                        if w.cards.contains(c) {
                            *p &= bit;
                        } else if w.away.contains(c) {
                            *p &= !bit;
                        }
                    }
                }
                let head = counts.head(head_places);
                if head.total > 0 {
                    heads.push(head);
                }
                for (k, (_, l)) in pick.iter_mut().zip(chosen) {
                    *k += 1;
                    if *k < l.len() {
                        continue 'combinations;
                    }
                    *k = 0;
                }
                break;
            }
            let total = heads.iter().map(|h| h.total).sum();
            Exact { seats, heads, total }
        });
        if exact.as_ref().is_some_and(|e| e.total == 0) {
            return None;
        }
        let declared = witnesses.into_iter().map(|(d, _)| d).collect();
        Some(Self { must, me, hand, declared, exact, counts })
    }

    /// One deal: the four hands (the viewer's own as it is), uniform over the deals
    /// meeting every constraint; `None` when too many draws in a row broke a
    /// declaration met by drawing again.
    pub(crate) fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[CardSet; 4]> {
        self.sample_counting(rng, &mut 0)
    }

    /// [`Constraints::sample`], adding the draws it took to `draws`: a caller with a
    /// budget of work bounds what declarations met by drawing again cost (in the
    /// first trick, two or three hidden Weis can take up to two hundred draws a deal).
    pub(crate) fn sample_counting<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        draws: &mut u64,
    ) -> Option<[CardSet; 4]> {
        for _ in 0..ATTEMPTS {
            *draws += 1;
            let hands = match &self.exact {
                None => self.draw(None, rng)?,
                Some(e) => {
                    let mut pick = rng.random_range(0..e.total);
                    let head = e.heads.iter().find(|h| {
                        let here = pick < h.total;
                        pick = pick.wrapping_sub(h.total);
                        here
                    })?;
                    let hands = self.draw(Some(head), rng)?;
                    // Kept once per combination of witnesses it meets: each deal's
                    // chance is then its combinations' share of `total`, over them.
                    let met: u32 = self
                        .declared
                        .iter()
                        .take(e.seats)
                        .map(|d| d.count(hands[d.seat.index()] | d.played))
                        .product();
                    if met > 1 && rng.random_range(0..met) != 0 {
                        continue;
                    }
                    hands
                }
            };
            // (Those drawn under a witness hold it.)
            let skip = self.exact.as_ref().map_or(0, |e| e.seats);
            if self.declared.iter().skip(skip).all(|d| d.holds(hands[d.seat.index()])) {
                return Some(hands);
            }
        }
        None
    }

    /// Whether every hidden declarer's dealt hand in `hands` could have made its
    /// declaration (R6).
    #[cfg(test)]
    pub(crate) fn weis_possible(&self, hands: &[CardSet; 4]) -> bool {
        self.declared.iter().all(|d| d.holds(hands[d.seat.index()]))
    }

    /// One deal under the card constraints, with the first cards' places from `head`
    /// when given, uniform over all such deals: each free card in turn goes to a place
    /// with probability proportional to the number of ways to deal the rest after it
    /// ([`Counts`]). A greedy fill (most constrained card first, weighted by room) was
    /// biased as soon as voids overlapped.
    fn draw<R: Rng + ?Sized>(&self, head: Option<&Head>, rng: &mut R) -> Option<[CardSet; 4]> {
        let mut hands = self.must;
        hands[self.me.index()] = self.hand;
        let counts = &self.counts;
        let layer = counts.layer;
        let (head_places, head_ways) = head.map_or((&[][..], &[][..]), |h| (&h.places[..], &h.ways[..]));
        // Layer `t` of the table: the head's first ones, then the shared ones.
        let layer_at = |t: usize| {
            let from = if t < head_places.len() { head_ways } else { &counts.ways[..] };
            from.get(t * layer..).unwrap_or_default()
        };
        let mut room = counts.room;
        let mut at = counts.start;
        let mut here = layer_at(0);
        for (t, &(card, base)) in counts.cards.iter().enumerate() {
            let places = head_places.get(t).copied().unwrap_or(base);
            let next = layer_at(t + 1);
            let ways = here.get(at).copied().unwrap_or(0);
            if ways == 0 {
                return None;
            }
            let mut pick = rng.random_range(0..ways);
            let mut place = 4;
            for (s, (&r, &stride)) in room.iter().zip(&counts.stride).enumerate() {
                if places & (1 << s) != 0 && r > 0 {
                    let w = next.get(at - stride).copied().unwrap_or(0);
                    if pick < w {
                        place = s;
                        break;
                    }
                    pick -= w;
                }
            }
            here = next;
            // Otherwise (place 4) the card went to no one: played unseen.
            if let (Some(h), Some(r)) = (hands.get_mut(place), room.get_mut(place)) {
                *h = h.with(card);
                *r -= 1;
                at -= counts.stride[place];
            }
        }
        Some(hands)
    }
}

/// The number of ways to deal the free cards: `ways[t][r]` counts the deals of
/// cards `t..` with `r` = the room left per seat (the cards dealt to no one take the
/// rest). Built once per decision (at most 28 × 100 entries when every card played
/// was seen, 28 × 1,000 otherwise), it makes every draw exact and free of dead ends.
struct Counts {
    /// The free cards (not known to be in a hand) and the seats (bits) that may hold each.
    cards: Vec<(Card, u8)>,
    /// Per seat: its stride in a layer.
    stride: [usize; 4],
    /// Per seat: its room at the start.
    room: [usize; 4],
    /// Entries per card.
    layer: usize,
    /// The start: every seat's full room.
    start: usize,
    /// Cards that were played unseen (dealt to no one).
    missed: usize,
    ways: Vec<u64>,
}

/// The first layers of a [`Counts`] with other places for its first cards (a
/// witness's cards given to the declarer, its `away` cards kept from it).
struct Head {
    places: Vec<u8>,
    ways: Vec<u64>,
    /// The deals in all.
    total: u64,
}

impl Counts {
    fn new(cards: Vec<(Card, u8)>, room: [usize; 4]) -> Self {
        let n = cards.len();
        let missed = n.saturating_sub(room.iter().sum());
        // With no card played unseen, the rooms of a layer add up to the cards left,
        // so the last seat's follows from the others': it needs no stride (stride 0),
        // and a layer is ten times smaller.
        let implied = if missed == 0 { (0..4).rev().find(|&s| room[s] > 0) } else { None };
        let mut stride = [0; 4];
        let mut layer = 1;
        for s in (0..4).filter(|&s| Some(s) != implied) {
            stride[s] = layer;
            layer *= room[s] + 1;
        }
        let start = (0..4).map(|s| room[s] * stride[s]).sum();
        let mut ways = vec![0u64; (n + 1) * layer];
        if let Some(w) = ways.get_mut(n * layer) {
            *w = 1;
        }
        let mut counts = Self { cards, stride, room, layer, start, missed, ways: Vec::new() };
        for t in (0..n).rev() {
            let places = counts.cards.get(t).map_or(0, |c| c.1);
            let (here, below) = ways.split_at_mut((t + 1) * layer);
            counts.fill(t, places, below, here.get_mut(t * layer..).unwrap_or_default());
        }
        counts.ways = ways;
        counts
    }

    /// Fills layer `t` (`here`, zeros) from the one after it (`below`), card `t`
    /// going to a seat of `places` or, while cards are left over, to no one. Only
    /// the entries a draw can reach are visited: those whose rooms add up to the
    /// cards left, less at most the `missed` ones (a tenth of a layer or so).
    #[inline]
    fn fill(&self, t: usize, places: u8, below: &[u64], here: &mut [u64]) {
        let (room, stride, missed) = (self.room, self.stride, self.missed);
        let left = self.cards.len() - t;
        let least = left.saturating_sub(missed);
        for r0 in 0..=room[0] {
            for r1 in 0..=room[1].min(left - r0.min(left)) {
                for r2 in 0..=room[2].min(left - (r0 + r1).min(left)) {
                    let so_far = r0 + r1 + r2;
                    if so_far > left {
                        break;
                    }
                    let from = least.saturating_sub(so_far);
                    let to = room[3].min(left - so_far);
                    for r3 in from..=to {
                        let r = [r0, r1, r2, r3];
                        let at = r0 * stride[0] + r1 * stride[1] + r2 * stride[2] + r3 * stride[3];
                        let total = so_far + r3;
                        let mut sum = if total < left { below.get(at).copied().unwrap_or(0) } else { 0 };
                        for s in 0..4 {
                            if places & (1 << s) != 0 && r[s] > 0 {
                                sum += below.get(at - stride[s]).copied().unwrap_or(0);
                            }
                        }
                        if let Some(w) = here.get_mut(at) {
                            *w = sum;
                        }
                    }
                }
            }
        }
    }

    /// The table's first `places.len()` layers with those places for the first cards.
    fn head(&self, places: Vec<u8>) -> Head {
        let (a, layer) = (places.len(), self.layer);
        let mut ways = vec![0u64; a * layer];
        for t in (0..a).rev() {
            let (here, rest) = ways.split_at_mut((t + 1) * layer);
            let below = if t + 1 < a { rest } else { self.ways.get(a * layer..).unwrap_or_default() };
            let p = places.get(t).copied().unwrap_or(0);
            self.fill(t, p, below, here.get_mut(t * layer..).unwrap_or_default());
        }
        let total = ways.get(self.start).or_else(|| self.ways.get(self.start)).copied().unwrap_or(0);
        Head { places, ways, total }
    }

    /// The deals from entry `i`, `None` when there is none.
    fn ways(&self, i: usize) -> Option<u64> {
        self.ways.get(i).copied().filter(|&w| w > 0)
    }
}

#[cfg(test)]
mod deal_tests;

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Viewer};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::Constraints;
    use crate::memory::{Memory, minus};

    /// The memory's inferences are sound (the true hands always satisfy them: voids
    /// with the Puur exception, R5; declared Weis, R6) and every sampled deal satisfies
    /// them, with the right number of cards per seat; every sample holds the hidden
    /// Weis (before, about one in ten did not). Random rounds under every contract,
    /// every seat watching every state.
    #[test]
    fn inferences_hold_for_the_true_hands_and_samples_respect_them() -> Result<(), String> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut inferred = 0;
        let mut checked_weis = 0;
        let mut weis_samples = 0;
        for round in 0..300u32 {
            let options = Options::default();
            let seed = Seed([(round % 251) as u8; 32]);
            let mut game = Game::new(options, seed).map_err(|e| format!("options: {e}"))?;
            let first = game.to_act().ok_or("no chooser")?;
            let contract = Contract::ALL[round as usize % 6];
            let _ = game.apply(first, Action::Choose { contract }, || Seed([0; 32]));
            let mut memories: Vec<Memory> = (0..4).map(|_| Memory::default()).collect();
            while game.round_number() == 0 {
                let Some(seat) = game.to_act() else { break };
                for me in Seat::ALL {
                    let view = game.view(Viewer::Seat(me));
                    let memory = &mut memories[me.index()];
                    memory.observe(&view);
                    for s in Seat::ALL.into_iter().filter(|&s| s != me) {
                        let hand = game.hand(s);
                        if !(memory.cannot_hold[s.index()] & hand).is_empty() {
                            return Err(format!("{contract:?}: unsound void"));
                        }
                        let must = minus(memory.dealt_with[s.index()], memory.played);
                        if !hand.contains_all(must) {
                            return Err("unsound Weis/Stöck".into());
                        }
                        inferred += usize::from(!memory.cannot_hold[s.index()].is_empty());
                    }
                    let c = Constraints::new(me, view.hand, view.hand_counts, memory, true, false)
                        .ok_or("the true deal is consistent, so constraints must exist")?;
                    let truth = Seat::ALL.map(|s| game.hand(s));
                    if !c.weis_possible(&truth) {
                        return Err("unsound Weis points".into());
                    }
                    checked_weis += c.declared.len();
                    let hands = c.sample(&mut rng).ok_or("no sample")?;
                    if !c.declared.is_empty() {
                        weis_samples += 1;
                        if !c.weis_possible(&hands) {
                            return Err(format!("{hands:?} breaks a hidden Weis"));
                        }
                    }
                    for s in Seat::ALL {
                        if hands[s.index()].len() != u32::from(view.hand_counts[s]) {
                            return Err(format!("{s:?} got {} cards", hands[s.index()].len()));
                        }
                        if s != me
                            && (!(memory.cannot_hold[s.index()] & hands[s.index()]).is_empty()
                                || !hands[s.index()]
                                    .contains_all(minus(memory.dealt_with[s.index()], memory.played)))
                        {
                            return Err(format!("{s:?} breaks a card constraint in {hands:?}"));
                        }
                    }
                    let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
                    if all != minus(CardSet::DECK, memory.played) {
                        return Err(format!("cards missing in {hands:?}"));
                    }
                }
                let legal = game.legal_cards(seat);
                let Some(card) = legal.nth(rng.random_range(0..legal.len())) else { break };
                // Every Weis allowed is declared, so the points constraints get tested.
                let weis = game.view(Viewer::Seat(seat)).allowed.weis.iter().map(|w| w.cards()).collect();
                if game.apply(seat, Action::Play { card, weis, stoeck: false }, || Seed([9; 32])).is_err() {
                    return Err("random legal card refused".into());
                }
            }
        }
        if inferred < 1_000 || checked_weis < 100 || weis_samples < 100 {
            return Err(format!(
                "too few cases: {inferred} inferences, {checked_weis} Weis, {weis_samples} samples"
            ));
        }
        Ok(())
    }
}
