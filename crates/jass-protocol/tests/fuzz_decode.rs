//! Fuzzing the client-frame decoder: whatever a client sends, decoding never
//! panics, and anything that decodes survives a round trip unchanged, so the server
//! can log, store and replay what it accepted.

use jass_protocol::ClientMsg;
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Keys a client frame uses, plus a few near misses.
const KEYS: &[&str] = &[
    "type",
    "card",
    "weis",
    "stoeck",
    "id",
    "version",
    "seat",
    "a",
    "b",
    "options",
    "preset",
    "protocol",
    "token",
    "contract",
    "t",
    "name",
    "target",
    "deck",
    "push_back",
    "Type",
    "",
];

/// Values those keys take besides the message types, plus a few near misses.
const VALUES: &[&str] = &[
    "HJ", "S6", "DA", "CT", "H9", "HX", "hj", "H", "obenabe", "undenufe", "hearts", "spades", "swisslos",
    "to_1000", "manual", "pagat", "french", "swiss", "fly", "",
];

/// Every message type (from the protocol crate, so a new message is fuzzed too) and
/// [`VALUES`].
fn words() -> Vec<&'static str> {
    ClientMsg::TYPES.iter().chain(VALUES).copied().collect()
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..8).prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON has no NaN or infinity", |f| f.is_finite()).prop_map(Value::from),
        prop::sample::select(words()).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![4 => prop::sample::select(KEYS).prop_map(str::to_owned), 1 => "[a-z_]{0,10}"]
}

/// Arbitrary JSON, biased towards objects with frame-like keys.
fn json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..7)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A frame-like object: a `type`, then any of the keys with any values.
fn frame() -> impl Strategy<Value = Value> {
    (prop::sample::select(words()), prop::collection::btree_map(key(), json(), 0..5)).prop_map(|(t, rest)| {
        let mut m: Map<String, Value> = rest.into_iter().collect();
        m.insert("type".into(), Value::from(t));
        Value::Object(m)
    })
}

/// Decodes `text`; if it is a message, checks the round trip.
fn check(text: &str) -> Result<(), TestCaseError> {
    if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
        let again = serde_json::to_string(&msg).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: ClientMsg = serde_json::from_str(&again)
            .map_err(|e| TestCaseError::fail(format!("{text} encoded as {again} does not decode: {e}")))?;
        prop_assert_eq!(back, msg, "{} -> {}", text, again);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = serde_json::from_slice::<ClientMsg>(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            check(text)?;
        }
    }

    #[test]
    fn random_strings_never_panic(text in "\\PC{0,200}") {
        check(&text)?;
    }

    #[test]
    fn random_json_never_panics(value in json()) {
        check(&value.to_string())?;
    }

    #[test]
    fn frame_like_json_round_trips(value in frame()) {
        check(&value.to_string())?;
    }
}

#[test]
fn the_generator_reaches_valid_frames() {
    // A fuzzer that never produces a valid message tests only the error path.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = frame();
    let valid = (0..3000)
        .filter(|_| {
            let v = strategy.new_tree(&mut runner).unwrap().current();
            serde_json::from_str::<ClientMsg>(&v.to_string()).is_ok()
        })
        .count();
    assert!(valid > 30, "only {valid} of 3000 frames decoded");
}
