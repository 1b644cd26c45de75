//! A fast path for bots and search: deal and play a whole round of random legal cards
//! on plain integers, with no events, checks or allocation.
//!
//! It uses the fast forms of this module (each tested against the readable rule:
//! [`legal_cards`](crate::legal_cards), [`Trick::winner`](crate::Trick::winner)) and
//! the contract tables; `tests/playout.rs` compares whole rounds with the checked path.

#![expect(
    clippy::indexing_slicing,
    reason = "seat and team indices come from `Seat::index` and `Team::index` (0..4, 0..2) or are masked to them, card indices from `Card::index` (0..36), deck positions are masked to 0..64, and the batch loops run to the arrays' own lengths; these are the random playouts, whose instructions per round are measured (docs/benchmarks.md), and a checked form would add a compare and branch to every access"
)]

use rand::Rng;

use crate::card::Card;
use crate::cardset::CardSet;
use crate::contract::{Contract, tables};
use crate::fast::keys::{KEY_POINTS, trick_keys};
use crate::fast::legal::{TrumpMasks, legal_follow, legal_follow_bits};
use crate::fast::select::{pick_index, prefix_counts, select};
use crate::score::{LAST_TRICK_BONUS, MATCH_BONUS};
use crate::seat::Seat;
use crate::trick::Trick;

/// The outcome of one random round.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Playout {
    /// The contract played.
    pub contract: Contract,
    /// Card points per team, with the last-trick 5 and the match bonus (R4, R8),
    /// before the multiplier.
    pub points: [u32; 2],
}

/// A uniform index below `n` drawn from `word`, which keeps the rest of its randomness
/// for the next draw (Lemire's multiply-shift, the fraction carried on): one
/// `next_u64` serves several draws. Each draw below `n` spends about log2(n) of the
/// word's 64 bits; callers refresh the word while at least 33 remain, so the bias
/// stays below 2⁻²⁷, irrelevant for random playouts.
#[inline]
fn below(word: &mut u64, n: u32) -> u32 {
    let m = u128::from(*word) * u128::from(n);
    *word = m as u64;
    (m >> 64) as u32
}

/// A uniformly random card of `set` (`None` if it is empty), drawn from `word`.
#[inline]
fn pick(set: CardSet, word: &mut u64) -> Option<Card> {
    let prefix = prefix_counts(set.bits());
    select(set.bits(), prefix, below(word, (prefix >> 56) as u32))
}

/// Deals four random hands of nine.
pub fn random_hands<R: Rng + ?Sized>(rng: &mut R) -> [CardSet; 4] {
    let mut deck: [u8; 36] = std::array::from_fn(|i| i as u8);
    let mut hands = [0u64; 4];
    // Fisher–Yates from the top; position i is final once swapped, so deal it at once:
    // positions 27–35 to hand 3, 18–26 to hand 2, 9–17 to hand 1. The nine cards left
    // are hand 0 whatever their order, so they take no draws. Each hand takes two words:
    // five draws below 36 or less spend under 26 bits of the first, four the second.
    for (h, hand) in hands.iter_mut().enumerate().skip(1).rev() {
        let mut bits = 0;
        let mut word = rng.next_u64();
        for i in (9 * h..9 * h + 9).rev() {
            if i == 9 * h + 3 {
                word = rng.next_u64();
            }
            let j = below(&mut word, i as u32 + 1) as usize;
            deck.swap(i, j);
            bits |= 1 << deck[i];
        }
        *hand = bits;
    }
    hands[0] = CardSet::DECK.bits() & !(hands[1] | hands[2] | hands[3]);
    hands.map(CardSet::from_bits)
}

/// Plays `hands` out under `contract` from `leader`, each seat picking a uniformly
/// random legal card.
///
/// The picks come from `rng.next_u64()` words, one word for every two tricks (eight
/// picks below at most 9 spend under 26 bits): before the plays 0, 8, 16, 24 and 32
/// a fresh word is drawn, and each play takes the `n`-th legal card (index order)
/// with `m = word × len` (as 128 bits), `n = m >> 64`, and `word = m mod 2⁶⁴` after.
pub fn play_random<R: Rng + ?Sized>(
    rng: &mut R,
    mut hands: [CardSet; 4],
    contract: Contract,
    leader: Seat,
    old_undenufe: bool,
) -> [u32; 2] {
    let pts = &tables(contract, old_undenufe).points;
    let keys = trick_keys(contract);
    let masks = TrumpMasks::new(contract);
    let mut points = [0u32; 2];
    let mut tricks = [0u8; 2];
    let mut lead = leader;
    let mut word = 0;
    for n in 0..9 {
        if n % 2 == 0 {
            word = rng.next_u64();
        }
        // The lead is free (R5): any card of the hand.
        let hand = hands[lead.index()];
        let Some(first) = pick(hand, &mut word) else { break };
        hands[lead.index()] = hand.without(first);
        let led = first.suit();
        let keys = &keys[led.index()];
        // The trick as plain values: the cards down, the best card so far.
        let mut down = CardSet::single(first);
        let mut p = u32::from(pts[first.index()]);
        let (mut winner, mut best) = (lead, keys[first.index()]);
        for k in 1..4 {
            let seat = lead.plus(k);
            let hand = hands[seat.index()];
            let legal = legal_follow(hand, led, down, masks);
            let Some(card) = pick(legal, &mut word) else { break };
            hands[seat.index()] = hand.without(card);
            p += u32::from(pts[card.index()]);
            down = down.with(card);
            let key = keys[card.index()];
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

/// A round in the middle of its card play, for playouts from there: a computer
/// deciding a card plays each sampled deal on from its candidate card thousands of
/// times a decision, so this is the fast path's, not the checked one's.
#[derive(Copy, Clone, Debug)]
pub struct RoundInPlay {
    /// The cards each seat still holds (not those in `trick`).
    pub hands: [CardSet; 4],
    /// The trick on the table (complete tricks are gone from it).
    pub trick: Trick,
    /// The 0-based number of the trick on the table.
    pub trick_no: u8,
    /// The contract played.
    pub contract: Contract,
    /// Undenufe with A = 11 and 6 = 0 (R4).
    pub old_undenufe: bool,
    /// Card points per team so far.
    pub points: [u32; 2],
    /// Per team: it has lost a trick, so it can make no match (R8).
    pub lost_a_trick: [bool; 2],
    /// Whether taking all nine tricks scores the match bonus (R8; not in the
    /// card-points rounds of a fixed count, R10).
    pub match_bonus: bool,
}

impl RoundInPlay {
    /// Plays `card` for the seat to move (trusted to be legal, as the caller chose it
    /// from the legal cards) and scores the trick if it completes it.
    pub fn play(&mut self, card: Card) {
        let seat = self.trick.next_seat();
        self.hands[seat.index()] = self.hands[seat.index()].without(card);
        self.trick.push(card);
        if self.trick.is_complete() {
            let pts = &tables(self.contract, self.old_undenufe).points;
            let winner = self.trick.winner(self.contract).unwrap_or(seat);
            self.score(winner.team().index(), self.trick.cards().map(|c| u32::from(pts[c.index()])).sum());
            self.trick = Trick::new(winner);
        }
    }

    /// Counts a completed trick's `points` for `team`.
    fn score(&mut self, team: usize, mut points: u32) {
        if self.trick_no == 8 {
            points += LAST_TRICK_BONUS;
        }
        self.points[team & 1] += points;
        self.lost_a_trick[(team & 1) ^ 1] = true;
        self.trick_no += 1;
    }

    /// Plays the round to its end, each seat picking a uniformly random legal card,
    /// and returns the card points per team with the last trick's 5 and the match
    /// bonus (R4, R5, R8). The picks are drawn as [`play_random`] draws them, a fresh
    /// `next_u64` word every eight plays.
    pub fn play_random<R: Rng + ?Sized>(mut self, rng: &mut R) -> [u32; 2] {
        let pts = &tables(self.contract, self.old_undenufe).points;
        let keys = trick_keys(self.contract);
        let masks = TrumpMasks::new(self.contract);
        let (mut word, mut plays) = (0u64, 0u32);
        let mut pick_from = |set: CardSet, rng: &mut R| {
            if plays % 8 == 0 {
                word = rng.next_u64();
            }
            plays += 1;
            pick(set, &mut word)
        };
        while self.trick_no < 9 {
            let trick = self.trick;
            let lead = trick.leader();
            let mut cards = trick.cards();
            let first = match cards.next() {
                Some(c) => c,
                None => {
                    let hand = self.hands[lead.index()];
                    let Some(c) = pick_from(hand, rng) else { break };
                    self.hands[lead.index()] = hand.without(c);
                    c
                }
            };
            let led = first.suit();
            let keys = &keys[led.index()];
            let mut down = CardSet::single(first);
            let mut p = u32::from(pts[first.index()]);
            let (mut winner, mut best) = (lead, keys[first.index()]);
            for k in 1..4 {
                let seat = lead.plus(k);
                let card = match cards.next() {
                    Some(c) => c,
                    None => {
                        let hand = self.hands[seat.index()];
                        let Some(c) = pick_from(legal_follow(hand, led, down, masks), rng) else { break };
                        self.hands[seat.index()] = hand.without(c);
                        c
                    }
                };
                p += u32::from(pts[card.index()]);
                down = down.with(card);
                let key = keys[card.index()];
                winner = if key > best { seat } else { winner };
                best = best.max(key);
            }
            self.score(winner.team().index(), p);
            self.trick = Trick::new(winner);
        }
        let mut points = self.points;
        for (p, lost) in points.iter_mut().zip(self.lost_a_trick) {
            if !lost && self.match_bonus {
                *p += MATCH_BONUS;
            }
        }
        points
    }
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
    let mut word = rng.next_u64();
    let contract = Contract::ALL[below(&mut word, 6) as usize];
    let leader = Seat::ALL[below(&mut word, 4) as usize];
    Playout { contract, points: play_random(rng, hands, contract, leader, false) }
}

/// How many `next_u64` words one random round draws: six for the deal (two for each
/// hand but the last), one for the contract and leader, five for the plays (one per
/// two tricks).
const ROUND_WORDS: usize = 12;

/// Where a round's words for the plays start.
const PLAY_WORDS: usize = 7;

/// The nine cards of the first suit, as bits.
const SUIT_MASK: u64 = 0x1FF;

/// Plays `K` random rounds at once; the result equals `K` calls of [`random_round`]
/// on the same `rng`, in order (the same words are drawn in the same order).
///
/// Why: one round is a chain of dependent steps (each card depends on the hands left
/// by the card before), so a single round keeps the CPU waiting on that chain.
/// Stepping `K` independent rounds side by side lets it overlap them; bots running
/// many playouts for search should call this (`K` = 2 is a good choice).
///
/// ```
/// # use rand::SeedableRng;
/// let mut a = rand::rngs::Xoshiro256PlusPlus::from_seed([1; 32]);
/// let mut b = a.clone();
/// let batch = jass_engine::random_rounds::<4, _>(&mut a);
/// assert!(batch.iter().all(|p| *p == jass_engine::random_round(&mut b)));
/// ```
pub fn random_rounds<const K: usize, R: Rng + ?Sized>(rng: &mut R) -> [Playout; K] {
    // Plain indexed loops: through an iterator adapter the generator's state went back
    // to memory after every word.
    let mut words = [[0u64; ROUND_WORDS]; K];
    for round in &mut words {
        for w in round.iter_mut() {
            *w = rng.next_u64();
        }
    }

    // The deal, as in `random_hands`, one step of every round at a time.
    // 64 places, of which the first 36 are used: a masked index needs no bounds check.
    let mut decks: [[u8; 64]; K] = [std::array::from_fn(|i| i as u8); K];
    let mut hands = [[0u64; 4]; K];
    for h in (1..4).rev() {
        let first = 2 * (3 - h);
        let mut word: [u64; K] = std::array::from_fn(|r| words[r][first]);
        let mut bits = [0u64; K];
        let mut step = |i: usize, word: &mut [u64; K]| {
            for r in 0..K {
                // The swap's half that fills place `i` is dealt at once and never read
                // again, so only place `j` is written.
                let j = below(&mut word[r], i as u32 + 1) as usize & 63;
                let dealt = decks[r][j];
                decks[r][j] = decks[r][i & 63];
                bits[r] |= 1 << (dealt & 63);
            }
        };
        for i in (9 * h + 4..9 * h + 9).rev() {
            step(i, &mut word);
        }
        word = std::array::from_fn(|r| words[r][first + 1]);
        for i in (9 * h..9 * h + 4).rev() {
            step(i, &mut word);
        }
        for r in 0..K {
            hands[r][h] = bits[r];
        }
    }
    for hand in &mut hands {
        hand[0] = CardSet::DECK.bits() & !(hand[1] | hand[2] | hand[3]);
    }

    // Contract and leader, as in `random_round`.
    let mut contract = [Contract::ALL[0]; K];
    let mut lead = [0usize; K];
    for r in 0..K {
        let mut word = words[r][PLAY_WORDS - 1];
        contract[r] = Contract::ALL[below(&mut word, 6) as usize];
        lead[r] = below(&mut word, 4) as usize & 3;
    }

    // The plays, as in `play_random`, one card of every round at a time, on plain
    // integers: seats as 0..4, cards as indices.
    let key_points: [&[[u16; 64]; 4]; K] = std::array::from_fn(|r| &KEY_POINTS[contract[r].index()]);
    let masks: [TrumpMasks; K] = std::array::from_fn(|r| TrumpMasks::new(contract[r]));
    let mut points = [[0u32; 2]; K];
    let mut tricks = [[0u8; 2]; K];
    let mut word = [0u64; K];
    // The first eight tricks; the ninth has one card left in every hand, so it needs
    // no draw (a pick from one card takes that card and leaves the word as it was).
    for n in 0..8 {
        if n % 2 == 0 {
            word = std::array::from_fn(|r| words[r][PLAY_WORDS + n / 2]);
        }
        let mut down = [0u64; K];
        let mut led_mask = [0u64; K];
        let mut row = [&key_points[0][0]; K];
        let mut p = [0u32; K];
        // The best card so far as its trick key (high byte) over the seat that played
        // it: one maximum tracks both, as cards that can win have distinct keys.
        let mut best = [0u32; K];
        for r in 0..K {
            let c = pick_index(hands[r][lead[r]], &mut word[r]);
            hands[r][lead[r]] &= !(1 << c);
            let led = (c / 9) & 3;
            led_mask[r] = SUIT_MASK << (9 * led);
            row[r] = &key_points[r][led];
            down[r] = 1 << c;
            let kp = u32::from(row[r][c & 63]);
            p[r] = kp & 0xFF;
            best[r] = (kp & 0xFF00) | lead[r] as u32;
        }
        for k in 1..4 {
            for r in 0..K {
                let seat = (lead[r] + k) & 3;
                let hand = hands[r][seat];
                let legal = legal_follow_bits(hand, led_mask[r], down[r], masks[r]);
                let c = pick_index(legal, &mut word[r]);
                hands[r][seat] = hand & !(1 << c);
                down[r] |= 1 << c;
                let kp = u32::from(row[r][c & 63]);
                p[r] += kp & 0xFF;
                best[r] = best[r].max((kp & 0xFF00) | seat as u32);
            }
        }
        for r in 0..K {
            let winner = (best[r] & 3) as usize;
            points[r][winner & 1] += p[r];
            tricks[r][winner & 1] += 1;
            lead[r] = winner;
        }
    }
    for r in 0..K {
        // The last trick: every seat plays its last card.
        let first = hands[r][lead[r]].trailing_zeros() as usize & 63;
        let row = &key_points[r][(first / 9) & 3];
        let (mut p, mut best) = (LAST_TRICK_BONUS, 0);
        for k in 0..4 {
            let seat = (lead[r] + k) & 3;
            let kp = u32::from(row[hands[r][seat].trailing_zeros() as usize & 63]);
            p += kp & 0xFF;
            best = best.max((kp & 0xFF00) | seat as u32);
        }
        let team = (best & 1) as usize;
        points[r][team] += p;
        tricks[r][team] += 1;
    }
    std::array::from_fn(|r| {
        let mut pts = points[r];
        for t in 0..2 {
            if tricks[r][t] == 9 {
                pts[t] += MATCH_BONUS;
            }
        }
        Playout { contract: contract[r], points: pts }
    })
}
