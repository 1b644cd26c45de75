//! Per-address limits: open WebSockets and tables created per time window, so one
//! host cannot take all of `max_connections` or `max_tables` (protocol.md section 8).
//!
//! IPv6 clients are counted by their /64: a single host usually holds a whole /64
//! and could otherwise pick a fresh address for every socket.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Maps are swept of stale entries when they grow past this (and then past twice
/// what survived), so the sweep is amortized and the maps stay bounded by the
/// number of recently active addresses.
const SWEEP_AT: usize = 1024;

/// The key an address is counted under: IPv4 as is (also when IPv4-mapped), IPv6
/// by its /64.
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Table creations of one address in its current window.
#[derive(Debug)]
struct Window {
    start: Instant,
    count: u32,
}

/// The per-address counters.
#[derive(Debug)]
pub(crate) struct PerIp {
    max_connections: usize,
    connections: Mutex<HashMap<IpAddr, usize>>,
    max_tables: u32,
    window: Duration,
    tables: Mutex<(HashMap<IpAddr, Window>, usize)>,
}

/// One open socket of an address; dropping it gives the slot back.
#[derive(Debug)]
pub(crate) struct IpSlot {
    owner: Arc<PerIp>,
    key: IpAddr,
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut map = lock(&self.owner.connections);
        if let Some(n) = map.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

impl PerIp {
    /// Limits: `max_connections` open sockets, `max_tables` creations per `window`.
    pub(crate) fn new(max_connections: usize, max_tables: u32, window: Duration) -> Self {
        Self {
            max_connections,
            connections: Mutex::new(HashMap::new()),
            max_tables,
            window,
            tables: Mutex::new((HashMap::new(), SWEEP_AT)),
        }
    }

    /// A socket slot for `ip`, or `None` if it has `max_connections` open already.
    pub(crate) fn connect(self: &Arc<Self>, ip: IpAddr) -> Option<IpSlot> {
        let key = key(ip);
        let mut map = lock(&self.connections);
        let n = map.entry(key).or_insert(0);
        if *n >= self.max_connections {
            return None;
        }
        *n += 1;
        Some(IpSlot { owner: Arc::clone(self), key })
    }

    /// Counts a table creation for `ip`; `false` if it is over its limit for the
    /// current window (then nothing is counted).
    pub(crate) fn create_table(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let mut guard = lock(&self.tables);
        let (map, sweep_at) = &mut *guard;
        if map.len() >= *sweep_at {
            map.retain(|_, w| now.duration_since(w.start) < self.window);
            *sweep_at = (map.len() * 2).max(SWEEP_AT);
        }
        let w = map.entry(key(ip)).or_insert(Window { start: now, count: 0 });
        if now.duration_since(w.start) >= self.window {
            *w = Window { start: now, count: 0 };
        }
        if w.count >= self.max_tables {
            return false;
        }
        w.count += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn connections_are_capped_per_address_and_given_back() {
        let p = Arc::new(PerIp::new(2, 1, Duration::from_secs(60)));
        let a = p.connect(ip("10.0.0.1")).unwrap();
        let _b = p.connect(ip("10.0.0.1")).unwrap();
        assert!(p.connect(ip("10.0.0.1")).is_none());
        assert!(p.connect(ip("::ffff:10.0.0.1")).is_none(), "IPv4-mapped counts as IPv4");
        assert!(p.connect(ip("10.0.0.2")).is_some());
        drop(a);
        assert!(p.connect(ip("10.0.0.1")).is_some());
    }

    #[test]
    fn ipv6_counts_by_its_64() {
        let p = Arc::new(PerIp::new(1, 1, Duration::from_secs(60)));
        let _a = p.connect(ip("2001:db8:1:2::1")).unwrap();
        assert!(p.connect(ip("2001:db8:1:2:ffff::9")).is_none());
        assert!(p.connect(ip("2001:db8:1:3::1")).is_some());
    }

    #[test]
    fn table_creation_has_a_window() {
        let p = PerIp::new(1, 2, Duration::from_millis(50));
        assert!(p.create_table(ip("10.0.0.1")));
        assert!(p.create_table(ip("10.0.0.1")));
        assert!(!p.create_table(ip("10.0.0.1")));
        assert!(p.create_table(ip("10.0.0.2")));
        std::thread::sleep(Duration::from_millis(60));
        assert!(p.create_table(ip("10.0.0.1")));
    }
}
