//! What protocol.md 5.2 says about `last_round`, `rounds_played` and the first round's
//! dealer, checked against the engine's views.

mod common;

use common::{random_step, rng, seat, seed_n};
use jass_engine::{Action, ByTeam, Contract, Game, Options, Phase, Seed, Team, Viewer};

/// Plays random legal actions until round `n` has been dealt.
fn play_until_round(g: &mut Game, n: u32, next: &mut u64) {
    let mut r = rng(11);
    while g.round_number() < n {
        assert_ne!(g.phase(), Phase::Over, "the game ended before round {n}");
        random_step(g, &mut r, next);
    }
}

fn golden() -> Seed {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = i as u8;
    }
    Seed(b)
}

// Under `seven_of_hearts` the first round's `dealer` is the drawn
// seat (6.2 step 5), and it may be the forehand too; the holder of H7 deals round 2.
#[test]
fn first_round_dealer_is_the_drawn_seat() {
    let mut g = Game::new(Options::default(), golden()).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.round, v.dealer, v.forehand), (0, seat(1), seat(1)), "golden vector of 6.2");
    let mut next = 500;
    play_until_round(&mut g, 1, &mut next);
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.round, v.dealer, v.forehand), (1, seat(1), seat(2)));
    let last = v.last_round.unwrap();
    assert_eq!((last.round, last.dealer, last.forehand), (0, seat(1), seat(1)));
}

// `card_points`, `match_bonus`, `weis` and `stoeck` are raw points;
// `total` is their sum times `multiplier`; `running_total` adds up the totals.
#[test]
fn last_round_numbers_raw_and_multiplied() {
    let mut g = Game::new(Options { target: 100_000, ..Options::default() }, seed_n(3)).unwrap();
    let mut next = 900;
    let mut running = ByTeam([0u32; 2]);
    for n in 1..=12 {
        play_until_round(&mut g, n, &mut next);
        let v = g.view(Viewer::Seat(seat(0)));
        let last = v.last_round.unwrap();
        assert_eq!(last.round, n - 1);
        assert!(last.complete);
        assert_eq!(v.rounds_played, n);
        assert_eq!(last.multiplier, Options::default().multipliers.of(last.contract.unwrap()));
        assert_eq!(
            last.card_points[Team::Zero] + last.card_points[Team::One],
            157,
            "raw card points with the last trick's 5"
        );
        for (t, run) in running.iter_mut() {
            let raw = last.card_points[t] + last.match_bonus[t] + last.weis[t] + last.stoeck[t];
            assert_eq!(last.total[t], raw * last.multiplier, "round {n} team {t:?}");
            assert!(last.match_bonus[t] == 0 || last.match_bonus[t] == 100);
            assert!(last.stoeck[t] == 0 || last.stoeck[t] == 20);
            *run += last.total[t];
        }
        assert_eq!(last.running_total, running);
        assert_eq!(v.totals, running, "right after the deal nothing of the new round is credited");
    }
}

// A bedanke right after a deal (no push, no contract yet) adds no
// round: `rounds_played` and `last_round` stay those of the finished rounds.
#[test]
fn bedanke_right_after_a_deal_adds_no_round() {
    let mut g = Game::new(Options::default(), seed_n(5)).unwrap();
    g.apply(seat(0), Action::Bedanke, || unreachable!()).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.phase, v.round, v.rounds_played, v.last_round), (Phase::Over, 0, 0, None));

    let mut g = Game::new(Options::default(), seed_n(5)).unwrap();
    let mut next = 100;
    play_until_round(&mut g, 2, &mut next);
    g.apply(seat(1), Action::Bedanke, || unreachable!()).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.phase, v.round, v.rounds_played), (Phase::Over, 2, 2));
    let last = v.last_round.unwrap();
    assert_eq!((last.round, last.complete), (1, true));
}

// A bedanke in a begun round (pushed or contract chosen) scores it
// as far as it went: `last_round` is that round with `complete: false`, and
// `rounds_played` counts it.
#[test]
fn bedanke_in_a_begun_round_counts_it_incomplete() {
    let mut g = Game::new(Options::default(), seed_n(5)).unwrap();
    let mut next = 100;
    play_until_round(&mut g, 1, &mut next);
    let forehand = g.view(Viewer::Spectator).forehand;
    g.apply(forehand, Action::Choose { contract: Contract::Obenabe }, || unreachable!()).unwrap();
    g.apply(seat(2), Action::Bedanke, || unreachable!()).unwrap();
    let v = g.view(Viewer::Spectator);
    assert_eq!((v.phase, v.round, v.rounds_played), (Phase::Over, 1, 2));
    let last = v.last_round.unwrap();
    assert_eq!((last.round, last.complete, last.contract), (1, false, Some(Contract::Obenabe)));
    assert_eq!(last.card_points, [0, 0]);
}
