//! Weis (R6): detection, validation of a declaration, points and the comparison;
//! Stöck detection (R7).

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::contract::Contract;
use crate::seat::Seat;
use crate::short_list::ShortList;

/// The shape of a Weis.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum WeisKind {
    /// `len` cards in a row of `suit` in the natural order, lowest `low` (R6).
    Run {
        /// The run's suit.
        suit: Suit,
        /// Lowest rank in the natural order.
        low: Rank,
        /// 3..=9 cards.
        len: u8,
    },
    /// All four cards of one rank.
    Four(Rank),
}

/// A run or a four of a kind. Serialized as its cards.
///
/// ```
/// use jass_engine::{Weis, CardSet};
/// let w = Weis::from_cards("HQ HK HA".parse().unwrap()).unwrap();
/// assert_eq!(w.points(false), 20);
/// assert!(Weis::from_cards("HQ HK SA".parse().unwrap()).is_none());
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Weis {
    /// Index of the lowest card (for a four: of its rank, the hearts card).
    low: u8,
    /// A run's length (3..=9), or [`FOUR`] for a four of a kind. Two bytes instead of a
    /// card set's eight: every view carries up to four lists of them, and a compact
    /// list is what keeps a view cheap to build and to return.
    len: u8,
}

/// [`Weis::len`] of a four of a kind.
const FOUR: u8 = 0;

impl Weis {
    /// The run of `len` cards from the card with index `low` (its suit holds them all).
    const fn run(low: u32, len: u32) -> Self {
        Self { low: low as u8, len: len as u8 }
    }

    /// The four cards of `rank`.
    const fn four(rank: Rank) -> Self {
        Self { low: rank.index() as u8, len: FOUR }
    }

    /// The Weis these cards form, if they form one (shape only; holding and
    /// wholeness are checked by [`validate_declaration`]).
    #[must_use]
    pub fn from_cards(cards: CardSet) -> Option<Self> {
        let n = cards.len();
        if n == 4
            && let Some(first) = cards.first()
            && cards == CardSet::rank(first.rank())
        {
            return Some(Self::four(first.rank()));
        }
        if n < 3 {
            return None;
        }
        let first = cards.first()?;
        let suit = first.suit();
        let bits = cards.suit_bits(suit);
        if bits.count_ones() != n {
            return None; // not all of one suit
        }
        let shifted = bits >> first.rank().index();
        // In a row: the bits from the lowest are all ones.
        if shifted & (shifted + 1) != 0 {
            return None;
        }
        Some(Self::run(first.index() as u32, n))
    }

    /// The Weis's cards.
    #[must_use]
    pub const fn cards(&self) -> CardSet {
        if self.len == FOUR {
            CardSet::rank(Rank::wrapping(self.low as usize))
        } else {
            CardSet::from_bits(((1u64 << self.len) - 1) << self.low)
        }
    }

    /// The Weis's shape.
    #[must_use]
    pub const fn kind(&self) -> WeisKind {
        let low = self.low as usize;
        if self.len == FOUR {
            WeisKind::Four(Rank::wrapping(low))
        } else {
            WeisKind::Run { suit: Suit::from_index(low / 9), low: Rank::wrapping(low), len: self.len }
        }
    }

    /// Points (R6); with `small_weis`, runs longer than 5 score 100 and four 8s,
    /// 7s or 6s score 0 (no Weis).
    #[must_use]
    pub const fn points(&self, small_weis: bool) -> u32 {
        match self.kind() {
            WeisKind::Run { len, .. } => match len {
                3 => 20,
                4 => 50,
                5 => 100,
                _ if small_weis => 100,
                n => 150 + 50 * (n as u32 - 6),
            },
            WeisKind::Four(Rank::Jack) => 200,
            WeisKind::Four(Rank::Nine) => 150,
            WeisKind::Four(Rank::Eight | Rank::Seven | Rank::Six) if small_weis => 0,
            WeisKind::Four(_) => 100,
        }
    }
}

/// Shown as its cards, like its JSON form.
impl fmt::Debug for Weis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Weis").field("cards", &self.cards()).finish()
    }
}

impl Serialize for Weis {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.cards().serialize(s)
    }
}

/// The most Weis one hand of nine cards holds: three runs fill three suits and leave
/// no card for a four; a four and two runs take eight, too many for a third run; two
/// fours leave room for one run.
pub const MAX_WEIS: usize = 3;

/// The Weis of one seat, inline.
pub type WeisList = ShortList<Weis, MAX_WEIS>;

/// The run H6 H7 H8: only the filler of a [`WeisList`]'s unused slots.
impl Default for Weis {
    fn default() -> Self {
        Self::run(0, 3)
    }
}

impl<'de> Deserialize<'de> for Weis {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = CardSet::deserialize(d)?;
        Self::from_cards(cards).ok_or_else(|| {
            serde::de::Error::custom("not a Weis: need a run of 3+ in one suit or a four of a kind")
        })
    }
}

/// Every Weis in `hand`: each maximal run of three or more, and each four of a kind
/// (R6). With `small_weis`, fours that score nothing are left out.
///
/// ```
/// use jass_engine::find_weis;
/// let w = find_weis("H6 H7 H8 H9 HT DJ CJ SJ HJ".parse().unwrap(), false);
/// assert_eq!(w.len(), 2); // the six-run H6..HJ (150) and four jacks (200)
/// ```
#[must_use]
pub fn find_weis(hand: CardSet, small_weis: bool) -> Vec<Weis> {
    let mut out = Vec::new();
    each_weis(hand, small_weis, |w| out.push(w));
    out
}

/// [`find_weis`] for a hand of at most nine cards, without allocating. Nine cards hold
/// at most three Weis ([`MAX_WEIS`]): three runs fill three suits, leaving no card for
/// a four; a four and two runs take eight cards, a third run would need two more; two
/// fours leave room for one run. So the list never overflows.
pub(crate) fn weis_in_hand(hand: CardSet, small_weis: bool) -> WeisList {
    let mut out = WeisList::new();
    each_weis(hand, small_weis, |w| {
        let fits = out.try_push(w);
        debug_assert!(fits.is_ok(), "a hand of nine holds at most MAX_WEIS Weis");
    });
    out
}

/// Calls `found` with every Weis in `hand`, as [`find_weis`] lists them.
fn each_weis(hand: CardSet, small_weis: bool, mut found: impl FnMut(Weis)) {
    let x = hand.bits();
    // Bit i: cards i, i + 1 and i + 2 held, in one suit. Only runs of three or more are
    // visited, so a hand without Weis costs no loop (short runs made the old
    // suit-by-suit walk branch unpredictably).
    let three = x & (x >> 1) & (x >> 2) & RUN_STARTS;
    // The lowest card of each maximal run (runs of one suit are apart by a gap),
    // in index order: suits in order, each suit's runs from the lowest.
    let mut starts = three & !(three << 1);
    while starts != 0 {
        let low = starts.trailing_zeros();
        let len = (x >> low).trailing_ones().min(9 - low % 9);
        found(Weis::run(low, len));
        starts &= starts - 1;
    }
    // Ranks held in all four suits, lowest first.
    let mut fours = Suit::ALL.iter().fold(0x1FF, |acc, &s| acc & hand.suit_bits(s));
    while fours != 0 {
        let w = Weis::four(Rank::wrapping(fours.trailing_zeros() as usize));
        if w.points(small_weis) > 0 {
            found(w);
        }
        fours &= fours - 1;
    }
}

/// The cards that can begin a run of three in their suit (ranks six to queen).
const RUN_STARTS: u64 = 0x7F * (1 | 1 << 9 | 1 << 18 | 1 << 27);

/// Why a declaration was refused (R6); the whole play is refused with it.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum WeisError {
    /// The cards form no Weis.
    #[error("{0} is not a Weis")]
    NotAWeis(CardSet),
    /// A declared card is not in the hand.
    #[error("{0} is not held")]
    NotHeld(CardSet),
    /// A run must be declared whole: the hand holds a longer run containing it.
    #[error("{0} is not the whole run held")]
    NotWhole(CardSet),
    /// The same Weis twice.
    #[error("{0} is declared twice")]
    Duplicate(CardSet),
    /// `small_weis`: a card may count only once.
    #[error("{0} shares a card with another declared Weis (small Weis: each card counts once)")]
    SharedCard(CardSet),
    /// `small_weis`: four 8s, 7s or 6s are no Weis.
    #[error("{0} is no Weis with small Weis")]
    NoWeisInSmall(CardSet),
}

/// Checks a declaration against the hand (R6) and returns the Weis in the order given.
///
/// # Errors
/// The first problem found, naming the offending cards.
pub fn validate_declaration(
    hand: CardSet,
    declared: &[CardSet],
    small_weis: bool,
) -> Result<Vec<Weis>, WeisError> {
    let mut out: Vec<Weis> = Vec::with_capacity(declared.len());
    each_declared(hand, declared, small_weis, |w| out.push(w))?;
    Ok(out)
}

/// [`validate_declaration`] for a hand of at most nine cards, without allocating: it
/// holds at most [`MAX_WEIS`] Weis (see [`weis_in_hand`]) and a valid declaration names each
/// once, so the list never overflows.
pub(crate) fn validate_in_hand(
    hand: CardSet,
    declared: &[CardSet],
    small_weis: bool,
) -> Result<WeisList, WeisError> {
    let mut out = WeisList::new();
    each_declared(hand, declared, small_weis, |w| {
        // Each accepted Weis is a distinct whole Weis of the hand, and a hand of nine
        // holds at most MAX_WEIS of them.
        let fits = out.try_push(w);
        debug_assert!(fits.is_ok(), "accepted declarations are distinct Weis of one hand: at most MAX_WEIS");
    })?;
    Ok(out)
}

/// Checks each declared Weis in order and calls `accept` with it, as
/// [`validate_declaration`] lists them.
fn each_declared(
    hand: CardSet,
    declared: &[CardSet],
    small_weis: bool,
    mut accept: impl FnMut(Weis),
) -> Result<(), WeisError> {
    let mut used = CardSet::EMPTY;
    for (i, &cards) in declared.iter().enumerate() {
        let w = Weis::from_cards(cards).ok_or(WeisError::NotAWeis(cards))?;
        if !hand.contains_all(cards) {
            return Err(WeisError::NotHeld(cards));
        }
        match w.kind() {
            WeisKind::Run { suit, low, len } => {
                let bits = hand.suit_bits(suit);
                let lo = low.index();
                let hi = lo + len as usize; // one above the top
                let below = lo > 0 && bits & (1 << (lo - 1)) != 0;
                let above = hi < 9 && bits & (1 << hi) != 0;
                if below || above {
                    return Err(WeisError::NotWhole(cards));
                }
            }
            WeisKind::Four(_) => {
                if w.points(small_weis) == 0 {
                    return Err(WeisError::NoWeisInSmall(cards));
                }
            }
        }
        // The ones before were all accepted (any other ends the check).
        if declared.get(..i).unwrap_or_default().contains(&cards) {
            return Err(WeisError::Duplicate(cards));
        }
        if small_weis && !(used & cards).is_empty() {
            return Err(WeisError::SharedCard(cards));
        }
        used = used | cards;
        accept(w);
    }
    Ok(())
}

/// A Weis with what R6.2–6.3 needs to rank it; `Ord` is the R6 comparison, so the
/// best Weis at the table is simply the maximum.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct WeisKey {
    points: u32,
    is_run: bool,
    len: u8,
    /// Run: top card (undenufe: 8 − lowest card); four: rank in the contract's order.
    height: u8,
    is_trump_run: bool,
    /// 3 − places after the forehand: earlier declarers rank higher.
    earliness: u8,
}

impl WeisKey {
    /// The key of `weis`, declared by `seat`, in a round with `forehand` and `contract`.
    #[must_use]
    pub fn new(weis: &Weis, seat: Seat, forehand: Seat, contract: Contract, small_weis: bool) -> Self {
        let undenufe = contract == Contract::Undenufe;
        let (is_run, len, height, is_trump_run) = match weis.kind() {
            WeisKind::Run { suit, low, len } => {
                let top = low.index() as u8 + len - 1;
                let h = if undenufe { 8 - low.index() as u8 } else { top };
                (true, len, h, contract.trump() == Some(suit))
            }
            WeisKind::Four(r) => {
                let h = if undenufe { 8 - r.index() as u8 } else { r.index() as u8 };
                (false, 4, h, false)
            }
        };
        Self {
            points: weis.points(small_weis),
            is_run,
            len,
            height,
            is_trump_run,
            earliness: 3 - seat.distance_from(forehand) as u8,
        }
    }
}

impl Ord for WeisKey {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.points, self.is_run, self.len, self.height, self.is_trump_run, self.earliness).cmp(&(
            o.points,
            o.is_run,
            o.len,
            o.height,
            o.is_trump_run,
            o.earliness,
        ))
    }
}

impl PartialOrd for WeisKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Whether `hand` holds Stöck, the trump K and Q (R7); never in Obenabe or Undenufe.
#[must_use]
pub fn has_stoeck(hand: CardSet, contract: Contract) -> bool {
    stoeck_cards(contract).is_some_and(|s| hand.contains_all(s))
}

/// The trump K and Q of `contract`, if it has a trump.
#[must_use]
pub fn stoeck_cards(contract: Contract) -> Option<CardSet> {
    let t = contract.trump()?;
    Some(CardSet::single(Card::new(t, Rank::King)).with(Card::new(t, Rank::Queen)))
}

/// One seat's Weis declaration (R6): points are public at once; the cards only to the
/// declarer, and to everyone once its team's Weis won the comparison.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeisView {
    /// Who declared.
    pub seat: Seat,
    /// Points of each declared Weis.
    pub points: ShortList<u32, MAX_WEIS>,
    /// The Weis's cards, when this viewer may see them.
    pub cards: Option<WeisList>,
}

/// No Weis of seat 0: only the filler of a view's unused slots.
impl Default for WeisView {
    fn default() -> Self {
        Self { seat: Seat::ALL[0], points: ShortList::new(), cards: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The detection as first written, suit by suit and run by run: the reference
    /// the mask version must list exactly.
    fn reference(hand: CardSet, small_weis: bool) -> Vec<Weis> {
        let mut out = Vec::new();
        for suit in Suit::ALL {
            let mut bits = hand.suit_bits(suit);
            while bits != 0 {
                let low = bits.trailing_zeros();
                let len = (bits >> low).trailing_ones();
                let run = ((1u64 << len) - 1) << low;
                if len >= 3 {
                    out.push(Weis::run(low + 9 * suit.index() as u32, len));
                }
                bits &= !(run as u16);
            }
        }
        for rank in Rank::ALL {
            let w = Weis::four(rank);
            if hand.contains_all(w.cards()) && w.points(small_weis) > 0 {
                out.push(w);
            }
        }
        out
    }

    #[test]
    fn find_weis_matches_the_reference_on_many_hands() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Dense sets (many long runs, runs up to the ace) and sparse ones.
            let hand = CardSet::from_bits(if i % 2 == 0 { x } else { x & (x >> 3) });
            for small in [false, true] {
                assert_eq!(find_weis(hand, small), reference(hand, small), "{hand:?}");
            }
        }
        assert_eq!(find_weis(CardSet::DECK, false).len(), 4 + 9);
    }

    #[test]
    fn nine_cards_hold_at_most_max_weis() {
        // The densest hands: two fours and a run, a four and two runs, three runs.
        for hand in ["H6 H7 H8 D7 D8 C7 C8 S7 S8", "H6 H7 H8 D8 D9 DT C8 S8 SA", "H6 H7 H8 D6 D7 D8 C6 C7 C8"]
        {
            assert_eq!(find_weis(hand.parse().unwrap(), false).len(), MAX_WEIS, "{hand}");
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..100_000 {
            let mut hand = CardSet::EMPTY;
            while hand.len() < 9 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                hand = hand.with(Card::from_index((x % 36) as u8).unwrap());
            }
            assert!(find_weis(hand, false).len() <= MAX_WEIS, "{hand:?}");
        }
    }
}
