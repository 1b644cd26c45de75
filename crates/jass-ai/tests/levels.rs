//! The computer levels the host chooses (protocol.md 3, "Computer levels"): each
//! level's settings are what the docs say, and a level plays a whole game with legal
//! actions.

use std::time::Duration;

use jass_ai::{Computer, Config, Level};
use jass_engine::{Game, Options, Seat, Seed, Viewer};

// Easy = few playouts and no solving; normal = the default exactly (the load bench's
// targets were measured with it); strong = the default plus ten times the playouts
// early in a round, solving up to 96 deals (400,000 solver nodes) from 24 cards left,
// deals weighed by the contract choice and the opponents' cards (160/256 a miss) and
// played out by a sensible policy, within the same time budget, and its contract
// chosen by the value a round's review gives each choice.
#[test]
fn each_levels_config_is_what_the_docs_say() {
    let d = Config::default();
    let strong = |base: Config| Config {
        playouts: base.playouts * 10,
        solve_at_most: 24,
        solve_deals: 96,
        solve_nodes: 400_000,
        infer_choice: true,
        informed_playouts: true,
        infer_play: 160,
        choose_by_value: true,
        ..base
    };
    assert_eq!(Config::for_level(Level::Normal), d);
    assert_eq!(Level::default(), Level::Normal);
    assert_eq!(Config::for_level(Level::Easy), Config { playouts: 60, solve_at_most: 0, ..d });
    assert_eq!(Config::for_level(Level::Strong), strong(d));
    assert_eq!(Config::for_level(Level::Strong).time_budget, d.time_budget, "strong keeps the budget");
    // On a server's own base (its flags), a level changes only what it is about.
    let base = Config { playouts: 800, time_budget: Some(Duration::from_millis(300)), seed: 9, ..d };
    assert_eq!(base.at_level(Level::Normal), base);
    assert_eq!(base.at_level(Level::Easy), Config { playouts: 60, ..base });
    assert_eq!(base.at_level(Level::Strong), strong(base));
    // Easy never asks for more playouts than the base allows.
    let tiny = Config { playouts: 10, ..d };
    assert_eq!(tiny.at_level(Level::Easy).playouts, 10);
    assert_eq!(Level::ALL, [Level::Easy, Level::Normal, Level::Strong]);
}

// Every level finishes a game with only legal actions (the engine refuses any other),
// easy and strong at the same table.
#[test]
fn every_level_plays_a_whole_game() {
    let options = Options::default();
    let Ok(mut game) = Game::new(options, Seed([17; 32])) else { panic!("options") };
    let levels = [Level::Easy, Level::Strong, Level::Easy, Level::Normal];
    let mut players: Vec<Computer> = Seat::ALL
        .iter()
        .zip(levels)
        .map(|(&s, l)| {
            let config =
                Config { time_budget: None, playouts: 200, seed: 5, ..Config::default() }.at_level(l);
            Computer::new(s, options, config)
        })
        .collect();
    let mut next = 0u8;
    for _ in 0..20_000 {
        if game.result().is_some() {
            return;
        }
        let mut acted = false;
        for s in Seat::ALL {
            let view = game.view(Viewer::Seat(s));
            let Some(action) = players[s.index()].decide(&view) else { continue };
            game.apply(s, action, || {
                next = next.wrapping_add(1);
                Seed([next; 32])
            })
            .unwrap_or_else(|e| panic!("a computer proposed an illegal action: {e}"));
            acted = true;
            break;
        }
        assert!(acted, "nobody acted");
    }
    panic!("the game did not finish");
}

// The solver's node cap is a work budget that reproduces, and it bounds every deal, the
// first too: a deal that would pass it is cut short and dropped. Below any deal's cost
// no deal is solved, and the computer decides by its playouts, as it does earlier in
// the round (the same decision as without solving).
#[test]
fn a_node_cap_below_one_deal_decides_by_the_playouts() {
    let options = Options::default();
    let base = Config { time_budget: None, solve_at_most: 24, ..Config::default() };
    let capped = Config { solve_deals: 24, solve_nodes: 1, ..base };
    let unsolved = Config { solve_at_most: 0, ..base };
    let mut compared = 0;
    for round in 0..4u8 {
        let Ok(mut game) = Game::new(options, Seed([round; 32])) else { panic!("options") };
        let mut players: Vec<Computer> =
            Seat::ALL.iter().map(|&s| Computer::new(s, options, Config { seed: 5, ..base })).collect();
        while game.round_number() == 0 && !game.next_card_ends_round() {
            let Some(seat) = game.to_act() else { break };
            let view = game.view(Viewer::Seat(seat));
            for (s, p) in Seat::ALL.iter().zip(players.iter_mut()) {
                p.observe(&game.view(Viewer::Seat(*s)));
            }
            let held: u32 = view.hand_counts.iter().map(|(_, &n)| u32::from(n)).sum();
            // From 16 cards on: the last two tricks are valued without counting
            // nodes, so a deal late in the round may cost none.
            if view.allowed.cards.len() > 1 && (16..=24).contains(&held) {
                // Each on a thread of its own: its solver's table starts empty, so no
                // deal is answered from the table at no cost in nodes.
                let decide = |config: Config| {
                    let view = view.clone();
                    std::thread::spawn(move || {
                        let mut c = Computer::new(seat, options, Config { seed: 5, ..config });
                        c.observe(&view);
                        c.decide(&view)
                    })
                    .join()
                    .unwrap()
                };
                assert_eq!(decide(capped), decide(unsolved), "round {round}");
                compared += 1;
            }
            let Some(action) = players[seat.index()].decide(&view) else { panic!("no action") };
            game.apply(seat, action, || Seed([1; 32])).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(compared >= 20, "only {compared} decisions compared");
}
