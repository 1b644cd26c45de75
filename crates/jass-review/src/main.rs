//! `jass-review RECORD.json [--json] [--round N]`: the review of every finished round
//! of a game record (protocol.md, "Game record"): per trick each card with what it
//! cost with all hands known and from what its player could see, the contract's
//! choice, and the totals. `--json` prints one review per line as protocol.md,
//! "Round review", gives it.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::fmt::Write as _;
use std::process::ExitCode;

use jass_engine::{Record, Seat, Team};
use jass_protocol::review::{Bounds, RoundReview, Verdict};
use jass_review::{ReviewError, Reviewer, Settings};

fn main() -> ExitCode {
    let mut path = None;
    let mut json = false;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = true,
            "--round" => match args.next().and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => only = Some(n),
                None => return usage(),
            },
            _ if path.is_none() && !a.starts_with("--") => path = Some(a),
            _ => return usage(),
        }
    }
    let Some(path) = path else { return usage() };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("jass-review: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let record: Record = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-review: {path} is not a game record: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reviewer = Reviewer::new(Settings { threads: 2, ..Settings::default() });
    let reviews = match only {
        Some(n) => reviewer.round(&record, n).map(|r| vec![r]),
        None => reviewer.game(&record),
    };
    let reviews = match reviews {
        Ok(r) => r,
        Err(e) => {
            eprintln!("jass-review: {e}");
            return ExitCode::from(if matches!(e, ReviewError::Replay(_)) { 1 } else { 2 });
        }
    };
    for r in &reviews {
        if json {
            match serde_json::to_string(r) {
                Ok(line) => println!("{line}"),
                Err(e) => {
                    eprintln!("jass-review: {e}");
                    return ExitCode::from(1);
                }
            }
        } else {
            print!("{}", text_of(r));
        }
    }
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: jass-review RECORD.json [--json] [--round N]");
    ExitCode::from(2)
}

fn bounds(b: Bounds) -> String {
    if b.at_least == b.at_most { b.at_least.to_string() } else { format!("{}..{}", b.at_least, b.at_most) }
}

fn seat(s: Seat) -> String {
    format!("seat {}", s.index())
}

/// The review as text: one line per card, marked where it cost points.
fn text_of(r: &RoundReview) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "round {}: {:?} ×{} chosen by {}",
        r.round + 1,
        r.contract,
        r.multiplier,
        seat(r.chosen_by)
    );
    for d in &r.choice.decisions {
        let what = d.chose.map_or_else(|| "pushed".to_owned(), |k| format!("chose {k:?}"));
        let opts: Vec<String> = d
            .options
            .iter()
            .map(|o| {
                format!(
                    "{} {:.0}±{:.0}",
                    o.contract.map_or_else(|| "push".to_owned(), |k| format!("{k:?}")),
                    o.value.mean,
                    o.value.se
                )
            })
            .collect();
        let mark =
            if d.clear { format!("  (costs {:.0}±{:.0})", d.loss.mean, d.loss.se) } else { String::new() };
        let _ = writeln!(out, "  {} {what}: {}{mark}", seat(d.seat), opts.join(", "));
    }
    let exact: Vec<String> = r.choice.exact.iter().map(|b| bounds(*b)).collect();
    let _ = writeln!(out, "  with all hands known: {}", exact.join(", "));
    for (i, t) in r.tricks.iter().enumerate() {
        let _ = writeln!(out, "  trick {} (won by {}):", i + 1, seat(t.winner));
        for c in &t.cards {
            let best: Vec<String> = c
                .exact
                .options
                .iter()
                .take_while(|o| o.value.at_least == c.exact.best)
                .map(|o| o.card.to_string())
                .collect();
            let seen = c.seen.as_ref().map_or_else(String::new, |s| {
                format!("; could see: costs {:.1}±{:.1} over {} deals", s.loss.mean, s.loss.se, s.deals)
            });
            let verdict = match c.verdict {
                Verdict::Forced => "forced",
                Verdict::Good => "good",
                Verdict::Guess => "a guess that did not work out",
                Verdict::Mistake => "MISTAKE",
                Verdict::Lucky => "risky, worked out",
            };
            let _ = writeln!(
                out,
                "    {} {}: {verdict}; all hands known: costs {} (best {}){seen}",
                seat(c.seat),
                c.card,
                bounds(c.exact.loss),
                best.join(" ")
            );
        }
    }
    for s in Seat::ALL {
        let p = &r.players[s];
        let _ = writeln!(
            out,
            "  {}: lost {} all hands known, {:.0} from what it could see; {} mistakes, {} guesses",
            seat(s),
            bounds(p.exact),
            p.seen,
            p.mistakes,
            p.guesses
        );
    }
    for t in Team::ALL {
        let tt = &r.teams[t];
        let _ = writeln!(out, "  team {}: took {}, best play {}", t.index(), tt.took, bounds(tt.best_play));
    }
    out
}
