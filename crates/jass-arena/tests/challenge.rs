//! The reference player `challenge` (pyschieber's rule-based challenge player,
//! re-implemented): it always plays a legal card (R5), decides from its seat's view
//! only, and plays the original's rules in positions where they are clear.

mod common;

use common::{random_hands, random_legal};
use jass_arena::{Challenge, Kind, Player, card_points_options};
use jass_engine::{Action, Card, CardSet, Contract, Game, Seat, Seed, Viewer};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Hands from partial ones: each seat gets the cards named for it, and the rest of
/// the deck fills the hands up to nine in seat order.
fn hands(fixed: [&str; 4]) -> [CardSet; 4] {
    let mut h: [CardSet; 4] = fixed.map(|s| s.parse::<CardSet>().unwrap());
    let used = h.iter().fold(CardSet::EMPTY, |a, &x| a | x);
    let mut rest = (CardSet::DECK ^ used).iter();
    for x in &mut h {
        while x.len() < 9 {
            *x = x.with(rest.next().unwrap());
        }
    }
    h
}

/// A round dealt by seat 3, so seat 0 is the forehand and leads the first trick;
/// `push` has the forehand push and its partner choose.
fn start(h: [CardSet; 4], contract: Contract, push: bool) -> Game {
    let (dealer, forehand) = (Seat::ALL[3], Seat::ALL[0]);
    let mut g = Game::with_hands(card_points_options(), dealer, h, forehand, [0, 0]).unwrap();
    if push {
        g.apply(forehand, Action::Schiebe, || Seed([0; 32])).unwrap();
        g.apply(forehand.partner(), Action::Choose { contract }, || Seed([0; 32])).unwrap();
    } else {
        g.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).unwrap();
    }
    g
}

fn play(g: &mut Game, cards: &[&str]) {
    for c in cards {
        let seat = g.to_act().unwrap();
        g.apply(seat, Action::play(card(c)), || Seed([0; 32])).unwrap();
    }
}

/// What a fresh challenge player at the seat to act plays now.
fn choice(g: &Game) -> Card {
    let seat = g.to_act().unwrap();
    Challenge::new(seat, 1).card(&g.view(Viewer::Seat(seat))).unwrap()
}

/// Over many random deals, every contract, with and without a push, and with
/// challenge players at two or four seats (the others random), every card the
/// challenge player chooses is legal (R5), including its random fallback.
#[test]
fn challenge_always_plays_a_legal_card() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x17_c1);
    let mut decisions = 0;
    for case in 0..240u64 {
        let contract = Contract::ALL[case as usize % 6];
        let push = case % 4 == 1;
        let mut game = start(random_hands(&mut rng), contract, push);
        let all_four = case.is_multiple_of(2);
        let mut players: Vec<Challenge> = Seat::ALL.iter().map(|&s| Challenge::new(s, case)).collect();
        for _ in 0..36 {
            let seat = game.to_act().unwrap();
            let c = if all_four || seat.index().is_multiple_of(2) {
                let legal = game.legal_cards(seat);
                let c = players[seat.index()].card(&game.view(Viewer::Seat(seat))).unwrap();
                assert!(legal.contains(c), "case {case}: {c} is not legal for {seat:?} in {contract:?}");
                decisions += 1;
                c
            } else {
                random_legal(&game, seat, &mut rng)
            };
            game.apply(seat, Action::play(c), || Seed([0; 32])).unwrap();
        }
    }
    assert!(decisions > 5000, "{decisions}");
}

/// Whatever the hidden hands, the same views give the same card
/// (`common::decides_from_its_view_only`).
#[test]
fn challenge_decisions_depend_only_on_the_seats_view() {
    let (differing, compared) = common::decides_from_its_view_only(0x17_c2, 60, 34, Challenge::new);
    assert!(differing >= 30, "only {differing} cases had different hidden hands");
    assert!(compared >= 150, "only {compared} decisions compared");
}

/// The original's trump-mode lead for the declarer ("Trumpf") and the opponents:
/// `pulling_trumpfs = not opponents_out_of_trumpf and len(sorted_trumpf_cards) > 0`
/// → `return sorted_trumpf_cards[0]`, its highest trump by `get_trumpf_rank` (jack
/// 16, nine 15, ace 14): the jack here. (Holding every trump, it would not pull.)
#[test]
fn declarer_leads_its_highest_trump_while_opponents_may_hold_trumps() {
    let g = start(hands(["HJ H9 HA H6", "H7 H8", "HT HQ", "HK"]), Contract::Hearts, false);
    assert_eq!(choice(&g), card("HJ"));
    // Without the jack, the nine is the highest trump (rank 15 above the ace's 14).
    let g = start(hands(["H9 HA H6", "H7 H8 HJ", "HT HQ", "HK"]), Contract::Hearts, false);
    assert_eq!(choice(&g), card("H9"));
}

/// The declarer's partner (role "Partner": it pushed) leading while the declarer has
/// not led yet: `if not card_counter.had_stich_previously(partner)`: its trumps
/// without the jack (`card.value != 11`), highest first → the nine, keeping the jack.
#[test]
fn pushing_partner_leads_its_highest_trump_but_the_jack() {
    let g = start(hands(["HJ H9 HA H6", "H7 H8", "HT HQ", "HK"]), Contract::Hearts, true);
    assert_eq!(g.view(Viewer::Seat(Seat::ALL[0])).chosen_by, Some(Seat::ALL[2]));
    assert_eq!(choice(&g), card("H9"));
}

/// Last to play with the partner winning and nothing that beats its card:
/// `get_stich_card` finds no winner, so `get_tossable_card` follows suit and, as
/// `round_leader == partner and len(table) == 3`, gives the first card of value 10
/// (Obenabe: 10 or 8) in strongest-first order: the ten, not the weakest card.
#[test]
fn last_to_play_gives_the_winning_partner_the_ten() {
    // Seat 0 leads D7, the partner (seat 1) the ace, seat 2 the six; seat 3 holds
    // DK DQ DJ DT D9 D8.
    let h = hands(["D7", "DA", "D6", "DK DQ DJ DT D9 D8"]);
    let mut g = start(h, Contract::Obenabe, false);
    play(&mut g, &["D7", "DA", "D6"]);
    assert_eq!(choice(&g), card("DT"));
    // Undenufe counts only the 10 (`card.value == 10`); the weakest card is the ace.
    let h = hands(["D7", "D6", "DA", "DK DQ DJ DT D9 D8"]);
    let mut g = start(h, Contract::Undenufe, false);
    play(&mut g, &["D7", "D6", "DA"]);
    assert_eq!(choice(&g), card("DT"));
}

/// Last to play with the opponents winning: every card that beats the trick is a
/// candidate (`len(state['table']) == 3`), sorted strongest first, and it takes
/// with the ten if it has one, else with the strongest (`s_cards[0]`), not the
/// cheapest winner.
#[test]
fn last_to_play_takes_with_its_strongest_winner_or_the_ten() {
    let h = hands(["D7", "D6", "D8 DT", "D9 DJ DQ DK DA"]);
    let mut g = start(h, Contract::Obenabe, false);
    play(&mut g, &["D7", "D6", "D8"]);
    assert_eq!(choice(&g), card("DA"));
    let h = hands(["D7", "D6", "D8", "D9 DT DJ DQ DK DA"]);
    let mut g = start(h, Contract::Obenabe, false);
    play(&mut g, &["D7", "D6", "D8"]);
    assert_eq!(choice(&g), card("DT"));
}

/// The command line offers it by name.
#[test]
fn challenge_is_a_command_line_player() {
    assert_eq!("challenge".parse::<Kind>(), Ok(Kind::Challenge));
    assert_eq!(Kind::Challenge.name(), "challenge");
}

/// Where the original returns no card it plays a random legal one, from its seed:
/// the declarer's partner leading after the declarer has led a trick, with no trump
/// to draw and no side-suit boss, reaches the branch that computes a value card and
/// forgets to return it (`else: self.get_value_card(...)` without `return`).
#[test]
fn no_card_from_the_original_is_a_seeded_random_legal_card() {
    // Seat 0 pushes, seat 2 chooses hearts. Trick 1: seat 0 leads D8, seat 2 takes
    // with DA; trick 2: seat 2 leads C8, seat 0 takes with CA; seat 0 leads trick 3
    // holding no heart and no boss.
    let h = hands(["D8 CA D6 D7 C6 C7 S6 S7 S8", "D9 CT", "DA C8", "DT C9"]);
    let script = ["D8", "D9", "DA", "DT", "C8", "C9", "CA", "CT"];
    let me = Seat::ALL[0];
    let lead = |seed: u64| {
        let mut g = start(h, Contract::Hearts, true);
        let mut p = Challenge::new(me, seed);
        for c in script {
            if g.to_act() == Some(me) {
                p.card(&g.view(Viewer::Seat(me))).unwrap();
            }
            play(&mut g, &[c]);
        }
        assert_eq!(g.to_act(), Some(me));
        let legal = g.legal_cards(me);
        let c = p.card(&g.view(Viewer::Seat(me))).unwrap();
        assert!(legal.contains(c));
        c
    };
    let cards: Vec<Card> = (0..24).map(lead).collect();
    assert_eq!(lead(3), cards[3], "the same seed plays the same card");
    let distinct: CardSet = cards.iter().copied().collect();
    assert!(distinct.len() >= 3, "a random card, not a rule: {cards:?}");
}
