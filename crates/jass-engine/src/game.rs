//! The game: rounds to the end of the game (R2, R3, R5–R8, R10).
//!
//! [`Game::apply`] is the one way in. It checks the whole action first and only then
//! mutates, so a refused action leaves the game exactly as it was. The checks (which
//! action is legal now) are here; what an accepted action does to the deal is the
//! round's (`round.rs`), how it counts is the score's (`score.rs`), and who may see
//! it is the view's (`view.rs`).

use crate::action::{Action, Event, Events};
use crate::by::{BySeat, ByTeam};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::compact::{Cached, CompactRecord, History};
use crate::contract::Contract;
use crate::deal::{Commitment, Seed};
use crate::error::RuleError;
use crate::options::{End, Options, OptionsError};
use crate::record::{RECORD_FORMAT, Record};
use crate::round::{CompletedTrick, Phase, Round};
use crate::score::{CountPos, Credits, EndReason, GameResult, RoundSummary, bedanke_is_right, first_across};
use crate::seat::{Seat, Team};
use crate::trick::{Trick, legal_cards};
use crate::view::{Allowed, SeatView, Table, Viewer, WeisViews, project};
use crate::weis::{Weis, WeisList, validate_in_hand, weis_in_hand};

/// A whole game: options, the finished rounds' summaries, the round in play and the
/// record that replays to it.
///
/// ```
/// use jass_engine::{Action, Contract, Game, Options, Seed};
/// let mut g = Game::new(Options::default(), Seed([7; 32])).unwrap();
/// let forehand = g.to_act().unwrap();
/// g.apply(forehand, Action::Choose { contract: Contract::Obenabe }, || Seed([8; 32])).unwrap();
/// let card = g.legal_cards(forehand).first().unwrap();
/// g.apply(forehand, Action::play(card), || Seed([8; 32])).unwrap();
/// assert_eq!(g.to_act(), Some(forehand.next()));
/// ```
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Game {
    pub(crate) options: Options,
    pub(crate) round: Round,
    /// Who sees which of the round's Weis, kept with each declaration and comparison.
    weis_views: WeisViews,
    /// The tricks of the round `last_round` sums up.
    last_round_tricks: arrayvec::ArrayVec<crate::round::PlayedTrick, 9>,
    /// Totals before the current round.
    pub(crate) totals_before: ByTeam<u32>,
    /// Crossing of the target found in finished rounds (R10).
    crossed: ByTeam<Option<CountPos>>,
    /// The finished rounds' summaries, compact (a server keeps a game for its whole
    /// length).
    pub(crate) history: History,
    /// The last of `history`, kept apart so that views copy it straight from here.
    pub(crate) last_round: Option<RoundSummary>,
    pub(crate) result: Option<GameResult>,
    /// The record, compact.
    log: CompactRecord,
    /// [`record`](Self::record) and [`history`](Self::history) in full, built when
    /// asked and dropped at the next action.
    full_record: Cached<Record>,
    full_history: Cached<Vec<RoundSummary>>,
}

/// What [`Game::check`] found valid, so `apply` need not redo the work.
enum Checked {
    Plain,
    Play { weis: WeisList },
}

impl Game {
    /// Starts a game and deals the first round from `seed` (R2, R12).
    ///
    /// # Errors
    /// Options out of range.
    pub fn new(options: Options, seed: Seed) -> Result<Self, OptionsError> {
        options.validate()?;
        let round = Round::new(0, options.first_dealer, seed, options.first_round, Credits::new());
        let mut log = CompactRecord::default();
        log.deal(seed, round.dealer);
        Ok(Self {
            options,
            round,
            weis_views: WeisViews::default(),
            last_round_tricks: arrayvec::ArrayVec::new(),
            totals_before: ByTeam::default(),
            crossed: ByTeam([None; 2]),
            history: History::new(ByTeam::default()),
            last_round: None,
            result: None,
            log,
            full_record: Cached::default(),
            full_history: Cached::default(),
        })
    }

    /// **For tests and analysis only**: a game whose first round has the given hands,
    /// dealer and forehand, starting from game totals `totals`, instead of dealing a
    /// seed. Later rounds are dealt from the seeds `apply` is given, as usual.
    ///
    /// Such a game is not reproducible from seeds: its record holds the given hands
    /// next to the placeholder seed `Seed([0; 32])`, so [`Record::replay`] refuses it
    /// with a deal mismatch. Games made by [`Game::new`] are unaffected.
    ///
    /// # Errors
    /// Options out of range.
    ///
    /// # Panics
    /// If the hands are not four disjoint sets of nine cards.
    #[doc(hidden)]
    pub fn with_hands(
        options: Options,
        dealer: Seat,
        hands: [CardSet; 4],
        forehand: Seat,
        totals: [u32; 2],
    ) -> Result<Self, OptionsError> {
        let all = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        assert!(
            hands.iter().all(|h| h.len() == 9) && all == CardSet::DECK,
            "with_hands needs four disjoint hands of nine cards"
        );
        let mut game = Self::new(options, Seed([0; 32]))?;
        let r = &mut game.round;
        (r.dealer, r.forehand, r.dealt, r.hands, r.trick) =
            (dealer, forehand, BySeat(hands), BySeat(hands), Trick::new(forehand));
        game.log.give_first_hands(dealer, hands);
        game.totals_before = ByTeam(totals);
        game.history = History::new(ByTeam(totals));
        Ok(game)
    }

    /// The table options.
    #[must_use]
    pub const fn options(&self) -> &Options {
        &self.options
    }

    /// The record so far (options, seeds, hands, actions). It holds the current
    /// round's seed and every hand: give it to players only once the game is over.
    ///
    /// The game keeps its record compact; this builds it in full and keeps it until
    /// the next action. A caller that only copies it out (a server answering a
    /// download) should use [`to_record`](Self::to_record), which keeps nothing.
    #[must_use]
    pub fn record(&self) -> &Record {
        self.full_record.get_or_init(|| self.to_record())
    }

    /// The record so far, built from the compact form the game keeps (see
    /// [`record`](Self::record)).
    #[must_use]
    pub fn to_record(&self) -> Record {
        Record {
            format: RECORD_FORMAT.to_owned(),
            options: self.options,
            rounds: self.log.rounds(),
            players: Vec::new(),
        }
    }

    /// How many rounds were dealt (the record's rounds).
    pub(crate) const fn rounds_dealt(&self) -> usize {
        self.log.rounds_dealt()
    }

    /// The dealer and dealt hands of round `i`, if it was dealt.
    pub(crate) fn dealt(&self, i: usize) -> Option<(Seat, [CardSet; 4])> {
        if i == self.round.number as usize {
            Some((self.round.dealer, self.round.dealt.0))
        } else {
            self.log.dealt(i)
        }
    }

    /// Summaries of the rounds played so far (built in full from the compact form the
    /// game keeps, and kept until the next action).
    #[must_use]
    pub fn history(&self) -> &[RoundSummary] {
        self.full_history.get_or_init(|| self.history.expand(&self.log, &self.options))
    }

    /// The result, once the game is over.
    #[must_use]
    pub const fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        if self.result.is_some() {
            Phase::Over
        } else if self.round.contract.is_none() {
            Phase::Choosing
        } else {
            Phase::Playing
        }
    }

    /// 0-based number of the current round.
    #[must_use]
    pub const fn round_number(&self) -> u32 {
        self.round.number
    }

    /// The current round's dealer.
    #[must_use]
    pub const fn dealer(&self) -> Seat {
        self.round.dealer
    }

    /// The current round's forehand.
    #[must_use]
    pub const fn forehand(&self) -> Seat {
        self.round.forehand
    }

    /// The contract, once chosen.
    #[must_use]
    pub const fn contract(&self) -> Option<Contract> {
        self.round.contract
    }

    /// The cards `seat` holds now.
    #[must_use]
    pub const fn hand(&self, seat: Seat) -> CardSet {
        *self.round.hands.get(seat)
    }

    /// The trick being played.
    #[must_use]
    pub const fn trick(&self) -> &Trick {
        &self.round.trick
    }

    /// The commitment of the current round's seed (R12).
    #[must_use]
    pub const fn commitment(&self) -> Commitment {
        self.round.commitment
    }

    /// Game totals including what the current round has credited so far (R10).
    #[must_use]
    pub fn totals(&self) -> ByTeam<u32> {
        ByTeam(Team::ALL.map(|t| self.totals_before[t] + self.round.team_credits(t)))
    }

    /// Who must act now: the chooser or the next player; `None` once the game is over.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase() {
            Phase::Over => None,
            Phase::Choosing => Some(self.round.chooser()),
            Phase::Playing => Some(self.round.trick.next_seat()),
        }
    }

    /// The cards `seat` may play now: empty unless it is `seat`'s turn to play (R5).
    #[must_use]
    pub fn legal_cards(&self, seat: Seat) -> CardSet {
        match (self.phase(), self.round.contract) {
            (Phase::Playing, Some(k)) if self.round.trick.next_seat() == seat => {
                legal_cards(self.round.hands[seat], &self.round.trick, k)
            }
            _ => CardSet::EMPTY,
        }
    }

    /// Whether `seat` may push now (R3).
    #[must_use]
    pub fn can_schiebe(&self, seat: Seat) -> bool {
        self.phase() == Phase::Choosing
            && self.to_act() == Some(seat)
            && (!self.round.pushed || (self.options.push_back && !self.round.pushed_back))
    }

    /// The Weis `seat` could declare with the card it is about to play: non-empty only
    /// when it is `seat`'s turn for its first card (R6).
    #[must_use]
    pub fn declarable_weis(&self, seat: Seat) -> Vec<Weis> {
        self.declarable(seat).to_vec()
    }

    /// [`declarable_weis`](Self::declarable_weis) without allocating. The test is
    /// inline and the search not: every view asks, and a call for the test alone cost
    /// more than its usual answer (none).
    #[inline(always)]
    pub(crate) fn declarable(&self, seat: Seat) -> WeisList {
        if self.options.has_extras() && self.is_first_card(seat) && self.to_act() == Some(seat) {
            weis_to_declare(self.round.hands[seat], self.options.small_weis)
        } else {
            WeisList::new()
        }
    }

    fn is_first_card(&self, seat: Seat) -> bool {
        self.phase() == Phase::Playing && self.round.before_first_card(seat)
    }

    /// Whether `seat` may announce Stöck now (R7).
    #[must_use]
    pub fn can_announce_stoeck(&self, seat: Seat) -> bool {
        self.stoeck_check(seat).is_ok()
    }

    /// Whether bedanken is played at this table and the game is on (R10).
    #[must_use]
    pub fn can_bedanke(&self) -> bool {
        self.result.is_none() && self.options.end == End::Bedanken && self.options.has_extras()
    }

    /// The Weis declared so far this round, by seat.
    #[must_use]
    pub fn declared_weis(&self, seat: Seat) -> &[Weis] {
        &self.round.declared[seat]
    }

    /// After the first trick: the team whose Weis scored and the points (R6).
    #[must_use]
    pub const fn weis_result(&self) -> Option<(Option<Team>, u32)> {
        self.round.weis_result
    }

    /// The seat that announced Stöck this round, if any.
    #[must_use]
    pub const fn stoeck_announced_by(&self) -> Option<Seat> {
        if self.round.stoeck_announced { self.round.stoeck_holder } else { None }
    }

    /// Where `team` first reached the target, if it has (R10).
    #[must_use]
    pub fn crossing(&self, team: Team) -> Option<CountPos> {
        if let Some(p) = self.crossed[team] {
            return Some(p);
        }
        if self.options.fixed_rounds.is_some() {
            return None;
        }
        self.round.credits.crossing(team, self.totals_before[team], self.options.target)
    }

    fn stoeck_check(&self, seat: Seat) -> Result<(), RuleError> {
        if !self.options.has_extras() {
            return Err(RuleError::NoExtras);
        }
        match self.phase() {
            Phase::Over => return Err(RuleError::GameOver),
            Phase::Choosing => return Err(RuleError::WrongPhase("Stöck comes after the contract")),
            Phase::Playing => {}
        }
        if self.round.stoeck_holder != Some(seat) {
            return Err(RuleError::StoeckNotHeld);
        }
        if self.round.stoeck_announced {
            return Err(RuleError::StoeckAlreadyAnnounced);
        }
        match self.round.stoeck_second_at {
            Some(i) if i + 1 != self.round.played => Err(RuleError::StoeckTooLate),
            _ => Ok(()),
        }
    }

    /// Checks `action` for `seat` without changing anything. Inlined: its result,
    /// passed back through memory written in pieces, cost `apply` a stalled reload.
    #[inline(always)]
    fn check(&self, seat: Seat, action: &Action) -> Result<Checked, RuleError> {
        if self.result.is_some() {
            return Err(RuleError::GameOver);
        }
        match action {
            Action::Bedanke => {
                if self.can_bedanke() {
                    Ok(Checked::Plain)
                } else {
                    Err(RuleError::BedankeNotAllowed)
                }
            }
            Action::Stoeck => self.stoeck_check(seat).map(|()| Checked::Plain),
            Action::Schiebe | Action::Choose { .. } => {
                if self.phase() != Phase::Choosing {
                    return Err(RuleError::WrongPhase("the contract is already chosen"));
                }
                if self.to_act() != Some(seat) {
                    return Err(RuleError::NotYourTurn { to_act: self.to_act() });
                }
                if matches!(action, Action::Schiebe) && !self.can_schiebe(seat) {
                    return Err(RuleError::CannotPush(if self.options.push_back {
                        "already pushed back: choose a contract"
                    } else {
                        "already pushed: choose a contract"
                    }));
                }
                Ok(Checked::Plain)
            }
            Action::Play { card, weis, stoeck } => {
                // The game is on (checked above): playing means a contract, and the
                // turn is the trick's. The rules are applied directly rather than through
                // `phase`, `to_act` and `legal_cards`, which would each check them again.
                let Some(contract) = self.round.contract else {
                    return Err(RuleError::WrongPhase("choose the contract first"));
                };
                if self.round.trick.next_seat() != seat {
                    return Err(RuleError::NotYourTurn { to_act: self.to_act() });
                }
                let hand = self.round.hands[seat];
                if !hand.contains(*card) {
                    return Err(RuleError::CardNotHeld(*card));
                }
                let legal = legal_cards(hand, &self.round.trick, contract);
                if !legal.contains(*card) {
                    return Err(RuleError::IllegalCard { card: *card, legal });
                }
                let weis = if weis.is_empty() {
                    WeisList::new()
                } else {
                    if !self.options.has_extras() {
                        return Err(RuleError::NoExtras);
                    }
                    if !self.is_first_card(seat) {
                        return Err(RuleError::WeisTooLate);
                    }
                    validate_in_hand(hand, weis, self.options.small_weis).map_err(RuleError::InvalidWeis)?
                };
                if *stoeck {
                    self.stoeck_check(seat)?;
                    // R7: once both cards are down, the next card ends the chance; announcing
                    // with that card is too late (announce right after the second instead).
                    if self.round.stoeck_second_at.is_some() {
                        return Err(RuleError::StoeckTooLate);
                    }
                }
                Ok(Checked::Play { weis })
            }
        }
    }

    /// Why [`check`](Self::check) refuses `action`, for [`apply`](Self::apply), which
    /// takes only the verdict from it. Out of line: refusals are rare.
    #[cold]
    #[inline(never)]
    fn refusal(&self, seat: Seat, action: &Action) -> RuleError {
        // `check` is pure, so it refuses again; `GameOver` only stands in for the
        // impossible other case.
        let refusal = self.check(seat, action).err();
        debug_assert!(refusal.is_some(), "check is pure: what it refused once it refuses again");
        refusal.unwrap_or(RuleError::GameOver)
    }

    /// The tricks of the round [`last_round`](SeatView::last_round) scores, in order:
    /// public (every card was played face up), so any viewer may have them, e.g. to
    /// browse the round from its summary (protocol.md 1, "Other endpoints"). Empty
    /// before the first round is scored.
    #[must_use]
    pub fn last_round_tricks(&self) -> Vec<CompletedTrick> {
        let Some(contract) = self.last_round.and_then(|r| r.contract) else {
            return Vec::new();
        };
        let old = self.options.old_undenufe;
        (0u8..).zip(&self.last_round_tricks).map(|(i, t)| t.completed(i, contract, old)).collect()
    }

    /// The view of `viewer`: what it may know of the game, and nothing more (`view.rs`
    /// decides who sees what).
    #[must_use]
    pub fn view(&self, viewer: Viewer) -> SeatView {
        let table = Table {
            phase: self.phase(),
            to_act: self.to_act(),
            stoeck: self.stoeck_announced_by(),
            totals: self.totals(),
            last_round: &self.last_round,
            rounds_played: self.history.len() as u32,
            result: &self.result,
        };
        // Only while the next round has no card down (its contract is being chosen, the
        // moment clients show the ninth trick and the summary), or after the last
        // round of the game: views stay as small as they were all round long.
        let last_trick = match (self.last_round.and_then(|r| r.contract), self.last_round_tricks.last()) {
            (Some(k), Some(t)) if self.round.played == 0 || self.result.is_some() => {
                let number = self.last_round_tricks.len() as u8 - 1;
                Some(t.completed(number, k, self.options.old_undenufe))
            }
            _ => None,
        };
        project(viewer, &self.round, &self.weis_views, table, last_trick, |s| {
            let weis = self.declarable(s);
            Allowed {
                schiebe: self.can_schiebe(s),
                choose: self.phase() == Phase::Choosing && self.to_act() == Some(s),
                cards: self.legal_cards(s),
                weis_points: weis.iter().map(|w| w.points(self.options.small_weis)).collect(),
                weis,
                stoeck: self.can_announce_stoeck(s),
                bedanke: self.can_bedanke(),
            }
        })
    }

    /// Checks `action` for `seat` exactly as [`apply`](Self::apply) would, without
    /// changing anything: a server can make an action durable first and then apply it
    /// knowing it will succeed.
    ///
    /// # Errors
    /// Why the action would be refused.
    pub fn validate(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        self.check(seat, action).map(|_| ())
    }

    /// Whether the next card played completes the round, so applying it needs a seed
    /// for the following round (unless the game ends with it).
    #[must_use]
    pub fn next_card_ends_round(&self) -> bool {
        self.phase() == Phase::Playing && self.round.played == 35
    }

    /// Applies `action` for `seat` (the one way in). `next_seed` is called once if the
    /// action ends a round and the game goes on: the server supplies fresh entropy,
    /// a replay the recorded seed.
    ///
    /// # Errors
    /// Why the action was refused; the game is then unchanged.
    pub fn apply(
        &mut self,
        seat: Seat,
        action: Action,
        next_seed: impl FnOnce() -> Seed,
    ) -> Result<Events, RuleError> {
        let mut events = Events::new();
        self.apply_into(seat, action, next_seed, &mut events)?;
        Ok(events)
    }

    /// [`apply`](Self::apply), appending the events to `events` instead of returning
    /// them: a caller that applies many actions reuses one buffer, and the events are
    /// not copied out of the call (returned by value, that copy was about a tenth of
    /// applying a card). Nothing is appended when the action is refused.
    ///
    /// # Errors
    /// Why the action was refused; the game and `events` are then unchanged.
    ///
    /// Inline: where the buffer is a caller's local, the pushes then know it is still
    /// inline instead of checking for a spilled one each time.
    #[inline]
    #[expect(
        clippy::needless_pass_by_value,
        reason = "the action is the caller's to give up, as in `apply`; the game keeps only its code"
    )]
    pub fn apply_into(
        &mut self,
        seat: Seat,
        action: Action,
        next_seed: impl FnOnce() -> Seed,
        events: &mut Events,
    ) -> Result<(), RuleError> {
        // Only the verdict leaves the inlined check: carried out together with the
        // error, it came back through memory written in pieces, and apply stalled
        // reloading it (perf annotate: a fifth of apply's samples).
        let Some(checked) = self.check(seat, &action).ok() else {
            return Err(self.refusal(seat, &action));
        };
        // Recorded before it is applied: a round's last card belongs to its round, not
        // to the one it deals.
        self.log.push(seat, &action);
        self.full_record.clear();
        self.full_history.clear();
        let options = &self.options;
        match (&action, &checked) {
            (Action::Bedanke, _) => self.bedanke(seat, events),
            (Action::Stoeck, _) => self.round.stoeck(options, seat, events),
            (Action::Schiebe, _) => self.round.schiebe(seat, events),
            (&Action::Choose { contract }, _) => self.round.choose(options, seat, contract, events),
            (&Action::Play { card, stoeck, .. }, Checked::Play { weis }) => {
                self.play(seat, card, weis, stoeck, next_seed, events);
            }
            (Action::Play { .. }, Checked::Plain) => {
                debug_assert!(false, "check answers a play with Checked::Play");
            }
        }
        Ok(())
    }

    fn play(
        &mut self,
        seat: Seat,
        card: Card,
        weis: &[Weis],
        stoeck: bool,
        next_seed: impl FnOnce() -> Seed,
        events: &mut Events,
    ) {
        let outcome = self.round.play(&self.options, seat, card, weis, stoeck, events);
        if outcome.weis_changed {
            self.weis_views.refresh(&self.round);
        }
        if outcome.round_over {
            self.finish_round(next_seed, events);
        }
    }

    fn push_summary(&mut self, summary: RoundSummary) {
        debug_assert_eq!(summary.round as usize, self.history.len(), "one summary a round, in order");
        self.history.push(&summary);
        debug_assert_eq!(
            crate::compact::CompactSummary::new(&summary).expand(
                summary.round,
                summary.seed,
                self.totals_before,
                &self.options
            ),
            summary,
            "the compact summary gives the summary back"
        );
        self.last_round = Some(summary);
        self.last_round_tricks = self.round.tricks.clone();
    }

    fn freeze_crossings(&mut self) {
        for t in Team::ALL {
            self.crossed[t] = self.crossing(t);
        }
    }

    /// The ninth trick is taken: the round is scored, the game ends (R10) or the next
    /// round is dealt by this round's forehand (R2).
    fn finish_round(&mut self, next_seed: impl FnOnce() -> Seed, events: &mut Events) {
        let summary = self.round.summary(&self.options, self.totals(), true);
        self.freeze_crossings();
        self.push_summary(summary);
        events.push(Event::RoundScored(Box::new(summary)));
        // The finished round stays `self.round` if the game ends here, so `totals()`
        // (totals before the round + its credits) stays right; `totals_before` moves on
        // only when the next round is dealt.
        let totals = self.totals();
        let result = match (self.options.fixed_rounds, self.options.end) {
            (Some(n), _) if self.history.len() as u32 >= n => Some(GameResult::after_fixed_rounds(totals)),
            (None, End::Automatic) => first_across(self.crossed.0)
                .map(|w| GameResult::won(w, EndReason::Automatic, totals, &self.options)),
            _ => None,
        };
        if let Some(res) = result {
            self.result = Some(res);
            events.push(Event::GameOver(res));
            return;
        }
        self.totals_before = totals;
        let dealer = self.round.forehand; // R2: next dealer = this round's forehand
        let seed = next_seed();
        let credits = self.round.take_credits();
        self.round = Round::new(self.round.number + 1, Some(dealer), seed, self.options.first_round, credits);
        self.weis_views = WeisViews::default();
        self.log.deal(seed, self.round.dealer);
        events.push(Event::RoundDealt {
            round: self.round.number,
            dealer: self.round.dealer,
            forehand: self.round.forehand,
            commitment: self.round.commitment,
        });
    }

    /// R10: the claim is right if the claimant's team has reached the target, unless
    /// the other team reached it first within the same trick.
    fn bedanke(&mut self, seat: Seat, events: &mut Events) {
        let mine = seat.team();
        let right = bedanke_is_right(self.crossing(mine), self.crossing(mine.other()));
        let winner = if right { mine } else { mine.other() };
        // The round in play counts as far as it went; one not yet begun is not shown.
        let begun = self.round.pushed || self.round.contract.is_some();
        if begun {
            let s = self.round.summary(&self.options, self.totals(), false);
            self.push_summary(s);
        }
        let res = GameResult::won(winner, EndReason::Bedanke { seat, right }, self.totals(), &self.options);
        self.result = Some(res);
        events.push(Event::Bedanke { seat, right });
        events.push(Event::GameOver(res));
    }
}

/// [`weis_in_hand`] kept out of line, so that [`Game::declarable`] inlines as its test
/// alone.
#[inline(never)]
fn weis_to_declare(hand: CardSet, small_weis: bool) -> WeisList {
    weis_in_hand(hand, small_weis)
}
