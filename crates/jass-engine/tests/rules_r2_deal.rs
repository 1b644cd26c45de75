//! R2 Dealing and who starts: the 3-3-3 deal from the dealer's right, the first
//! round (`seven_of_hearts`, `random`), the dealer rotation, and the forehand leading
//! the first trick also after schieben.

mod common;

use common::*;
use jass_engine::{
    Action, Card, CardSet, Contract, FirstRound, Game, Options, Phase, Rank, Seat, Suit, deal,
};

const H7: Card = Card::new(Suit::Hearts, Rank::Seven);

/// R2: three cards at a time, starting with the dealer's right neighbour (dealer+1)
/// and ending with the dealer: deck positions 0–2 go to dealer+1, 3–5 to dealer+2,
/// 6–8 to dealer+3, 9–11 to the dealer, 12–14 to dealer+1 again, and so on.
#[test]
fn r2_deals_three_at_a_time_from_the_dealers_right() {
    for n in 0..64u64 {
        let seed = seed_n(n);
        let (deck, drawn) = reference_deck(seed);
        for dealer in Seat::ALL {
            let d = deal(seed, Some(dealer));
            assert_eq!(d.dealer, dealer);
            for (p, &c) in deck.iter().enumerate() {
                let packet = p / 3; // 0..12
                let to = dealer.plus(1 + packet % 4);
                assert!(d.hands[to.index()].contains(c), "seed {n}: card {p} ({c}) should go to seat {to}");
            }
            // The first packet is the right neighbour's, the fourth the dealer's.
            assert!(d.hands[dealer.next().index()].contains_all(deck[0..3].iter().copied().collect()));
            assert!(d.hands[dealer.index()].contains_all(deck[9..12].iter().copied().collect()));
        }
        // Without a dealer the seed draws the first round's dealer after the shuffle.
        assert_eq!(deal(seed, None).dealer, drawn);
    }
}

/// R2 (default `seven_of_hearts`): a random seat deals the first round, whoever holds
/// H7 is its forehand, whatever the seat, and that player deals the second round.
#[test]
fn r2_seven_of_hearts_holder_leads_round_one_and_deals_round_two() {
    let mut holder_not_right_of_dealer = 0;
    for n in 0..40u64 {
        let seed = seed_n(n);
        let d = deal(seed, None);
        let holder = Seat::ALL.into_iter().find(|s| d.hands[s.index()].contains(H7)).unwrap();
        let mut g = Game::new(Options::default(), seed).unwrap();
        assert_eq!(g.dealer(), d.dealer, "seed {n}: the seed draws the first dealer");
        assert_eq!(g.forehand(), holder, "seed {n}: H7 holder is forehand");
        assert_eq!(g.to_act(), Some(holder), "seed {n}: H7 holder chooses");
        assert!(g.hand(holder).contains(H7));
        if holder != d.dealer.next() {
            holder_not_right_of_dealer += 1;
        }
        act(&mut g, holder, Action::Choose { contract: Contract::Obenabe });
        assert_eq!(g.trick().leader(), holder, "seed {n}: H7 holder leads");
        finish_round(&mut g);
        assert_eq!(g.round_number(), 1);
        assert_eq!(g.dealer(), holder, "seed {n}: H7 holder deals round 2");
        assert_eq!(g.forehand(), holder.next(), "seed {n}: round 2 forehand is the dealer's right");
        // Round 2 deals normally from its own seed; H7 no longer matters.
        assert_eq!(g.hand(seat(0)), deal(seed_n(1000), Some(holder)).hands[0]);
    }
    assert!(holder_not_right_of_dealer > 10, "the seeds should exercise H7 away from dealer+1");
}

/// R2 (`first_round = random`): a random seat deals and its right neighbour is
/// forehand, even when someone else holds H7.
#[test]
fn r2_random_first_round_forehand_is_right_of_drawn_dealer() {
    let options = Options { first_round: FirstRound::Random, ..Options::default() };
    let mut dealers = [0; 4];
    let mut h7_elsewhere = 0;
    for n in 0..40u64 {
        let seed = seed_n(n);
        let d = deal(seed, None);
        let g = Game::new(options, seed).unwrap();
        assert_eq!(g.dealer(), d.dealer);
        assert_eq!(g.forehand(), d.dealer.next());
        assert_eq!(g.to_act(), Some(d.dealer.next()));
        assert_eq!(g.hand(seat(1)), d.hands[1]);
        dealers[d.dealer.index()] += 1;
        if !d.hands[d.dealer.next().index()].contains(H7) {
            h7_elsewhere += 1;
        }
    }
    assert!(dealers.iter().all(|&k| k > 0), "every seat is drawn as dealer: {dealers:?}");
    assert!(h7_elsewhere > 10);
}

/// R2: after each round the dealer moves on (next dealer = this round's forehand),
/// every round is dealt from its dealer's right, and its forehand chooses.
#[test]
fn r2_dealer_rotates_to_the_forehand() {
    for first_round in [FirstRound::SevenOfHearts, FirstRound::Random] {
        let options = Options { first_round, ..Options::default() };
        let mut g = Game::new(options, seed_n(7)).unwrap();
        let mut prev_forehand = g.forehand();
        for round in 1..=6u32 {
            act(&mut g, prev_forehand, Action::Choose { contract: Contract::ALL[round as usize % 6] });
            finish_round(&mut g);
            assert_eq!(g.round_number(), round);
            assert_eq!(g.dealer(), prev_forehand, "round {round}: dealer = previous forehand");
            assert_eq!(g.forehand(), g.dealer().next(), "round {round}: forehand = dealer + 1");
            let d = deal(seed_n(1000 + u64::from(round) - 1), Some(g.dealer()));
            for s in Seat::ALL {
                assert_eq!(g.hand(s), d.hands[s.index()], "round {round}: hands dealt from the dealer");
            }
            prev_forehand = g.forehand();
        }
    }
}

/// R2: the forehand always leads the first trick, also after schieben; the partner who
/// chose may not lead.
#[test]
fn r2_forehand_leads_after_schieben() {
    for n in 0..8u64 {
        let mut g = Game::new(Options::default(), seed_n(n)).unwrap();
        let f = g.forehand();
        act(&mut g, f, Action::Schiebe);
        act(&mut g, f.partner(), Action::Choose { contract: Contract::Hearts });
        assert_eq!(g.phase(), Phase::Playing);
        assert_eq!(g.to_act(), Some(f));
        assert_eq!(g.trick().leader(), f);
        assert!(g.legal_cards(f.partner()).is_empty());
        let c = g.hand(f.partner()).first().unwrap();
        assert!(matches!(
            refused(&mut g, f.partner(), Action::play(c)),
            jass_engine::RuleError::NotYourTurn { to_act: Some(s) } if s == f
        ));
        assert_eq!(g.legal_cards(f), g.hand(f), "the first card is free");
        let c = g.hand(f).first().unwrap();
        play(&mut g, f.index() as u8, &c.to_string());
        assert_eq!(g.to_act(), Some(f.next()));
    }
}

/// R2: every deal gives each seat nine different cards, all 36 dealt.
#[test]
fn r2_every_deal_is_a_partition_of_the_deck() {
    for n in 0..200u64 {
        for dealer in [None, Some(seat((n % 4) as u8))] {
            let d = deal(seed_n(n), dealer);
            let mut all = CardSet::EMPTY;
            for h in d.hands {
                assert_eq!(h.len(), 9);
                assert!((all & h).is_empty());
                all = all | h;
            }
            assert_eq!(all, CardSet::DECK);
        }
    }
}
