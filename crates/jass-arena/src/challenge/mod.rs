//! `challenge`: a re-implementation of the best open rule-based Schieber bot, the
//! "challenge player" of pyschieber (Murthy10/pyschieber on GitHub,
//! `pyschieber/player/challenge_player/`: its `JassStrategy`, `CardCounter` with its
//! flags, and the trump-suit, Obenabe and Undenufe modes). The published work
//! measured JassTheRipper against it (+27 points a round; it is itself about +23
//! above random card play), so it is the reference that the ladder's "+30 against
//! the rule-based player" (docs/bots.md, "The ladder") was calibrated on; our own [`Rules`](crate::Rules) is
//! stronger. Written anew in our own structure from reading the original; only its
//! card play is re-implemented (the arena's common chooser picks the contract).
//!
//! What it does, as the original does it:
//! - **Memory** ([`counter`]): every card played, the cards of completed tricks
//!   ("dead"), and per seat: suits it failed to follow and the suits it discarded
//!   from, cards it is taken not to hold, whether it has led a trick. Its "likelihood"
//!   that a seat holds a card is 0, or 1 over the seats that might (3 less those that
//!   failed to follow the suit).
//! - **Leading, trump contract**: the declarer and the opponents draw trumps with
//!   their highest while an opponent may hold one, and once no opponent can, lead a
//!   side-suit boss; the declarer's partner, until the declarer has led a trick,
//!   leads its highest trump that is not the jack. Otherwise it passes the lead (the
//!   weakest card of a suit whose "current bock" the partner surely holds, or of the
//!   partner's strongest suit) or leads a "value" card.
//! - **Leading, Obenabe/Undenufe**: a boss if it holds one, else as above.
//! - **Following**: the strongest card that wins the trick and that the next
//!   opponent cannot beat (the 10, or Obenabe's 8, first); otherwise follow low,
//!   giving the partner the 10 (8) when it wins and keeps the trick, or discard the
//!   weakest card of the suit furthest from its boss.
//!
//! Quirks kept, because they are the original's play:
//! - Its `want_stich` asks whether the opponents hold cards of its own hand, which
//!   is never so: it always wants the trick.
//! - Its "value" card weighs cards by the same impossible chance, so it is the first
//!   card in suit order; its "current bock" of a suit is the card of lowest score
//!   among the suit's unplayed cards and the cards on the table (the lowest, not the
//!   boss, except in Undenufe).
//! - Only each seat's first-trick card counts as played in its likelihoods; the
//!   trump jack's 1/3 never applies (it compares a suit with a name); trumping in
//!   counts as failing to follow and discarding trumps.
//! - Where it returns no card (the declarer's partner leading with nothing to draw
//!   trumps or cash; the declarer third to a trick after it has led one, without a
//!   winning card; a discard from a suit it holds none of) it plays a uniformly
//!   random legal card, from the player's seed. It always picks among the legal
//!   cards, so the original's retry on an illegal card never arises; a card that
//!   were illegal would also go random.
//! - Its hand keeps the dealing order, which is random, and that order breaks ties
//!   (which boss, which side-suit card): drawn here from the seed, once per round.
//!
//! Differences that could not be avoided: the original's trick winner and legality
//! are pyschieber's (the same rules); a "does not hold" flag for a suit with no card
//! left, which the original stores as `None` and would fail on when compared, is
//! skipped; its role (declarer, partner, opponent) is read from the view's
//! `chosen_by`, which is what its position in the first trick encodes.

mod counter;
mod play;
mod rank;

use jass_engine::{Card, Seat, SeatView};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::player::Player;
use counter::Counter;
use play::{Role, Turn};

/// The challenge player of one seat.
#[derive(Clone, Debug)]
pub struct Challenge {
    seat: Seat,
    rng: Xoshiro256PlusPlus,
    round: Option<u32>,
    counter: Option<Counter>,
    /// Each card's place in the hand's (random) dealing order.
    order: [u8; 36],
}

impl Challenge {
    /// A player for `seat`; its random choices (hand order, the random cards) come
    /// from `seed`.
    #[must_use]
    pub fn new(seat: Seat, seed: u64) -> Self {
        Self {
            seat,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            round: None,
            counter: None,
            order: [0; 36],
        }
    }

    /// Brings the counter up to the view: a new round starts afresh, then the cards
    /// played since the last turn are recorded in order (the view shows the last
    /// trick and the one on the table, which covers them).
    fn observe(&mut self, view: &SeatView) -> Option<()> {
        let contract = view.contract?;
        if self.round != Some(view.round) || self.counter.is_none() {
            self.round = Some(view.round);
            self.counter = Some(Counter::new(self.seat, contract, view.pushed));
            let mut places: Vec<u8> = (0..36).collect();
            for i in (1..places.len()).rev() {
                places.swap(i, self.rng.random_range(0..=i));
            }
            for (o, p) in self.order.iter_mut().zip(places) {
                *o = p;
            }
        }
        let k = self.counter.as_mut()?;
        k.hand = view.hand;
        let now = 4 * usize::from(view.trick.number);
        if k.count < now
            && let Some(last) =
                view.last_trick.as_ref().filter(|t| usize::from(t.trick) + 1 == view.trick.number.into())
        {
            let start = k.count + 4 - now;
            for p in last.cards.iter().skip(start) {
                k.record(p.seat, p.card);
            }
        }
        if k.count >= now {
            for p in view.trick.cards.iter().skip(k.count - now) {
                k.record(p.seat, p.card);
            }
        }
        Some(())
    }
}

impl Player for Challenge {
    fn card(&mut self, view: &SeatView) -> Option<Card> {
        let legal = view.allowed.cards;
        if legal.is_empty() {
            return None;
        }
        let seat = self.seat;
        let chosen = view.chosen_by;
        let seen = self.observe(view);
        let order = self.order;
        let choice = seen.and(self.counter.as_ref()).and_then(|k| {
            let mut cards: Vec<Card> = legal.iter().collect();
            cards.sort_by_key(|c| order.get(c.index()).copied());
            let role = match chosen {
                Some(s) if s == seat => Role::Trumpf,
                Some(s) if s == seat.partner() => Role::Partner,
                _ => Role::Off,
            };
            let table = view.trick.cards.iter().map(|p| (p.seat, p.card)).collect();
            Turn { k, legal: cards, table, role }.choose()
        });
        // The original's fallback: a random legal card where it has none.
        match choice.filter(|&c| legal.contains(c)) {
            Some(c) => Some(c),
            None => legal.nth(self.rng.random_range(0..legal.len())),
        }
    }
}
