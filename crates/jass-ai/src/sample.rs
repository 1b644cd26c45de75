//! Deals of the unseen cards consistent with what a seat knows.

use jass_engine::{BySeat, CardSet, Seat, find_weis};
use rand::Rng;
use rand::RngExt;

use crate::memory::{Memory, minus};

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
    /// Per seat: the cards it played and the points of its unrevealed Weis, when it
    /// declared some and every card it played was seen.
    weis_check: [Option<(CardSet, Vec<u32>)>; 4],
    small_weis: bool,
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
        let unseen = minus(minus(CardSet::DECK, hand), memory.played);
        let mut need = hand_counts.into_inner().map(u32::from);
        need[me.index()] = 0;
        let total: u32 = need.iter().sum();
        unseen.len().checked_sub(total)?;
        let mut must = [CardSet::EMPTY; 4];
        let mut cannot = [CardSet::EMPTY; 4];
        if strict {
            let mut taken = CardSet::EMPTY;
            for s in Seat::ALL {
                if s == me {
                    continue;
                }
                let m = memory.dealt_with[s.index()] & unseen;
                if m.len() > need[s.index()] || !(m & taken).is_empty() {
                    return None;
                }
                taken = taken | m;
                must[s.index()] = m;
                cannot[s.index()] = memory.cannot_hold[s.index()];
            }
        }
        let weis_check = std::array::from_fn(|i| {
            let points = &memory.hidden_weis[i];
            let played = memory.played_by[i];
            let complete = played.len() + need[i] == 9;
            (strict && complete && i != me.index() && !points.is_empty()).then(|| (played, points.clone()))
        });
        let fixed = must.iter().fold(CardSet::EMPTY, |a, &m| a | m);
        let free = minus(unseen, fixed)
            .iter()
            .map(|c| {
                let places = Seat::ALL.iter().filter(|s| **s != me && !cannot[s.index()].contains(c));
                (c, places.fold(0u8, |a, s| a | 1 << s.index()))
            })
            .collect();
        let room = Seat::ALL.map(|s| (need[s.index()] - must[s.index()].len()) as usize);
        let counts = Counts::new(free, room);
        counts.ways(counts.start)?;
        Some(Self { must, me, hand, weis_check, small_weis, counts })
    }

    /// One deal: the four hands (the viewer's own as it is), or `None` after too many
    /// dead ends. Deals where a seat could not have held the Weis it declared are
    /// drawn again a few times; after that one is taken anyway (a rare Weis would
    /// otherwise cost too many draws).
    pub(crate) fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[CardSet; 4]> {
        let mut fallback = None;
        for _ in 0..24 {
            let Some(hands) = self.draw(rng) else { break };
            if self.weis_possible(&hands) {
                return Some(hands);
            }
            fallback = Some(hands);
        }
        fallback
    }

    /// Whether every seat's dealt hand in `hands` holds Weis of the points it declared.
    fn weis_possible(&self, hands: &[CardSet; 4]) -> bool {
        self.weis_check.iter().zip(hands).all(|(check, hand)| {
            let Some((played, points)) = check else { return true };
            let mut held: Vec<u32> = find_weis(*hand | *played, self.small_weis)
                .iter()
                .map(|w| w.points(self.small_weis))
                .collect();
            points.iter().all(|p| match held.iter().position(|h| h == p) {
                Some(i) => {
                    held.swap_remove(i);
                    true
                }
                None => false,
            })
        })
    }

    /// One deal under the card constraints (without the Weis points), uniform over
    /// all such deals: each free card in turn goes to a place with probability
    /// proportional to the number of ways to deal the rest after it ([`Counts`]).
    /// A greedy fill (most constrained card first, weighted by room) was biased as
    /// soon as voids overlapped (issue 17 point 2).
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[CardSet; 4]> {
        let mut hands = self.must;
        hands[self.me.index()] = self.hand;
        let counts = &self.counts;
        let mut room = counts.room;
        let mut at = counts.start;
        for (t, &(card, places)) in counts.cards.iter().enumerate() {
            let next = (t + 1) * counts.layer + at;
            let mut pick = rng.random_range(0..counts.ways(t * counts.layer + at)?);
            let mut place = 4;
            for (s, (&r, &stride)) in room.iter().zip(&counts.stride).enumerate() {
                if places & (1 << s) != 0 && r > 0 {
                    let w = counts.ways.get(next - stride).copied().unwrap_or(0);
                    if pick < w {
                        place = s;
                        break;
                    }
                    pick -= w;
                }
            }
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
/// rest). Built once per decision (at most 28 × 1,000 entries), it makes every draw
/// exact and free of dead ends.
struct Counts {
    /// The free cards (not known to be in a hand) and the seats (bits) that may hold each.
    cards: Vec<(jass_engine::Card, u8)>,
    /// Per seat: its stride in a layer.
    stride: [usize; 4],
    /// Per seat: its room at the start.
    room: [usize; 4],
    /// Entries per card.
    layer: usize,
    /// The start: every seat's full room.
    start: usize,
    ways: Vec<u64>,
}

impl Counts {
    fn new(cards: Vec<(jass_engine::Card, u8)>, room: [usize; 4]) -> Self {
        let mut stride = [0; 4];
        let mut layer = 1;
        for s in 0..4 {
            stride[s] = layer;
            layer *= room[s] + 1;
        }
        let start = (0..4).map(|s| room[s] * stride[s]).sum();
        let n = cards.len();
        let missed = n.saturating_sub(room.iter().sum());
        let mut ways = vec![0u64; (n + 1) * layer];
        if let Some(w) = ways.get_mut(n * layer) {
            *w = 1;
        }
        for (t, &(_, places)) in cards.iter().enumerate().rev() {
            let left = n - t;
            let (here, below) = ways.split_at_mut((t + 1) * layer);
            let here = here.get_mut(t * layer..).unwrap_or_default();
            // The room per seat at entry `at`, counted up as `at` is.
            let mut r = [0usize; 4];
            let mut total = 0;
            for (at, w) in here.iter_mut().enumerate() {
                if at > 0 {
                    for s in 0..4 {
                        if r[s] < room[s] {
                            r[s] += 1;
                            total += 1;
                            break;
                        }
                        total -= r[s];
                        r[s] = 0;
                    }
                }
                // Reachable only with the unseen-played cards' share between 0 and `missed`.
                if total > left || total + missed < left {
                    continue;
                }
                let mut sum = if total < left { below.get(at).copied().unwrap_or(0) } else { 0 };
                for s in 0..4 {
                    if places & (1 << s) != 0 && r[s] > 0 {
                        sum += below.get(at - stride[s]).copied().unwrap_or(0);
                    }
                }
                *w = sum;
            }
        }
        Self { cards, stride, room, layer, start, ways }
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
    /// with the Puur exception, R5; declared Weis points, R6) and every sampled deal satisfies them, with the right
    /// number of cards per seat. Random rounds under every contract, every seat
    /// watching every state.
    #[test]
    fn inferences_hold_for_the_true_hands_and_samples_respect_them() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut inferred = 0;
        let mut checked_weis = 0;
        let (mut weis_samples, mut weis_samples_ok) = (0, 0);
        for round in 0..300u32 {
            let options = Options::default();
            let seed = Seed([(round % 251) as u8; 32]);
            let Ok(mut game) = Game::new(options, seed) else { panic!("options") };
            let Some(first) = game.to_act() else { panic!("no chooser") };
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
                        assert!(
                            (memory.cannot_hold[s.index()] & hand).is_empty(),
                            "{contract:?}: unsound void"
                        );
                        let must = minus(memory.dealt_with[s.index()], memory.played);
                        assert!(hand.contains_all(must), "unsound Weis/Stöck");
                        inferred += usize::from(!memory.cannot_hold[s.index()].is_empty());
                    }
                    let Some(c) = Constraints::new(me, view.hand, view.hand_counts, memory, true, false)
                    else {
                        panic!("the true deal is consistent, so constraints must exist")
                    };
                    let truth = Seat::ALL.map(|s| game.hand(s));
                    assert!(c.weis_possible(&truth), "unsound Weis points");
                    checked_weis += c.weis_check.iter().flatten().count();
                    let Some(hands) = c.sample(&mut rng) else { panic!("no sample") };
                    if c.weis_check.iter().any(Option::is_some) {
                        weis_samples += 1;
                        weis_samples_ok += usize::from(c.weis_possible(&hands));
                    }
                    for s in Seat::ALL {
                        assert_eq!(hands[s.index()].len(), u32::from(view.hand_counts[s]));
                        if s != me {
                            assert!((memory.cannot_hold[s.index()] & hands[s.index()]).is_empty());
                            assert!(
                                hands[s.index()]
                                    .contains_all(minus(memory.dealt_with[s.index()], memory.played))
                            );
                        }
                    }
                    let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
                    assert_eq!(all, minus(CardSet::DECK, memory.played));
                }
                let legal = game.legal_cards(seat);
                let Some(card) = legal.nth(rng.random_range(0..legal.len())) else { break };
                // Every Weis allowed is declared, so the points constraints get tested.
                let weis = game.view(Viewer::Seat(seat)).allowed.weis.iter().map(|w| w.cards()).collect();
                if game.apply(seat, Action::Play { card, weis, stoeck: false }, || Seed([9; 32])).is_err() {
                    panic!("random legal card refused");
                }
            }
        }
        assert!(inferred > 1_000, "inferences were rarely made ({inferred})");
        assert!(checked_weis > 100, "Weis points were rarely checked ({checked_weis})");
        // The few that miss are the fallback after too many redraws.
        assert!(
            weis_samples_ok * 10 >= weis_samples * 9,
            "{weis_samples_ok} of {weis_samples} samples held the Weis"
        );
    }
}
