//! R6 Weis: detection of every shape, declaring all/some/none, invalid declarations,
//! the comparison with every tie-break step of R6.2–R6.3, who scores, what views show,
//! and the `small_weis` option.

mod common;

use common::*;
use jass_engine::{
    Action, CardSet, Contract, Event, Game, Options, RuleError, Team, Viewer, Weis, WeisError, find_weis,
};

fn weis_points(hand: &str, small: bool) -> Vec<u32> {
    let mut p: Vec<u32> = find_weis(cards(hand), small).iter().map(|w| w.points(small)).collect();
    p.sort_unstable();
    p
}

/// Sets up hands (`fixed` plus fill-ins), lets the forehand choose `contract`, and plays
/// the first trick, each seat playing its first legal card and declaring `declare[seat]`
/// with it.
fn first_trick(
    options: Options,
    contract: Contract,
    forehand: u8,
    fixed: [&str; 4],
    declare: [&[&str]; 4],
) -> Game {
    let mut g = game_with(options, (forehand + 3) % 4, forehand, fill(fixed), [0, 0]);
    act(&mut g, seat(forehand), Action::Choose { contract });
    for _ in 0..4 {
        let s = g.to_act().unwrap();
        let c = g.legal_cards(s).first().unwrap();
        let weis = declare[s.index()].iter().map(|w| cards(w)).collect();
        act(&mut g, s, Action::Play { card: c, weis, stoeck: false });
    }
    assert_eq!(g.round_number(), 0);
    assert_eq!(g.hand(seat(0)).len(), 8, "the first trick is complete");
    g
}

/// The team whose Weis scored after the first trick, with its points.
fn weis_winner(
    options: Options,
    contract: Contract,
    forehand: u8,
    fixed: [&str; 4],
    declare: [&[&str]; 4],
) -> (Option<Team>, u32) {
    first_trick(options, contract, forehand, fixed, declare).weis_result().expect("resolved after trick 1")
}

/// R6: runs of 3 to 9 cards score 20, 50, 100, 150, 200, 250, 300, at any height and in
/// the natural order A K Q J T 9 8 7 6.
#[test]
fn r6_runs_of_every_length() {
    let hearts = ["H6", "H7", "H8", "H9", "HT", "HJ", "HQ", "HK", "HA"];
    let points = [20, 50, 100, 150, 200, 250, 300];
    for len in 3..=9 {
        for low in 0..=9 - len {
            let hand = hearts[low..low + len].join(" ");
            assert_eq!(weis_points(&hand, false), vec![points[len - 3]], "{hand}");
            let w = Weis::from_cards(cards(&hand)).unwrap();
            assert_eq!(w.points(false), points[len - 3]);
        }
    }
    assert_eq!(weis_points("H6 H7", false), Vec::<u32>::new());
    assert_eq!(weis_points("H6 H7 H9 HJ HK", false), Vec::<u32>::new(), "gaps break runs");
    assert_eq!(weis_points("HQ HK SA", false), Vec::<u32>::new(), "one suit only");
    // B-10-9 is a run also when hearts are trump (natural order, R6).
    assert_eq!(weis_points("HJ HT H9", false), vec![20]);
}

/// R6: two separate runs in one suit are two Weis.
#[test]
fn r6_two_runs_in_one_suit() {
    let found = find_weis(cards("H6 H7 H8 HT HJ HQ HK"), false);
    let sets: Vec<CardSet> = found.iter().map(Weis::cards).collect();
    assert_eq!(sets, vec![cards("H6 H7 H8"), cards("HT HJ HQ HK")]);
    assert_eq!(weis_points("H6 H7 H8 HT HJ HQ HK", false), vec![20, 50]);
}

/// R6: four jacks 200, four nines 150, four of any other rank 100.
#[test]
fn r6_four_of_a_kind() {
    for (rank, p) in [
        ("J", 200),
        ("9", 150),
        ("A", 100),
        ("K", 100),
        ("Q", 100),
        ("T", 100),
        ("8", 100),
        ("7", 100),
        ("6", 100),
    ] {
        let hand = ["H", "D", "C", "S"].map(|s| format!("{s}{rank}")).join(" ");
        assert_eq!(weis_points(&hand, false), vec![p], "four {rank}");
    }
    assert_eq!(weis_points("HJ DJ CJ", false), Vec::<u32>::new());
}

/// R6: a card may count in a run and in a four of a kind at once.
#[test]
fn r6_card_in_a_run_and_a_four() {
    assert_eq!(weis_points("HJ HQ HK DJ CJ SJ", false), vec![20, 200]);
    // …and both may be declared together.
    let g = first_trick(
        Options::default(),
        Contract::Obenabe,
        0,
        ["HJ HQ HK DJ CJ SJ", "", "", ""],
        [&["HJ HQ HK", "HJ DJ CJ SJ"], &[], &[], &[]],
    );
    assert_eq!(g.weis_result(), Some((Some(Team::Zero), 220)));
}

/// R6: declaring is optional: a seat may declare all, some or none of its Weis; the
/// others learn only the points at once (`WeisDeclared`).
#[test]
fn r6_declare_all_some_or_none() {
    let fixed = ["H6 H7 H8 H9 DA CA SA HA", "", "", ""];
    for (declared, expect) in [
        (vec!["H6 H7 H8 H9", "HA DA CA SA"], 150),
        (vec!["HA DA CA SA"], 100),
        (vec!["H6 H7 H8 H9"], 50),
        (vec![], 0),
    ] {
        let mut g = game_with(Options::default(), 3, 0, fill(fixed), [0, 0]);
        act(&mut g, seat(0), Action::Choose { contract: Contract::Diamonds });
        let weis: Vec<CardSet> = declared.iter().map(|w| cards(w)).collect();
        let events =
            act(&mut g, seat(0), Action::Play { card: card("H6"), weis: weis.clone(), stoeck: false });
        let announced: Vec<&Event> =
            events.iter().filter(|e| matches!(e, Event::WeisDeclared { .. })).collect();
        if declared.is_empty() {
            assert!(announced.is_empty());
        } else {
            let points = weis.iter().map(|w| Weis::from_cards(*w).unwrap().points(false)).collect();
            assert_eq!(announced, vec![&Event::WeisDeclared { seat: seat(0), points }]);
        }
        for _ in 0..3 {
            play_first_legal(&mut g);
        }
        let scored = if expect == 0 { (None, 0) } else { (Some(Team::Zero), expect) };
        assert_eq!(g.weis_result(), Some(scored), "{declared:?}");
    }
}

/// R6: an invalid declaration (not held, a run not whole, not a Weis, the same Weis
/// twice) refuses the whole play and changes nothing; Weis come only with the first card.
#[test]
fn r6_invalid_declarations_are_refused() {
    let mut g = game_with(Options::default(), 3, 0, fill(["H6 H7 H8 H9 DA CA SA HA", "", "", ""]), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Clubs });
    let try_decl = |g: &mut Game, decl: &[&str]| {
        let weis = decl.iter().map(|w| cards(w)).collect();
        refused(g, seat(0), Action::Play { card: card("HA"), weis, stoeck: false })
    };
    let invalid = |e: WeisError| RuleError::InvalidWeis(e);
    assert_eq!(try_decl(&mut g, &["DT DJ DQ"]), invalid(WeisError::NotHeld(cards("DT DJ DQ"))));
    assert_eq!(try_decl(&mut g, &["H6 H7 H8"]), invalid(WeisError::NotWhole(cards("H6 H7 H8"))));
    assert_eq!(try_decl(&mut g, &["H7 H8 H9"]), invalid(WeisError::NotWhole(cards("H7 H8 H9"))));
    assert_eq!(try_decl(&mut g, &["H6 H7 H9"]), invalid(WeisError::NotAWeis(cards("H6 H7 H9"))));
    assert_eq!(try_decl(&mut g, &["HA DA CA"]), invalid(WeisError::NotAWeis(cards("HA DA CA"))));
    assert_eq!(
        try_decl(&mut g, &["H6 H7 H8 H9", "H6 H7 H8 H9"]),
        invalid(WeisError::Duplicate(cards("H6 H7 H8 H9")))
    );
    // One bad Weis spoils a declaration with a good one.
    assert!(matches!(try_decl(&mut g, &["HA DA CA SA", "H6 H7 H8"]), RuleError::InvalidWeis(_)));
    play(&mut g, 0, "H6");
    // Another seat's declaration is checked against its own hand.
    let c = g.legal_cards(seat(1)).first().unwrap();
    let e = refused(&mut g, seat(1), Action::Play { card: c, weis: vec![cards("H7 H8 H9")], stoeck: false });
    assert_eq!(e, invalid(WeisError::NotHeld(cards("H7 H8 H9"))));
}

/// R6: after its first card a seat may not declare, even a Weis it still holds.
#[test]
fn r6_weis_only_with_the_first_card() {
    // Hearts are trump: seat 0 leads the Puur, takes the trick and leads again, still
    // holding the run H6 H7 H8.
    let mut g = game_with(Options::default(), 3, 0, fill(["HJ DA CA SA H6 H7 H8 S6 S7", "", "", ""]), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Hearts });
    play(&mut g, 0, "HJ");
    for _ in 0..3 {
        play_first_legal(&mut g);
    }
    assert_eq!(g.to_act(), Some(seat(0)), "the Puur wins");
    assert!(g.declarable_weis(seat(0)).is_empty());
    let e = refused(
        &mut g,
        seat(0),
        Action::Play { card: card("S6"), weis: vec![cards("H6 H7 H8")], stoeck: false },
    );
    assert_eq!(e, RuleError::WeisTooLate);
}

/// R6: only the team with the best single Weis scores, and then all Weis of both its
/// players; the other team scores no Weis, however many it declared.
#[test]
fn r6_only_the_best_team_scores_all_its_weis() {
    // Team 0 declares 20 + 20 (seat 0) and 50 (seat 2) = 90; team 1 a single 100.
    let fixed = ["H6 H7 H8 HT HJ HQ", "D6 D7 D8 D9 DT", "C6 C7 C8 C9", ""];
    let decl: [&[&str]; 4] = [&["H6 H7 H8", "HT HJ HQ"], &["D6 D7 D8 D9 DT"], &["C6 C7 C8 C9"], &[]];
    let mut g = first_trick(Options::default(), Contract::Spades, 0, fixed, decl);
    assert_eq!(g.weis_result(), Some((Some(Team::One), 100)));
    // Written times the multiplier (spades x2).
    let s = summaries(&finish_round(&mut g)).pop().unwrap();
    assert_eq!(s.weis, [0, 100]);
    assert_eq!(s.total[Team::One], (s.card_points[Team::One] + s.match_bonus[Team::One] + 100) * 2);
    assert_eq!(s.total[Team::Zero], (s.card_points[Team::Zero] + s.match_bonus[Team::Zero]) * 2);

    // Now team 0's best is 150 (six-run), and it writes 150 + 20 + 50 = 220; team 1's 100 nothing.
    let fixed = ["H6 H7 H8 H9 HT HJ SA SK SQ", "D6 D7 D8 D9 DT", "C6 C7 C8 C9", ""];
    let decl: [&[&str]; 4] = [&["H6 H7 H8 H9 HT HJ", "SQ SK SA"], &["D6 D7 D8 D9 DT"], &["C6 C7 C8 C9"], &[]];
    let g = first_trick(Options::default(), Contract::Hearts, 0, fixed, decl);
    assert_eq!(g.weis_result(), Some((Some(Team::Zero), 220)));
}

/// R6: the Weis is written at the end of the first trick (not when declared).
#[test]
fn r6_weis_written_after_the_first_trick() {
    let mut g = game_with(Options::default(), 3, 0, fill(["H6 H7 H8 H9", "", "", ""]), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Spades });
    act(&mut g, seat(0), Action::Play { card: card("H6"), weis: vec![cards("H6 H7 H8 H9")], stoeck: false });
    assert_eq!(g.totals(), [0, 0]);
    assert_eq!(g.weis_result(), None);
    play_first_legal(&mut g);
    play_first_legal(&mut g);
    let events = play_first_legal(&mut g);
    assert!(
        events.iter().any(|e| matches!(e, Event::WeisResolved { team: Some(Team::Zero), points: 50, .. }))
    );
    let trick: u32 = events
        .iter()
        .find_map(|e| if let Event::TrickTaken { points, .. } = e { Some(*points) } else { None })
        .unwrap();
    let winner_team0 = g.trick().leader().team() == Team::Zero;
    assert_eq!(g.totals()[Team::Zero], 100 + if winner_team0 { trick * 2 } else { 0 });
}

/// R6: views. Before the first trick ends, others (the partner too) see only the points;
/// afterwards the scoring side's Weis are shown to all, the losing side's stay hidden
/// (points visible, cards not) except to the declarer.
#[test]
fn r6_views_show_points_and_reveal_only_the_scoring_side() {
    let fixed = ["H6 H7 H8 H9", "D6 D7 D8", "", ""];
    let mut g = game_with(Options::default(), 3, 0, fill(fixed), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Clubs });
    act(&mut g, seat(0), Action::Play { card: card("H6"), weis: vec![cards("H6 H7 H8 H9")], stoeck: false });
    let c = g.legal_cards(seat(1)).first().unwrap();
    act(&mut g, seat(1), Action::Play { card: c, weis: vec![cards("D6 D7 D8")], stoeck: false });
    let weis_of = |g: &Game, viewer: Viewer, s: u8| {
        g.view(viewer)
            .weis
            .into_iter()
            .find(|w| w.seat == seat(s))
            .map(|w| (w.points.to_vec(), w.cards.map(|c| c.len())))
    };
    // Before the trick is over.
    assert_eq!(weis_of(&g, Viewer::Seat(seat(0)), 0), Some((vec![50], Some(1))));
    assert_eq!(weis_of(&g, Viewer::Seat(seat(2)), 0), Some((vec![50], None)), "partner sees points only");
    assert_eq!(weis_of(&g, Viewer::Seat(seat(1)), 0), Some((vec![50], None)));
    assert_eq!(weis_of(&g, Viewer::Spectator, 1), Some((vec![20], None)));
    play_first_legal(&mut g);
    play_first_legal(&mut g);
    assert_eq!(g.weis_result(), Some((Some(Team::Zero), 50)));
    for viewer in [Viewer::Spectator, Viewer::Seat(seat(1)), Viewer::Seat(seat(2)), Viewer::Seat(seat(3))] {
        let v = g.view(viewer);
        let w0 = v.weis.iter().find(|w| w.seat == seat(0)).unwrap();
        assert_eq!(w0.cards.as_ref().map(|c| c[0].cards()), Some(cards("H6 H7 H8 H9")), "{viewer:?}");
        let w1 = v.weis.iter().find(|w| w.seat == seat(1)).unwrap();
        assert_eq!(w1.points.as_slice(), [20]);
        if viewer == Viewer::Seat(seat(1)) {
            assert!(w1.cards.is_some(), "the declarer still sees its own");
        } else {
            assert_eq!(w1.cards, None, "{viewer:?} must not see the losing Weis");
            // Nor anywhere else in the serialized view.
            let json = serde_json::to_string(&v).unwrap();
            assert!(!json.contains("\"D8\""), "{viewer:?} sees D8: {json}");
        }
        assert_eq!(v.weis_result.map(|r| (r.team, r.points)), Some((Some(Team::Zero), 50)));
    }
}

/// R6.2 step 1: more points win; the best *single* Weis counts, not the sum.
#[test]
fn r6_tiebreak_more_points_single_best() {
    // Seat 0 (forehand): three 20s. Seat 1: one 50.
    let fixed = ["H6 H7 H8 D6 D7 D8 C6 C7 C8", "SA SK SQ SJ", "", ""];
    let r = weis_winner(
        Options::default(),
        Contract::Obenabe,
        0,
        fixed,
        [&["H6 H7 H8", "D6 D7 D8", "C6 C7 C8"], &["SJ SQ SK SA"], &[], &[]],
    );
    assert_eq!(r, (Some(Team::One), 50));
}

/// R6.2 step 2: equal points: a run beats four of a kind, even declared later. (Only at
/// 100 can the two sit in different hands: every 6-run holds its suit's 9 and every
/// 7-run its jack.)
#[test]
fn r6_tiebreak_run_beats_four() {
    for (four, run) in [("HA DA CA SA", "D6 D7 D8 D9 DT"), ("H6 D6 C6 S6", "CT CJ CQ CK CA")] {
        for forehand in [0, 1] {
            let r = weis_winner(
                Options::default(),
                Contract::Obenabe,
                forehand,
                [four, run, "", ""],
                [&[four], &[run], &[], &[]],
            );
            assert_eq!(r, (Some(Team::One), 100), "{four} vs {run}, forehand {forehand}");
        }
    }
    // With small_weis a six-run also scores 100 and still beats the four.
    let small = Options { small_weis: true, ..Options::default() };
    let r = weis_winner(
        small,
        Contract::Spades,
        0,
        ["HA DA CA SA", "D6 D7 D8 D9 DT DJ", "", ""],
        [&["HA DA CA SA"], &["D6 D7 D8 D9 DT DJ"], &[], &[]],
    );
    assert_eq!(r, (Some(Team::One), 100));
}

/// R6.2 step 3: equal points, two runs: the longer run wins (possible with `small_weis`,
/// where runs longer than 5 score 100 too).
#[test]
fn r6_tiebreak_longer_run() {
    let options = Options { small_weis: true, ..Options::default() };
    let r = weis_winner(
        options,
        Contract::Obenabe,
        0,
        ["HT HJ HQ HK HA", "D6 D7 D8 D9 DT DJ", "", ""],
        [&["HT HJ HQ HK HA"], &["D6 D7 D8 D9 DT DJ"], &[], &[]],
    );
    assert_eq!(r, (Some(Team::One), 100));
}

/// R6.2 step 4: equal runs: the higher top card wins; in undenufe the run with the
/// lower lowest card wins.
#[test]
fn r6_tiebreak_higher_top_or_undenufe_lower_bottom() {
    let fixed = ["DT DJ DQ", "H6 H7 H8", "", ""];
    let decl: [&[&str]; 4] = [&["DT DJ DQ"], &["H6 H7 H8"], &[], &[]];
    for (k, winner) in
        [(Contract::Obenabe, Team::Zero), (Contract::Clubs, Team::Zero), (Contract::Undenufe, Team::One)]
    {
        assert_eq!(weis_winner(Options::default(), k, 0, fixed, decl), (Some(winner), 20), "{k}");
    }
    // Forehand with the lower run loses in obenabe, wins in undenufe.
    let fixed = ["H6 H7 H8", "DT DJ DQ", "", ""];
    let decl: [&[&str]; 4] = [&["H6 H7 H8"], &["DT DJ DQ"], &[], &[]];
    assert_eq!(weis_winner(Options::default(), Contract::Obenabe, 0, fixed, decl), (Some(Team::One), 20));
    assert_eq!(weis_winner(Options::default(), Contract::Undenufe, 0, fixed, decl), (Some(Team::Zero), 20));
    // Run heights use the natural order also in the trump suit: DT DJ DQ under
    // diamonds still tops at Q, below HJ HQ HK.
    let fixed = ["DT DJ DQ", "HJ HQ HK", "", ""];
    let decl: [&[&str]; 4] = [&["DT DJ DQ"], &["HJ HQ HK"], &[], &[]];
    assert_eq!(weis_winner(Options::default(), Contract::Spades, 0, fixed, decl), (Some(Team::One), 20));
}

/// R6.2 step 5: two fours of a kind (equal points) compare by rank in the contract's order.
#[test]
fn r6_tiebreak_fours_by_rank_in_contract_order() {
    let fixed = ["HK DK CK SK", "HA DA CA SA", "", ""];
    let decl: [&[&str]; 4] = [&["HK DK CK SK"], &["HA DA CA SA"], &[], &[]];
    assert_eq!(weis_winner(Options::default(), Contract::Obenabe, 0, fixed, decl), (Some(Team::One), 100));
    assert_eq!(weis_winner(Options::default(), Contract::Hearts, 0, fixed, decl), (Some(Team::One), 100));
    assert_eq!(weis_winner(Options::default(), Contract::Undenufe, 0, fixed, decl), (Some(Team::Zero), 100));
    let fixed = ["HA DA CA SA", "H6 D6 C6 S6", "", ""];
    let decl: [&[&str]; 4] = [&["HA DA CA SA"], &["H6 D6 C6 S6"], &[], &[]];
    assert_eq!(weis_winner(Options::default(), Contract::Undenufe, 0, fixed, decl), (Some(Team::One), 100));
    assert_eq!(weis_winner(Options::default(), Contract::Diamonds, 0, fixed, decl), (Some(Team::Zero), 100));
}

/// R6.3: still equal: a run in the trump suit wins, even declared later.
#[test]
fn r6_tiebreak_trump_run() {
    let fixed = ["HQ HK HA", "SQ SK SA", "", ""];
    let decl: [&[&str]; 4] = [&["HQ HK HA"], &["SQ SK SA"], &[], &[]];
    assert_eq!(weis_winner(Options::default(), Contract::Spades, 0, fixed, decl), (Some(Team::One), 20));
    assert_eq!(weis_winner(Options::default(), Contract::Hearts, 0, fixed, decl), (Some(Team::Zero), 20));
    // No trump run among them: the earlier declarer (seat 0, forehand) wins.
    assert_eq!(weis_winner(Options::default(), Contract::Diamonds, 0, fixed, decl), (Some(Team::Zero), 20));
}

/// R6.3: otherwise the Weis declared first wins: earlier in playing order counted
/// from the forehand (not from seat 0).
#[test]
fn r6_tiebreak_earlier_declarer_from_forehand() {
    let fixed = ["", "HQ HK HA", "DQ DK DA", ""];
    let decl: [&[&str]; 4] = [&[], &["HQ HK HA"], &["DQ DK DA"], &[]];
    // Forehand 0: seat 1 declares before seat 2.
    assert_eq!(weis_winner(Options::default(), Contract::Obenabe, 0, fixed, decl), (Some(Team::One), 20));
    assert_eq!(weis_winner(Options::default(), Contract::Obenabe, 1, fixed, decl), (Some(Team::One), 20));
    // Forehand 2: seat 2 declares first.
    assert_eq!(weis_winner(Options::default(), Contract::Obenabe, 2, fixed, decl), (Some(Team::Zero), 20));
    assert_eq!(weis_winner(Options::default(), Contract::Undenufe, 2, fixed, decl), (Some(Team::Zero), 20));
}

/// R6 `small_weis`: a seat's declared Weis may not share a card; runs longer than 5
/// score 100; four 8s, 7s or 6s are no Weis (four tens still are).
#[test]
fn r6_small_weis() {
    let small = Options { small_weis: true, ..Options::default() };
    assert_eq!(weis_points("HJ HQ HK DJ CJ SJ", true), vec![20, 200]);
    for (hand, normal, little) in [
        ("H6 H7 H8 H9 HT HJ", 150, 100),
        ("H6 H7 H8 H9 HT HJ HQ", 200, 100),
        ("H6 H7 H8 H9 HT HJ HQ HK HA", 300, 100),
        ("H6 H7 H8 H9 HT", 100, 100),
    ] {
        assert_eq!(weis_points(hand, false), vec![normal]);
        assert_eq!(weis_points(hand, true), vec![little]);
    }
    for rank in ["8", "7", "6"] {
        let hand = ["H", "D", "C", "S"].map(|s| format!("{s}{rank}")).join(" ");
        assert_eq!(weis_points(&hand, false), vec![100]);
        assert_eq!(weis_points(&hand, true), Vec::<u32>::new(), "four {rank}");
    }
    assert_eq!(weis_points("HT DT CT ST", true), vec![100]);

    // Declarations at the table.
    let mut g = game_with(small, 3, 0, fill(["HJ HQ HK DJ CJ SJ H8 D8 C8", "S8", "", ""]), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Obenabe });
    let decl = |w: &[&str]| Action::Play {
        card: card("HK"),
        weis: w.iter().map(|w| cards(w)).collect(),
        stoeck: false,
    };
    let e = refused(&mut g, seat(0), decl(&["HJ HQ HK", "HJ DJ CJ SJ"]));
    assert_eq!(e, RuleError::InvalidWeis(WeisError::SharedCard(cards("HJ DJ CJ SJ"))));
    assert!(g.declarable_weis(seat(0)).iter().all(|w| w.points(true) > 0));
    act(&mut g, seat(0), decl(&["HJ DJ CJ SJ"]));
    let mut g2 = game_with(small, 3, 0, fill(["HJ HQ HK DJ CJ SJ", "", "", ""]), [0, 0]);
    act(&mut g2, seat(0), Action::Choose { contract: Contract::Obenabe });
    act(&mut g2, seat(0), decl(&["HJ HQ HK"]));

    // Four 8s refused as a declaration with small_weis, fine without.
    let fixed = ["H8 D8 C8 S8", "", "", ""];
    let mut g = game_with(small, 3, 0, fill(fixed), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Obenabe });
    let four8 = Action::Play { card: card("H8"), weis: vec![cards("H8 D8 C8 S8")], stoeck: false };
    assert_eq!(
        refused(&mut g, seat(0), four8.clone()),
        RuleError::InvalidWeis(WeisError::NoWeisInSmall(cards("H8 D8 C8 S8")))
    );
    assert!(g.declarable_weis(seat(0)).is_empty());
    let mut g = game_with(Options::default(), 3, 0, fill(fixed), [0, 0]);
    act(&mut g, seat(0), Action::Choose { contract: Contract::Obenabe });
    act(&mut g, seat(0), four8);

    // A seven-run scores 100 and is written as such.
    let r = weis_winner(
        small,
        Contract::Obenabe,
        0,
        ["H6 H7 H8 H9 HT HJ HQ", "", "", ""],
        [&["H6 H7 H8 H9 HT HJ HQ"], &[], &[], &[]],
    );
    assert_eq!(r, (Some(Team::Zero), 100));
    let r = weis_winner(
        Options::default(),
        Contract::Obenabe,
        0,
        ["H6 H7 H8 H9 HT HJ HQ", "", "", ""],
        [&["H6 H7 H8 H9 HT HJ HQ"], &[], &[], &[]],
    );
    assert_eq!(r, (Some(Team::Zero), 200));
}
