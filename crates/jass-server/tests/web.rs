//! The static browser client: `/` serves the web directory, `/t/{table}` its
//! `index.html` (the client reads the table id from the path).

mod common;

use common::{Server, fast_config};

#[tokio::test]
async fn serves_the_client_and_table_links() {
    let dir = std::env::temp_dir().join(format!("jass-server-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>Jass</title>").unwrap();
    std::fs::write(dir.join("app.js"), "export {};").unwrap();
    let server = Server::start(jass_server::Config { web_dir: Some(dir.clone()), ..fast_config() }).await;

    let (status, body) = server.http("GET", "/", None).await;
    assert_eq!((status, body.contains("<title>Jass</title>")), (200, true));
    let (status, body) = server.http("GET", "/t/k3v9q2x7m4p8r6t1w5y0z2b8", None).await;
    assert_eq!((status, body.contains("<title>Jass</title>")), (200, true));
    let (status, body) = server.http("GET", "/app.js", None).await;
    assert_eq!((status, body.as_str()), (200, "export {};"));
    let (status, _) = server.http("GET", "/nope.js", None).await;
    assert_eq!(status, 404);
    // The API still answers next to the files.
    let (status, _) = server.http("GET", "/healthz", None).await;
    assert_eq!(status, 200);
    std::fs::remove_dir_all(&dir).ok();
}
