//! Decoding of client frames: the strictness the server relies on.

use jass_protocol::{ClientMsg, ServerMsg};

fn parse(s: &str) -> Result<ClientMsg, serde_json::Error> {
    serde_json::from_str(s)
}

#[test]
fn strict_decoding() {
    assert!(parse(r#"{"type":"schiebe"}"#).is_ok());
    assert!(parse(r#"{"type":"bedanke","id":3}"#).is_ok());
    assert!(parse(r#"{"type":"bedanke","foo":1}"#).is_err(), "unknown field");
    // Bedanke is a game action and may carry a version like the others (protocol.md 2).
    assert!(parse(r#"{"type":"bedanke","version":3}"#).is_ok());
    assert!(parse(r#"{"type":"fly"}"#).is_err(), "unknown type");
    assert!(parse(r#"{"type":"play"}"#).is_err(), "missing card");
    assert!(parse(r#"{"type":"play","card":7}"#).is_err(), "wrong type");
    assert!(parse(r#"{"type":"play","card":"HJ","weis":[["HJ","HQ","HK"]]}"#).is_ok());
    assert!(parse(r#"{"type":"play","card":"HJ","weis":[["HJ","HJ","HK"]]}"#).is_err(), "repeated card");
    assert!(parse(r#"{"type":"choose","contract":"obenabe"}"#).is_ok());
    assert!(parse(r#"{"type":"choose","contract":"trump"}"#).is_err());
    assert!(parse(r#"{"type":"swap_seats","a":0,"b":4}"#).is_err(), "seat out of range");
    assert!(parse(r#"[1,2]"#).is_err());
    // A sequence is not a message, even one serde could read as one (protocol.md: one
    // object per frame).
    assert!(parse(r#"["play","HJ"]"#).is_err(), "was read as a play");
    assert!(parse(r#"["schiebe"]"#).is_err());
    assert!(parse(r#"{"type":"hello","protocol":1,"token":"abc"}"#).is_ok());
    let e: ServerMsg =
        serde_json::from_str(r#"{"type":"error","id":7,"code":"illegal_card","message":"no"}"#).unwrap();
    assert!(matches!(e, ServerMsg::Error { .. }));
}

/// `ClientMsg::TYPES` (the server's per-type counters) names each message exactly as
/// its `type` on the wire, one slot per message.
#[test]
fn type_names_match_the_wire() {
    let frames = [
        r#"{"type":"hello","protocol":1}"#,
        r#"{"type":"schiebe"}"#,
        r#"{"type":"choose","contract":"obenabe"}"#,
        r#"{"type":"play","card":"HJ"}"#,
        r#"{"type":"stoeck"}"#,
        r#"{"type":"bedanke"}"#,
        r#"{"type":"start"}"#,
        r#"{"type":"swap_seats","a":1,"b":2}"#,
        r#"{"type":"free_seat","seat":3}"#,
        r#"{"type":"set_options","preset":"swisslos"}"#,
        r#"{"type":"rematch"}"#,
        r#"{"type":"ping","t":1}"#,
        r#"{"type":"add_computer","seat":2}"#,
        r#"{"type":"set_timing","step_in":20}"#,
        r#"{"type":"give_to_computer","seat":3}"#,
        r#"{"type":"give_back","seat":3}"#,
    ];
    assert_eq!(frames.len(), ClientMsg::TYPES.len());
    for (i, frame) in frames.iter().enumerate() {
        let msg = parse(frame).unwrap();
        let wire: serde_json::Value = serde_json::from_str(frame).unwrap();
        assert_eq!(msg.type_index(), i, "{frame}");
        assert_eq!(msg.type_name(), wire["type"], "{frame}");
        let back = serde_json::to_value(&msg).unwrap();
        assert_eq!(back["type"], msg.type_name());
    }
}

/// The first JSON block of protocol.md that is a `state` message.
fn state_example() -> serde_json::Map<String, serde_json::Value> {
    let doc = include_str!("../../../protocol.md");
    doc.split("```json")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .filter_map(|block| serde_json::from_str::<serde_json::Value>(block).ok())
        .find_map(|v| match v {
            serde_json::Value::Object(m) if m.get("type").is_some_and(|t| t == "state") => Some(m),
            _ => None,
        })
        .unwrap()
}

/// Writes an object's entries in the given key order.
fn text_in_order(map: &serde_json::Map<String, serde_json::Value>, keys: &[&str]) -> String {
    let entries: Vec<String> = keys.iter().map(|k| format!("{:?}:{}", k, map[*k])).collect();
    format!("{{{}}}", entries.join(","))
}

/// A `state` decodes to the same message whatever its key order and refuses the same
/// mistakes. (`jass-bot` decodes `state` on a fast path of its own when `type` comes
/// first; its tests hold it to this decoder.)
#[test]
fn a_state_decodes_alike_whatever_the_key_order() {
    let state = state_example();
    let expected: ServerMsg = serde_json::from_value(serde_json::Value::Object(state.clone())).unwrap();
    for order in [["type", "version", "view"], ["version", "type", "view"], ["view", "version", "type"]] {
        let text = text_in_order(&state, &order);
        let got: ServerMsg = serde_json::from_str(&text).unwrap();
        assert_eq!(got, expected, "{order:?}");
        assert_eq!(serde_json::to_string(&got).unwrap().find("\"type\":\"state\""), Some(1), "type first");
        let mut extra = state.clone();
        extra.insert("extra".into(), 1.into());
        let mut keys = order.to_vec();
        keys.push("extra");
        assert!(serde_json::from_str::<ServerMsg>(&text_in_order(&extra, &keys)).is_err(), "unknown field");
        let mut missing = state.clone();
        missing.remove("version");
        let keys: Vec<&str> = order.iter().copied().filter(|k| *k != "version").collect();
        assert!(serde_json::from_str::<ServerMsg>(&text_in_order(&missing, &keys)).is_err(), "missing field");
    }
    // Only an object, as before the fast path moved to jass-bot.
    for bad in
        [r#"{"type":"stat","version":1}"#, r#"{"type":7}"#, "{}", "[]", r#""state""#, r#"["pong",5,null]"#]
    {
        assert!(serde_json::from_str::<ServerMsg>(bad).is_err(), "{bad}");
    }
    let pong: ServerMsg = serde_json::from_str(r#"{"t":5,"type":"pong"}"#).unwrap();
    assert_eq!(pong, ServerMsg::Pong { t: 5, id: None });
}
