//! Who may read the operator's counters (`GET /api/stats`): they describe the server,
//! not a game, but they are not for players. Some of them name tables (those
//! quarantined at start-up: an id is a table's link), and counters that move with
//! play can be read against one table's moves. So they answer the server's own
//! machine (a loopback request: 127.0.0.1 or ::1, exactly) or a request that carries
//! the operator's token.

use std::net::IpAddr;

use sha2::{Digest, Sha256};

/// Whether a request from `peer`, with this `Authorization` header, may read the
/// counters, given the configured `token` (if any).
pub(crate) fn allowed(peer: IpAddr, authorization: Option<&str>, token: Option<&str>) -> bool {
    if local(peer) {
        return true;
    }
    let (Some(sent), Some(token)) = (authorization.and_then(|a| a.strip_prefix("Bearer ")), token) else {
        return false;
    };
    // Compared as digests: the time taken says nothing of how much of it matched.
    Sha256::digest(sent.trim().as_bytes()) == Sha256::digest(token.as_bytes())
}

/// The loopback address itself, not the rest of 127.0.0.0/8: another address of the
/// range can be routed to the machine by a container runtime or a tunnel.
fn local(peer: IpAddr) -> bool {
    match peer {
        IpAddr::V4(v4) => v4 == std::net::Ipv4Addr::LOCALHOST,
        IpAddr::V6(v6) => {
            v6 == std::net::Ipv6Addr::LOCALHOST || v6.to_ipv4_mapped() == Some(std::net::Ipv4Addr::LOCALHOST)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_itself_or_the_token_reads_the_counters() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        for local in ["127.0.0.1", "::1", "::ffff:127.0.0.1"] {
            assert!(allowed(ip(local), None, None), "{local}");
        }
        for other in ["127.0.0.2", "10.0.0.1", "192.168.1.2", "::2", "::ffff:127.0.0.2"] {
            assert!(!allowed(ip(other), None, None), "{other}");
            assert!(!allowed(ip(other), Some("Bearer s3cret"), None), "{other}: no token configured");
            assert!(!allowed(ip(other), Some("Bearer wrong"), Some("s3cret")), "{other}");
            assert!(!allowed(ip(other), Some("s3cret"), Some("s3cret")), "{other}: not a bearer");
            assert!(allowed(ip(other), Some("Bearer s3cret"), Some("s3cret")), "{other}");
        }
    }
}
