//! Per-address limits: open WebSockets and tables created per time window, so one
//! host cannot take all of `max_connections` or `max_tables` (protocol.md section 8).
//!
//! IPv6 clients are counted by their /64: a single host usually holds a whole /64
//! and could otherwise pick a fresh address for every socket.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::ratelimit::{RateLimit, Verdict};

/// Maps are swept of stale entries when they grow past this (and then past twice
/// what survived), so the sweep is amortized and the maps stay bounded by the
/// number of recently active addresses.
const SWEEP_AT: usize = 1024;

/// A hashed key for sharing something between groups (an address's key, a table
/// id): equal values give equal groups within one run of the server.
pub(crate) fn group(of: &(impl std::hash::Hash + ?Sized)) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(of)
}

/// The key an address is counted under: IPv4 as is (also when IPv4-mapped), IPv6
/// by its /64.
pub(crate) fn key(ip: IpAddr) -> IpAddr {
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

/// Open connections per address, up to a cap.
#[derive(Debug)]
pub(crate) struct Slots {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl Slots {
    fn new(max: usize) -> Arc<Self> {
        Arc::new(Self { max, open: Mutex::new(HashMap::new()) })
    }

    fn take(self: &Arc<Self>, ip: IpAddr) -> Option<IpSlot> {
        let key = key(ip);
        let mut map = lock(&self.open);
        let n = map.entry(key).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(IpSlot { owner: Arc::clone(self), key })
    }
}

/// The per-address counters.
#[derive(Debug)]
pub(crate) struct PerIp {
    /// Upgraded WebSockets.
    sockets: Arc<Slots>,
    /// TCP connections still speaking HTTP (an upgraded one leaves this count).
    http: Arc<Slots>,
    /// Tables an address created that are still held (protocol.md 8): the rate of
    /// creation alone would let one address hold rate × lifetime tables.
    held: Arc<Slots>,
    max_tables: u32,
    window: Duration,
    tables: Mutex<(HashMap<IpAddr, Window>, usize)>,
    /// Token buckets for the table API (protocol.md 1); swept like `tables`.
    requests: Mutex<(HashMap<IpAddr, RateLimit>, usize)>,
    request_burst: u32,
    request_rate: u32,
}

/// One open connection of an address; dropping it gives the slot back.
#[derive(Debug)]
pub(crate) struct IpSlot {
    owner: Arc<Slots>,
    key: IpAddr,
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut map = lock(&self.owner.open);
        if let Some(n) = map.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

/// The limits of [`PerIp::new`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Open WebSockets per address.
    pub(crate) sockets: usize,
    /// Open HTTP connections per address.
    pub(crate) http: usize,
    /// Tables created per address per `window`.
    pub(crate) tables: u32,
    /// Tables created by one address held at once.
    pub(crate) held_tables: usize,
    /// The window of `tables`.
    pub(crate) window: Duration,
    /// Table API requests per address: the burst…
    pub(crate) request_burst: u32,
    /// …and its refill per second.
    pub(crate) request_rate: u32,
}

impl PerIp {
    /// Counters under `limits`.
    pub(crate) fn new(limits: Limits) -> Self {
        Self {
            sockets: Slots::new(limits.sockets),
            http: Slots::new(limits.http),
            held: Slots::new(limits.held_tables),
            max_tables: limits.tables,
            window: limits.window,
            tables: Mutex::new((HashMap::new(), SWEEP_AT)),
            requests: Mutex::new((HashMap::new(), SWEEP_AT)),
            request_burst: limits.request_burst,
            request_rate: limits.request_rate,
        }
    }

    /// A socket slot for `ip`, or `None` if it has its most sockets open already.
    pub(crate) fn connect(&self, ip: IpAddr) -> Option<IpSlot> {
        self.sockets.take(ip)
    }

    /// A slot for one more table created by `ip`, held by the table's actor until it
    /// ends; `None` when the address holds its most tables already.
    pub(crate) fn hold_table(&self, ip: IpAddr) -> Option<IpSlot> {
        self.held.take(ip)
    }

    /// An HTTP connection slot for `ip`, or `None` at its cap (protocol.md 1).
    pub(crate) fn http_connect(&self, ip: IpAddr) -> Option<IpSlot> {
        self.http.take(ip)
    }

    /// Takes one table API request from `ip`'s bucket; `false` when it is empty.
    pub(crate) fn request(&self, ip: IpAddr) -> bool {
        let mut guard = lock(&self.requests);
        let (map, sweep_at) = &mut *guard;
        if map.len() >= *sweep_at {
            // A full bucket is the same as none.
            map.retain(|_, b| !b.is_full());
            *sweep_at = (map.len() * 2).max(SWEEP_AT);
        }
        let (burst, rate) = (self.request_burst, self.request_rate);
        let bucket = map.entry(key(ip)).or_insert_with(|| RateLimit::new(burst, rate, u32::MAX));
        bucket.check() == Verdict::Allow
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

    fn limits(sockets: usize, tables: u32, window: Duration) -> Limits {
        Limits { sockets, http: sockets, tables, held_tables: 8, window, request_burst: 2, request_rate: 1 }
    }

    #[test]
    fn connections_are_capped_per_address_and_given_back() {
        let p = PerIp::new(limits(2, 1, Duration::from_secs(60)));
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
        let p = PerIp::new(limits(1, 1, Duration::from_secs(60)));
        let _a = p.connect(ip("2001:db8:1:2::1")).unwrap();
        assert!(p.connect(ip("2001:db8:1:2:ffff::9")).is_none());
        assert!(p.connect(ip("2001:db8:1:3::1")).is_some());
    }

    #[test]
    fn table_creation_has_a_window() {
        let p = PerIp::new(limits(1, 2, Duration::from_millis(50)));
        assert!(p.create_table(ip("10.0.0.1")));
        assert!(p.create_table(ip("10.0.0.1")));
        assert!(!p.create_table(ip("10.0.0.1")));
        assert!(p.create_table(ip("10.0.0.2")));
        std::thread::sleep(Duration::from_millis(60));
        assert!(p.create_table(ip("10.0.0.1")));
    }

    #[test]
    fn http_connections_are_counted_apart_from_sockets() {
        let p = PerIp::new(limits(1, 1, Duration::from_secs(60)));
        let _socket = p.connect(ip("10.0.0.1")).unwrap();
        let http = p.http_connect(ip("10.0.0.1")).unwrap();
        assert!(p.http_connect(ip("10.0.0.1")).is_none());
        drop(http);
        assert!(p.http_connect(ip("10.0.0.1")).is_some());
    }

    // The table API is rate limited per address (protocol.md 1).
    #[tokio::test(start_paused = true)]
    async fn requests_have_a_bucket_per_address() {
        let p = PerIp::new(limits(1, 1, Duration::from_secs(60)));
        assert!(p.request(ip("10.0.0.1")));
        assert!(p.request(ip("10.0.0.1")));
        assert!(!p.request(ip("10.0.0.1")));
        assert!(p.request(ip("10.0.0.2")), "another address has its own bucket");
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(p.request(ip("10.0.0.1")), "refilled");
    }
}
