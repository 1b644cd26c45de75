//! `--fill`: create a table, take all four seats and play them, each seat over its own
//! socket exactly like four separate clients would.

use jass_engine::GameResult;
use jass_protocol::http::{CreateTable, JoinTable, Joined};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::BotError;
use crate::client::{BotConfig, Connection, NoObserver, Outcome};
use crate::http::Server;

/// Creates a table with `create` (the host at seat 0) and joins seats 1–3 with the
/// host's name and a seat suffix; returns the four answers in seat order.
///
/// # Errors
/// Any refused or failed HTTP call.
pub async fn seat_four(server: &Server, create: &CreateTable) -> Result<[Joined; 4], BotError> {
    let seats = seat_humans(server, create, 4).await?;
    seats.try_into().map_err(|_| BotError::Protocol("four seats expected".into()))
}

/// Creates a table with `create` (the host at seat 0) and joins seats 1 to
/// `humans - 1` like [`seat_four`]; the seats after them stay free (for computers).
/// `humans` is clamped to 1..=4.
///
/// # Errors
/// Any refused or failed HTTP call.
pub async fn seat_humans(
    server: &Server,
    create: &CreateTable,
    humans: usize,
) -> Result<Vec<Joined>, BotError> {
    let host = server.create_table(create).await?;
    let table = host.table.clone();
    let mut seats = vec![host];
    for n in 1..humans.clamp(1, 4) as u8 {
        let name = format!("{}-{n}", create.name.chars().take(20).collect::<String>());
        let seat = jass_engine::Seat::new(n);
        seats.push(server.join_table(&table, &JoinTable { name, seat }).await?);
    }
    Ok(seats)
}

/// What a filled table ended with.
#[derive(Clone, Debug)]
pub struct Filled {
    /// The table id.
    pub table: String,
    /// The game's result as seat 0 saw it.
    pub result: Option<GameResult>,
    /// Each seat's session.
    pub seats: Vec<Outcome>,
}

/// Creates a table, connects four bots and plays until the game is over. `seed`
/// makes the bots' choices repeatable (the deal stays the server's).
///
/// # Errors
/// The first seat whose connection or play failed.
pub async fn fill(
    server: &Server,
    create: &CreateTable,
    config: &BotConfig,
    seed: u64,
    on_created: impl FnOnce(&Joined),
) -> Result<Filled, BotError> {
    let joined = seat_four(server, create).await?;
    on_created(&joined[0]);
    let mut tasks = Vec::new();
    for (i, j) in joined.iter().enumerate() {
        let conn = Connection::open(server, &j.table, Some(&j.token)).await?;
        let config = config.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(seed.wrapping_add(i as u64));
            conn.play(&config, &mut rng, &mut NoObserver, std::future::pending()).await
        }));
    }
    let mut seats = Vec::new();
    for t in tasks {
        seats.push(t.await.map_err(|e| BotError::Protocol(format!("bot task failed: {e}")))??);
    }
    let result = seats.first().and_then(|o| o.result);
    Ok(Filled { table: joined[0].table.clone(), result, seats })
}
