//! `SeatKnowledge`, the computer's memory and sampler as other players use them (the
//! arena's reference MCTS): deals hold the seat's own hand, the right card counts and
//! never a card already played; another seat's view yields nothing. (That samples
//! respect voids, R5, and declared Weis, R6, is tested with the sampler itself.)

use jass_ai::SeatKnowledge;
use jass_engine::{Action, CardSet, Contract, Game, Options, Seat, Seed, Viewer};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

#[test]
fn sampled_deals_agree_with_the_view_and_another_seats_view_gives_none() {
    let options = Options::default();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x17_04);
    let mut checked = 0;
    for round in 0..20u8 {
        let mut game = Game::new(options, Seed([round; 32])).unwrap();
        let forehand = game.to_act().unwrap();
        let contract = Contract::ALL[usize::from(round) % 6];
        game.apply(forehand, Action::Choose { contract }, || Seed([0; 32])).unwrap();
        let me = Seat::ALL[usize::from(round) % 4];
        let mut knowledge = SeatKnowledge::new(me, &options);
        let mut played = CardSet::EMPTY;
        while let Some(seat) = game.to_act() {
            let view = game.view(Viewer::Seat(me));
            knowledge.observe(&view);
            let deals = knowledge.sample_deals(&view, 10, &mut rng);
            assert_eq!(deals.len(), 10);
            for hands in &deals {
                assert_eq!(hands[me.index()], view.hand);
                let mut all = CardSet::EMPTY;
                for s in Seat::ALL {
                    assert_eq!(hands[s.index()].len(), u32::from(view.hand_counts[s]));
                    all = all | hands[s.index()];
                }
                assert!((all & played).is_empty(), "a played card was dealt again");
                assert_eq!(all.len() + played.len(), 36);
            }
            let other = game.view(Viewer::Seat(me.next()));
            assert!(knowledge.sample_deals(&other, 3, &mut rng).is_empty());
            checked += 1;
            let legal = game.legal_cards(seat);
            let card = legal.nth(rng.random_range(0..legal.len())).unwrap();
            played = played.with(card);
            game.apply(seat, Action::play(card), || Seed([0; 32])).unwrap();
            if game.round_number() > 0 {
                break;
            }
        }
    }
    assert!(checked > 300);
}
