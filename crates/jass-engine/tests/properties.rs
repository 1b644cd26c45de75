//! Invariants over many seeded random games (R4, R5, R8, R12; views).

mod common;

use common::*;
use jass_engine::{Action, CardSet, End, Event, Game, Options, Phase, Preset, Record, Seat, Team, Viewer};
use rand::Rng;

const GAMES: u64 = 10_000;

fn options_for(i: u64) -> Options {
    let mut o = Options::preset(match i % 4 {
        0 => Preset::Swisslos,
        1 => Preset::Manual,
        2 => Preset::Pagat,
        _ => Preset::To1000,
    });
    o.target = 300 + (i % 7) as u32 * 100;
    o.end = End::Automatic;
    o.push_back = i.is_multiple_of(3);
    o.small_weis = i.is_multiple_of(5);
    o.auto_stoeck = i.is_multiple_of(2);
    o.old_undenufe = i.is_multiple_of(11);
    if i.is_multiple_of(13) {
        o.fixed_rounds = Some(2);
    }
    o
}

/// Cards a viewer may legitimately see: its own hand, everything played, and the
/// Weis revealed after the first trick (R6).
fn visible_ok(g: &Game, viewer: Option<Seat>, played: CardSet) -> CardSet {
    let mut ok = played;
    if let Some(s) = viewer {
        ok = ok | g.hand(s);
        for w in g.declared_weis(s) {
            ok = ok | w.cards();
        }
    }
    if let Some((Some(team), _)) = g.weis_result() {
        for s in team.seats() {
            for w in g.declared_weis(s) {
                ok = ok | w.cards();
            }
        }
    }
    ok
}

fn cards_in_json(v: &serde_json::Value, out: &mut CardSet) {
    match v {
        serde_json::Value::String(s) => {
            if let Ok(c) = s.parse::<jass_engine::Card>() {
                *out = out.with(c);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| cards_in_json(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| cards_in_json(x, out)),
        _ => {}
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut total_rounds = 0u32;
    for i in 0..GAMES {
        let mut rng = rng(i);
        let mut next = i * 1000;
        let mut g = Game::new(options_for(i), seed_n(next)).unwrap();
        let mut played_this_round = CardSet::EMPTY;
        while g.phase() != Phase::Over {
            // Legal set never empty while a card is held (R5).
            if g.phase() == Phase::Playing {
                let s = g.to_act().unwrap();
                assert!(!g.legal_cards(s).is_empty());
                // An illegal card leaves the game unchanged.
                let illegal = (g.hand(s) & !g.legal_cards(s)).first();
                if let Some(c) = illegal.filter(|_| rng.next_u32().is_multiple_of(4)) {
                    let before = g.clone();
                    assert!(g.apply(s, Action::play(c), || unreachable!()).is_err());
                    assert_eq!(g, before);
                }
                let other = s.next();
                if let Some(c) = g.hand(other).first().filter(|_| rng.next_u32().is_multiple_of(8)) {
                    let before = g.clone();
                    assert!(g.apply(other, Action::play(c), || unreachable!()).is_err());
                    assert_eq!(g, before);
                }
            }
            // No view leaks a hidden card (checked on a sample of steps: JSON is slow).
            if rng.next_u32().is_multiple_of(16) {
                for viewer in [None, Some(seat(0)), Some(seat(1)), Some(seat(2)), Some(seat(3))] {
                    let v = g.view(viewer.map_or(Viewer::Spectator, Viewer::Seat));
                    let json = serde_json::to_value(&v).unwrap();
                    let mut seen = CardSet::EMPTY;
                    // The previous round's seed reveals only fully played cards; skip it.
                    let mut j = json.clone();
                    j.as_object_mut().unwrap().remove("last_round");
                    // So does the previous round's last trick: every card in it was
                    // played face up (four of them, and the round's last trick).
                    j.as_object_mut().unwrap().remove("last_round_trick");
                    if let Some(trick) = json.get("last_round_trick") {
                        let mut cards = CardSet::EMPTY;
                        cards_in_json(trick, &mut cards);
                        assert_eq!(cards.len(), 4, "four cards a trick");
                        assert_eq!(g.last_round_tricks().last().map(|t| t.cards.len()), Some(4));
                    }
                    cards_in_json(&j, &mut seen);
                    let ok = visible_ok(&g, viewer, played_this_round);
                    assert!(ok.contains_all(seen), "view of {viewer:?} leaks {:?}", seen & !ok);
                }
            }
            let events = random_step(&mut g, &mut rng, &mut next);
            for e in &events {
                match e {
                    Event::CardPlayed(p) => {
                        assert!(!played_this_round.contains(p.card), "card played twice");
                        played_this_round = played_this_round.with(p.card);
                    }
                    Event::RoundScored(s) => {
                        total_rounds += 1;
                        assert!(s.complete);
                        assert_eq!(played_this_round, CardSet::DECK, "every card played once");
                        let cp = s.card_points[Team::Zero] + s.card_points[Team::One];
                        let m = s.match_bonus[Team::Zero] + s.match_bonus[Team::One];
                        // R4: 157 per round, 257 with a match (R8), before multipliers.
                        assert_eq!(cp, 157);
                        assert!(
                            m == 0
                                || (m == 100
                                    && (s.card_points[Team::Zero] == 0 || s.card_points[Team::One] == 0))
                        );
                        for t in Team::ALL {
                            assert_eq!(
                                s.total[t],
                                (s.card_points[t] + s.match_bonus[t] + s.weis[t] + s.stoeck[t])
                                    * s.multiplier
                            );
                        }
                    }
                    Event::RoundDealt { .. } => played_this_round = CardSet::EMPTY,
                    _ => {}
                }
            }
        }
        // R12: the record replays to exactly the same game.
        let rec: &Record = g.record();
        let json = serde_json::to_string(rec).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, rec);
        let replayed = back.replay().unwrap();
        assert_eq!(replayed, g, "game {i} replays differently");
    }
    assert!(total_rounds > GAMES as u32);
}
