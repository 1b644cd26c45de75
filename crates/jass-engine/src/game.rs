//! The game state machine: rounds to the end of the game (R2, R3, R5–R8, R10).
//!
//! [`Game::apply`] is the one way in. It checks the whole action first and only then
//! mutates, so a refused action leaves the game exactly as it was.

use serde::{Deserialize, Serialize};

use crate::action::{Action, CreditKind, Event, Events};
use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::compact::{Cached, CompactRecord, History};
use crate::contract::{Contract, tables};
use crate::deal::{Commitment, Seed, deal};
use crate::error::RuleError;
use crate::options::{CountingOrder, End, FirstRound, Options, OptionsError};
use crate::record::{RECORD_FORMAT, Record};
use crate::seat::{Seat, Team};
use crate::short_list::ShortList;
use crate::trick::{PlayedCard, PlayedCards, Trick, legal_cards};
use crate::view::WeisView;
use crate::weis::{
    MAX_WEIS, Weis, WeisKey, WeisList, has_stoeck, stoeck_cards, validate_in_hand, weis_in_hand,
};

/// Points for the last trick (R4).
pub const LAST_TRICK_BONUS: u32 = 5;
/// Points for taking all nine tricks (R4, R8).
pub const MATCH_BONUS: u32 = 100;

/// Where the game stands.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The forehand (or the partner after schieben) picks the contract.
    Choosing,
    /// Tricks are being played.
    Playing,
    /// The game has ended.
    Over,
}

/// A point in the game's counting order: round, trick, then the counting order
/// inside the trick (R10). Comparing two tells which credit came first.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
pub struct CountPos {
    /// 0-based round.
    pub round: u32,
    /// 0-based trick.
    pub trick: u8,
    /// Place in the counting order (0 first).
    pub slot: u8,
}

/// One credit to a team, already multiplied.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
struct Credit {
    team: Team,
    points: u32,
    pos: CountPos,
}

/// The completed trick, kept for "last trick" displays.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct CompletedTrick {
    /// 0-based trick number.
    pub trick: u8,
    /// Cards with seats, in playing order.
    pub cards: PlayedCards,
    /// Who took it.
    pub winner: Seat,
    /// Card points (with the last-trick 5), before the multiplier.
    pub points: u32,
}

/// The last completed trick as a round keeps it: the trick itself, cheap to copy;
/// views build the [`CompletedTrick`] from it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct LastTrick {
    number: u8,
    trick: Trick,
    winner: Seat,
    points: u32,
}

impl LastTrick {
    /// The form views carry.
    pub(crate) fn completed(&self) -> CompletedTrick {
        CompletedTrick {
            trick: self.number,
            cards: self.trick.played_cards(),
            winner: self.winner,
            points: self.points,
        }
    }
}

/// The score of one round (R8), before and after the multiplier. Indices are teams.
/// `Copy`: every view carries the last one, and a plain copy is cheaper than a clone
/// field by field.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct RoundSummary {
    /// 0-based round number.
    pub round: u32,
    /// Dealer.
    pub dealer: Seat,
    /// Forehand.
    pub forehand: Seat,
    /// The contract, if one was chosen.
    pub contract: Option<Contract>,
    /// Who chose it.
    pub chosen_by: Option<Seat>,
    /// Whether the forehand pushed.
    pub pushed: bool,
    /// The contract's multiplier (1 if none was chosen).
    pub multiplier: u32,
    /// Card points taken, with the last-trick 5.
    pub card_points: [u32; 2],
    /// Match bonus.
    pub match_bonus: [u32; 2],
    /// Weis scored (only the comparison's winner).
    pub weis: [u32; 2],
    /// Stöck scored.
    pub stoeck: [u32; 2],
    /// (card points + match + Weis + Stöck) × multiplier.
    pub total: [u32; 2],
    /// Game totals after this round.
    pub running_total: [u32; 2],
    /// False when the game ended by bedanke during the round.
    pub complete: bool,
    /// The round's seed, revealed (R12).
    pub seed: Seed,
}

/// How the game ended (R10).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EndReason {
    /// A seat said "bedanke".
    Bedanke {
        /// Who said it.
        seat: Seat,
        /// Whether the claim was right (the claimant's team won).
        right: bool,
    },
    /// `end = automatic`: the round that crossed the target was completed.
    Automatic,
    /// `fixed_rounds` were played.
    FixedRounds,
}

/// The end of a game.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner; `None` is a draw (only with `fixed_rounds`).
    pub winner: Option<Team>,
    /// Why it ended.
    pub reason: EndReason,
    /// The loser stayed below half the target and loses double (`schneider`).
    pub schneider: bool,
    /// Final totals.
    pub totals: [u32; 2],
}

/// One deal: from dealing to the ninth trick.
#[derive(Clone, Eq, PartialEq, Debug)]
pub(crate) struct Round {
    pub(crate) number: u32,
    pub(crate) dealer: Seat,
    pub(crate) forehand: Seat,
    pub(crate) seed: Seed,
    pub(crate) commitment: Commitment,
    pub(crate) dealt: [CardSet; 4],
    pub(crate) hands: [CardSet; 4],
    pub(crate) contract: Option<Contract>,
    pub(crate) chosen_by: Option<Seat>,
    pub(crate) pushed: bool,
    pub(crate) pushed_back: bool,
    pub(crate) trick: Trick,
    pub(crate) trick_no: u8,
    pub(crate) last_trick: Option<LastTrick>,
    /// Cards played so far this round (0..=36).
    pub(crate) played: u8,
    pub(crate) last_played_by: Option<Seat>,
    pub(crate) card_points: [u32; 2],
    pub(crate) tricks_won: [u8; 2],
    pub(crate) declared: [WeisList; 4],
    /// The points of each declared Weis (public at once, R6).
    pub(crate) declared_points: [ShortList<u32, MAX_WEIS>; 4],
    /// The declared Weis as each viewer sees them (seats 0–3, then spectators), kept
    /// up to date when a Weis is declared or compared. A view copies its list whole
    /// from memory written long before: a list assembled in the view was read back
    /// while its pieces were still being stored, and the stalled loads were a large
    /// part of a view's time.
    pub(crate) weis_lists: [ShortList<WeisView, 4>; 5],
    /// After trick 1: the team whose Weis scored, with its points.
    pub(crate) weis_result: Option<(Option<Team>, u32)>,
    pub(crate) stoeck_holder: Option<Seat>,
    pub(crate) stoeck_announced: bool,
    /// Index (in `played`) of the holder's second Stöck card, once played.
    pub(crate) stoeck_second_at: Option<u8>,
    credits: Vec<Credit>,
    /// Sum of `credits` per team.
    credited: [u32; 2],
}

impl Round {
    /// `credits` is the (emptied) list of the round before, if any: its allocation
    /// is reused.
    fn new(
        number: u32,
        dealer_choice: Option<Seat>,
        seed: Seed,
        first_round: FirstRound,
        credits: Vec<Credit>,
    ) -> Self {
        let d = deal(seed, dealer_choice);
        let seven = Card::new(Suit::Hearts, Rank::Seven);
        let forehand = match (dealer_choice, first_round) {
            (None, FirstRound::SevenOfHearts) => {
                Seat::ALL.into_iter().find(|s| d.hands[s.index()].contains(seven)).unwrap_or(d.dealer.next())
            }
            _ => d.dealer.next(),
        };
        Self {
            number,
            dealer: d.dealer,
            forehand,
            seed,
            commitment: seed.commitment(),
            dealt: d.hands,
            hands: d.hands,
            contract: None,
            chosen_by: None,
            pushed: false,
            pushed_back: false,
            trick: Trick::new(forehand),
            trick_no: 0,
            last_trick: None,
            played: 0,
            last_played_by: None,
            card_points: [0; 2],
            tricks_won: [0; 2],
            declared: Default::default(),
            declared_points: Default::default(),
            weis_lists: Default::default(),
            weis_result: None,
            stoeck_holder: None,
            stoeck_announced: false,
            stoeck_second_at: None,
            credits,
            credited: [0; 2],
        }
    }

    /// Cards left in each hand: nine, less one per completed trick and one for a card
    /// in the trick on the table (no popcount needed).
    pub(crate) fn hand_lens(&self) -> [u8; 4] {
        // One byte per seat, all at once: a one in each of the first `len` bytes, turned
        // so that byte i lands on the seat `leader + i`.
        let in_trick = ((1u64 << (8 * self.trick.len())) - 1) as u32 & 0x0101_0101;
        let in_trick = in_trick.rotate_left(8 * self.trick.leader().index() as u32);
        let lens = (u32::from(9 - self.trick_no) * 0x0101_0101 - in_trick).to_le_bytes();
        debug_assert_eq!(lens, self.hands.map(|h| h.len() as u8));
        lens
    }

    /// Rebuilds [`weis_lists`](Self::weis_lists) after a declaration or the Weis
    /// comparison: a seat sees the cards of its own Weis, everyone those of the team
    /// that won the comparison (R6).
    fn refresh_weis_lists(&mut self) {
        let revealed = self.weis_result.and_then(|(team, _)| team);
        // The spectators' list first: every declaration with its points, its cards only
        // where the comparison revealed them. Each seat's list is that one with its own
        // cards shown as well (built once and copied, not re-assembled per viewer).
        let mut public = ShortList::<WeisView, 4>::new();
        let mut own_slot = [None; 4];
        for s in Seat::ALL {
            let declared = self.declared[s.index()];
            if !declared.is_empty() {
                own_slot[s.index()] = Some(public.len());
                let visible = revealed == Some(s.team());
                let points = self.declared_points[s.index()];
                // At most one entry per seat: four always fit.
                let _fits = public.try_push(WeisView { seat: s, points, cards: visible.then_some(declared) });
            }
        }
        let [seats @ .., spectators] = &mut self.weis_lists;
        *spectators = public;
        for (i, list) in seats.iter_mut().enumerate() {
            *list = public;
            if let Some(slot) = own_slot[i]
                && let Some(own) = list.get_mut(slot)
            {
                own.cards = Some(self.declared[i]);
            }
        }
    }

    const fn team_credits(&self, team: Team) -> u32 {
        self.credited[team.index()]
    }
}

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
    /// Totals before the current round.
    pub(crate) totals_before: [u32; 2],
    /// Crossing of the target found in finished rounds (R10).
    crossed: [Option<CountPos>; 2],
    /// The finished rounds' summaries, compact (a server keeps a game for its whole
    /// length: Issue 13 point 14).
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
        let round = Round::new(0, None, seed, options.first_round, Vec::with_capacity(16));
        let mut log = CompactRecord::default();
        log.deal(seed, round.dealer);
        Ok(Self {
            options,
            round,
            totals_before: [0; 2],
            crossed: [None; 2],
            history: History::new([0; 2]),
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
            (dealer, forehand, hands, hands, Trick::new(forehand));
        game.log.give_first_hands(dealer, hands);
        game.totals_before = totals;
        game.history = History::new(totals);
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
            Some((self.round.dealer, self.round.dealt))
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
        self.round.hands[seat.index()]
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
    pub fn totals(&self) -> [u32; 2] {
        Team::ALL.map(|t| self.totals_before[t.index()] + self.round.team_credits(t))
    }

    /// Who must act now: the chooser or the next player; `None` once the game is over.
    #[must_use]
    pub fn to_act(&self) -> Option<Seat> {
        match self.phase() {
            Phase::Over => None,
            Phase::Choosing => Some(if self.round.pushed && !self.round.pushed_back {
                self.round.forehand.partner()
            } else {
                self.round.forehand
            }),
            Phase::Playing => Some(self.round.trick.next_seat()),
        }
    }

    /// The cards `seat` may play now: empty unless it is `seat`'s turn to play (R5).
    #[must_use]
    pub fn legal_cards(&self, seat: Seat) -> CardSet {
        match (self.phase(), self.round.contract) {
            (Phase::Playing, Some(k)) if self.round.trick.next_seat() == seat => {
                legal_cards(self.round.hands[seat.index()], &self.round.trick, k)
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
            weis_to_declare(self.round.hands[seat.index()], self.options.small_weis)
        } else {
            WeisList::new()
        }
    }

    fn is_first_card(&self, seat: Seat) -> bool {
        // No card played yet: the hand is still the dealt one.
        self.phase() == Phase::Playing && self.round.hands[seat.index()] == self.round.dealt[seat.index()]
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
        &self.round.declared[seat.index()]
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
        if let Some(p) = self.crossed[team.index()] {
            return Some(p);
        }
        if self.options.fixed_rounds.is_some() {
            return None;
        }
        let target = self.options.target;
        let mut total = self.totals_before[team.index()];
        if total >= target {
            return None; // reached before this game's credits were tracked: impossible
        }
        if total + self.round.team_credits(team) < target {
            return None;
        }
        let mut mine: Vec<&Credit> = self.round.credits.iter().filter(|c| c.team == team).collect();
        mine.sort_by_key(|c| c.pos);
        for c in mine {
            total += c.points;
            if total >= target {
                return Some(c.pos);
            }
        }
        None
    }

    /// The place of `kind` in the table's counting order, as one lookup (every trick
    /// credits its points through here).
    fn slot(&self, kind: CreditKind) -> u8 {
        use CountingOrder::{StoeckStichWeis, StoeckWeisStich, WeisStoeckStich};
        use CreditKind::{Stich, Stoeck, Weis};
        match (self.options.counting_order, kind) {
            (StoeckWeisStich | StoeckStichWeis, Stoeck) | (WeisStoeckStich, Weis) => 0,
            (StoeckWeisStich, Weis) | (WeisStoeckStich, Stoeck) | (StoeckStichWeis, Stich) => 1,
            (StoeckWeisStich | WeisStoeckStich, Stich) | (StoeckStichWeis, Weis) => 2,
        }
    }

    fn multiplier(&self) -> u32 {
        self.round.contract.map_or(1, |k| self.options.multipliers.of(k))
    }

    fn credit(&mut self, team: Team, raw: u32, kind: CreditKind, trick: u8) {
        if raw == 0 {
            return;
        }
        let pos = CountPos { round: self.round.number, trick, slot: self.slot(kind) };
        let points = raw * self.multiplier();
        self.round.credits.push(Credit { team, points, pos });
        self.round.credited[team.index()] += points;
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
                let hand = self.round.hands[seat.index()];
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
        self.check(seat, action).err().unwrap_or(RuleError::GameOver)
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
        match (&action, &checked) {
            (Action::Bedanke, _) => self.bedanke(seat, events),
            (Action::Stoeck, _) => {
                let trick = match self.round.last_played_by {
                    Some(s) if s == seat => (self.round.played - 1) / 4,
                    _ => self.round.trick_no,
                };
                self.announce_stoeck(seat, false, trick, events);
            }
            (Action::Schiebe, _) => {
                if self.round.pushed {
                    self.round.pushed_back = true;
                } else {
                    self.round.pushed = true;
                }
                events.push(Event::Pushed { seat });
            }
            (&Action::Choose { contract }, _) => {
                self.round.contract = Some(contract);
                self.round.chosen_by = Some(seat);
                if self.options.has_extras() {
                    self.round.stoeck_holder =
                        Seat::ALL.into_iter().find(|s| has_stoeck(self.round.dealt[s.index()], contract));
                }
                events.push(Event::ContractChosen { seat, contract });
            }
            (&Action::Play { card, stoeck, .. }, Checked::Play { weis }) => {
                self.play(seat, card, weis, stoeck, next_seed, events);
            }
            (Action::Play { .. }, Checked::Plain) => {}
        }
        Ok(())
    }

    fn announce_stoeck(&mut self, seat: Seat, auto: bool, trick: u8, events: &mut Events) {
        self.round.stoeck_announced = true;
        self.credit(seat.team(), 20, CreditKind::Stoeck, trick);
        events.push(Event::StoeckAnnounced { seat, auto });
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
        let r = &mut self.round;
        r.hands[seat.index()] = r.hands[seat.index()].without(card);
        r.trick.push(card);
        r.played += 1;
        r.last_played_by = Some(seat);
        events.push(Event::CardPlayed(PlayedCard { seat, card }));
        if !weis.is_empty() {
            let points: ShortList<u32, MAX_WEIS> =
                weis.iter().map(|w| w.points(self.options.small_weis)).collect();
            r.declared[seat.index()] = weis.iter().copied().collect();
            r.declared_points[seat.index()] = points;
            r.refresh_weis_lists();
            events.push(Event::WeisDeclared { seat, points });
        }
        if r.stoeck_holder == Some(seat)
            && let Some(pair) = r.contract.and_then(stoeck_cards)
            && pair.contains(card)
            && (r.hands[seat.index()] & pair).is_empty()
        {
            r.stoeck_second_at = Some(r.played - 1);
        }
        let trick_no = self.round.trick_no;
        if stoeck {
            self.announce_stoeck(seat, false, trick_no, events);
        } else if self.options.auto_stoeck
            && self.round.stoeck_second_at == Some(self.round.played - 1)
            && !self.round.stoeck_announced
        {
            self.announce_stoeck(seat, true, trick_no, events);
        }
        if self.round.trick.is_complete() {
            self.complete_trick(next_seed, events);
        }
    }

    fn complete_trick(&mut self, next_seed: impl FnOnce() -> Seed, events: &mut Events) {
        let Some(contract) = self.round.contract else { return };
        let trick = self.round.trick;
        let Some(winner) = trick.winner(contract) else { return };
        let t = tables(contract, self.options.old_undenufe);
        let trick_no = self.round.trick_no;
        let last = trick_no == 8;
        let mut points: u32 = trick.cards().map(|c| u32::from(t.points[c.index()])).sum();
        if last {
            points += LAST_TRICK_BONUS;
        }
        let team = winner.team();
        if trick_no == 0 {
            if self.options.has_extras() {
                self.resolve_weis(events);
            } else {
                // Nobody can declare (R10): the comparison is decided, with no winner.
                self.round.weis_result = Some((None, 0));
            }
        }
        self.round.card_points[team.index()] += points;
        self.round.tricks_won[team.index()] += 1;
        self.credit(team, points, CreditKind::Stich, trick_no);
        if last && self.round.tricks_won[team.index()] == 9 && self.options.has_extras() {
            self.credit(team, MATCH_BONUS, CreditKind::Stich, trick_no);
        }
        self.round.last_trick = Some(LastTrick { number: trick_no, trick, winner, points });
        events.push(Event::TrickTaken { trick: trick_no, winner, points });
        if last {
            self.finish_round(next_seed, events);
        } else {
            self.round.trick = Trick::new(winner);
            self.round.trick_no += 1;
        }
    }

    /// R6: the best single Weis decides; that team scores all its Weis.
    fn resolve_weis(&mut self, events: &mut Events) {
        let Some(contract) = self.round.contract else { return };
        let small = self.options.small_weis;
        let forehand = self.round.forehand;
        let best = Seat::ALL
            .into_iter()
            .flat_map(|s| {
                self.round.declared[s.index()]
                    .iter()
                    .map(move |w| (WeisKey::new(w, s, forehand, contract, small), s))
            })
            .max_by_key(|&(k, _)| k);
        let Some((_, best_seat)) = best else {
            self.round.weis_result = Some((None, 0));
            return;
        };
        let team = best_seat.team();
        let points: u32 = team
            .seats()
            .iter()
            .flat_map(|s| self.round.declared[s.index()].iter())
            .map(|w| w.points(small))
            .sum();
        self.round.weis_result = Some((Some(team), points));
        self.round.refresh_weis_lists();
        self.credit(team, points, CreditKind::Weis, 0);
        let revealed = team
            .seats()
            .iter()
            .filter(|s| !self.round.declared[s.index()].is_empty())
            .map(|&s| (s, self.round.declared[s.index()]))
            .collect();
        events.push(Event::WeisResolved { team: Some(team), points, revealed });
    }

    fn summary(&self, complete: bool) -> RoundSummary {
        let r = &self.round;
        let m = self.multiplier();
        let mut s = RoundSummary {
            round: r.number,
            dealer: r.dealer,
            forehand: r.forehand,
            contract: r.contract,
            chosen_by: r.chosen_by,
            pushed: r.pushed,
            multiplier: m,
            card_points: r.card_points,
            match_bonus: [0; 2],
            weis: [0; 2],
            stoeck: [0; 2],
            total: [0; 2],
            running_total: self.totals(),
            complete,
            seed: r.seed,
        };
        for t in Team::ALL {
            let i = t.index();
            if r.tricks_won[i] == 9 && self.options.has_extras() {
                s.match_bonus[i] = MATCH_BONUS;
            }
            if let Some((Some(wt), p)) = r.weis_result
                && wt == t
            {
                s.weis[i] = p;
            }
            if r.stoeck_announced && r.stoeck_holder.map(Seat::team) == Some(t) {
                s.stoeck[i] = 20;
            }
            s.total[i] = r.team_credits(t);
        }
        s
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
    }

    fn freeze_crossings(&mut self) {
        for t in Team::ALL {
            self.crossed[t.index()] = self.crossing(t);
        }
    }

    fn finish_round(&mut self, next_seed: impl FnOnce() -> Seed, events: &mut Events) {
        let summary = self.summary(true);
        self.freeze_crossings();
        self.push_summary(summary);
        events.push(Event::RoundScored(Box::new(summary)));
        // The finished round stays `self.round` if the game ends here, so `totals()`
        // (totals before the round + its credits) stays right; `totals_before` moves on
        // only when the next round is dealt.
        let totals = self.totals();
        let result = match (self.options.fixed_rounds, self.options.end) {
            (Some(n), _) if self.history.len() as u32 >= n => Some(GameResult {
                winner: match totals[0].cmp(&totals[1]) {
                    std::cmp::Ordering::Greater => Some(Team::Zero),
                    std::cmp::Ordering::Less => Some(Team::One),
                    std::cmp::Ordering::Equal => None,
                },
                reason: crate::game::EndReason::FixedRounds,
                schneider: false,
                totals,
            }),
            (None, End::Automatic) => {
                let first = match (self.crossed[0], self.crossed[1]) {
                    (Some(a), Some(b)) => Some(if a <= b { Team::Zero } else { Team::One }),
                    (Some(_), None) => Some(Team::Zero),
                    (None, Some(_)) => Some(Team::One),
                    (None, None) => None,
                };
                first.map(|w| self.result_for(w, EndReason::Automatic))
            }
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
        let mut credits = std::mem::take(&mut self.round.credits);
        credits.clear();
        self.round = Round::new(self.round.number + 1, Some(dealer), seed, self.options.first_round, credits);
        self.log.deal(seed, self.round.dealer);
        events.push(Event::RoundDealt {
            round: self.round.number,
            dealer: self.round.dealer,
            forehand: self.round.forehand,
            commitment: self.round.commitment,
        });
    }

    fn result_for(&self, winner: Team, reason: EndReason) -> GameResult {
        let totals = self.totals();
        let loser = totals[winner.other().index()];
        let schneider = self.options.schneider && u64::from(loser) * 2 < u64::from(self.options.target);
        GameResult { winner: Some(winner), reason, schneider, totals }
    }

    /// R10: the claim is right if the claimant's team has reached the target, unless
    /// the other team reached it first within the same trick.
    fn bedanke(&mut self, seat: Seat, events: &mut Events) {
        let mine = seat.team();
        let right = match (self.crossing(mine), self.crossing(mine.other())) {
            (None, _) => false,
            (Some(a), Some(b)) if (a.round, a.trick) == (b.round, b.trick) => a < b,
            (Some(_), _) => true,
        };
        let winner = if right { mine } else { mine.other() };
        // The round in play counts as far as it went; one not yet begun is not shown.
        let begun = self.round.pushed || self.round.contract.is_some();
        if begun {
            let s = self.summary(false);
            self.push_summary(s);
        }
        let res = self.result_for(winner, EndReason::Bedanke { seat, right });
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
