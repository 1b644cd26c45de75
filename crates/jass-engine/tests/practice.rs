//! A finished round dealt again at a practice table (R2 `first_dealer`, R12): the same
//! four hands, the same dealer and forehand, the round's choice and tricks played again
//! up to where the practice starts, and a practice game whose record replays.

mod common;

use common::*;
use jass_engine::{Action, End, FirstRound, Game, Options, Phase, PracticeError, Record};

/// A whole game of random legal play to 500 (a handful of rounds).
fn finished_game(n: u64, first_round: FirstRound) -> Record {
    let options = Options { target: 500, first_round, end: End::Automatic, ..Options::default() };
    let mut g = Game::new(options, seed_n(n)).unwrap();
    let (mut rng, mut next) = (rng(n), n * 1000);
    while g.phase() != Phase::Over {
        random_step(&mut g, &mut rng, &mut next);
    }
    g.record().clone()
}

/// R2, R12: every round of a game, practised from the deal, deals the same four hands
/// with the same dealer and forehand; later rounds need `first_dealer` for that (the
/// seed's own draw of a dealer is another seat three times in four).
#[test]
fn a_practice_deals_the_rounds_hands_with_its_dealer_and_forehand() {
    for (n, first_round) in
        [(1, FirstRound::SevenOfHearts), (2, FirstRound::Random), (3, FirstRound::SevenOfHearts)]
    {
        let record = finished_game(n, first_round);
        let original = record.replay().unwrap();
        assert!(record.rounds.len() >= 2, "game {n} has several rounds");
        for (r, rr) in record.rounds.iter().enumerate().take(original.history().len()) {
            let practice = record.practice(r, None).unwrap();
            assert_eq!(practice.options.first_dealer, (r > 0).then_some(rr.dealer), "game {n} round {r}");
            let g = practice.start().unwrap();
            assert_eq!(g.record().rounds[0].dealer, rr.dealer);
            assert_eq!(g.record().rounds[0].hands, rr.hands, "game {n} round {r}: the same hands");
            let forehand = original.history()[r].forehand;
            assert_eq!(g.to_act(), Some(forehand), "game {n} round {r}: the same forehand chooses");
        }
    }
}

/// R2: without `first_dealer` a later round's seed dealt as a first round would give
/// other hands whenever the seed draws another dealer, so the option is what makes a
/// practice of a later round the same deal.
#[test]
fn without_the_first_dealer_a_later_rounds_seed_deals_other_hands() {
    let record = finished_game(4, FirstRound::Random);
    let differs = record.rounds.iter().skip(1).any(|rr| {
        let g = Game::new(record.options, rr.seed).unwrap();
        g.record().rounds[0].hands != rr.hands
    });
    assert!(differs);
}

/// R12: from trick k the practice has played the round's choice and its first k
/// tricks exactly as the record did (Weis and Stöck with them), and the game's record
/// from there replays, as a practice table's recovery needs.
#[test]
fn a_practice_from_a_trick_has_played_the_tricks_before_it() {
    let record = finished_game(5, FirstRound::SevenOfHearts);
    let original = record.replay().unwrap();
    let last = original.history().len() - 1;
    for r in [0, last] {
        let rr = &record.rounds[r];
        for k in 0..9u8 {
            let practice = record.practice(r, Some(k)).unwrap();
            let plays = practice.actions.iter().filter(|a| matches!(a.action, Action::Play { .. })).count();
            assert_eq!(plays, 4 * usize::from(k), "round {r} trick {k}");
            assert!(practice.actions.iter().all(|a| a.action != Action::Bedanke));
            assert!(
                rr.actions.starts_with(&practice.actions)
                    || rr.actions.iter().any(|a| a.action == Action::Bedanke)
            );
            let mut g = practice.start().unwrap();
            assert_eq!(g.phase(), Phase::Playing, "round {r} trick {k}: the contract stands");
            // Play the round out and check the practice game's record replays.
            let (mut rng, mut next) = (rng(u64::from(k)), 77);
            while g.round_number() == 0 && g.phase() != Phase::Over {
                random_step(&mut g, &mut rng, &mut next);
            }
            let replayed = g.record().replay_rounds(1, |_, _| {}).unwrap();
            assert_eq!(replayed.history()[0], g.history()[0]);
        }
        assert_eq!(record.practice(r, Some(9)), Err(PracticeError::NoTrick { round: r, trick: 9 }));
    }
}

/// A round still in play, or one the record does not have, cannot be practised.
#[test]
fn a_round_not_over_cannot_be_practised() {
    let mut record = finished_game(6, FirstRound::Random);
    let rounds = record.replay().unwrap().history().len();
    assert_eq!(record.practice(rounds + 3, None), Err(PracticeError::NotOver(rounds + 3)));
    // The last round cut before its last card is not over.
    let last = record.rounds.len() - 1;
    record.rounds[last].actions.pop();
    record.rounds.truncate(last + 1);
    assert!(matches!(
        record.practice(last, Some(0)),
        Err(PracticeError::NotOver(_) | PracticeError::Replay(_))
    ));
}
