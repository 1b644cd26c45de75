//! A game keeps its record and round summaries compact and builds them in full on
//! demand. The full forms must be exactly what the game accepted, so this test keeps
//! its own record of every accepted action (R12, with the R10 rule for a bedanke
//! between rounds) and compares.
#![allow(missing_docs)]

mod common;

use common::{fill, rng, seat, seed_n};
use jass_engine::{
    Action, CardSet, Contract, End, Event, Game, Options, Phase, Record, RoundRecord, RoundSummary, Seat,
    SeatAction, Seed, Team,
};
use rand::Rng;
use rand::rngs::Xoshiro256PlusPlus;

/// What the test itself saw: the record and the scored rounds.
struct Expected {
    record: Record,
    scored: Vec<RoundSummary>,
}

impl Expected {
    fn new(g: &Game, seed: Seed) -> Self {
        let first = RoundRecord {
            dealer: g.dealer(),
            seed,
            hands: Seat::ALL.map(|s| g.hand(s)).into(),
            actions: Vec::new(),
        };
        let record = Record {
            format: jass_engine::RECORD_FORMAT.to_owned(),
            options: *g.options(),
            rounds: vec![first],
            players: Vec::new(),
        };
        Self { record, scored: Vec::new() }
    }

    /// Applies `action` and keeps it where R12 puts it.
    fn apply(&mut self, g: &mut Game, s: Seat, action: Action, next: Seed) -> bool {
        let rounds = &mut self.record.rounds;
        let n = rounds.len();
        let between = matches!(action, Action::Bedanke) && n >= 2 && rounds[n - 1].actions.is_empty();
        let slot = if between { n - 2 } else { n - 1 };
        let Ok(events) = g.apply(s, action.clone(), || next) else { return false };
        rounds[slot].actions.push(SeatAction { seat: s, action });
        for e in events {
            match e {
                Event::RoundDealt { dealer, .. } => rounds.push(RoundRecord {
                    dealer,
                    seed: next,
                    hands: Seat::ALL.map(|s| g.hand(s)).into(),
                    actions: Vec::new(),
                }),
                Event::RoundScored(summary) => self.scored.push(*summary),
                _ => {}
            }
        }
        true
    }

    fn check(&self, g: &Game) {
        assert_eq!(g.record(), &self.record);
        assert_eq!(g.to_record(), self.record);
        let history = g.history();
        assert_eq!(&history[..self.scored.len()], &self.scored[..]);
        assert!(history.len() <= self.scored.len() + 1, "at most a bedanke's round after those scored");
        assert_eq!(history.last().copied(), g.view(jass_engine::Viewer::Spectator).last_round);
    }
}

/// One random legal action of every kind the game may take: pushes, contracts, plays
/// with every declarable Weis, Stöck with a card or alone, and now and then a bedanke.
fn random_action(g: &Game, rng: &mut Xoshiro256PlusPlus) -> (Seat, Action) {
    if g.can_bedanke() && rng.next_u32().is_multiple_of(150) {
        return (Seat::ALL[(rng.next_u32() % 4) as usize], Action::Bedanke);
    }
    let s = g.to_act().unwrap();
    if g.can_announce_stoeck(s) && rng.next_u32().is_multiple_of(3) {
        return (s, Action::Stoeck);
    }
    match g.phase() {
        Phase::Choosing if g.can_schiebe(s) && rng.next_u32().is_multiple_of(3) => (s, Action::Schiebe),
        Phase::Choosing => (s, Action::Choose { contract: Contract::ALL[(rng.next_u32() % 6) as usize] }),
        _ => {
            let legal = g.legal_cards(s);
            let card = legal.nth(rng.next_u32() % legal.len()).unwrap();
            let mut used = CardSet::EMPTY;
            let weis = g
                .declarable_weis(s)
                .into_iter()
                .map(|w| w.cards())
                .filter(|&c| {
                    let ok = !g.options().small_weis || (used & c).is_empty();
                    used = used | c;
                    ok
                })
                .collect();
            let stoeck = rng.next_u32().is_multiple_of(2);
            (s, Action::Play { card, weis, stoeck })
        }
    }
}

fn play(mut g: Game, seed: Seed, mut rng: Xoshiro256PlusPlus, rounds: u32) -> (Game, Expected) {
    let mut expected = Expected::new(&g, seed);
    let mut n = 0;
    while g.phase() != Phase::Over && g.round_number() < rounds {
        let (s, mut action) = random_action(&g, &mut rng);
        n += 1;
        if !expected.apply(&mut g, s, action.clone(), seed_n(n)) {
            // A Stöck with the card that came too late: play it plainly.
            if let Action::Play { stoeck, .. } = &mut action {
                *stoeck = false;
            }
            assert!(expected.apply(&mut g, s, action, seed_n(n)), "a legal action is accepted");
        }
        if n % 7 == 0 {
            expected.check(&g);
        }
    }
    expected.check(&g);
    (g, expected)
}

#[test]
fn full_record_and_history_are_what_the_game_accepted() {
    for i in 0..40 {
        let options = Options {
            push_back: i % 2 == 0,
            small_weis: i % 3 == 0,
            auto_stoeck: i % 5 == 0,
            end: if i % 4 == 0 { End::Automatic } else { End::Bedanken },
            ..Options::default()
        };
        let (g, expected) = play(Game::new(options, seed_n(9000 + i)).unwrap(), seed_n(9000 + i), rng(i), 40);
        let replayed = expected.record.replay().unwrap();
        assert_eq!(replayed, g, "game {i} replays to the same game");
        assert_eq!(replayed.history(), g.history());
        assert_eq!(
            serde_json::to_string(g.record()).unwrap(),
            serde_json::to_string(&expected.record).unwrap()
        );
    }
}

/// A bedanke between rounds is kept after the finished round's last card (R10), also
/// in the compact form.
#[test]
fn bedanke_between_rounds_stays_in_the_finished_round() {
    let options = Options { end: End::Bedanken, ..Options::default() };
    let mut g = Game::new(options, seed_n(1)).unwrap();
    let mut expected = Expected::new(&g, seed_n(1));
    let mut r = rng(1);
    let mut n = 0;
    while g.round_number() < 2 {
        let (s, action) = random_action(&g, &mut r);
        if matches!(action, Action::Bedanke | Action::Stoeck)
            || matches!(action, Action::Play { stoeck: true, .. })
        {
            continue;
        }
        n += 1;
        assert!(expected.apply(&mut g, s, action, seed_n(100 + n)));
    }
    assert!(expected.apply(&mut g, seat(2), Action::Bedanke, seed_n(0)));
    let rec = g.record();
    assert_eq!(rec.rounds.len(), 3);
    assert!(rec.rounds[2].actions.is_empty());
    assert_eq!(rec.rounds[1].actions.last().unwrap().action, Action::Bedanke);
    expected.check(&g);
}

/// A game dealt from given hands and totals keeps them in its record and history.
#[test]
fn given_hands_and_totals_are_kept() {
    let hands = fill(["HA HK HQ HJ HT", "DA DK DQ", "CA CK", "SA"]);
    let g = Game::with_hands(Options::default(), seat(1), hands, seat(2), [100, 200]).unwrap();
    let (g, expected) = play(g, Seed([0; 32]), rng(5), 3);
    assert_eq!(g.record().rounds[0].hands, hands);
    assert_eq!(g.record().rounds[0].dealer, seat(1));
    let h = g.history();
    assert_eq!(h[0].running_total, [100 + h[0].total[Team::Zero], 200 + h[0].total[Team::One]]);
    expected.check(&g);
}

/// The full record is built on demand and dropped again at the next action, so a
/// game asked for its record does not keep the full form.
#[test]
fn the_full_record_is_not_kept_after_the_next_action() {
    let mut g = Game::new(Options::default(), seed_n(3)).unwrap();
    let s = g.to_act().unwrap();
    assert_eq!(g.record().rounds[0].actions.len(), 0);
    g.apply(s, Action::Choose { contract: Contract::Obenabe }, || seed_n(4)).unwrap();
    assert_eq!(g.record().rounds[0].actions.len(), 1, "the next action is seen");
    let before = g.clone();
    let _ = g.record();
    assert_eq!(g, before, "the cache is no part of the game");
}
