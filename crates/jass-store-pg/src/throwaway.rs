//! A throw-away PostgreSQL cluster on a free loopback port, for tests and benches:
//! Debian's binaries (`initdb`, `postgres`), a fresh data directory, started as a child
//! process and ended by its pid when dropped. As root (CI) the server runs as the
//! `postgres` user, which PostgreSQL requires.

use std::io;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A running cluster; stopped and deleted on drop.
#[derive(Debug)]
pub struct Throwaway {
    child: Child,
    dir: PathBuf,
    bin: PathBuf,
    user: Option<(u32, u32)>,
    port: u16,
    /// Connection string of its `postgres` database, user `jass`, no password.
    pub url: String,
}

/// Where Debian keeps PostgreSQL's server binaries (`$JASS_PG_BIN` first).
fn bin_dir() -> io::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("JASS_PG_BIN") {
        return Ok(PathBuf::from(dir));
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|_| {
            io::Error::other("PostgreSQL is needed: apt-get install postgresql (./test.sh installs it)")
        })?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("postgres").is_file())
        .collect();
    found.sort();
    found.pop().ok_or_else(|| io::Error::other("no PostgreSQL server binaries under /usr/lib/postgresql"))
}

/// The `postgres` user's uid and gid, when this process is root.
fn postgres_user() -> io::Result<Option<(u32, u32)>> {
    let root = std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false);
    if !root {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd")?;
    let ids = passwd.lines().find_map(|l| {
        let mut f = l.split(':');
        (f.next() == Some("postgres")).then(|| {
            let (_, uid, gid) = (f.next(), f.next()?, f.next()?);
            Some((uid.parse().ok()?, gid.parse().ok()?))
        })?
    });
    ids.map(Some).ok_or_else(|| io::Error::other("running as root, but there is no postgres user"))
}

/// `bin` as the postgres user when root (`setpriv` execs it, so the pid is its own).
fn command(bin: &Path, user: Option<(u32, u32)>) -> Command {
    match user {
        Some((uid, gid)) => {
            let mut c = Command::new("setpriv");
            c.arg(format!("--reuid={uid}"))
                .arg(format!("--regid={gid}"))
                .arg("--clear-groups")
                .arg("--")
                .arg(bin);
            c
        }
        None => Command::new(bin),
    }
}

impl Throwaway {
    /// Creates and starts a cluster; waits until it accepts connections.
    ///
    /// # Errors
    /// No PostgreSQL binaries, or the cluster did not start (its log is in the error).
    pub fn start() -> io::Result<Self> {
        static N: AtomicU32 = AtomicU32::new(0);
        let bin = bin_dir()?;
        let user = postgres_user()?;
        let dir = std::env::temp_dir().join(format!(
            "jass-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid))?;
        }
        let data = dir.join("data");
        let out = command(&bin.join("initdb"), user)
            .arg("-D")
            .arg(&data)
            .args(["-U", "jass", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            .stdout(Stdio::null())
            .output()?;
        if !out.status.success() {
            return Err(io::Error::other(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr))));
        }
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let log = std::fs::File::create(dir.join("postgres.log"))?;
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.join("postgres.log"), Some(uid), Some(gid))?;
        }
        drop(log);
        let child = spawn(&bin, user, &dir, port)?;
        let mut me =
            Self { child, dir, bin, user, port, url: format!("postgres://jass@127.0.0.1:{port}/postgres") };
        me.ready()?;
        Ok(me)
    }

    /// Waits until the server accepts connections.
    fn ready(&mut self) -> io::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = command(&self.bin.join("pg_isready"), None)
                .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-q"])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return Ok(());
            }
            if let Some(status) = self.child.try_wait()? {
                return Err(io::Error::other(format!("postgres exited ({status}): {}", self.log())));
            }
            if Instant::now() > deadline {
                return Err(io::Error::other(format!("postgres did not come up: {}", self.log())));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server (a fast shutdown: every session ends), keeps it down for
    /// `down`, and starts it again on the same data and port.
    ///
    /// # Errors
    /// It did not start again (its log is in the error).
    pub fn restart(&mut self, down: Duration) -> io::Result<()> {
        self.stop();
        std::thread::sleep(down);
        self.child = spawn(&self.bin, self.user, &self.dir, self.port)?;
        self.ready()
    }

    /// A fast shutdown (SIGINT), then SIGKILL if it does not end in time.
    fn stop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// What the server logged.
    #[must_use]
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("postgres.log")).unwrap_or_default()
    }

    /// The server's pid.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Throwaway {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts `postgres` on the cluster in `dir`, logging to `dir/postgres.log`.
fn spawn(bin: &Path, user: Option<(u32, u32)>, dir: &Path, port: u16) -> io::Result<Child> {
    let log = std::fs::OpenOptions::new().append(true).open(dir.join("postgres.log"))?;
    command(&bin.join("postgres"), user)
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1", "-c"])
        .arg(format!("unix_socket_directories={}", dir.display()))
        .args(["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "max_connections=100"])
        .stdout(log.try_clone()?)
        .stderr(log)
        .stdin(Stdio::null())
        .spawn()
}
