//! One round (a deal) from dealing to the ninth trick: dealer and forehand (R2), the
//! contract (R3), the trick flow (R5), Weis and Stöck as they are declared and compared
//! (R6, R7), and the round's credits (R8).
//!
//! A round knows nothing of the game around it: the [`Game`](crate::Game) checks an
//! action first and then hands it to its round, so everything here may assume the
//! action is legal. What is left to the game is what spans rounds: the totals, the
//! end of the game and the next deal.

use serde::{Deserialize, Serialize};

use crate::action::{Event, Events};
use crate::by::{BySeat, ByTeam};
use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::contract::{Contract, tables};
use crate::deal::{Commitment, Seed, deal};
use crate::options::{FirstRound, Options};
use crate::score::{
    CountPos, CreditKind, Credits, LAST_TRICK_BONUS, MATCH_BONUS, RoundSummary, STOECK_POINTS,
};
use crate::seat::{Seat, Team};
use crate::short_list::ShortList;
use crate::trick::{PlayedCards, Trick};
use crate::weis::{MAX_WEIS, Weis, WeisKey, WeisList, has_stoeck, stoeck_cards};

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

/// A completed trick as a round remembers it for later: who led and the cards.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct PlayedTrick {
    leader: Seat,
    cards: [Card; 4],
}

impl PlayedTrick {
    fn of(trick: &Trick) -> Self {
        let mut cards = [Card::new(crate::card::Suit::Hearts, crate::card::Rank::Six); 4];
        for (slot, c) in cards.iter_mut().zip(trick.cards()) {
            *slot = c;
        }
        Self { leader: trick.leader(), cards }
    }

    /// The trick as views carry it: its winner and points (with the last trick's 5
    /// for number 8) under `contract` (R4, R5).
    pub(crate) fn completed(&self, number: u8, contract: Contract, old_undenufe: bool) -> CompletedTrick {
        let trick = Trick::from_cards(self.leader, &self.cards);
        let t = tables(contract, old_undenufe);
        let mut points: u32 = trick.cards().map(|c| u32::from(t.points_of(c))).sum();
        if number == 8 {
            points += LAST_TRICK_BONUS;
        }
        let winner = trick.winner(contract);
        debug_assert!(winner.is_some(), "a remembered trick is complete");
        CompletedTrick {
            trick: number,
            cards: trick.played_cards(),
            winner: winner.unwrap_or(self.leader),
            points,
        }
    }
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

/// One deal: from dealing to the ninth trick.
#[derive(Clone, Eq, PartialEq, Debug)]
pub(crate) struct Round {
    pub(crate) number: u32,
    pub(crate) dealer: Seat,
    pub(crate) forehand: Seat,
    pub(crate) seed: Seed,
    pub(crate) commitment: Commitment,
    pub(crate) dealt: BySeat<CardSet>,
    pub(crate) hands: BySeat<CardSet>,
    pub(crate) contract: Option<Contract>,
    pub(crate) chosen_by: Option<Seat>,
    pub(crate) pushed: bool,
    pub(crate) pushed_back: bool,
    pub(crate) trick: Trick,
    pub(crate) trick_no: u8,
    pub(crate) last_trick: Option<LastTrick>,
    /// Every trick completed so far this round, for the round's summary view: five
    /// bytes a trick (its leader and cards); winner and points follow from the rules.
    pub(crate) tricks: arrayvec::ArrayVec<PlayedTrick, 9>,
    /// Cards played so far this round (0..=36).
    pub(crate) played: u8,
    pub(crate) last_played_by: Option<Seat>,
    pub(crate) card_points: ByTeam<u32>,
    pub(crate) tricks_won: ByTeam<u8>,
    pub(crate) declared: BySeat<WeisList>,
    /// The points of each declared Weis (public at once, R6).
    pub(crate) declared_points: BySeat<ShortList<u32, MAX_WEIS>>,
    /// After trick 1: the team whose Weis scored, with its points.
    pub(crate) weis_result: Option<(Option<Team>, u32)>,
    pub(crate) stoeck_holder: Option<Seat>,
    pub(crate) stoeck_announced: bool,
    /// Index (in `played`) of the holder's second Stöck card, once played.
    pub(crate) stoeck_second_at: Option<u8>,
    /// What the round credited, in counting order (R10).
    pub(crate) credits: Credits,
}

/// What a card did to its round, for the game to follow up on.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct CardOutcome {
    /// A Weis was declared or compared: who sees which Weis changed (R6).
    pub(crate) weis_changed: bool,
    /// The ninth trick was taken.
    pub(crate) round_over: bool,
}

impl Round {
    /// Deals round `number` from `seed` (R2). `dealer_choice` is `None` for the first
    /// round, where the deal draws the dealer and `first_round` says who leads (unless
    /// the table names the first dealer: then it is dealt like any later round).
    /// `credits` is the (emptied) list of the round before: its allocation is reused.
    pub(crate) fn new(
        number: u32,
        dealer_choice: Option<Seat>,
        seed: Seed,
        first_round: FirstRound,
        credits: Credits,
    ) -> Self {
        let d = deal(seed, dealer_choice);
        let seven = Card::new(Suit::Hearts, Rank::Seven);
        let forehand = match (dealer_choice, first_round) {
            // R2 `seven_of_hearts`: whoever holds H7 leads the first round. Every deal
            // gives H7 to someone; dealer + 1 only stands in for the impossible.
            (None, FirstRound::SevenOfHearts) => {
                let holder =
                    Seat::ALL.into_iter().zip(d.hands).find_map(|(s, h)| h.contains(seven).then_some(s));
                debug_assert!(holder.is_some(), "a full deal places H7 in some hand");
                holder.unwrap_or(d.dealer.next())
            }
            _ => d.dealer.next(),
        };
        Self {
            number,
            dealer: d.dealer,
            forehand,
            seed,
            commitment: seed.commitment(),
            dealt: BySeat(d.hands),
            hands: BySeat(d.hands),
            contract: None,
            chosen_by: None,
            pushed: false,
            pushed_back: false,
            trick: Trick::new(forehand),
            trick_no: 0,
            last_trick: None,
            tricks: arrayvec::ArrayVec::new(),
            played: 0,
            last_played_by: None,
            card_points: ByTeam::default(),
            tricks_won: ByTeam::default(),
            declared: Default::default(),
            declared_points: Default::default(),
            weis_result: None,
            stoeck_holder: None,
            stoeck_announced: false,
            stoeck_second_at: None,
            credits,
        }
    }

    /// Who chooses the contract now (R3): the forehand, or its partner after a push
    /// (and the forehand again after a push back).
    pub(crate) const fn chooser(&self) -> Seat {
        if self.pushed && !self.pushed_back { self.forehand.partner() } else { self.forehand }
    }

    /// Whether `seat` has played no card yet this round: its hand is still the dealt
    /// one (Weis go with the first card, R6).
    pub(crate) fn before_first_card(&self, seat: Seat) -> bool {
        self.hands[seat] == self.dealt[seat]
    }

    /// Cards left in each hand.
    pub(crate) fn hand_lens(&self) -> [u8; 4] {
        let lens = crate::fast::hand_lens(self.trick_no, self.trick.len(), self.trick.leader());
        debug_assert_eq!(lens, self.hands.map(|h| h.len() as u8));
        lens
    }

    /// The contract's multiplier (R8; 1 before one is chosen).
    pub(crate) fn multiplier(&self, options: &Options) -> u32 {
        self.contract.map_or(1, |k| options.multipliers.of(k))
    }

    /// What `team` has been credited this round (multiplied).
    pub(crate) const fn team_credits(&self, team: Team) -> u32 {
        self.credits.of(team)
    }

    /// Credits `raw` points of `kind`, multiplied, to `team` at trick `trick` (R8, R10).
    fn credit(&mut self, options: &Options, team: Team, raw: u32, kind: CreditKind, trick: u8) {
        if raw == 0 {
            return;
        }
        let pos = CountPos { round: self.number, trick, slot: kind.slot(options.counting_order) };
        let points = raw * self.multiplier(options);
        self.credits.add(team, points, pos);
    }

    /// A push (R3); the second one is the push back.
    pub(crate) fn schiebe(&mut self, seat: Seat, events: &mut Events) {
        if self.pushed {
            self.pushed_back = true;
        } else {
            self.pushed = true;
        }
        events.push(Event::Pushed { seat });
    }

    /// The contract is chosen (R3); with it, who holds Stöck is known (R7).
    pub(crate) fn choose(&mut self, options: &Options, seat: Seat, contract: Contract, events: &mut Events) {
        self.contract = Some(contract);
        self.chosen_by = Some(seat);
        if options.has_extras() {
            self.stoeck_holder = Seat::ALL.into_iter().find(|&s| has_stoeck(self.dealt[s], contract));
        }
        events.push(Event::ContractChosen { seat, contract });
    }

    /// Stöck announced without a card (R7): it counts in the trick of the holder's last
    /// card if that card was the last one played, else in the trick in play.
    pub(crate) fn stoeck(&mut self, options: &Options, seat: Seat, events: &mut Events) {
        let trick = match self.last_played_by {
            Some(s) if s == seat => (self.played - 1) / 4,
            _ => self.trick_no,
        };
        self.announce_stoeck(options, seat, false, trick, events);
    }

    fn announce_stoeck(&mut self, options: &Options, seat: Seat, auto: bool, trick: u8, events: &mut Events) {
        self.stoeck_announced = true;
        self.credit(options, seat.team(), STOECK_POINTS, CreditKind::Stoeck, trick);
        events.push(Event::StoeckAnnounced { seat, auto });
    }

    /// `seat` plays `card`, declaring `weis` and announcing Stöck if `stoeck` (R5–R7);
    /// a fourth card completes the trick.
    #[inline]
    pub(crate) fn play(
        &mut self,
        options: &Options,
        seat: Seat,
        card: Card,
        weis: &[Weis],
        stoeck: bool,
        events: &mut Events,
    ) -> CardOutcome {
        self.hands[seat] = self.hands[seat].without(card);
        self.trick.push(card);
        self.played += 1;
        self.last_played_by = Some(seat);
        events.push(Event::CardPlayed(crate::trick::PlayedCard { seat, card }));
        let mut weis_changed = false;
        if !weis.is_empty() {
            let points: ShortList<u32, MAX_WEIS> =
                weis.iter().map(|w| w.points(options.small_weis)).collect();
            self.declared[seat] = weis.iter().copied().collect();
            self.declared_points[seat] = points;
            weis_changed = true;
            events.push(Event::WeisDeclared { seat, points });
        }
        if self.stoeck_holder == Some(seat)
            && let Some(pair) = self.contract.and_then(stoeck_cards)
            && pair.contains(card)
            && (self.hands[seat] & pair).is_empty()
        {
            self.stoeck_second_at = Some(self.played - 1);
        }
        let trick_no = self.trick_no;
        if stoeck {
            self.announce_stoeck(options, seat, false, trick_no, events);
        } else if options.auto_stoeck
            && self.stoeck_second_at == Some(self.played - 1)
            && !self.stoeck_announced
        {
            self.announce_stoeck(options, seat, true, trick_no, events);
        }
        let mut round_over = false;
        if self.trick.is_complete() {
            weis_changed |= trick_no == 0;
            round_over = self.complete_trick(options, events);
        }
        CardOutcome { weis_changed, round_over }
    }

    /// The fourth card is down: the trick's winner takes its points and leads the next
    /// (R5); after the first, the Weis are compared (R6). Returns whether the round is
    /// over.
    fn complete_trick(&mut self, options: &Options, events: &mut Events) -> bool {
        let contract = self.contract;
        let winner = contract.and_then(|k| self.trick.winner(k));
        debug_assert!(winner.is_some(), "a trick is played only under a contract and is complete here");
        let (Some(contract), Some(winner)) = (contract, winner) else { return false };
        let trick = self.trick;
        let t = tables(contract, options.old_undenufe);
        let trick_no = self.trick_no;
        let last = trick_no == 8;
        let mut points: u32 = trick.cards().map(|c| u32::from(t.points_of(c))).sum();
        if last {
            points += LAST_TRICK_BONUS;
        }
        let team = winner.team();
        if trick_no == 0 {
            if options.has_extras() {
                self.resolve_weis(options, contract, events);
            } else {
                // Nobody can declare (R10): the comparison is decided, with no winner.
                self.weis_result = Some((None, 0));
            }
        }
        self.card_points[team] += points;
        self.tricks_won[team] += 1;
        self.credit(options, team, points, CreditKind::Stich, trick_no);
        if last && self.tricks_won[team] == 9 && options.has_extras() {
            self.credit(options, team, MATCH_BONUS, CreditKind::Stich, trick_no);
        }
        self.last_trick = Some(LastTrick { number: trick_no, trick, winner, points });
        let fits = self.tricks.try_push(PlayedTrick::of(&trick));
        debug_assert!(fits.is_ok(), "a round has nine tricks");
        events.push(Event::TrickTaken { trick: trick_no, winner, points });
        if !last {
            self.trick = Trick::new(winner);
            self.trick_no += 1;
        }
        last
    }

    /// R6: the best single Weis decides; that team scores all its Weis.
    fn resolve_weis(&mut self, options: &Options, contract: Contract, events: &mut Events) {
        let small = options.small_weis;
        let forehand = self.forehand;
        let best = Seat::ALL
            .into_iter()
            .flat_map(|s| {
                self.declared[s].iter().map(move |w| (WeisKey::new(w, s, forehand, contract, small), s))
            })
            .max_by_key(|&(k, _)| k);
        let Some((_, best_seat)) = best else {
            self.weis_result = Some((None, 0));
            return;
        };
        let team = best_seat.team();
        let points: u32 =
            team.seats().iter().flat_map(|&s| self.declared[s].iter()).map(|w| w.points(small)).sum();
        self.weis_result = Some((Some(team), points));
        self.credit(options, team, points, CreditKind::Weis, 0);
        let revealed = team
            .seats()
            .iter()
            .filter(|&&s| !self.declared[s].is_empty())
            .map(|&s| (s, self.declared[s]))
            .collect();
        events.push(Event::WeisResolved { team: Some(team), points, revealed });
    }

    /// The round's score so far (R8), with the game totals `running_total` after it;
    /// `complete` is false for a round cut short by bedanke.
    pub(crate) fn summary(
        &self,
        options: &Options,
        running_total: ByTeam<u32>,
        complete: bool,
    ) -> RoundSummary {
        let mut s = RoundSummary {
            round: self.number,
            dealer: self.dealer,
            forehand: self.forehand,
            contract: self.contract,
            chosen_by: self.chosen_by,
            pushed: self.pushed,
            multiplier: self.multiplier(options),
            card_points: self.card_points,
            match_bonus: ByTeam::default(),
            weis: ByTeam::default(),
            stoeck: ByTeam::default(),
            total: ByTeam::default(),
            running_total,
            complete,
            seed: self.seed,
        };
        for t in Team::ALL {
            if self.tricks_won[t] == 9 && options.has_extras() {
                s.match_bonus[t] = MATCH_BONUS;
            }
            if let Some((Some(wt), p)) = self.weis_result
                && wt == t
            {
                s.weis[t] = p;
            }
            if self.stoeck_announced && self.stoeck_holder.map(Seat::team) == Some(t) {
                s.stoeck[t] = STOECK_POINTS;
            }
            s.total[t] = self.team_credits(t);
        }
        s
    }

    /// The round's credits, emptied, for the next round to reuse.
    pub(crate) fn take_credits(&mut self) -> Credits {
        let mut credits = std::mem::take(&mut self.credits);
        credits.clear();
        credits
    }
}
