//! A bot refused `rate_limited` (protocol.md 8) tries again instead of waiting for
//! ever. The server's bucket here holds one message, which `hello` takes, so the
//! host's `start` is refused and only a retry can start the game.

use std::time::Duration;

use jass_bot::client::{BotConfig, Connection, Observer};
use jass_bot::fill::seat_four;
use jass_bot::http::Server;
use jass_bot::policy::Policy;
use jass_protocol::http::CreateTable;
use jass_protocol::{ErrorCode, TableView};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Counts `rate_limited` answers and says when a game view arrives.
struct Watch {
    started: Option<oneshot::Sender<()>>,
    limited: u32,
}

impl Observer for Watch {
    fn state(&mut self, _version: u64, view: &TableView) {
        if view.game.is_some()
            && let Some(tx) = self.started.take()
        {
            let _ = tx.send(());
        }
    }

    fn refused(&mut self, code: ErrorCode) {
        self.limited += u32::from(code == ErrorCode::RateLimited);
    }
}

#[tokio::test]
async fn the_bot_retries_a_rate_limited_start() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let config = jass_server::Config { rate_burst: 1, rate_per_second: 1, ..jass_server::Config::default() };
    let (stop, stopped) = oneshot::channel::<()>();
    let server =
        tokio::spawn(jass_server::run(listener, config, jass_server::Storage::memory(), async move {
            let _ = stopped.await;
        }));
    let base = Server::parse(&format!("http://{addr}")).expect("url");
    let create = CreateTable {
        name: "Bot".into(),
        preset: None,
        options: None,
        timing: None,
        computers: false,
        computer_level: None,
    };
    let seats = seat_four(&base, &create).await.expect("four seats");
    // Seats 1-3 connect first, so the host's first view shows a full table.
    let mut others = Vec::new();
    for j in &seats[1..] {
        others.push(Connection::open(&base, &j.table, Some(&j.token)).await.expect("a seat connects"));
    }
    let host = Connection::open(&base, &seats[0].table, Some(&seats[0].token)).await.expect("host");
    let (tx, rx) = oneshot::channel();
    let mut watch = Watch { started: Some(tx), limited: 0 };
    let bot = BotConfig { think: Duration::from_millis(10), policy: Policy::default() };
    let mut rng = StdRng::seed_from_u64(7);
    let played = tokio::time::timeout(
        Duration::from_secs(10),
        host.play(&bot, &mut rng, &mut watch, async move {
            let _ = rx.await;
        }),
    )
    .await
    .expect("the bot started the game after being rate limited, instead of waiting for ever");
    played.expect("the bot played without error");
    assert!(watch.limited >= 1, "the start was refused rate_limited first");
    drop(others);
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(15), server).await;
}
