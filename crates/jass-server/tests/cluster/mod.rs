//! The balancer for the cluster tests: the repository's `deploy/haproxy.cfg` on a real
//! HAProxy (Debian's), on loopback, in front of two server binaries.
#![allow(dead_code, unreachable_pub, missing_docs)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::net::TcpStream;

use super::binary::free_port;

/// No per-address limit in the way: behind the balancer every request comes from it.
pub const OPEN: [&str; 10] = [
    "--max-tables-per-ip",
    "100000",
    "--max-held-tables-per-ip",
    "100000",
    "--http-rate-burst",
    "100000",
    "--http-rate-per-second",
    "100000",
    "--max-connections-per-ip",
    "100000",
];

/// HAProxy: `$JASS_HAPROXY`, or `haproxy` on the path (test.sh installs Debian's).
fn haproxy_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("JASS_HAPROXY") {
        return PathBuf::from(p);
    }
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain(["/usr/sbin".into(), "/usr/local/sbin".into()])
        .map(|d| d.join("haproxy"))
        .find(|p| p.is_file());
    found.unwrap_or_else(|| {
        panic!("HAProxy is needed for this test: apt-get install haproxy (./test.sh installs it), or set JASS_HAPROXY")
    })
}

/// HAProxy as a child process, ended by its pid when dropped.
pub struct Balancer {
    child: Child,
    pub addr: SocketAddr,
    pub stats: SocketAddr,
}

impl Balancer {
    pub async fn start(nodes: [SocketAddr; 2], log: &Path) -> Self {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let stats: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let cfg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/haproxy.cfg");
        let out = std::fs::File::create(log).unwrap();
        let child = Command::new(haproxy_bin())
            .arg("-db")
            .arg("-f")
            .arg(&cfg)
            .env("JASS_BIND", addr.to_string())
            .env("JASS_NODE1", nodes[0].to_string())
            .env("JASS_NODE2", nodes[1].to_string())
            .env("JASS_STATS", stats.to_string())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .stdin(Stdio::null())
            .spawn()
            .expect("haproxy starts");
        let b = Self { child, addr, stats };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(addr).await.is_err() {
            assert!(
                Instant::now() < deadline,
                "haproxy did not come up: {}",
                std::fs::read_to_string(log).unwrap()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        b
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Balancer {
    /// The balancer's view of node `name` (`UP`, `DOWN`, …) in the `tables` backend.
    pub async fn state_of(&self, name: &str) -> String {
        let Ok(mut s) = TcpStream::connect(self.stats).await else { return String::new() };
        let req = "GET /stats;csv HTTP/1.1\r\nhost: stats\r\nconnection: close\r\n\r\n";
        if tokio::io::AsyncWriteExt::write_all(&mut s, req.as_bytes()).await.is_err() {
            return String::new();
        }
        let mut out = Vec::new();
        let _ = tokio::time::timeout(
            Duration::from_secs(5),
            tokio::io::AsyncReadExt::read_to_end(&mut s, &mut out),
        )
        .await;
        let text = String::from_utf8_lossy(&out);
        let prefix = format!("tables,{name},");
        text.lines()
            .find(|l| l.starts_with(&prefix))
            .and_then(|l| l.split(',').nth(17))
            .unwrap_or_default()
            .to_owned()
    }

    /// Waits until the balancer sees node `name` in `state` (health checks every
    /// 500 ms: two failed mark a node down, three good mark it up).
    pub async fn until_state(&self, name: &str, state: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let now = self.state_of(name).await;
            if now.starts_with(state) {
                return;
            }
            assert!(Instant::now() < deadline, "{name} is {now:?}, not {state} within 20 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
