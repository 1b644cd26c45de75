//! The published reference player: a re-implementation of JassTheRipper's
//! determinized Monte Carlo tree search (Niklaus et al. 2019/2020; docs/bots.md, "The
//! published anchors").
//!
//! For each card decision that is not forced it samples 15 × (tricks left) deals of the
//! unseen cards consistent with what the seat knows (135 in trick 1), with
//! `jass_ai`'s memory and exact sampler ([`SeatKnowledge`]), so it knows no more and
//! no less than the computer. On each deal (a determinization) it runs plain UCT
//! (UCB1, c = √2, as published) over the card plays of all four seats: a node is a
//! seat to move with its legal cards in that deal (R5), one node is added per
//! iteration, and the rest of the round is played out by uniformly random legal cards.
//! The reward of a play is the card points its team ends the round with, / 157.
//!
//! Combining the trees: each tree votes for its most visited root card (among equal
//! visits, common at small budgets, the one with the higher mean: taking the lowest
//! card instead left the player barely above random at 12 iterations), and the card
//! played maximises (mean value of that card over the trees that voted for it) × (the
//! number of those trees), the rule docs/bots.md reports for JassTheRipper. It is the
//! paper's rule, which is why it is used; it favours a card that is best in many
//! determinizations over one that is very good in a few.
//!
//! Budget: a fixed number of iterations per determinization (reproducible), or a wall
//! time per card shared evenly by the determinizations (as the paper's 10 s per card;
//! not reproducible). Card points only: no match bonus, Weis or Stöck, as in the arena.

use std::time::{Duration, Instant};

use jass_ai::SeatKnowledge;
use jass_engine::{
    Card, CardSet, Contract, LAST_TRICK_BONUS, MATCH_BONUS, Options, RoundInPlay, Seat, SeatView, Trick,
    legal_cards, tables,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use crate::player::{Player, ROUND_POINTS};

/// UCB1's exploration constant, as published (rewards in 0..=1).
const C: f64 = std::f64::consts::SQRT_2;

/// Determinizations per trick left (JassTheRipper: 15, so 135 in trick 1).
pub const DETERMINIZATIONS_PER_TRICK: usize = 15;

/// How long the search may run per card.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Budget {
    /// UCT iterations per determinization: reproducible.
    Iterations(u32),
    /// Wall time per card, shared evenly by its determinizations (each gets at least
    /// one iteration): not reproducible.
    Millis(u32),
}

/// The reference player for one seat.
pub struct Mcts {
    seat: Seat,
    old_undenufe: bool,
    budget: Budget,
    seed: u64,
    knowledge: SeatKnowledge,
    /// The tree, reused from one determinization to the next.
    nodes: Vec<Node>,
}

impl Mcts {
    /// A player for `seat` at a table with `options`, its random numbers from `seed`.
    #[must_use]
    pub fn new(seat: Seat, options: Options, budget: Budget, seed: u64) -> Self {
        Self {
            seat,
            old_undenufe: options.old_undenufe,
            budget,
            seed,
            knowledge: SeatKnowledge::new(seat, &options),
            nodes: Vec::new(),
        }
    }

    /// The random numbers of one decision: from the seed and where the round stands
    /// only, so the same views give the same decision.
    fn rng(&self, view: &SeatView) -> Xoshiro256PlusPlus {
        let place = [
            u64::from(view.round),
            u64::from(view.trick.number),
            view.trick.cards.len() as u64,
            self.seat.index() as u64,
        ];
        let mut h = self.seed ^ 0xA076_1D64_78BD_642F;
        for p in place {
            h = splitmix(h ^ p);
        }
        Xoshiro256PlusPlus::seed_from_u64(h)
    }

    /// The card of the combined search; `None` without a contract or a sampled deal.
    fn search(&mut self, view: &SeatView, legal: CardSet) -> Option<Card> {
        let contract = view.contract?;
        let mut rng = self.rng(view);
        let tricks_left = 9 - usize::from(view.trick.number.min(8));
        let n = DETERMINIZATIONS_PER_TRICK * tricks_left;
        let deals = self.knowledge.sample_deals(view, n, &mut rng);
        let down: Vec<Card> = view.trick.cards.iter().map(|p| p.card).collect();
        let trick = Trick::from_cards(view.trick.leader, &down);
        let start = Instant::now();
        // Per card (by index): trees that voted for it, and the sum of its mean values there.
        let mut votes = [(0u32, 0f64); 36];
        for (k, hands) in deals.iter().enumerate() {
            let root = State {
                hands: *hands,
                trick,
                trick_no: view.trick.number,
                points: view.round_points.into_inner(),
                contract,
                old_undenufe: self.old_undenufe,
                tricks: [0; 2],
                match_bonus: false,
            };
            let stop = match self.budget {
                Budget::Iterations(i) => Stop::After(i.max(1)),
                Budget::Millis(ms) => {
                    let share = Duration::from_millis(u64::from(ms)) * (k as u32 + 1) / deals.len() as u32;
                    Stop::At(start + share)
                }
            };
            if let Some((card, mean)) = self.uct(root, legal, stop, &mut rng)
                && let Some(v) = votes.get_mut(card.index())
            {
                v.0 += 1;
                v.1 += mean;
            }
        }
        // Score = mean over the voting trees × votes = the sum of their means.
        legal
            .iter()
            .filter_map(|c| votes.get(c.index()).filter(|v| v.0 > 0).map(|v| (c, v.1)))
            .fold(None, |best: Option<(Card, f64)>, (c, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((c, s)),
            })
            .map(|(c, _)| c)
    }

    /// UCT on one determinization: the most visited root card and its mean value.
    fn uct<R: Rng + ?Sized>(
        &mut self,
        root: State,
        legal: CardSet,
        stop: Stop,
        rng: &mut R,
    ) -> Option<(Card, f64)> {
        let nodes = &mut self.nodes;
        nodes.clear();
        nodes.push(Node::new(None, root.next_seat(), legal));
        let mut path: Vec<usize> = Vec::with_capacity(40);
        let mut done = 0u32;
        loop {
            let more = match stop {
                Stop::After(i) => done < i,
                // The clock is read every 16 iterations; at least one is run.
                Stop::At(t) => done == 0 || !done.is_multiple_of(16) || Instant::now() < t,
            };
            if !more {
                break;
            }
            done += 1;
            let mut state = root;
            let mut at = 0usize;
            path.clear();
            path.push(at);
            // Selection and expansion.
            loop {
                let node = nodes.get(at)?;
                if !node.untried.is_empty() {
                    let card = pick(node.untried, rng)?;
                    let mover = node.to_move;
                    if let Some(n) = nodes.get_mut(at) {
                        n.untried = n.untried.without(card);
                    }
                    state.play(card);
                    let child = nodes.len();
                    nodes.push(Node::new(Some((card, mover)), state.next_seat(), state.legal()));
                    if let Some(n) = nodes.get_mut(at) {
                        n.children.push(child);
                    }
                    path.push(child);
                    break;
                }
                if node.children.is_empty() {
                    break;
                }
                let ln = f64::from(node.visits.max(1)).ln();
                let mut best = (f64::MIN, usize::MAX);
                for &c in &node.children {
                    if let Some(ch) = nodes.get(c) {
                        let n = f64::from(ch.visits.max(1));
                        let ucb = ch.value / n + C * (ln / n).sqrt();
                        if ucb > best.0 {
                            best = (ucb, c);
                        }
                    }
                }
                let chosen = nodes.get(best.1)?;
                state.play(chosen.played?.0);
                at = best.1;
                path.push(at);
            }
            // Random playout, then the reward of each play for the team that made it.
            let points = state.play_out(rng);
            for &i in &path {
                if let Some(n) = nodes.get_mut(i) {
                    n.visits += 1;
                    if let Some((_, mover)) = n.played {
                        let p = points.get(mover.team().index()).copied().unwrap_or(0);
                        n.value += f64::from(p) / f64::from(ROUND_POINTS);
                    }
                }
            }
        }
        let root = nodes.first()?;
        let best = root.children.iter().filter_map(|&c| nodes.get(c)).max_by(|a, b| {
            // Most visits; among equals (common at small budgets) the higher mean, then
            // the lower card, so the choice is reproducible.
            let mean = |n: &Node| n.value / f64::from(n.visits.max(1));
            a.visits.cmp(&b.visits).then_with(|| mean(a).total_cmp(&mean(b))).then_with(|| {
                let (ca, cb) = (a.played.map(|p| p.0.index()), b.played.map(|p| p.0.index()));
                cb.cmp(&ca)
            })
        })?;
        Some((best.played?.0, best.value / f64::from(best.visits.max(1))))
    }
}

impl Player for Mcts {
    fn card(&mut self, view: &SeatView) -> Option<Card> {
        self.knowledge.observe(view);
        let legal = view.allowed.cards;
        if legal.len() <= 1 {
            return legal.first();
        }
        self.search(view, legal).or_else(|| legal.first())
    }
}

/// When one tree's search ends.
#[derive(Copy, Clone, Debug)]
enum Stop {
    After(u32),
    At(Instant),
}

/// A node: the play that led here (card, seat), the seat to move, the legal cards not
/// yet tried, and the statistics of the play that led here for its team.
struct Node {
    played: Option<(Card, Seat)>,
    to_move: Seat,
    untried: CardSet,
    children: Vec<usize>,
    visits: u32,
    value: f64,
}

impl Node {
    const fn new(played: Option<(Card, Seat)>, to_move: Seat, untried: CardSet) -> Self {
        Self { played, to_move, untried, children: Vec::new(), visits: 0, value: 0.0 }
    }
}

/// A determinized round in the middle: every hand known (also the all-seeing
/// player's playouts on the true deal, which count the match bonus).
#[derive(Copy, Clone, Debug)]
pub(crate) struct State {
    pub(crate) hands: [CardSet; 4],
    pub(crate) trick: Trick,
    /// 0-based number of the trick on the table; 9 when the round is over.
    pub(crate) trick_no: u8,
    /// Card points so far per team.
    pub(crate) points: [u32; 2],
    pub(crate) contract: Contract,
    pub(crate) old_undenufe: bool,
    /// Tricks each team has taken: the match bonus needs all nine.
    pub(crate) tricks: [u8; 2],
    /// Whether taking all nine tricks adds the match bonus (R8; off for card points only).
    pub(crate) match_bonus: bool,
}

impl State {
    pub(crate) fn next_seat(&self) -> Seat {
        self.trick.next_seat()
    }

    /// The legal cards of the seat to move (none once the round is over).
    pub(crate) fn legal(&self) -> CardSet {
        if self.trick_no > 8 {
            return CardSet::EMPTY;
        }
        let hand = self.hands.get(self.next_seat().index()).copied().unwrap_or(CardSet::EMPTY);
        legal_cards(hand, &self.trick, self.contract)
    }

    /// Plays `card` for the seat to move, and scores the trick it completes (R4, R5, R8).
    pub(crate) fn play(&mut self, card: Card) {
        let seat = self.next_seat();
        if let Some(h) = self.hands.get_mut(seat.index()) {
            *h = h.without(card);
        }
        self.trick.push(card);
        if self.trick.is_complete() {
            let pts = &tables(self.contract, self.old_undenufe).points;
            let winner = self.trick.winner(self.contract).unwrap_or(seat);
            let mut p: u32 =
                self.trick.cards().map(|c| u32::from(pts.get(c.index()).copied().unwrap_or(0))).sum();
            let team = winner.team().index();
            if let Some(t) = self.tricks.get_mut(team) {
                *t += 1;
            }
            if self.trick_no == 8 {
                p += LAST_TRICK_BONUS;
                if self.match_bonus && self.tricks.get(team) == Some(&9) {
                    p += MATCH_BONUS;
                }
            }
            if let Some(t) = self.points.get_mut(team) {
                *t += p;
            }
            self.trick_no += 1;
            self.trick = Trick::new(winner);
        }
    }

    /// Random legal cards to the end; the card points per team. The engine's
    /// allocation-free playout ([`RoundInPlay`]), the one the computer uses, so the
    /// reference's time buys as many rollouts as the computer's.
    pub(crate) fn play_out<R: Rng + ?Sized>(self, rng: &mut R) -> [u32; 2] {
        if self.trick_no > 8 {
            return self.points;
        }
        RoundInPlay {
            hands: self.hands,
            trick: self.trick,
            trick_no: self.trick_no,
            contract: self.contract,
            old_undenufe: self.old_undenufe,
            points: self.points,
            lost_a_trick: [self.tricks[1] > 0, self.tricks[0] > 0],
            match_bonus: self.match_bonus,
        }
        .play_random(rng)
    }
}

/// A uniformly random card of a set; `None` if it is empty.
pub(crate) fn pick<R: Rng + ?Sized>(set: CardSet, rng: &mut R) -> Option<Card> {
    let n = set.len();
    if n == 0 {
        return None;
    }
    let i = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
    set.nth(i)
}

/// SplitMix64's finaliser: spreads a few small numbers over a whole seed.
pub(crate) const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
