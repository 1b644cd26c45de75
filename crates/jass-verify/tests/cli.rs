//! `jass-verify RECORD.json` end to end (R12): a record played with the engine verifies
//! with exit 0, one JSON line per round and a result line; a corrupted action exits 1
//! naming the round, the action's index and the reason.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use jass_engine::{Action, CardSet, Contract, End, Game, Options, Phase, Preset, Record, Seed};
use serde_json::Value;

/// A deterministic number stream (no RNG crate needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
}

fn seed(n: u64) -> Seed {
    let mut b = [7u8; 32];
    b[..8].copy_from_slice(&n.to_le_bytes());
    Seed(b)
}

/// Plays one action for whoever is to act: sometimes schieben, a contract, or a legal
/// card with every declarable Weis and Stöck when it may be announced.
fn step(g: &mut Game, r: &mut Lcg, next: &mut u64) {
    let s = g.to_act().expect("someone to act");
    let action = if g.phase() == Phase::Choosing {
        if g.can_schiebe(s) && r.next().is_multiple_of(3) {
            Action::Schiebe
        } else {
            Action::Choose { contract: Contract::ALL[(r.next() % 6) as usize] }
        }
    } else {
        let legal = g.legal_cards(s);
        let card = legal.nth(r.next() % legal.len()).expect("a legal card");
        let weis: Vec<CardSet> = g.declarable_weis(s).iter().map(|w| w.cards()).collect();
        if g.can_announce_stoeck(s) {
            *next += 1;
            let n = *next;
            g.apply(s, Action::Stoeck, || seed(n)).expect("Stöck accepted");
        }
        Action::Play { card, weis, stoeck: false }
    };
    *next += 1;
    let n = *next;
    g.apply(s, action, || seed(n)).expect("legal action accepted");
}

/// A game to 1000 (x1) played to its automatic end.
fn finished_game() -> Game {
    let options = Options { end: End::Automatic, ..Options::preset(Preset::To1000) };
    let mut g = Game::new(options, seed(0)).unwrap();
    let (mut r, mut next) = (Lcg(1), 0);
    while g.phase() != Phase::Over {
        step(&mut g, &mut r, &mut next);
    }
    g
}

/// Writes `text` to a fresh file in the temp directory.
fn temp_file(text: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let name = format!("jass-verify-cli-{}-{}.json", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    let path = std::env::temp_dir().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn verify(record_json: &str) -> (Output, Vec<Value>) {
    let path = temp_file(record_json);
    let out = Command::new(env!("CARGO_BIN_EXE_jass-verify")).arg(&path).output().unwrap();
    std::fs::remove_file(&path).ok();
    let lines = String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line: {l:?}: {e}")))
        .collect();
    (out, lines)
}

/// A valid record verifies: exit 0, one line per round with its score, then the result.
#[test]
fn verifies_a_played_game() {
    let g = finished_game();
    assert!(g.history().len() >= 3, "the game should last a few rounds");
    let (out, lines) = verify(&serde_json::to_string(g.record()).unwrap());
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(lines.len(), g.history().len() + 1);
    for (line, s) in lines.iter().zip(g.history()) {
        assert_eq!(line["round"], s.round);
        assert_eq!(line["contract"], serde_json::to_value(s.contract).unwrap());
        assert_eq!(line["multiplier"], s.multiplier);
        assert_eq!(line["card_points"], serde_json::json!(s.card_points));
        assert_eq!(line["weis"], serde_json::json!(s.weis));
        assert_eq!(line["stoeck"], serde_json::json!(s.stoeck));
        assert_eq!(line["match"], serde_json::json!(s.match_bonus));
        assert_eq!(line["total"], serde_json::json!(s.total));
        assert_eq!(line["running_total"], serde_json::json!(s.running_total));
        assert_eq!(line["complete"], true);
    }
    let result = lines.last().unwrap();
    assert_eq!(result["result"], serde_json::to_value(g.result().unwrap()).unwrap());
    assert_eq!(result["result"]["totals"], serde_json::json!(g.totals()));
}

/// A game ended by bedanke mid-round: the cut-short round is printed (not complete).
#[test]
fn verifies_a_game_ended_by_bedanke() {
    let mut g = Game::new(Options::default(), seed(50)).unwrap();
    let (mut r, mut next) = (Lcg(2), 50);
    while g.round_number() < 2 || g.hand(g.forehand()).len() > 6 {
        step(&mut g, &mut r, &mut next);
    }
    let claimant = g.forehand();
    g.apply(claimant, Action::Bedanke, || unreachable!()).unwrap();
    let (out, lines) = verify(&serde_json::to_string(g.record()).unwrap());
    assert!(out.status.success());
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2]["complete"], false);
    assert_eq!(lines[3]["result"]["reason"]["type"], "bedanke");
    assert_eq!(lines[3]["result"]["reason"]["right"], false, "nobody is near 2500");
    assert_eq!(lines[3]["result"]["winner"], claimant.team().other().index());
}

/// A corrupted action fails: exit 1, naming the round, the action's index and why; the
/// rounds before it are still printed.
#[test]
fn corrupted_action_exits_1() {
    let g = finished_game();
    let mut rec: Record = g.record().clone();
    // Round 1: replace a card by one the seat does not hold.
    let (index, seat, card) = rec.rounds[1]
        .actions
        .iter()
        .enumerate()
        .find_map(|(i, a)| match &a.action {
            Action::Play { card, .. } if i > 8 => Some((i, a.seat, *card)),
            _ => None,
        })
        .unwrap();
    let not_held = (!rec.rounds[1].hands[seat]).first().unwrap();
    assert_ne!(not_held, card);
    rec.rounds[1].actions[index].action = Action::play(not_held);
    let (out, lines) = verify(&serde_json::to_string(&rec).unwrap());
    assert_eq!(out.status.code(), Some(1));
    let error = lines.last().unwrap()["error"].as_str().unwrap().to_owned();
    assert_eq!(error, format!("round 1, action {index}: {not_held} is not in your hand"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!("round 1, action {index}")), "{stderr}");
    // Round 0 was verified before the error.
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["round"], 0);

    // An action out of turn.
    let mut rec: Record = g.record().clone();
    let a = &mut rec.rounds[2].actions[3];
    a.seat = a.seat.next();
    let (out, lines) = verify(&serde_json::to_string(&rec).unwrap());
    assert_eq!(out.status.code(), Some(1));
    let error = lines.last().unwrap()["error"].as_str().unwrap();
    assert!(error.starts_with("round 2, action 3: not your turn"), "{error}");
}

/// A changed hand fails as a deal mismatch.
#[test]
fn changed_hand_exits_1() {
    let g = finished_game();
    let mut rec: Record = g.record().clone();
    let h = &mut rec.rounds[0].hands.0;
    let (a, b) = (h[2].first().unwrap(), h[3].first().unwrap());
    (h[2], h[3]) = (h[2].without(a).with(b), h[3].without(b).with(a));
    let (out, lines) = verify(&serde_json::to_string(&rec).unwrap());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(lines, vec![serde_json::json!({ "error": "round 0: hands does not match the seed" })]);
}

/// Usage errors exit 2: no argument, a missing file, a file that is not a record.
#[test]
fn usage_errors_exit_2() {
    let bin = env!("CARGO_BIN_EXE_jass-verify");
    assert_eq!(Command::new(bin).output().unwrap().status.code(), Some(2));
    let missing = std::env::temp_dir().join("jass-verify-cli-does-not-exist.json");
    assert_eq!(Command::new(bin).arg(&missing).output().unwrap().status.code(), Some(2));
    let path = temp_file("{\"format\": \"jass-record/1\"}");
    let out = Command::new(bin).arg(&path).output().unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(out.status.code(), Some(2));
}
