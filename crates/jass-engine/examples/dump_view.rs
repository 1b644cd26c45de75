//! Prints a sample seat view and record as JSON (the source of protocol.md's examples).

use jass_engine::{Action, Contract, Game, Options, Seed, Viewer};

fn main() {
    let Ok(mut g) = Game::new(Options::default(), Seed([3; 32])) else { return };
    let f = g.forehand();
    let steps = [Action::Schiebe, Action::Choose { contract: Contract::Spades }];
    for (i, a) in steps.into_iter().enumerate() {
        let seat = if i == 0 { f } else { f.partner() };
        let _ = g.apply(seat, a, || Seed([4; 32]));
    }
    let w = g.declarable_weis(f);
    if let Some(c) = g.legal_cards(f).first() {
        let weis = w.iter().map(|w| w.cards()).collect();
        let _ = g.apply(f, Action::Play { card: c, weis, stoeck: false }, || Seed([4; 32]));
    }
    let s = g.to_act().unwrap_or(f);
    println!("{}", serde_json::to_string_pretty(&g.view(Viewer::Seat(s))).unwrap_or_default());
    println!("{}", serde_json::to_string(&g.record()).unwrap_or_default());
}
