//! The computer player of one seat: what it remembers of the round, and how it decides
//! (see the crate docs).

use std::time::{Duration, Instant};

use jass_engine::{
    Action, ByTeam, Card, CardSet, Contract, End, Options, Phase, Rank, RoundInPlay, Seat, SeatView, Team,
    Trick, WeisList, has_stoeck, play_random,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::choice::Choice;
use crate::config::Config;
use crate::memory::Memory;
use crate::sample::Constraints;
use crate::{playout, plays};

thread_local! {
    /// One solver per thread: its tables are reused from solve to solve instead of
    /// being allocated for each decision, and grow to what its solves index (about a
    /// megabyte from 24 cards), so a computer that never solves never holds them.
    static SOLVER: std::cell::RefCell<jass_solver::Solver> = std::cell::RefCell::new(jass_solver::Solver::new());
}

/// A computer player for one seat.
#[derive(Clone, Debug)]
pub struct Computer {
    pub(crate) seat: Seat,
    pub(crate) options: Options,
    pub(crate) config: Config,
    pub(crate) memory: Memory,
}

impl Computer {
    /// A computer for `seat` at a table with `options` (public table settings: the
    /// target, multipliers and variants are not in a view).
    #[must_use]
    pub fn new(seat: Seat, options: Options, config: Config) -> Self {
        Self { seat, options, config, memory: Memory::default() }
    }

    /// The seat it plays for.
    #[must_use]
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// Its settings; a caller under load may lower the budget between decisions.
    pub const fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    /// Takes in what a view of its seat shows (views of other seats are ignored).
    /// Call it with every view the seat gets; views of the seat's own turns alone are
    /// enough to see every card, as one view shows the current and the last trick.
    /// A computer that missed part of a round (it took over mid-round) still decides,
    /// with the cards it did not see treated as possibly anywhere.
    pub fn observe(&mut self, view: &SeatView) {
        if view.seat == Some(self.seat) {
            self.memory.observe(view);
        }
    }

    /// What to do now: `None` when there is nothing for this seat to do (not its turn,
    /// or a view of another seat). It may say bedanke (or announce Stöck that reaches
    /// the target) at any time, also out of turn.
    pub fn decide(&mut self, view: &SeatView) -> Option<Action> {
        if view.seat != Some(self.seat) || view.result.is_some() {
            return None;
        }
        self.memory.observe(view);
        let team = self.seat.team();
        let target_counts = self.options.end == End::Bedanken && self.options.fixed_rounds.is_none();
        if target_counts && view.allowed.bedanke && view.totals[team] >= self.options.target {
            return Some(Action::Bedanke);
        }
        if view.allowed.stoeck && target_counts && view.allowed.bedanke {
            let mult = view.contract.map_or(1, |k| self.options.multipliers.of(k));
            if view.totals[team] + 20 * mult >= self.options.target {
                return Some(Action::Stoeck);
            }
        }
        if view.to_act != Some(self.seat) {
            return None;
        }
        match view.phase {
            Phase::Choosing if view.allowed.choose || view.allowed.schiebe => Some(self.choose(view)),
            Phase::Playing => self.play(view),
            _ => None,
        }
    }

    /// The random numbers of one decision: from the seed, the seat and where the round
    /// stands only, so the same views give the same decision.
    fn rng(&self, view: &SeatView) -> Xoshiro256PlusPlus {
        let place = [
            u64::from(view.round),
            u64::from(view.trick.number),
            view.trick.cards.len() as u64,
            u64::from(view.pushed),
            self.seat.index() as u64,
        ];
        let mut h = self.config.seed ^ 0x9E37_79B9_7F4A_7C15;
        for p in place {
            h = splitmix(h ^ p);
        }
        Xoshiro256PlusPlus::seed_from_u64(h)
    }

    fn deadline(&self) -> Option<Instant> {
        self.config.time_budget.map(|d| Instant::now() + d)
    }

    /// Contract or push (R3).
    fn choose(&self, view: &SeatView) -> Action {
        if self.config.choose_by_value
            && let Some(samples) = self.contract_samples(view)
            && let Some(choice) = samples.best().and_then(|i| samples.options.get(i))
        {
            return choice.map_or(Action::Schiebe, |contract| Action::Choose { contract });
        }
        let hand = view.hand;
        let me = self.seat.team();
        let mut worth = [0f64; 6];
        let played = self.contract_playouts(view, |_, points| {
            for (w, p) in worth.iter_mut().zip(points) {
                let p = ByTeam(p);
                *w += f64::from(p[me]) - f64::from(p[me.other()]);
            }
        });
        let n = f64::from(played.max(1));
        let mut best = (Contract::ALL[0], f64::MIN);
        for (contract, worth) in Contract::ALL.into_iter().zip(worth) {
            let mult = f64::from(self.options.multipliers.of(contract));
            let stoeck = if self.options.has_extras() && has_stoeck(hand, contract) { 20.0 } else { 0.0 };
            let value = (worth / n + stoeck) * mult;
            if value > best.1 {
                best = (contract, value);
            }
        }
        if view.allowed.schiebe && (best.1 < self.config.push_below || !view.allowed.choose) {
            Action::Schiebe
        } else {
            Action::Choose { contract: best.0 }
        }
    }

    /// Deals of the 27 unseen cards (uniform: the choice comes first, nothing is known
    /// of the other hands), each played out at random from the forehand under every
    /// contract in [`Contract::ALL`]'s order: `each` gets the deal and each contract's
    /// round points per team. Returns the number of deals.
    pub(crate) fn contract_playouts(
        &self,
        view: &SeatView,
        mut each: impl FnMut(&[CardSet; 4], [[u32; 2]; 6]),
    ) -> u32 {
        let mut rng = self.rng(view);
        let deadline = self.deadline();
        let deals = (self.config.playouts / 6).max(1);
        let mut played = 0u32;
        let blank = Memory::default();
        let constraints =
            Constraints::new(self.seat, view.hand, view.hand_counts, &blank, false, self.options.small_weis);
        for d in 0..deals {
            if d > 0 && deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
            let Some(hands) = constraints.as_ref().and_then(|c| c.sample(&mut rng)) else { break };
            played += 1;
            let points = Contract::ALL.map(|contract| {
                play_random(&mut rng, hands, contract, view.forehand, self.options.old_undenufe)
            });
            each(&hands, points);
        }
        played
    }

    /// A card, with Weis and Stöck (R5–R7); `None` without a legal card.
    fn play(&self, view: &SeatView) -> Option<Action> {
        let legal = view.allowed.cards;
        let card = if legal.len() == 1 { legal.first() } else { self.search(view, legal) };
        let card = card.or_else(|| legal.first())?;
        let weis = declaration(&view.allowed.weis, self.options.small_weis);
        let stoeck = view.allowed.stoeck
            && view.contract.and_then(|k| k.trump()).is_some_and(|t| {
                let kq = CardSet::single(Card::new(t, Rank::King)).with(Card::new(t, Rank::Queen));
                kq.contains(card) && view.hand.without(card).bits() & kq.bits() == 0
            });
        Some(Action::Play { card, weis, stoeck })
    }

    /// The legal card with the best mean outcome over sampled deals: the most points
    /// for its team where the deals were solved, else the best point difference.
    fn search(&self, view: &SeatView, legal: CardSet) -> Option<Card> {
        let cards: Vec<Card> = legal.iter().collect();
        let mut solved: Option<Vec<i64>> = None;
        let mut sums = vec![0f64; cards.len()];
        self.evaluate(view, &cards, |_, i, outcome| match outcome {
            Outcome::Solved(points) => {
                if let Some(sum) = solved.get_or_insert_with(|| vec![0; cards.len()]).get_mut(i) {
                    *sum += i64::from(points);
                }
            }
            Outcome::Played { weight, mine, theirs } => {
                if let Some(sum) = sums.get_mut(i) {
                    *sum += weight * (f64::from(mine) - f64::from(theirs));
                }
            }
        })?;
        if let Some(sums) = solved {
            let best = sums.iter().enumerate().max_by_key(|(i, s)| (**s, std::cmp::Reverse(*i)))?.0;
            return cards.get(best).copied();
        }
        let best = sums.iter().enumerate().max_by(|(i, a), (j, b)| a.total_cmp(b).then(j.cmp(i)))?.0;
        cards.get(best).copied()
    }

    /// Samples deals consistent with what the seat has seen and values each of `cards`
    /// (legal now) in each: `each(deal, card's index, outcome)`. With at most
    /// [`Config::solve_at_most`] cards left the deals are solved (when none could be,
    /// within the caps, as if it had not tried); else played out.
    pub(crate) fn evaluate(
        &self,
        view: &SeatView,
        cards: &[Card],
        mut each: impl FnMut(u32, usize, Outcome),
    ) -> Option<()> {
        let contract = view.contract?;
        let mut rng = self.rng(view);
        let deadline = self.deadline();
        let small = self.options.small_weis;
        let constraints = Constraints::new(self.seat, view.hand, view.hand_counts, &self.memory, true, small)
            .or_else(|| {
                Constraints::new(self.seat, view.hand, view.hand_counts, &self.memory, false, small)
            })?;
        let choice = if self.config.infer_choice { Choice::of(view) } else { None };
        let weigh = Weigh { choice: choice.as_ref(), contract, play_miss: self.play_miss() };
        let me = self.seat.team();
        let deals = (self.config.playouts / cards.len().max(1) as u32).max(1);
        let down: Vec<Card> = view.trick.cards.iter().map(|p| p.card).collect();
        let trick = Trick::from_cards(view.trick.leader, &down);
        let lost_a_trick = Team::ALL.map(|t| self.memory.has_lost_a_trick(t, view));
        let held: u32 = view.hand_counts.iter().map(|(_, &n)| u32::from(n)).sum();
        if held <= self.config.solve_at_most {
            let done = view.trick.number;
            // The solver needs the tricks each team took only for the match bonus:
            // any split with both teams at one or more says "no match" as well.
            let tricks_won = match lost_a_trick {
                [false, _] => [done, 0],
                [_, false] => [0, done],
                _ => [done.saturating_sub(1), done.min(1)],
            };
            // Its own random numbers: when no deal could be solved within the cap,
            // the decision is the playouts' below, as if it had not tried.
            let mut rng = rng.clone();
            let solved = SOLVER.with_borrow_mut(|solver| {
                let mut n = 0;
                let _ = solver.take_stats();
                // A deal's solve can cost tens of milliseconds: no deal is started that
                // would overrun the budget if it cost as much as the dearest so far.
                let (mut nodes, mut dearest_nodes, mut dearest) = (0, 0, Duration::ZERO);
                for d in 0..self.config.solve_deals.max(1) {
                    let cap = self.config.solve_nodes;
                    let capped = cap > 0 && nodes + dearest_nodes > cap;
                    if d > 0 && (capped || deadline.is_some_and(|t| Instant::now() + dearest >= t)) {
                        break;
                    }
                    let started = Instant::now();
                    let Some(hands) = self.draw(&constraints, &weigh, &mut rng) else { continue };
                    let pos = jass_solver::Position {
                        hands,
                        trick,
                        contract,
                        old_undenufe: self.options.old_undenufe,
                        tricks_won,
                        match_bonus: self.options.fixed_rounds.is_none(),
                    };
                    // A deal the cap cuts short is dropped, and ends the decision: the
                    // cap bounds the decision's work, not only the deals it starts.
                    let within = if cap > 0 { cap.saturating_sub(nodes) } else { u64::MAX };
                    let values = solver.card_values_within(&pos, within);
                    let spent = solver.take_stats().nodes;
                    (nodes, dearest_nodes) = (nodes + spent, dearest_nodes.max(spent));
                    dearest = dearest.max(started.elapsed());
                    // A sample the solver refuses (a deal that cannot occur) is skipped.
                    let Ok(values) = values else { continue };
                    let Some(values) = values else { break };
                    for (card, points) in values {
                        if let Some(i) = cards.iter().position(|&c| c == card) {
                            each(n, i, Outcome::Solved(points));
                        }
                    }
                    n += 1;
                }
                n > 0
            });
            if solved {
                return Some(());
            }
        }
        let mut draws = 0;
        for d in 0..deals {
            let spent = draws > PLAYOUT_DRAWS;
            if d > 0 && (spent || deadline.is_some_and(|t| Instant::now() >= t)) {
                break;
            }
            // Thousands of deals here: each is weighed by its likelihood rather than
            // drawn again until one is kept (which costs far more draws).
            let Some(hands) = constraints.sample_counting(&mut rng, &mut draws) else { continue };
            let weight = self.likelihood(&weigh, &hands);
            let position = RoundInPlay {
                hands,
                trick,
                trick_no: view.trick.number,
                contract,
                old_undenufe: self.options.old_undenufe,
                points: view.round_points.into_inner(),
                lost_a_trick,
                match_bonus: self.options.fixed_rounds.is_none(),
            };
            for (i, &c) in cards.iter().enumerate() {
                let mut after = position;
                after.play(c);
                let p = if self.config.informed_playouts {
                    playout::play_informed(after, self.config.open_playouts, &mut rng)
                } else {
                    after.play_random(&mut rng)
                };
                let p = ByTeam(p);
                each(d, i, Outcome::Played { weight, mine: p[me], theirs: p[me.other()] });
            }
        }
        Some(())
    }
}

/// One sampled deal's value of one card ([`Computer::evaluate`]).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Outcome {
    /// Solved: the points the seat's team takes from here on.
    Solved(u32),
    /// Played out: the deal's weight and the round's points of each team.
    Played { weight: f64, mine: u32, theirs: u32 },
}

/// The sampler's draws for the deals played out in one decision, at most: 0.5–1.5 µs
/// a draw, so up to about 30 ms of one core. A deal takes one draw (a decision at
/// most 10,000) unless hidden Weis of the first trick must be met by drawing again;
/// with two or three of them a decision took up to two million draws and 1.2 s
/// (docs/bots.md, "Every decision within 100 ms"). Reproduces, unlike the time budget.
const PLAYOUT_DRAWS: u64 = 20_000;

/// Draws for one deal when weighing deals, at most; then the likeliest of them is
/// taken. It bounds the cost of histories the estimate finds unlikely for every deal.
const CHOICE_DRAWS: u32 = 64;

/// What a sampled deal is weighed by: the contract choice and the cards played.
struct Weigh<'a> {
    choice: Option<&'a Choice>,
    contract: Contract,
    /// [`Config::infer_play`] as a factor; `None` when off.
    play_miss: Option<f64>,
}

impl Weigh<'_> {
    const fn is_uniform(&self) -> bool {
        self.choice.is_none() && self.play_miss.is_none()
    }
}

impl Computer {
    fn play_miss(&self) -> Option<f64> {
        (self.config.infer_play > 0).then(|| f64::from(self.config.infer_play) / 256.0)
    }

    /// A deal of the unseen cards: uniform over those consistent with the memory, or
    /// when weighing, kept with the probability that the seats would have decided and
    /// played as they did holding its cards.
    fn draw<R: rand::RngExt + ?Sized>(
        &self,
        constraints: &Constraints,
        weigh: &Weigh<'_>,
        rng: &mut R,
    ) -> Option<[CardSet; 4]> {
        if weigh.is_uniform() {
            return constraints.sample(rng);
        }
        let mut likeliest: Option<(f64, [CardSet; 4])> = None;
        for _ in 0..CHOICE_DRAWS {
            let Some(hands) = constraints.sample(rng) else { break };
            let p = self.likelihood(weigh, &hands);
            if rng.random::<f64>() < p {
                return Some(hands);
            }
            if likeliest.is_none_or(|(q, _)| p > q) {
                likeliest = Some((p, hands));
            }
        }
        likeliest.map(|(_, hands)| hands)
    }

    /// The probability, up to a constant, that the seats who chose and pushed would
    /// have decided as they did, and the other seats played as they did, holding
    /// `hands` and the cards this seat saw them play.
    fn likelihood(&self, weigh: &Weigh<'_>, hands: &[CardSet; 4]) -> f64 {
        let chose = weigh.choice.map_or(1.0, |choice| {
            let dealt: [Option<CardSet>; 4] = Seat::ALL.map(|s| {
                let (held, played) = (*s.of(hands), *s.of(&self.memory.played_by));
                let hand = held | played;
                (hand.len() == 9 && (held & played).is_empty()).then_some(hand)
            });
            choice.likelihood(self.seat, &dealt, &self.options, self.config.push_below)
        });
        let played = weigh.play_miss.map_or(1.0, |miss| {
            plays::likelihood(&self.memory, self.seat, hands, weigh.contract, self.options.old_undenufe, miss)
        });
        chose * played
    }
}

/// The Weis to declare from those allowed: all of them, or with `small_weis` (no card
/// in two Weis, R6) the highest first that share no card.
fn declaration(allowed: &WeisList, small_weis: bool) -> Vec<CardSet> {
    let mut list: Vec<_> = allowed.iter().copied().collect();
    list.sort_by_key(|w| std::cmp::Reverse(w.points(small_weis)));
    let mut used = CardSet::EMPTY;
    let mut out = Vec::new();
    for w in list {
        if small_weis && !(used & w.cards()).is_empty() {
            continue;
        }
        used = used | w.cards();
        out.push(w.cards());
    }
    out
}

/// SplitMix64's finaliser: spreads a few small numbers over a whole seed.
const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use jass_engine::{Action, CardSet, Contract, Game, Options, Preset, Seat, Suit, Viewer};
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::{Computer, Config, Constraints};
    use crate::choice::Choice;

    /// Weighing by the contract choice moves the chosen trumps into the declarer's
    /// sampled hands: the forehand chose hearts holding six of them, and an opponent's
    /// samples give it far more hearts than a uniform draw does.
    #[test]
    fn weighed_deals_give_the_declarer_its_trumps() -> Result<(), String> {
        let options = Options::preset(Preset::To1000);
        let parse = |s: &str| s.parse::<CardSet>().map_err(|e| format!("{e:?}"));
        let hands = [
            parse("S6 S7 S8 D6 D7 D8 C6 C7 C8")?,
            parse("HJ H9 HA HK HQ HT SA DA CA")?,
            parse("H6 H7 S9 ST SJ D9 DT DJ C9")?,
            parse("H8 SQ SK DQ DK CT CJ CQ CK")?,
        ];
        let mut game = Game::with_hands(options, Seat::ALL[0], hands, Seat::ALL[1], [0, 0])
            .map_err(|e| e.to_string())?;
        game.apply(Seat::ALL[1], Action::Choose { contract: Contract::Hearts }, || {
            jass_engine::Seed([1; 32])
        })
        .map_err(|e| e.to_string())?;
        let me = Seat::ALL[0];
        let view = game.view(Viewer::Seat(me));
        let mut computer = Computer::new(me, options, Config::default());
        computer.observe(&view);
        let constraints = Constraints::new(me, view.hand, view.hand_counts, &computer.memory, true, false)
            .ok_or("no constraints")?;
        let choice = Choice::of(&view).ok_or("no choice")?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let hearts = |choice: Option<&Choice>, rng: &mut Xoshiro256PlusPlus| -> Result<f64, String> {
            let mut sum = 0;
            for _ in 0..400 {
                let weigh = super::Weigh { choice, contract: Contract::Hearts, play_miss: None };
                let deal = computer.draw(&constraints, &weigh, rng).ok_or("no deal")?;
                sum += deal[1].suit_bits(Suit::Hearts).count_ones();
            }
            Ok(f64::from(sum) / 400.0)
        };
        let uniform = hearts(None, &mut rng)?;
        let weighed = hearts(Some(&choice), &mut rng)?;
        // Uniform: 9 hearts among 27 unseen cards, a third to each seat.
        assert!((uniform - 3.0).abs() < 0.3, "uniform {uniform}");
        assert!(weighed > 4.0, "weighed {weighed}");
        Ok(())
    }
}
