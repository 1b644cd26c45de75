//! protocol.md 1 and 6.1 say `options` overrides any subset of the
//! preset's options; that holds inside `multipliers` too.

use jass_engine::{Multipliers, Options, Preset};
use jass_protocol::options_from;
use serde_json::{Map, Value, json};

fn over(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("an object literal"),
    }
}

#[test]
fn a_partial_multipliers_object_is_merged_over_the_preset() {
    let o = options_from(None, Some(&over(json!({"multipliers": {"spades": 4}})))).unwrap();
    let swisslos = Options::preset(Preset::Swisslos).multipliers;
    assert_eq!(o.multipliers, Multipliers { spades: 4, ..swisslos });

    let o = options_from(
        Some(Preset::Manual),
        Some(&over(json!({"multipliers": {"hearts": 5, "undenufe": 1}, "target": 1500}))),
    )
    .unwrap();
    let manual = Options::preset(Preset::Manual);
    assert_eq!(
        o,
        Options {
            multipliers: Multipliers { hearts: 5, undenufe: 1, ..manual.multipliers },
            target: 1500,
            ..manual
        }
    );
}

#[test]
fn a_full_or_empty_multipliers_object_still_works() {
    let all = json!({"multipliers": {"hearts": 1, "diamonds": 2, "clubs": 3, "spades": 4, "obenabe": 5, "undenufe": 6}});
    let o = options_from(Some(Preset::Pagat), Some(&over(all))).unwrap();
    assert_eq!((o.multipliers.hearts, o.multipliers.undenufe), (1, 6));
    let o = options_from(Some(Preset::Pagat), Some(&over(json!({"multipliers": {}})))).unwrap();
    assert_eq!(o, Options::preset(Preset::Pagat));
}

#[test]
fn partial_objects_are_still_checked() {
    for bad in [
        json!({"multipliers": {"spade": 4}}),
        json!({"multipliers": {"spades": 11}}),
        json!({"multipliers": {"spades": 0}}),
        json!({"multipliers": {"spades": "4"}}),
        json!({"multipliers": 4}),
        json!({"multipliers": null}),
        json!({"target": 0}),
        json!({"colour": "red"}),
    ] {
        assert!(options_from(None, Some(&over(bad.clone()))).is_err(), "{bad}");
    }
}

#[test]
fn fixed_rounds_can_be_set_and_cleared() {
    let o = options_from(None, Some(&over(json!({"fixed_rounds": 8})))).unwrap();
    assert_eq!(o.fixed_rounds, Some(8));
    let o = options_from(None, Some(&over(json!({"fixed_rounds": null})))).unwrap();
    assert_eq!(o.fixed_rounds, None);
}
