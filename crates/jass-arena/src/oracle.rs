//! The all-seeing player (the exact solver on the true deal: the ceiling of the
//! ladder, docs/bots.md). It is the **only** player that sees hidden cards, and only in the arena:
//! it is not a [`Player`](crate::Player) (those are handed a view and nothing else)
//! but is handed the game itself by the duplicate runner, so no view-only player can
//! become all-seeing by mistake.
//!
//! With at most `solve_at_most` cards left in the four hands it plays the best card of
//! `jass_solver::Solver::best_card` on the true position (exact minimax card points
//! with last trick and, when the table plays it, the match bonus). Earlier, where one
//! exact solve takes seconds to minutes, it plays perfect-information Monte Carlo on
//! the true deal: every legal card, each followed by random playouts of the true hands,
//! the best mean difference in points wins. So it is the ceiling (perfect play with
//! every card seen) only with `solve_at_most` = 36; below that it is a strong
//! all-seeing player, a lower bound of the ceiling, and the ladder says so.

use std::cell::RefCell;

use jass_engine::{ByTeam, Card, Game, Options, Seat, Viewer};
use jass_solver::{Position, Solver};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::mcts::{State, splitmix};

/// Cards left (all four hands) from which on the all-seeing player solves exactly by
/// default: with about five legal cards each solved, a decision at 24 cards costs
/// tens of milliseconds (solver p99 at 24 cards: 30 ms), so 200 deals stay within a
/// minute or two on two threads.
pub const ORACLE_SOLVE_AT_MOST: u32 = 24;

/// The all-seeing player's default playouts per decision before it solves.
pub const ORACLE_PLAYOUTS: u32 = 2000;

thread_local! {
    /// One solver per thread: its tables grow to 48 MiB on whole deals, and its
    /// entries stay true from one solve to the next.
    static SOLVER: RefCell<Solver> = RefCell::new(Solver::new());
}

/// The all-seeing player for one seat.
#[derive(Debug)]
pub struct Oracle {
    seat: Seat,
    options: Options,
    solve_at_most: u32,
    playouts: u32,
    seed: u64,
    /// Tricks each team took this round, for the match bonus; counted from the last
    /// trick of each view (the seat plays to every trick, so it sees each one).
    tricks: [u8; 2],
    /// The round and trick last counted.
    counted: Option<(u32, u8)>,
    round: u32,
}

impl Oracle {
    /// An all-seeing player for `seat`: exact from `solve_at_most` cards left on,
    /// `playouts` random playouts of the true deal per decision before.
    #[must_use]
    pub const fn new(seat: Seat, options: Options, solve_at_most: u32, playouts: u32, seed: u64) -> Self {
        Self { seat, options, solve_at_most, playouts, seed, tricks: [0; 2], counted: None, round: 0 }
    }

    /// The position of the game as the solver takes it: every hand, the trick, and the
    /// tricks each team took (`None` when the seat is not to play a card). The tricks
    /// are counted from the views of the seat's turns, so ask at every one of them
    /// (the runner does; [`Oracle::card`] asks this).
    #[must_use]
    pub fn position(&mut self, game: &Game) -> Option<Position> {
        let view = game.view(Viewer::Seat(self.seat));
        if view.round != self.round {
            (self.round, self.tricks, self.counted) = (view.round, [0; 2], None);
        }
        if let Some(last) = &view.last_trick
            && self.counted != Some((view.round, last.trick))
        {
            if let Some(t) = self.tricks.get_mut(last.winner.team().index()) {
                *t += 1;
            }
            self.counted = Some((view.round, last.trick));
        }
        if view.to_act != Some(self.seat) || view.allowed.cards.is_empty() {
            return None;
        }
        let done = view.trick.number;
        if self.tricks[0] + self.tricks[1] != done {
            // Not asked at every trick (the runner always asks): the split is unknown,
            // so assume both teams took a trick (no match left) where that can be.
            self.tricks = [done.saturating_sub(1), done.min(1)];
        }
        Some(Position {
            hands: Seat::ALL.map(|s| game.hand(s)),
            trick: *game.trick(),
            contract: game.contract()?,
            old_undenufe: self.options.old_undenufe,
            tricks_won: self.tricks,
            match_bonus: self.options.has_extras(),
        })
    }

    /// The card to play now, seeing every hand; `None` if the seat is not to play.
    pub fn card(&mut self, game: &Game) -> Option<Card> {
        let pos = self.position(game)?;
        let legal = jass_engine::legal_cards(pos.hand(self.seat), &pos.trick, pos.contract);
        if legal.len() <= 1 {
            return legal.first();
        }
        if pos.cards_left() <= self.solve_at_most {
            let best = SOLVER.with_borrow_mut(|s| s.best_card(&pos).ok().map(|v| v.0));
            if best.is_some() {
                return best;
            }
        }
        self.monte_carlo(&pos, legal, game.round_number())
    }

    /// Perfect-information Monte Carlo on the true deal: each legal card followed by
    /// `playouts / legal` random playouts; the best mean of (own − other) points.
    fn monte_carlo(&self, pos: &Position, legal: jass_engine::CardSet, round: u32) -> Option<Card> {
        let place =
            [u64::from(round), u64::from(pos.tricks_won[0] + pos.tricks_won[1]), pos.trick.len() as u64];
        let mut h = self.seed ^ 0xD1B5_4A32_D192_ED03;
        for p in place {
            h = splitmix(h ^ p);
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(h);
        let root = State {
            hands: pos.hands,
            trick: pos.trick,
            trick_no: pos.tricks_won[0] + pos.tricks_won[1],
            points: [0; 2],
            contract: pos.contract,
            old_undenufe: pos.old_undenufe,
            tricks: pos.tricks_won,
            match_bonus: pos.match_bonus,
        };
        let me = self.seat.team();
        let per_card = (self.playouts / legal.len()).max(1);
        let mut best: Option<(Card, i64)> = None;
        for card in legal {
            let mut after = root;
            after.play(card);
            let mut sum = 0i64;
            for _ in 0..per_card {
                let p = ByTeam(after.play_out(&mut rng));
                sum += i64::from(p[me]) - i64::from(p[me.other()]);
            }
            if best.is_none_or(|(_, b)| sum > b) {
                best = Some((card, sum));
            }
        }
        best.map(|(c, _)| c)
    }
}
