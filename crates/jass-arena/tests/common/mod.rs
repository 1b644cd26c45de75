//! What the players' tests share: random deals and cards, and the check that a
//! player decides from its seat's view only.

#![allow(dead_code)]

use jass_arena::{Player, card_points_options};
use jass_engine::{Action, Card, CardSet, Contract, Game, Seat, Seed, Viewer};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

pub(crate) use jass_engine::random_hands;

/// A uniformly random legal card of the seat to play.
pub(crate) fn random_legal(game: &Game, seat: Seat, rng: &mut Xoshiro256PlusPlus) -> Card {
    let legal = game.legal_cards(seat);
    legal.nth(rng.random_range(0..legal.len())).unwrap()
}

/// Whatever the hidden hands, the same views give the same card: two games share the
/// observer's hand and every card played so far (a random prefix of up to `max_cut`
/// cards, replayed in both), but the other seats' unplayed cards are dealt afresh. Two
/// players made alike by `new_player(seat, case)` are shown the observer's views at
/// its turns and must play alike every time. Returns (cases whose hidden hands
/// differed, decisions compared).
pub(crate) fn decides_from_its_view_only<P: Player>(
    seed: u64,
    cases: u64,
    max_cut: usize,
    mut new_player: impl FnMut(Seat, u64) -> P,
) -> (usize, usize) {
    let options = card_points_options();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut compared, mut differing) = (0, 0);
    for case in 0..cases {
        let hands = random_hands(&mut rng);
        let dealer = Seat::ALL[rng.random_range(0..4)];
        let forehand = dealer.next();
        let contract = Contract::ALL[case as usize % 6];
        let me = Seat::ALL[rng.random_range(0..4)];
        let new_game = |h: [CardSet; 4]| {
            let mut g = Game::with_hands(options, dealer, h, forehand, [0, 0]).ok()?;
            g.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).ok()?;
            Some(g)
        };
        let mut a = new_game(hands).unwrap();
        let cut = rng.random_range(0..max_cut);
        let mut plays = Vec::new();
        while plays.len() < cut {
            let seat = a.to_act().unwrap();
            let card = random_legal(&a, seat, &mut rng);
            a.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
            plays.push((seat, card));
        }
        // Deal the others' unplayed cards afresh until the same plays replay.
        let played: Vec<CardSet> = Seat::ALL
            .iter()
            .map(|&s| CardSet::from_bits(hands[s.index()].bits() & !a.hand(s).bits()))
            .collect();
        let Some(other) = (0..500).find_map(|_| {
            let mut pool: Vec<Card> =
                Seat::ALL.iter().filter(|&&s| s != me).flat_map(|&s| a.hand(s).iter()).collect();
            for i in (1..pool.len()).rev() {
                pool.swap(i, rng.random_range(0..=i));
            }
            let mut other = hands;
            for s in Seat::ALL.into_iter().filter(|&s| s != me) {
                let n = a.hand(s).len() as usize;
                other[s.index()] = played[s.index()] | pool.drain(..n).collect::<CardSet>();
            }
            let mut b = new_game(other)?;
            for &(seat, card) in &plays {
                b.apply(seat, Action::play(card), || Seed([0; 32])).ok()?;
            }
            Some(other)
        }) else {
            continue;
        };
        differing += usize::from(other != hands);
        // Replay both, asking two equal players at each of the observer's turns.
        let mut games = [hands, other].map(|h| new_game(h).unwrap());
        let mut players = [new_player(me, case), new_player(me, case)];
        let mut ask = |games: &[Game; 2]| {
            if games[0].to_act() != Some(me) {
                return 0;
            }
            let views = [0, 1].map(|i| games[i].view(Viewer::Seat(me)));
            assert_eq!(views[0], views[1], "case {case}: the views must agree for the test to mean anything");
            let cards = [0, 1].map(|i| players[i].card(&views[i]));
            assert!(cards[0].is_some());
            assert_eq!(cards[0], cards[1], "case {case}: a card depended on hidden cards");
            1
        };
        compared += ask(&games);
        for &(seat, card) in &plays {
            for g in &mut games {
                g.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
            }
            compared += ask(&games);
        }
    }
    eprintln!("{differing} cases with other hidden hands, {compared} decisions compared");
    (differing, compared)
}
