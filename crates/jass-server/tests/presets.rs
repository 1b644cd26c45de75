//! The presets and every option's default come from the server (protocol.md 1, `GET
//! /api/presets`), so a client offers what the engine plays without a copy of its own.

mod common;

use common::{Server, fast_config};
use jass_engine::{Options, Preset};
use jass_protocol::http::Presets;
use serde_json::json;

#[tokio::test]
async fn the_presets_are_served_with_every_option_they_give() {
    let server = Server::start(fast_config()).await;
    let (status, body) = server.http("GET", "/api/presets", None).await;
    assert_eq!(status, 200, "{body}");
    let presets: Presets = serde_json::from_str(&body).expect("the documented shape");
    assert_eq!(presets.default, Preset::default());
    assert_eq!(presets.presets.first().map(|p| p.name), Some(Preset::default()), "the default first");
    let names: Vec<Preset> = presets.presets.iter().map(|p| p.name).collect();
    assert_eq!(names, Preset::ALL, "every preset (R11)");
    for p in &presets.presets {
        assert_eq!(p.options, Options::preset(p.name), "{:?}", p.name);
    }
    // A table created with a preset and nothing else plays exactly what was served.
    for p in &presets.presets {
        let (status, created) = server.post("/api/tables", json!({"name": "Anna", "preset": p.name})).await;
        assert_eq!(status, 201, "{created}");
        let table = created["table"].as_str().unwrap();
        let (_, info) = server.http("GET", &format!("/api/tables/{table}"), None).await;
        let info: serde_json::Value = serde_json::from_str(&info).unwrap();
        assert_eq!(info["options"], serde_json::to_value(p.options).unwrap(), "{:?}", p.name);
    }
}
