//! Deals of the unseen cards consistent with what a seat knows.

use jass_engine::{BySeat, CardSet, Seat, find_weis};
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
    /// Per seat: the cards it played and the points of its unrevealed Weis, when it
    /// declared some and every card it played was seen.
    weis_check: [Option<(CardSet, Vec<u32>)>; 4],
    small_weis: bool,
}

impl Constraints {
    /// `strict`: use the memory's constraints; otherwise only the card counts.
    /// `None` when the view and memory do not add up (a view of another round, a
    /// corrupted memory): the caller then samples without constraints.
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
        let weis_check = std::array::from_fn(|i| {
            let points = &memory.hidden_weis[i];
            let played = memory.played_by[i];
            let complete = played.len() + need[i] == 9;
            (strict && complete && i != me.index() && !points.is_empty()).then(|| (played, points.clone()))
        });
        Some(Self { unseen, need, must, cannot, missed, me, hand, weis_check, small_weis })
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

    /// One deal under the card constraints (without the Weis points).
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<[CardSet; 4]> {
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
