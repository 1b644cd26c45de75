//! Deals of the unseen cards consistent with what a seat knows.

use jass_engine::{CardSet, Seat};
use rand::Rng;
use rand::RngExt;

use crate::memory::{Memory, minus};

/// What the sampler needs: the seat, its hand, how many cards each seat still holds,
/// and the memory's constraints.
pub(crate) struct Constraints {
    /// The cards no other seat can be shown to hold or to have played: to be dealt.
    unseen: CardSet,
    /// Per seat: cards left to fill (0 for the viewer).
    need: [u32; 4],
    /// Per seat: cards it must hold.
    must: [CardSet; 4],
    /// Per seat: cards it cannot hold.
    cannot: [CardSet; 4],
    /// Unseen cards that were played while this seat was not watching: dealt to no one.
    missed: u32,
    me: Seat,
    hand: CardSet,
}

impl Constraints {
    /// `None` when the view and memory do not add up (a view of another round, a
    /// corrupted memory): the caller then samples without constraints.
    pub(crate) fn new(
        me: Seat,
        hand: CardSet,
        hand_counts: [u8; 4],
        memory: &Memory,
        strict: bool,
    ) -> Option<Self> {
        let unseen = minus(minus(CardSet::DECK, hand), memory.played);
        let mut need = hand_counts.map(u32::from);
        need[me.index()] = 0;
        let total: u32 = need.iter().sum();
        let missed = unseen.len().checked_sub(total)?;
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
        Some(Self { unseen, need, must, cannot, missed, me, hand })
    }

    /// One deal: the four hands (the viewer's own as it is), or `None` after too many
    /// dead ends.
    pub(crate) fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[CardSet; 4]> {
        'attempt: for _ in 0..32 {
            let mut hands = self.must;
            hands[self.me.index()] = self.hand;
            let mut room = [0u32; 5];
            for s in Seat::ALL {
                if s != self.me {
                    room[s.index()] = self.need[s.index()] - self.must[s.index()].len();
                }
            }
            room[4] = self.missed;
            let fixed = self.must.iter().fold(CardSet::EMPTY, |a, &m| a | m);
            let mut rest: Vec<_> = minus(self.unseen, fixed).iter().collect();
            // Most constrained cards first, ties in random order.
            let places = |c: jass_engine::Card| {
                Seat::ALL.iter().filter(|s| **s != self.me && !self.cannot[s.index()].contains(c)).count()
            };
            for i in (1..rest.len()).rev() {
                let j = rng.random_range(0..=i);
                rest.swap(i, j);
            }
            rest.sort_by_key(|&c| places(c));
            for c in rest {
                // Weight each place by its room left: with no constraints this is a
                // uniform deal.
                let mut weights = [0u32; 5];
                for s in Seat::ALL {
                    if s != self.me && !self.cannot[s.index()].contains(c) {
                        weights[s.index()] = room[s.index()];
                    }
                }
                weights[4] = room[4];
                let sum: u32 = weights.iter().sum();
                if sum == 0 {
                    continue 'attempt;
                }
                let mut pick = rng.random_range(0..sum);
                let mut place = 4;
                for (k, w) in weights.iter().enumerate() {
                    if pick < *w {
                        place = k;
                        break;
                    }
                    pick -= w;
                }
                room[place] -= 1;
                if let Some(h) = hands.get_mut(place) {
                    *h = h.with(c);
                }
            }
            return Some(hands);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Viewer};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::Constraints;
    use crate::memory::{Memory, minus};

    /// The memory's inferences are sound (the true hands always satisfy them, with the
    /// Puur exception, R5) and every sampled deal satisfies them, with the right
    /// number of cards per seat. Random rounds under every contract, every seat
    /// watching every state.
    #[test]
    fn inferences_hold_for_the_true_hands_and_samples_respect_them() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut inferred = 0;
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
                    let Some(c) = Constraints::new(me, view.hand, view.hand_counts, memory, true) else {
                        panic!("the true deal is consistent, so constraints must exist")
                    };
                    let Some(hands) = c.sample(&mut rng) else { panic!("no sample") };
                    for s in Seat::ALL {
                        assert_eq!(hands[s.index()].len(), u32::from(view.hand_counts[s.index()]));
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
                if game.apply(seat, Action::play(card), || Seed([9; 32])).is_err() {
                    panic!("random legal card refused");
                }
            }
        }
        assert!(inferred > 1_000, "inferences were rarely made ({inferred})");
    }
}
