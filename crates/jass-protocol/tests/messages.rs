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
    assert!(parse(r#"{"type":"bedanke","version":3}"#).is_err(), "bedanke takes no version");
    assert!(parse(r#"{"type":"fly"}"#).is_err(), "unknown type");
    assert!(parse(r#"{"type":"play"}"#).is_err(), "missing card");
    assert!(parse(r#"{"type":"play","card":7}"#).is_err(), "wrong type");
    assert!(parse(r#"{"type":"play","card":"HJ","weis":[["HJ","HQ","HK"]]}"#).is_ok());
    assert!(parse(r#"{"type":"play","card":"HJ","weis":[["HJ","HJ","HK"]]}"#).is_err(), "repeated card");
    assert!(parse(r#"{"type":"choose","contract":"obenabe"}"#).is_ok());
    assert!(parse(r#"{"type":"choose","contract":"trump"}"#).is_err());
    assert!(parse(r#"{"type":"swap_seats","a":0,"b":4}"#).is_err(), "seat out of range");
    assert!(parse(r#"[1,2]"#).is_err());
    assert!(parse(r#"{"type":"hello","protocol":1,"token":"abc"}"#).is_ok());
    let e: ServerMsg =
        serde_json::from_str(r#"{"type":"error","id":7,"code":"illegal_card","message":"no"}"#).unwrap();
    assert!(matches!(e, ServerMsg::Error { .. }));
}
