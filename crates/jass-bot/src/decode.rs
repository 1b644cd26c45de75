//! Decoding a [`ServerMsg`] without serde's buffering of internally tagged enums: the
//! load bench's hot path, kept here because only this client needs the speed.
//!
//! `ServerMsg`'s derived `#[serde(tag = "type")]` decoder first copies the whole
//! message into an intermediate tree and then decodes that: for `state`, the full table
//! view twice over. That was about a quarter of a bot's CPU in the load bench
//! (`jass-loadgen` 51 % → 40 % of a core). The server writes `type` first, so a `state`
//! is decoded straight from the text here; any other message, or a `type` that comes
//! later, goes through the derived decoder unchanged (the keys already read are
//! replayed to it), so [`server_msg`] accepts exactly what
//! `serde_json::from_str::<ServerMsg>` accepts and gives the same message.

use jass_protocol::{ServerMsg, TableView};
use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// Decodes one server frame, `state` on the fast path.
///
/// # Errors
/// The text is not a server message (the same errors the derived decoder gives).
pub(crate) fn server_msg(text: &str) -> serde_json::Result<ServerMsg> {
    let mut d = serde_json::Deserializer::from_str(text);
    let msg = (&mut d).deserialize_map(ServerMsgVisitor)?;
    d.end()?;
    Ok(msg)
}

/// The fields of [`ServerMsg::State`] after its tag.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateBody {
    version: u64,
    view: Box<TableView>,
}

struct ServerMsgVisitor;

impl<'de> Visitor<'de> for ServerMsgVisitor {
    type Value = ServerMsg;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a server message (an object with a `type`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ServerMsg, A::Error> {
        let mut head = Vec::with_capacity(1);
        if let Some(key) = map.next_key::<String>()? {
            let value: serde_json::Value = map.next_value()?;
            if key == "type" && value == "state" {
                let StateBody { version, view } = StateBody::deserialize(MapAccessDeserializer::new(map))?;
                return Ok(ServerMsg::State { version, view });
            }
            head.push((key, value));
        }
        ServerMsg::deserialize(MapAccessDeserializer::new(Replay {
            head: head.into_iter(),
            value: None,
            rest: map,
        }))
    }
}

/// A map whose first entries were already read: yields them again, then the rest.
struct Replay<A> {
    head: std::vec::IntoIter<(String, serde_json::Value)>,
    value: Option<serde_json::Value>,
    rest: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.head.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(StringDeserializer::<A::Error>::new(key)).map(Some)
            }
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value).map_err(de::Error::custom),
            None => self.rest.next_value_seed(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::server_msg;
    use jass_protocol::ServerMsg;
    use serde_json::{Map, Value};

    /// Every JSON object in protocol.md's examples.
    fn examples() -> Vec<Map<String, Value>> {
        include_str!("../../../protocol.md")
            .split("```json")
            .skip(1)
            .filter_map(|block| block.split("```").next())
            .filter_map(|block| serde_json::from_str::<Value>(block).ok())
            .filter_map(|v| match v {
                Value::Object(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    /// Writes an object's entries in the given key order.
    fn text_in_order(map: &Map<String, Value>, keys: &[&str]) -> String {
        let entries: Vec<String> = keys.iter().map(|k| format!("{:?}:{}", k, map[*k])).collect();
        format!("{{{}}}", entries.join(","))
    }

    /// The fast path and the derived decoder agree on `text`: the same message, or
    /// both refuse it.
    fn agree(text: &str) {
        let derived = serde_json::from_str::<ServerMsg>(text);
        match (server_msg(text), derived) {
            (Ok(fast), Ok(derived)) => assert_eq!(fast, derived, "{text}"),
            (Err(_), Err(_)) => {}
            (fast, derived) => panic!("{text}: fast {fast:?}, derived {derived:?}"),
        }
    }

    /// Moved with the fast path from `jass-protocol`: a `state` decodes alike whatever
    /// the key order, and the fast path refuses the same mistakes as the derived
    /// decoder.
    #[test]
    fn a_state_decodes_alike_whatever_the_key_order() {
        let state = examples()
            .into_iter()
            .find(|m| m.get("type").is_some_and(|t| t == "state"))
            .expect("protocol.md shows a state");
        let expected: ServerMsg = serde_json::from_value(Value::Object(state.clone())).unwrap();
        for order in [["type", "version", "view"], ["version", "type", "view"], ["view", "version", "type"]] {
            let text = text_in_order(&state, &order);
            assert_eq!(server_msg(&text).unwrap(), expected, "{order:?}");
            agree(&text);
            let mut extra = state.clone();
            extra.insert("extra".into(), 1.into());
            let mut keys = order.to_vec();
            keys.push("extra");
            assert!(server_msg(&text_in_order(&extra, &keys)).is_err(), "unknown field");
            let mut missing = state.clone();
            missing.remove("version");
            let keys: Vec<&str> = order.iter().copied().filter(|k| *k != "version").collect();
            assert!(server_msg(&text_in_order(&missing, &keys)).is_err(), "missing field");
        }
        for bad in [
            r#"{"type":"stat","version":1}"#,
            r#"{"type":7}"#,
            "{}",
            "[]",
            r#""state""#,
            "{} {}",
            r#"["pong",5,null]"#,
        ] {
            assert!(server_msg(bad).is_err(), "{bad}");
            agree(bad);
        }
        assert_eq!(server_msg(r#"{"t":5,"type":"pong"}"#).unwrap(), ServerMsg::Pong { t: 5, id: None });
    }

    /// Every server message protocol.md shows decodes to the same message on the fast
    /// path as through the derived decoder.
    #[test]
    fn every_documented_message_decodes_as_derived() {
        let mut decoded = 0;
        for m in examples() {
            let text = Value::Object(m).to_string();
            agree(&text);
            decoded += usize::from(server_msg(&text).is_ok());
        }
        assert!(decoded >= 5, "only {decoded} server messages in protocol.md");
    }
}
