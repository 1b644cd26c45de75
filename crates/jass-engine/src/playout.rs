//! A fast path for bots and search: deal and play a whole round of random legal cards
//! on plain integers, with no events, checks or allocation.
//!
//! It uses the very functions behind [`legal_cards`](crate::legal_cards) and
//! [`Trick::winner`](crate::Trick::winner) and the contract tables, so it cannot drift
//! from the checked path; the tests compare both.

use rand::Rng;

use crate::cardset::CardSet;
use crate::contract::{Contract, tables};
use crate::game::{LAST_TRICK_BONUS, MATCH_BONUS};
use crate::seat::Seat;
use crate::trick::{legal_given, trick_key};

/// The outcome of one random round.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Playout {
    /// The contract played.
    pub contract: Contract,
    /// Card points per team, with the last-trick 5 and the match bonus (R4, R8),
    /// before the multiplier.
    pub points: [u32; 2],
}

/// A uniform index below `n` (Lemire's multiply-shift; the bias is below 2⁻²⁸ for
/// `n <= 36`, irrelevant for random playouts).
#[inline]
fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// Deals four random hands of nine.
pub fn random_hands<R: Rng + ?Sized>(rng: &mut R) -> [CardSet; 4] {
    let mut deck: [u8; 36] = std::array::from_fn(|i| i as u8);
    let mut hands = [0u64; 4];
    // Fisher–Yates from the top; position i is final once swapped, so deal it at once:
    // positions 0–8 to hand 0, 9–17 to hand 1, and so on.
    for i in (1..36).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        deck.swap(i, j);
        hands[i / 9] |= 1 << deck[i];
    }
    hands[0] |= 1 << deck[0];
    hands.map(CardSet::from_bits)
}

/// Plays `hands` out under `contract` from `leader`, each seat picking a uniformly
/// random legal card.
pub fn play_random<R: Rng + ?Sized>(
    rng: &mut R,
    mut hands: [CardSet; 4],
    contract: Contract,
    leader: Seat,
    old_undenufe: bool,
) -> [u32; 2] {
    let pts = &tables(contract, old_undenufe).points;
    let mut points = [0u32; 2];
    let mut tricks = [0u8; 2];
    let mut lead = leader;
    for n in 0..9 {
        // The trick as plain values: the suit led, the cards down, the best card so far.
        let mut led = None;
        let mut down = CardSet::EMPTY;
        let (mut winner, mut best) = (lead, 0);
        let mut p = 0u32;
        for k in 0..4 {
            let seat = lead.plus(k);
            let hand = hands[seat.index()];
            let legal = legal_given(hand, led, down, contract);
            // legal.nth(below(rng, legal.len())), counting the cards only once.
            let lens = legal.suit_lens();
            let Some(card) = legal.nth_counted(lens, below(rng, lens.iter().sum())) else { break };
            hands[seat.index()] = hand.without(card);
            p += u32::from(pts[card.index()]);
            down = down.with(card);
            let key = trick_key(card, *led.get_or_insert(card.suit()), contract);
            winner = if key > best { seat } else { winner };
            best = best.max(key);
        }
        let team = winner.team().index();
        if n == 8 {
            p += LAST_TRICK_BONUS;
        }
        points[team] += p;
        tricks[team] += 1;
        lead = winner;
    }
    for t in 0..2 {
        if tricks[t] == 9 {
            points[t] += MATCH_BONUS;
        }
    }
    points
}

/// Deals, picks a random contract and plays a random round (R4, R5, R8).
///
/// ```
/// let mut rng = rand::rngs::Xoshiro256PlusPlus::from_seed([1; 32]);
/// # use rand::SeedableRng;
/// let p = jass_engine::random_round(&mut rng);
/// assert!(p.points[0] + p.points[1] == 157 || p.points[0] + p.points[1] == 257);
/// ```
pub fn random_round<R: Rng + ?Sized>(rng: &mut R) -> Playout {
    let hands = random_hands(rng);
    let contract = Contract::ALL[below(rng, 6) as usize];
    let leader = Seat::ALL[below(rng, 4) as usize];
    Playout { contract, points: play_random(rng, hands, contract, leader, false) }
}
