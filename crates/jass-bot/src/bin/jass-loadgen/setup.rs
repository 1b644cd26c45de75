//! The bench's setup: the tables created and seated over HTTP, then every seat's
//! socket connected and welcomed (the ramp).

use std::sync::Arc;
use std::time::{Duration, Instant};

use jass_bot::BotError;
use jass_bot::client::Connection;
use jass_bot::fill::seat_humans;
use jass_bot::http::Server;
use jass_engine::{Preset, Seat};
use jass_protocol::ClientMsg;
use jass_protocol::http::{CreateTable, Joined};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::args::{Args, UNREACHABLE_TARGET};

/// The tables created and seated, with their human seats' tokens.
pub(crate) struct Tables {
    pub(crate) tables: Vec<Vec<Joined>>,
    /// Tables that could not be set up.
    pub(crate) setup_errors: usize,
    /// How long it took.
    pub(crate) setup: Duration,
}

/// Creates `args.tables` tables over HTTP, a few at a time, and seats `humans` players
/// at each.
pub(crate) async fn create_tables(args: &Args, server: &Server, humans: usize) -> Result<Tables, BotError> {
    let t0 = Instant::now();
    let create = match args.rounds {
        None => CreateTable {
            name: "Load".into(),
            preset: Some(Preset::To1000),
            options: None,
            timing: None,
            computers: false,
            computer_level: None,
        },
        Some(_) => {
            let mut options = serde_json::Map::new();
            options.insert("target".into(), UNREACHABLE_TARGET.into());
            CreateTable {
                name: "Load".into(),
                preset: Some(Preset::Swisslos),
                options: Some(options),
                timing: None,
                computers: false,
                computer_level: None,
            }
        }
    };
    let gate = Arc::new(Semaphore::new(args.create_concurrency.max(1)));
    let mut set = JoinSet::new();
    for _ in 0..args.tables {
        let (server, create, gate) = (server.clone(), create.clone(), gate.clone());
        set.spawn(async move {
            let _permit = gate.acquire_owned().await;
            seat_humans(&server, &create, humans).await
        });
    }
    let mut tables: Vec<Vec<Joined>> = Vec::with_capacity(args.tables);
    let mut setup_errors = 0;
    while let Some(r) = set.join_next().await {
        match r {
            Ok(Ok(t)) => tables.push(t),
            Ok(Err(e)) => {
                setup_errors += 1;
                if setup_errors <= 3 {
                    eprintln!("table setup failed: {e}");
                }
            }
            Err(e) => return Err(BotError::Protocol(format!("setup task failed: {e}"))),
        }
    }
    let setup = t0.elapsed();
    eprintln!(
        "{} tables created and seated in {:.2} s ({setup_errors} failed)",
        tables.len(),
        setup.as_secs_f64()
    );
    Ok(Tables { tables, setup_errors, setup })
}

/// The sockets connected and welcomed: (table, seat, connection) each.
pub(crate) struct Ramp {
    pub(crate) conns: Vec<(usize, usize, Connection)>,
    /// Sockets that could not be opened.
    pub(crate) connect_errors: usize,
    /// How long it took.
    pub(crate) ramp: Duration,
}

/// Opens every human seat's socket, a few handshakes at a time; each table's host
/// adds the computers before it starts.
pub(crate) async fn connect(
    args: &Args,
    server: &Server,
    tables: &[Vec<Joined>],
    humans: usize,
    sockets: usize,
) -> Result<Ramp, BotError> {
    let computer_level = args.computer_level;
    let t1 = Instant::now();
    let gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    let mut set = JoinSet::new();
    for (ti, t) in tables.iter().enumerate() {
        for (si, j) in t.iter().enumerate() {
            let (server, gate, table, token) =
                (server.clone(), gate.clone(), j.table.clone(), j.token.clone());
            set.spawn(async move {
                let _permit = gate.acquire_owned().await;
                let mut conn = Connection::open(&server, &table, Some(&token)).await;
                // The host fills the seats left free with computers before it starts.
                if si == 0
                    && let Ok(c) = &mut conn
                {
                    for seat in Seat::ALL.into_iter().skip(humans) {
                        let id = Some(1_000 + seat.index() as u64);
                        let level = computer_level;
                        if let Err(e) = c.send(&ClientMsg::AddComputer { seat, level, id }).await {
                            return (ti, si, Err(e));
                        }
                    }
                }
                (ti, si, conn)
            });
        }
    }
    let mut conns = Vec::with_capacity(sockets);
    let mut connect_errors = 0;
    while let Some(r) = set.join_next().await {
        match r {
            Ok((ti, si, Ok(c))) => conns.push((ti, si, c)),
            Ok((_, _, Err(e))) => {
                connect_errors += 1;
                if connect_errors <= 3 {
                    eprintln!("connect failed: {e}");
                }
            }
            Err(e) => return Err(BotError::Protocol(format!("connect task failed: {e}"))),
        }
    }
    let ramp = t1.elapsed();
    eprintln!(
        "{} sockets connected and welcomed in {:.2} s ({connect_errors} failed)",
        conns.len(),
        ramp.as_secs_f64()
    );
    Ok(Ramp { conns, connect_errors, ramp })
}
