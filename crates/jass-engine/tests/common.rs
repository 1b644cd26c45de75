//! Shared helpers for the engine's integration tests.
#![allow(dead_code, unreachable_pub, missing_docs)]

use jass_engine::{Action, Card, CardSet, Event, Game, Phase, Seat, Seed};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

pub fn cards(s: &str) -> CardSet {
    s.parse().unwrap()
}

pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

pub fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

/// Deterministic seed stream for tests.
pub fn seed_n(n: u64) -> Seed {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_le_bytes());
    b[8] = 0xA5;
    Seed(b)
}

/// Plays one random legal action for whoever is to act (contract, card with all
/// declarable Weis, Stöck when possible). Returns the events.
pub fn random_step(g: &mut Game, rng: &mut Xoshiro256PlusPlus, next: &mut u64) -> Vec<Event> {
    let s = g.to_act().expect("someone to act");
    let action = match g.phase() {
        Phase::Choosing => {
            if g.can_schiebe(s) && rng.next_u32() % 3 == 0 {
                Action::Schiebe
            } else {
                let k = jass_engine::Contract::ALL[(rng.next_u32() % 6) as usize];
                Action::Choose { contract: k }
            }
        }
        Phase::Playing => {
            let legal = g.legal_cards(s);
            let card = legal.nth(rng.next_u32() % legal.len()).unwrap();
            let weis: Vec<CardSet> = if g.options().small_weis {
                // small_weis: declare only Weis that share no card.
                let mut used = CardSet::EMPTY;
                g.declarable_weis(s)
                    .into_iter()
                    .filter(|w| {
                        let ok = (used & w.cards()).is_empty();
                        if ok {
                            used = used | w.cards();
                        }
                        ok
                    })
                    .map(|w| w.cards())
                    .collect()
            } else {
                g.declarable_weis(s).iter().map(|w| w.cards()).collect()
            };
            // Stöck: either right away on its own, or with this card when that is still
            // in time (R7: not once both cards are down).
            let mut stoeck = false;
            if g.can_announce_stoeck(s) && rng.next_u32() % 2 == 0 {
                if g.hand(s).len() < 9 && rng.next_u32() % 2 == 0 {
                    let mut events = g.apply(s, Action::Stoeck, || unreachable!()).expect("stoeck");
                    *next += 1;
                    let n = *next;
                    events.extend(
                        g.apply(s, Action::Play { card, weis, stoeck: false }, || seed_n(n))
                            .expect("play after stoeck"),
                    );
                    return events;
                }
                let probe =
                    g.clone().apply(s, Action::Play { card, weis: weis.clone(), stoeck: true }, || seed_n(0));
                stoeck = probe.is_ok();
            }
            Action::Play { card, weis, stoeck }
        }
        Phase::Over => unreachable!(),
    };
    *next += 1;
    let n = *next;
    g.apply(s, action, || seed_n(n)).expect("random legal action accepted")
}

pub fn rng(n: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(n)
}
