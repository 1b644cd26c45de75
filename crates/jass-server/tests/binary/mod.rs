//! The real server binary on a temporary database, for the crash and damage tests:
//! start, signal, restart on the same file, read its log, and edit the file the way a
//! crash or a bad disk would.
#![allow(dead_code, unreachable_pub, missing_docs)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::common::Server;

/// The server binary as a child process; killed when dropped so a failing test
/// leaves nothing running. Its output (the log) goes to a file beside the database.
pub struct Proc {
    child: Child,
    pub addr: SocketAddr,
    log: PathBuf,
}

/// Flags every test server gets: no rate limit in the way of fast bots.
const FAST: [&str; 4] = ["--rate-burst", "100000", "--rate-per-second", "100000"];

fn command(db: &std::ffi::OsStr, addr: SocketAddr, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jass-server"));
    c.args(["--addr", &addr.to_string(), "--db"]).arg(db).args(FAST).args(extra).env("RUST_LOG", "warn");
    c
}

impl Proc {
    /// Starts the server and waits until it accepts connections.
    pub async fn start(db: &Path, port: u16, extra: &[&str]) -> Self {
        static STARTS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = STARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Self::start_logged(db.as_os_str(), db.with_extension(format!("log-{n}")), port, extra).await
    }

    /// Starts the server on `db` (a file, or a `postgres://` URL), logging to `log`.
    pub async fn start_logged(db: &std::ffi::OsStr, log: PathBuf, port: u16, extra: &[&str]) -> Self {
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let err = std::fs::File::create(&log).unwrap();
        let child =
            // The log goes to stdout (tracing's default), errors to stderr: keep both.
            command(db, addr, extra).stdout(err.try_clone().unwrap()).stderr(err).spawn().expect("server binary starts");
        let mut p = Self { child, addr, log };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                break;
            }
            if let Some(status) = p.child.try_wait().unwrap() {
                panic!("the server exited ({status}): {}", p.log());
            }
            assert!(Instant::now() < deadline, "the server did not come up");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        p
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn server(&self) -> Server {
        Server::external(self.addr)
    }

    /// What the server logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn signal(&self, sig: &str) {
        let ok = Command::new("kill").args([sig, &self.child.id().to_string()]).status().unwrap().success();
        assert!(ok, "kill {sig}");
    }

    pub fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// SIGKILL, and wait until it is gone.
    pub fn kill9(&mut self) {
        self.signal("-KILL");
        self.wait_exit();
    }

    /// SIGTERM, and wait for the clean exit.
    pub fn stop(&mut self) {
        self.signal("-TERM");
        assert!(self.wait_exit().success(), "a clean exit after SIGTERM: {}", self.log());
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the binary to its exit (a refused database, an operator task); returns the
/// exit status, stdout and stderr.
pub fn run_to_exit(args: &[&std::ffi::OsStr]) -> (std::process::ExitStatus, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jass-server"))
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the binary did not exit");
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    (out.status, String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// `jass-server export --db DB --table ID`, parsed.
pub fn export(db: &Path, table: &str) -> serde_json::Value {
    let (status, out, err) = run_to_exit(&[
        "export".as_ref(),
        "--db".as_ref(),
        db.as_os_str(),
        "--table".as_ref(),
        table.as_ref(),
    ]);
    assert!(status.success(), "export failed: {err}");
    serde_json::from_str(&out).unwrap()
}

pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jass-binary-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("jass.sqlite3")
}

pub fn cleanup(db: &Path) {
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Where one stored entry of a table lives: (`log` or `entries`, rowid, text).
pub type Row = (&'static str, i64, String);

/// A table's stored entries in history order, with where each lives, read the way
/// the store reads them (moved rows from `entries`, the rest from `log`).
pub fn rows(db: &Path, table: &str) -> Vec<Row> {
    let conn = Connection::open(db).unwrap();
    let mut out: Vec<Row> = Vec::new();
    let mut stmt = conn.prepare("SELECT id, entry FROM entries WHERE table_id = ?1 ORDER BY id").unwrap();
    for r in stmt.query_map([table], |r| Ok((r.get(0)?, r.get(1)?))).unwrap() {
        let (id, text) = r.unwrap();
        out.push(("entries", id, text));
    }
    let (done, end, cursor): (i64, i64, Option<String>) = conn
        .query_row("SELECT done_upto, epoch_end, cursor FROM compaction", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    let mut stmt = conn.prepare("SELECT id, entry FROM log WHERE table_id = ?1 ORDER BY id").unwrap();
    for r in stmt.query_map([table], |r| Ok((r.get(0)?, r.get(1)?))).unwrap() {
        let (id, text): (i64, String) = r.unwrap();
        let moved = id <= done || (id <= end && cursor.as_deref().is_some_and(|c| table <= c));
        if !moved {
            out.push(("log", id, text));
        }
    }
    out
}

/// Overwrites one stored entry's text.
pub fn write_row(db: &Path, row: &Row, text: &str) {
    let conn = Connection::open(db).unwrap();
    let n = conn
        .execute(&format!("UPDATE {} SET entry = ?1 WHERE id = ?2", row.0), rusqlite::params![text, row.1])
        .unwrap();
    assert_eq!(n, 1);
}
