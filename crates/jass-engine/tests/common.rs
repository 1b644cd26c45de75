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
            if g.can_schiebe(s) && rng.next_u32().is_multiple_of(3) {
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
            if g.can_announce_stoeck(s) && rng.next_u32().is_multiple_of(2) {
                if g.hand(s).len() < 9 && rng.next_u32().is_multiple_of(2) {
                    let mut events: Vec<Event> =
                        g.apply(s, Action::Stoeck, || unreachable!()).expect("stoeck").into_iter().collect();
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
    g.apply(s, action, || seed_n(n)).expect("random legal action accepted").into_iter().collect()
}

pub fn rng(n: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(n)
}

/// The four hands, by seat, from their text form.
pub fn hands(h: [&str; 4]) -> [CardSet; 4] {
    h.map(cards)
}

/// Four hands of nine: each seat gets its `fixed` cards, and the rest of the deck is
/// dealt out to fill them, preferring a seat where the card touches no card of its
/// suit already held (so fill-ins do not lengthen a declared run).
pub fn fill(fixed: [&str; 4]) -> [CardSet; 4] {
    let mut h = hands(fixed);
    let taken = h.iter().fold(CardSet::EMPTY, |a, &x| a | x);
    assert_eq!(taken.len(), h.iter().map(|x| x.len()).sum::<u32>(), "fixed cards overlap");
    for c in !taken {
        let touches = |hand: CardSet| {
            let r = c.rank().index();
            [r.checked_sub(1), Some(r + 1)]
                .into_iter()
                .flatten()
                .filter(|&n| n < 9)
                .any(|n| hand.contains(jass_engine::Card::new(c.suit(), jass_engine::Rank::ALL[n])))
        };
        let room: Vec<usize> = (0..4).filter(|&i| h[i].len() < 9).collect();
        let i = room.iter().copied().find(|&i| !touches(h[i])).unwrap_or(room[0]);
        h[i] = h[i].with(c);
    }
    h
}

/// A game with these hands, dealer, forehand and starting totals (see `Game::with_hands`).
pub fn game_with(
    options: jass_engine::Options,
    dealer: u8,
    forehand: u8,
    h: [CardSet; 4],
    totals: [u32; 2],
) -> Game {
    Game::with_hands(options, seat(dealer), h, seat(forehand), totals).unwrap()
}

/// Applies an action that must be accepted; a round that ends deals from `seed_n(round)`.
pub fn act(g: &mut Game, s: Seat, a: Action) -> Vec<Event> {
    let n = u64::from(g.round_number()) + 1000;
    let desc = format!("{a:?}");
    g.apply(s, a, || seed_n(n))
        .unwrap_or_else(|e| panic!("seat {s} {desc} refused: {e}"))
        .into_iter()
        .collect()
}

/// Plays `c` for seat `s` (no Weis, no Stöck); it must be accepted.
pub fn play(g: &mut Game, s: u8, c: &str) -> Vec<Event> {
    act(g, seat(s), Action::play(card(c)))
}

/// Plays the cards for whoever is to act, in turn, checking each seat is the one to act.
pub fn play_cards(g: &mut Game, seats_and_cards: &[(u8, &str)]) -> Vec<Event> {
    let mut out = Vec::new();
    for &(s, c) in seats_and_cards {
        assert_eq!(g.to_act(), Some(seat(s)), "seat {s} to play {c}");
        out.extend(play(g, s, c));
    }
    out
}

/// An action that must be refused; checks the game did not change and returns the error.
pub fn refused(g: &mut Game, s: Seat, a: Action) -> jass_engine::RuleError {
    let before = g.clone();
    let e = g.apply(s, a, || seed_n(99)).expect_err("action should be refused");
    assert_eq!(*g, before, "a refused action changed the game");
    e
}

/// Whoever is to act plays its lowest-index legal card; returns the events.
pub fn play_first_legal(g: &mut Game) -> Vec<Event> {
    let s = g.to_act().expect("someone to act");
    let c = g.legal_cards(s).first().expect("a legal card");
    act(g, s, Action::play(c))
}

/// Plays first legal cards until the current round is over; returns all events.
pub fn finish_round(g: &mut Game) -> Vec<Event> {
    let round = g.round_number();
    let mut out = Vec::new();
    while g.round_number() == round && g.phase() == Phase::Playing {
        out.extend(play_first_legal(g));
    }
    out
}

/// The round summaries among `events`.
pub fn summaries(events: &[Event]) -> Vec<jass_engine::RoundSummary> {
    events.iter().filter_map(|e| if let Event::RoundScored(s) = e { Some(**s) } else { None }).collect()
}

/// The ChaCha20 keystream as protocol.md 6.2 specifies it (RFC 8439 block function, 20
/// rounds, key = the 32 seed bytes, 64-bit block counter from 0 in words 12–13, nonce 0
/// in words 14–15), as little-endian `u32`s: written here from the RFC, not taken
/// from `rand`, so the golden vector checks the published algorithm.
pub struct ChaCha20Words {
    state: [u32; 16],
    block: [u32; 16],
    used: usize,
}

impl ChaCha20Words {
    pub fn new(key: [u8; 32]) -> Self {
        let mut state = [0u32; 16];
        state[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        for i in 0..8 {
            state[4 + i] = u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap());
        }
        Self { state, block: [0; 16], used: 16 }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.used == 16 {
            let mut x = self.state;
            let qr = |x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize| {
                x[a] = x[a].wrapping_add(x[b]);
                x[d] = (x[d] ^ x[a]).rotate_left(16);
                x[c] = x[c].wrapping_add(x[d]);
                x[b] = (x[b] ^ x[c]).rotate_left(12);
                x[a] = x[a].wrapping_add(x[b]);
                x[d] = (x[d] ^ x[a]).rotate_left(8);
                x[c] = x[c].wrapping_add(x[d]);
                x[b] = (x[b] ^ x[c]).rotate_left(7);
            };
            for _ in 0..10 {
                qr(&mut x, 0, 4, 8, 12);
                qr(&mut x, 1, 5, 9, 13);
                qr(&mut x, 2, 6, 10, 14);
                qr(&mut x, 3, 7, 11, 15);
                qr(&mut x, 0, 5, 10, 15);
                qr(&mut x, 1, 6, 11, 12);
                qr(&mut x, 2, 7, 8, 13);
                qr(&mut x, 3, 4, 9, 14);
            }
            self.block = std::array::from_fn(|i| x[i].wrapping_add(self.state[i]));
            let counter = (u64::from(self.state[13]) << 32 | u64::from(self.state[12])) + 1;
            (self.state[12], self.state[13]) = (counter as u32, (counter >> 32) as u32);
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }
}

/// The shuffled deck and the drawn first dealer of protocol.md 6.2, written
/// independently of the engine: ChaCha20 keyed with the seed, rejection-sampled
/// `uniform`, Fisher–Yates from the top, then `uniform(4)`.
pub fn reference_deck(seed: Seed) -> ([Card; 36], Seat) {
    let mut rng = ChaCha20Words::new(seed.0);
    let mut uniform = |n: u32| loop {
        let x = rng.next_u32();
        if x <= u32::MAX - (u32::MAX - n + 1) % n {
            return x % n;
        }
    };
    let mut deck: [Card; 36] = std::array::from_fn(|i| Card::from_index(i as u8).unwrap());
    for i in (1..36).rev() {
        let j = uniform(i as u32 + 1) as usize;
        deck.swap(i, j);
    }
    let drawn = Seat::ALL[uniform(4) as usize];
    (deck, drawn)
}
