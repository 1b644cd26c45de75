//! The PROXY protocol (versions 1 and 2) on connections from a trusted balancer.
//!
//! Behind a balancer every connection comes from the balancer's address, so the
//! per-address limits would count every player as one, and `/api/stats` would take
//! everyone for the operator. A balancer listed with `--trusted-proxy` sends the
//! client's address first (HAProxy's `send-proxy-v2`); the server reads it and uses it
//! wherever it used the connection's address. Nobody else can claim an address: from
//! any other peer the first bytes are HTTP as always.
//!
//! The header is read exactly (its own length fields say how long it is), so not one
//! byte of the HTTP request behind it is consumed; `ppp` checks it.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// The longest version 1 header (the specification's bound).
const V1_MAX: usize = 107;

/// The longest version 2 header accepted: addresses plus a few TLVs. HAProxy sends
/// 28 bytes for IPv4 and 52 for IPv6 without TLVs.
const V2_MAX: usize = 16 + 512;

/// The version 2 signature.
const V2_SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";

/// Whether `peer` is a balancer whose connections start with a PROXY header.
pub(crate) fn trusted(peer: IpAddr, proxies: &[IpAddr]) -> bool {
    proxies.iter().any(|p| p.to_canonical() == peer.to_canonical())
}

/// Reads the PROXY header a trusted balancer sends first, within `within`. Returns the
/// client's address, or the balancer's own for a connection it makes itself (a health
/// check: `LOCAL`, or `UNKNOWN`).
///
/// # Errors
/// No complete, valid header in time: the connection is not served.
pub(crate) async fn read_client(
    tcp: &mut TcpStream,
    peer: SocketAddr,
    within: Duration,
) -> io::Result<SocketAddr> {
    let header = tokio::time::timeout(within, read_header(tcp))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no PROXY header in time"))??;
    client_of(&header, peer)
}

async fn read_header(tcp: &mut TcpStream) -> io::Result<Vec<u8>> {
    let mut start = [0u8; 5];
    tcp.read_exact(&mut start).await?;
    let mut head = start.to_vec();
    if &start == b"PROXY" {
        // Version 1: text up to CRLF, one byte at a time so nothing behind it is read.
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n") {
            if head.len() >= V1_MAX {
                return Err(bad("a PROXY v1 header longer than 107 bytes"));
            }
            tcp.read_exact(&mut byte).await?;
            head.extend_from_slice(&byte);
        }
        return Ok(head);
    }
    if !V2_SIGNATURE.starts_with(&start) {
        return Err(bad("no PROXY header from a trusted proxy"));
    }
    // The rest of the 16 fixed bytes; the last two give the length of what follows.
    let mut rest = [0u8; 11];
    tcp.read_exact(&mut rest).await?;
    let [.., hi, lo] = rest;
    let len = usize::from(u16::from_be_bytes([hi, lo]));
    if 16 + len > V2_MAX {
        return Err(bad("a PROXY v2 header too long"));
    }
    let mut tail = vec![0u8; len];
    tcp.read_exact(&mut tail).await?;
    head.extend_from_slice(&rest);
    head.extend_from_slice(&tail);
    Ok(head)
}

/// The client's address in a complete header.
fn client_of(header: &[u8], peer: SocketAddr) -> io::Result<SocketAddr> {
    match ppp::HeaderResult::parse(header) {
        ppp::HeaderResult::V1(Ok(h)) => Ok(match h.addresses {
            ppp::v1::Addresses::Tcp4(a) => SocketAddr::new(a.source_address.into(), a.source_port),
            ppp::v1::Addresses::Tcp6(a) => SocketAddr::new(a.source_address.into(), a.source_port),
            ppp::v1::Addresses::Unknown => peer,
        }),
        ppp::HeaderResult::V2(Ok(h)) => Ok(match (h.command, h.addresses) {
            (ppp::v2::Command::Proxy, ppp::v2::Addresses::IPv4(a)) => {
                SocketAddr::new(a.source_address.into(), a.source_port)
            }
            (ppp::v2::Command::Proxy, ppp::v2::Addresses::IPv6(a)) => {
                SocketAddr::new(a.source_address.into(), a.source_port)
            }
            // The balancer's own connection (a health check), or an address family
            // that has no IP: it counts as the balancer.
            _ => peer,
        }),
        ppp::HeaderResult::V1(Err(e)) => Err(bad(&format!("a bad PROXY v1 header: {e}"))),
        ppp::HeaderResult::V2(Err(e)) => Err(bad(&format!("a bad PROXY v2 header: {e}"))),
    }
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> SocketAddr {
        "10.0.0.9:5000".parse().unwrap()
    }

    #[test]
    fn version_1_gives_the_client() {
        let h = b"PROXY TCP4 192.0.2.7 10.0.0.1 51000 8080\r\n";
        assert_eq!(client_of(h, peer()).unwrap(), "192.0.2.7:51000".parse().unwrap());
        let h = b"PROXY TCP6 2001:db8::7 2001:db8::1 51000 8080\r\n";
        assert_eq!(client_of(h, peer()).unwrap(), "[2001:db8::7]:51000".parse().unwrap());
        assert_eq!(client_of(b"PROXY UNKNOWN\r\n", peer()).unwrap(), peer());
    }

    #[test]
    fn version_2_gives_the_client_and_a_local_connection_is_the_balancer() {
        let mut h = V2_SIGNATURE.to_vec();
        h.extend([0x21, 0x11, 0, 12, 192, 0, 2, 7, 10, 0, 0, 1, 0xC7, 0x38, 0x1F, 0x90]);
        assert_eq!(client_of(&h, peer()).unwrap(), "192.0.2.7:51000".parse().unwrap());
        let mut local = V2_SIGNATURE.to_vec();
        local.extend([0x20, 0x00, 0, 0]);
        assert_eq!(client_of(&local, peer()).unwrap(), peer());
    }

    #[test]
    fn garbage_is_refused() {
        let mut h = V2_SIGNATURE.to_vec();
        h.extend([0x21, 0x11, 0, 3, 1, 2, 3]);
        assert!(client_of(&h, peer()).is_err());
        assert!(client_of(b"PROXY TCP4 nonsense\r\n", peer()).is_err());
    }

    #[test]
    fn trust_is_by_address_also_when_mapped() {
        let proxies: Vec<IpAddr> = vec!["127.0.0.1".parse().unwrap()];
        assert!(trusted("127.0.0.1".parse().unwrap(), &proxies));
        assert!(trusted("::ffff:127.0.0.1".parse().unwrap(), &proxies));
        assert!(!trusted("127.0.0.2".parse().unwrap(), &proxies));
    }
}
