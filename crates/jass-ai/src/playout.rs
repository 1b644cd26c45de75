//! Playouts in which every seat plays as a sensible player would, rather than at
//! random: a random playout values a card by what random partners and opponents do
//! after it, which no table has.
//!
//! The policy (the common sense of the card table, not a search):
//! - a lead is random: which suit to open is what the playouts are there to value
//!   (cashing sure tricks first did worse, docs/bots.md);
//! - when the partner's card holds the trick, the last seat gives its most points
//!   (a trump only if nothing else), an earlier seat its fewest;
//! - otherwise the cheapest card that takes the trick, if any, else the card of
//!   fewest points.
//!
//! A share of the cards (`EPSILON`) is random, so the playouts of one position
//! differ.

use jass_engine::{
    Card, CardSet, Contract, MATCH_BONUS, RoundInPlay, Suit, Tables, Trick, legal_cards, tables,
};
use rand::Rng;

/// The share of cards played at random, in 256ths.
const EPSILON: u32 = 32;

/// Plays `pos` to the end of the round, each seat by the policy above; the card
/// points per team with the last trick's 5 and the match bonus (as
/// [`RoundInPlay::play_random`]).
///
/// With `open`, a seat also looks at the later seats' hands of the sampled deal
/// ([`open_sensible`]).
pub(crate) fn play_informed<R: Rng + ?Sized>(mut pos: RoundInPlay, open: bool, rng: &mut R) -> [u32; 2] {
    let t = tables(pos.contract, pos.old_undenufe);
    let (mut word, mut bits) = (0u64, 0u32);
    while pos.trick_no < 9 {
        let seat = pos.trick.next_seat();
        let legal = legal_cards(*seat.of(&pos.hands), &pos.trick, pos.contract);
        let n = legal.len();
        if n == 0 {
            break;
        }
        // Two random bytes a card: which card if random, and whether random.
        if bits < 16 {
            word = rng.next_u64();
            bits = 64;
        }
        let (r, e) = ((word & 0xFF) as u32, (word >> 8 & 0xFF) as u32);
        (word, bits) = (word >> 16, bits - 16);
        let card = if n == 1 {
            legal.first()
        } else if e < EPSILON {
            legal.nth(r % n)
        } else {
            let pick = if open {
                open_sensible(&pos, legal, t)
            } else {
                sensible(&pos.trick, pos.contract, legal, t)
            };
            pick.or_else(|| legal.nth(r % n))
        };
        let Some(card) = card else { break };
        pos.play(card);
    }
    let mut out = pos.points;
    for (p, lost) in out.iter_mut().zip(pos.lost_a_trick) {
        if !lost && pos.match_bonus {
            *p += MATCH_BONUS;
        }
    }
    out
}

/// The policy's card for the seat to move in `trick` among `legal` (at least two);
/// `None` for a lead, which is random. It looks at no hand but the mover's (its legal
/// cards).
pub(crate) fn sensible(trick: &Trick, contract: Contract, legal: CardSet, t: &Tables) -> Option<Card> {
    respond(trick, contract, legal, t, None)
}

/// [`sensible`] for a seat that sees the later seats' hands (a playout's deal is
/// open): onto the partner's trick it gives its most points also before the last
/// seat when no later opponent can take the trick; to take a trick it plays the
/// cheapest card that no later opponent can beat, and with none its cheapest card.
fn open_sensible(pos: &RoundInPlay, legal: CardSet, t: &Tables) -> Option<Card> {
    let trick = &pos.trick;
    let led = trick.led_suit()?;
    let trump = pos.contract.trump();
    let me = trick.next_seat();
    // The highest card any later opponent may play on this trick.
    let mut threat = 0u8;
    let mut seat = me.next();
    for _ in trick.len() + 1..4 {
        if seat.team() != me.team() {
            let theirs = legal_cards(*seat.of(&pos.hands), trick, pos.contract);
            threat = threat.max(theirs.iter().map(|c| power(c, led, trump, t)).max().unwrap_or(0));
        }
        seat = seat.next();
    }
    respond(trick, pos.contract, legal, t, Some(threat))
}

/// The policy after the lead. `threat`: the highest power a later opponent can play,
/// where the mover sees it; unseen, only the last seat knows its partner's card holds,
/// and a card that takes the trick is taken to keep it.
pub(crate) fn respond(
    trick: &Trick,
    contract: Contract,
    legal: CardSet,
    t: &Tables,
    threat: Option<u8>,
) -> Option<Card> {
    let trump = contract.trump();
    let is_trump = |c: Card| Some(c.suit()) == trump;
    let order = |c: Card| t.order_of(c);
    let points = |c: Card| t.points_of(c);
    // Which suit to open is what the playouts are there to value: a random lead.
    let led = trick.led_suit()?;
    let power = |c: Card| power(c, led, trump, t);
    let (mut holder, mut best) = (trick.leader(), 0u8);
    for p in trick.played() {
        if power(p.card) > best {
            (holder, best) = (p.seat, power(p.card));
        }
    }
    let cheapest = || legal.iter().min_by_key(|&c| (points(c), is_trump(c), order(c)));
    if holder.team() == trick.next_seat().team() {
        let holds = trick.len() == 3 || threat.is_some_and(|q| q < best);
        if holds { legal.iter().max_by_key(|&c| (!is_trump(c), points(c), order(c))) } else { cheapest() }
    } else {
        let above = threat.unwrap_or(0).max(best);
        legal.iter().filter(|&c| power(c) > above).min_by_key(|&c| (power(c), points(c))).or_else(cheapest)
    }
}

/// R5's trick winner as a number: a trump above the suit led above the rest.
pub(crate) fn power(c: Card, led: Suit, trump: Option<Suit>, t: &Tables) -> u8 {
    if Some(c.suit()) == trump {
        32 + t.order_of(c)
    } else if c.suit() == led {
        16 + t.order_of(c)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use jass_engine::{CardSet, Contract, RoundInPlay, Seat, Trick, random_hands};
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::{open_sensible, play_informed, sensible};

    fn round(hands: [&str; 4], contract: Contract, leader: usize, down: &[&str]) -> RoundInPlay {
        let cards: Vec<_> = down.iter().filter_map(|c| c.parse().ok()).collect();
        RoundInPlay {
            hands: hands.map(|h| h.parse::<CardSet>().unwrap_or(CardSet::EMPTY)),
            trick: Trick::from_cards(Seat::ALL[leader], &cards),
            trick_no: 7,
            contract,
            old_undenufe: false,
            points: [0, 0],
            lost_a_trick: [true, true],
            match_bonus: true,
        }
    }

    fn pick(pos: &RoundInPlay) -> Option<String> {
        let seat = pos.trick.next_seat();
        let legal = jass_engine::legal_cards(*seat.of(&pos.hands), &pos.trick, pos.contract);
        sensible(&pos.trick, pos.contract, legal, jass_engine::tables(pos.contract, false))
            .map(|c| c.to_string())
    }

    /// The last seat gives its most points to the partner's trick (R4: the ten), and
    /// keeps its trumps.
    #[test]
    fn last_seat_gives_points_to_the_partner() {
        let pos = round(["H6 H7", "SA C6", "S6 C7", "ST S8 HJ"], Contract::Hearts, 0, &["S7", "SK", "S9"]);
        // Seat 1's king holds the trick for seats 1 and 3.
        assert_eq!(pick(&pos).as_deref(), Some("ST"));
    }

    /// Against the opponents' card: the cheapest card that takes the trick, and
    /// without one the cheapest card.
    #[test]
    fn takes_cheaply_or_gives_little() {
        let pos = round(["H6", "SA SQ S6", "C6", "C7"], Contract::Obenabe, 0, &["SJ"]);
        assert_eq!(pick(&pos).as_deref(), Some("SQ"));
        let pos = round(["H6", "S6 S7 ST", "C6", "C7"], Contract::Obenabe, 0, &["SA"]);
        assert_eq!(pick(&pos).as_deref(), Some("S6"));
    }

    /// Seeing the later hands: points go onto the partner's ace already at the third
    /// seat when the last opponent cannot beat it, and a trick is taken with a card the
    /// later opponent cannot beat (the ace, not the queen under its king).
    #[test]
    fn open_hands_give_and_take_safely() {
        let t = jass_engine::tables(Contract::Obenabe, false);
        let pos = round(["H6", "C6", "ST S8", "H7 H8"], Contract::Obenabe, 0, &["SA", "S6"]);
        let legal = jass_engine::legal_cards(pos.hands[2], &pos.trick, pos.contract);
        assert_eq!(open_sensible(&pos, legal, t).map(|c| c.to_string()).as_deref(), Some("ST"));
        assert_eq!(pick(&pos).as_deref(), Some("S8"));
        let pos = round(["H6", "SQ SA", "SK C6", "C7"], Contract::Obenabe, 0, &["S7"]);
        let legal = jass_engine::legal_cards(pos.hands[1], &pos.trick, pos.contract);
        assert_eq!(open_sensible(&pos, legal, t).map(|c| c.to_string()).as_deref(), Some("SA"));
        assert_eq!(pick(&pos).as_deref(), Some("SQ"));
    }

    /// A lead is left to chance, even with a sure trick in hand.
    #[test]
    fn leads_are_random() {
        let pos = round(["SA S6", "SQ C6", "S7 C7", "S8 C8"], Contract::Obenabe, 0, &[]);
        assert_eq!(pick(&pos), None);
    }

    /// Whole rounds: every card is dealt out, and the points are R4's 157 (257 with
    /// a match).
    #[test]
    fn rounds_score_every_point() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for i in 0..500 {
            let pos = RoundInPlay {
                hands: random_hands(&mut rng),
                trick: Trick::new(Seat::ALL[i % 4]),
                trick_no: 0,
                contract: Contract::ALL[i % 6],
                old_undenufe: false,
                points: [0, 0],
                lost_a_trick: [false, false],
                match_bonus: true,
            };
            let p = play_informed(pos, i % 2 == 0, &mut rng);
            assert!(p[0] + p[1] == 157 || p[0] + p[1] == 257, "{p:?}");
        }
    }
}
