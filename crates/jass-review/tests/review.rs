//! The round review: a golden review of a fixed record, rounds in play refused, the
//! "could see" half a function of the seat's view alone, and the review's own
//! consistency (every legal card valued, verdicts that follow from the two halves).

use jass_ai::{Computer, Config, Level};
use jass_engine::{Action, CardSet, Contract, Game, Options, Record, Seat, Seed, Viewer};
use jass_protocol::review::{RoundReview, Verdict};
use jass_review::{ReviewError, Reviewer, Settings};

fn record() -> Record {
    let text = include_str!("data/game.json");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("tests/data/game.json: {e}"))
}

/// The review of round 2 of a game between computers, as computed when it was
/// checked by hand (the cards marked, the totals): any change to the solver, the
/// computer or the thresholds shows here, and then needs a new `REVIEW_VERSION`.
/// `JASS_REVIEW_BLESS=1` writes the file anew.
#[test]
fn the_review_of_a_fixed_record_is_the_golden_one() {
    let review = Reviewer::new(Settings::default()).round(&record(), 1).unwrap();
    let json = serde_json::to_string_pretty(&review).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review-round-2.json");
    if std::env::var_os("JASS_REVIEW_BLESS").is_some() {
        std::fs::write(path, &json).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap_or_default();
    assert!(json == golden, "the review differs from {path} (JASS_REVIEW_BLESS=1 writes it)");
    let back: RoundReview = serde_json::from_str(&golden).unwrap();
    assert_eq!((back.round, back.tricks.len()), (1, 9), "the JSON reads back");
}

/// Nothing of a round in play is reviewed: a record cut in the middle of a round
/// answers `InPlay` for that round and reviews the rounds before it.
#[test]
fn a_round_in_play_is_refused() {
    let mut rec = record();
    rec.rounds.truncate(3);
    if let Some(last) = rec.rounds.last_mut() {
        last.actions.truncate(17);
    }
    let mut reviewer = Reviewer::new(Settings { seen: cheap(), ..Settings::default() });
    assert!(matches!(reviewer.round(&rec, 2), Err(ReviewError::InPlay(2))));
    assert!(matches!(reviewer.round(&rec, 3), Err(ReviewError::NoRound(3))));
    let reviews = reviewer.game(&rec).unwrap();
    assert_eq!(reviews.iter().map(|r| r.round).collect::<Vec<_>>(), [0, 1]);
    // A record cut right after a round (the next round's seed still secret) reviews it.
    let mut cut = record();
    cut.rounds.truncate(2);
    assert_eq!(reviewer.round(&cut, 1).map(|r| r.round).ok(), Some(1));
    // A record that does not replay is refused as such.
    let mut bad = record();
    if let Some(a) = bad.rounds.get_mut(0).and_then(|r| r.actions.get_mut(5)) {
        a.action = Action::Bedanke;
    }
    assert!(matches!(reviewer.round(&bad, 0), Err(ReviewError::Replay(_))));
}

/// A computer that thinks little: for the tests that need the review's shape only.
fn cheap() -> Config {
    Config { playouts: 60, solve_deals: 4, time_budget: None, ..Config::for_level(Level::Strong) }
}

/// Every card has every legal card valued; the verdict follows from the two halves;
/// the totals add up the cards.
#[test]
fn every_card_is_reviewed_and_the_verdicts_follow_from_both_views() {
    let rec = record();
    let game = rec.replay().unwrap();
    let mut reviewer = Reviewer::new(Settings { seen: cheap(), ..Settings::default() });
    for review in reviewer.game(&rec).unwrap() {
        let summary = &game.history()[review.round as usize];
        assert_eq!(Some(review.contract), summary.contract);
        let cards: Vec<_> = review.tricks.iter().flat_map(|t| &t.cards).collect();
        if summary.complete {
            assert_eq!(cards.len(), 36, "round {}", review.round);
        }
        for c in &cards {
            let forced = c.exact.options.len() == 1;
            assert_eq!(c.seen.is_none(), forced, "a 'could see' estimate exactly where there was a choice");
            assert!(c.exact.options.iter().any(|o| o.card == c.card));
            let lost = c.exact.loss.at_least > 0;
            let clear = c.seen.as_ref().is_some_and(|s| s.clear);
            let want = match (forced, clear, lost) {
                (true, ..) => Verdict::Forced,
                (_, true, true) => Verdict::Mistake,
                (_, true, false) => Verdict::Lucky,
                (_, false, true) => Verdict::Guess,
                _ => Verdict::Good,
            };
            assert_eq!(c.verdict, want, "{c:?}");
            if let Some(s) = &c.seen {
                assert!(s.clear == (s.loss.mean >= 3.0 && s.loss.mean >= 2.0 * s.loss.se));
            }
        }
        for s in Seat::ALL {
            let mine: u32 = cards.iter().filter(|c| c.seat == s).map(|c| c.exact.loss.at_least).sum();
            assert_eq!(review.players[s].exact.at_least, mine);
        }
        // The choosing team's best play is the first card's best, and the contract
        // played is valued at it.
        let first = &cards[0].exact;
        assert_eq!(review.teams[review.chosen_by.team()].best_play.at_least, first.best);
        assert!(review.choice.exact[review.contract.index()].at_least >= first.best * review.multiplier);
    }
}

/// The "could see" half depends only on the seat's view: two deals that differ only
/// in cards the seat has not seen give the same estimate, card for card.
#[test]
fn what_a_seat_could_see_depends_on_its_view_alone() {
    let options = Options::default();
    let parse = |s: &str| s.parse::<CardSet>().unwrap();
    let hands = [
        parse("HJ H9 HA HK S6 S7 D6 D7 C6"),
        parse("HQ HT SA SK DA DK CA CK C7"),
        parse("H6 H7 S8 S9 D8 D9 C8 C9 CT"),
        parse("H8 SQ SJ ST DQ DJ DT CJ CQ"),
    ];
    // Seats 2 and 3 swap two cards seat 1 cannot have seen (hidden, and not played
    // in the first trick's first card).
    let mut other = hands;
    other[2] = hands[2].without("S8".parse().unwrap()).with("SQ".parse().unwrap());
    other[3] = hands[3].without("SQ".parse().unwrap()).with("S8".parse().unwrap());
    let estimate = |hands: [CardSet; 4]| {
        let mut game = Game::with_hands(options, Seat::ALL[3], hands, Seat::ALL[0], [0, 0]).unwrap();
        let seed = || Seed([1; 32]);
        game.apply(Seat::ALL[0], Action::Choose { contract: Contract::Hearts }, seed).unwrap();
        let lead = Action::Play { card: "HJ".parse().unwrap(), weis: Vec::new(), stoeck: false };
        game.apply(Seat::ALL[0], lead, seed).unwrap();
        let view = game.view(Viewer::Seat(Seat::ALL[1]));
        let mut c = Computer::new(Seat::ALL[1], options, Settings::default().seen);
        c.card_samples(&view).unwrap()
    };
    let (a, b) = (estimate(hands), estimate(other));
    assert_eq!(a, b, "the same view, the same estimate");
    assert!(a.rows.len() > 100, "{} deals", a.rows.len());
}
