//! What a seat's contract choice, or its push, says of its hand (R3).
//!
//! A seat chooses the contract its hand is best for, and pushes a hand good for
//! none: deals in which the declarer holds two small trumps are possible, but far
//! less likely than deals in which it holds the Puur and four more. Bridge and Skat
//! programs weigh their sampled deals by what the bidding says; here the choice is
//! one decision, so the sampler keeps a deal with the probability that the seats who
//! chose and pushed would have decided as they did with the hands it gives them.
//!
//! That probability comes from [`worth`]: a linear estimate, from a few features of
//! a nine-card hand, of what the table's computer estimates a contract is worth by
//! its random playouts (the mean point difference for the chooser's team). Its
//! weights are fitted to the computer's own estimates (`cargo run --release -p
//! jass-ai --example fit_choice`, which prints `choice/weights.rs`), so against the
//! computer's choices the inference is close to exact; people choose by the same
//! strengths (trumps, the Puur and the Nell, aces), so it holds for them too, only
//! more loosely. A softmax over the contracts' worths with a fitted temperature
//! makes the choice a probability, and a logistic step at the push threshold the push.

use jass_engine::{CardSet, Contract, Options, Seat, SeatView, has_stoeck};

mod weights;

/// Features of a hand for one contract.
pub const FEATURES: usize = 20;

// The fitted weights (`choice/weights.rs`, written by `fit_choice`) are one per feature.
const _: () = assert!(weights::WEIGHTS[0][0].len() == FEATURES);

/// The three kinds of contract a weight set is fitted for: a trump suit (one set for
/// all four, by symmetry), Obenabe and Undenufe.
#[must_use]
pub const fn kind(contract: Contract) -> usize {
    match contract {
        Contract::Obenabe => 1,
        Contract::Undenufe => 2,
        _ => 0,
    }
}

/// The features of `hand` (nine cards) for `contract`: for a trump suit, which
/// trumps it holds, how many, and its side aces, tens and kings, voids and
/// singletons; without trumps, per rank (counted from the top of the contract's
/// order) how many it holds, and per suit the length of its unbroken run from the top.
#[must_use]
pub fn features(hand: CardSet, contract: Contract) -> [f32; FEATURES] {
    let mut f = [0f32; FEATURES];
    f[0] = 1.0;
    let suits = jass_engine::Suit::ALL.map(|s| hand.suit_bits(s));
    match contract.trump() {
        Some(t) => {
            let trumps = hand.suit_bits(t);
            for (r, slot) in f[1..10].iter_mut().enumerate() {
                *slot = f32::from(trumps >> r & 1);
            }
            let n = trumps.count_ones() as f32;
            f[10] = n;
            f[11] = n * n / 9.0;
            f[18] = f32::from(trumps >> 5 & trumps >> 3 & 1);
            for (s, &bits) in suits.iter().enumerate() {
                if s == t.index() {
                    continue;
                }
                let (ace, ten, king) = (bits >> 8 & 1, bits >> 4 & 1, bits >> 7 & 1);
                f[12] += f32::from(ace);
                f[13] += f32::from(ten);
                f[14] += f32::from(king);
                f[15] += f32::from(ace & king);
                f[16] += f32::from(bits == 0);
                f[17] += f32::from(bits.count_ones() == 1 && ace == 0);
                f[19] += f32::from(ace & ten);
            }
        }
        None => {
            let down = contract == Contract::Undenufe;
            for &bits in &suits {
                // The suit in the contract's order, its top card at bit 8.
                let bits = if down { bits.reverse_bits() >> 7 } else { bits } & 0x1FF;
                for (r, slot) in f[1..10].iter_mut().enumerate() {
                    *slot += f32::from(bits >> r & 1);
                }
                let run = (!bits << 7).leading_zeros().min(9) as f32;
                let len = bits.count_ones() as f32;
                f[10] += run;
                f[11] += run * run;
                f[12] += f32::from(bits == 0);
                f[13] += (len - 3.0).max(0.0);
                f[14] += if bits >> 8 & 1 == 1 { len } else { 0.0 };
                f[15] += f32::from(bits >> 7 & 1 == 1 && bits >> 8 & 1 == 0 && len >= 2.0);
            }
        }
    }
    f
}

/// The estimated worth of `contract` for a seat holding `hand` (nine cards): the
/// mean card-point difference for its team, as the computer's random playouts would
/// estimate it, when the seat leads the first trick (`leads`) or its partner does.
#[must_use]
pub fn worth(hand: CardSet, contract: Contract, leads: bool) -> f32 {
    let [trump, obenabe, undenufe] = &weights::WEIGHTS;
    let [leading, partner_leads] = match contract {
        Contract::Obenabe => obenabe,
        Contract::Undenufe => undenufe,
        _ => trump,
    };
    let w = if leads { leading } else { partner_leads };
    features(hand, contract).iter().zip(w).map(|(x, w)| x * w).sum()
}

/// Each contract's estimated worth (in [`Contract::ALL`]'s order) to a seat holding
/// `hand`, as it weighs them choosing: [`worth`] with Stöck, times the multiplier.
fn values(hand: CardSet, leads: bool, options: &Options) -> [f64; 6] {
    Contract::ALL.map(|k| {
        let stoeck = if options.has_extras() && has_stoeck(hand, k) { 20.0 } else { 0.0 };
        (f64::from(worth(hand, k, leads)) + stoeck) * f64::from(options.multipliers.of(k))
    })
}

/// The contract of the highest value (the last of equal ones) and that value.
fn top(values: [f64; 6]) -> (Contract, f64) {
    Contract::ALL.into_iter().zip(values).fold((Contract::ALL[0], values[0]), |best, (k, v)| {
        if v.total_cmp(&best.1).is_ge() { (k, v) } else { best }
    })
}

/// The contract a seat holding `hand` likely chooses: the best by [`worth`], with
/// Stöck and the multipliers.
#[must_use]
pub fn pick(hand: CardSet, leads: bool, options: &Options) -> Contract {
    top(values(hand, leads, options)).0
}

/// Who decided what before the first card, as the view shows it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Choice {
    forehand: Seat,
    contract: Contract,
    chosen_by: Seat,
    pushed: bool,
}

impl Choice {
    pub(crate) fn of(view: &SeatView) -> Option<Self> {
        Some(Self {
            forehand: view.forehand,
            contract: view.contract?,
            chosen_by: view.chosen_by?,
            pushed: view.pushed,
        })
    }

    /// The probability that the seats other than `me` decided as they did, were
    /// their hands at the deal `dealt` (per seat; `None` where not all nine cards
    /// are known), with the computer's push threshold `push_below`.
    pub(crate) fn likelihood(
        &self,
        me: Seat,
        dealt: &[Option<CardSet>; 4],
        options: &Options,
        push_below: f64,
    ) -> f64 {
        let partner = self.forehand.partner();
        let mut p = 1.0;
        let mut factor = |seat: Seat, push: Option<bool>, chose: bool| {
            if seat == me {
                return;
            }
            let Some(hand) = *seat.of(dealt) else { return };
            let leads = seat == self.forehand;
            let mult = |k: Contract| f64::from(options.multipliers.of(k));
            let values = values(hand, leads, options);
            let (top, best) = top(values);
            if let Some(pushed) = push {
                let q = logistic((push_below - best) / (weights::PUSH_TEMPERATURE * mult(top)));
                p *= if pushed { q } else { 1.0 - q };
            }
            if chose {
                // The estimate's error grows with the multiplier: each contract is
                // compared with the best at the larger of their two.
                let odds = |k: Contract, value: f64| {
                    ((value - best) / (weights::CHOICE_TEMPERATURE * mult(k).max(mult(top)))).exp()
                };
                let sum: f64 = Contract::ALL.into_iter().zip(values).map(|(k, v)| odds(k, v)).sum();
                let chosen = Contract::ALL.into_iter().zip(values).find(|&(k, _)| k == self.contract);
                p *= chosen.map_or(0.0, |(k, v)| odds(k, v)) / sum;
            }
        };
        if !self.pushed {
            factor(self.forehand, Some(false), true);
        } else if self.chosen_by == partner {
            factor(self.forehand, Some(true), false);
            factor(partner, options.push_back.then_some(false), true);
        } else {
            // Pushed back (R3): both pushed, and the forehand had to choose.
            factor(self.forehand, Some(true), true);
            factor(partner, Some(true), false);
        }
        p
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use jass_engine::{CardSet, Contract, Options, Preset, Seat};

    use super::{Choice, worth};

    fn hand(s: &str) -> CardSet {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    /// The fitted worths order hands as a player would: five hearts with the Puur
    /// and the Nell are worth most with hearts trump, four aces and kings most in
    /// Obenabe, the small cards most in Undenufe.
    #[test]
    fn worths_favour_the_contract_a_hand_is_made_for() {
        let cases = [
            ("HJ H9 HA HK H6 S6 D7 C8 S7", Contract::Hearts),
            ("HA HK SA SK DA DK CA CQ S9", Contract::Obenabe),
            ("H6 H7 S6 S7 D6 D7 C6 C8 SA", Contract::Undenufe),
            ("CJ C9 CT C7 C6 HA H6 D8 S7", Contract::Clubs),
        ];
        for (cards, best) in cases {
            let h = hand(cards);
            for leads in [true, false] {
                let top = Contract::ALL
                    .into_iter()
                    .max_by(|a, b| worth(h, *a, leads).total_cmp(&worth(h, *b, leads)));
                assert_eq!(top, Some(best), "{cards} (leads: {leads})");
            }
        }
    }

    /// A deal that gives the declarer the trumps it chose is likelier than one that
    /// gives them to the others, and only the seats other than the observer count.
    #[test]
    fn the_likelihood_follows_the_declarers_hand() {
        // Every multiplier 1; with the default ones Undenufe (×3) outweighs hearts here.
        let options = Options::preset(Preset::To1000);
        let choice = Choice {
            forehand: Seat::ALL[1],
            contract: Contract::Hearts,
            chosen_by: Seat::ALL[1],
            pushed: false,
        };
        let strong = Some(hand("HJ H9 HA HK H6 S6 D7 C8 S7"));
        let weak = Some(hand("H7 SA SK DA D9 C6 C7 CQ ST"));
        let p = |declarer| choice.likelihood(Seat::ALL[0], &[None, declarer, None, None], &options, 50.0);
        assert!(p(strong) > 0.5, "{}", p(strong));
        assert!(p(weak) < 0.01, "{}", p(weak));
        assert!((p(None) - 1.0).abs() < 1e-12, "an unknown hand says nothing");
        // The declarer itself learns nothing from its own choice.
        let own = choice.likelihood(Seat::ALL[1], &[None, weak, None, None], &options, 50.0);
        assert!((own - 1.0).abs() < 1e-12);
        // A push says the forehand's hand was weak, the choice that its partner's suits hearts.
        let pushed = Choice {
            forehand: Seat::ALL[1],
            contract: Contract::Hearts,
            chosen_by: Seat::ALL[3],
            pushed: true,
        };
        let q = |fh, partner| pushed.likelihood(Seat::ALL[0], &[None, fh, None, partner], &options, 50.0);
        assert!(q(weak, strong) > 10.0 * q(strong, strong));
        assert!(q(weak, strong) > 10.0 * q(weak, weak));
    }
}
