//! The three HTTP calls of protocol.md section 1, and the load bench's read of
//! `GET /api/stats`, over a plain HTTP/1.1 socket.
//!
//! A bot needs only `POST /api/tables`, `POST /api/tables/{table}/seats` and
//! `GET /api/tables/{table}` (the load bench also `GET /api/stats`), always to a
//! server it was pointed at, without TLS; a written-out request with `httparse`
//! reading the answer keeps the dependency tree (and the load bench's memory) small.
//! Each call opens its own connection with `Connection: close`.

use std::time::Duration;

use jass_protocol::http::{ApiError, CreateTable, JoinTable, Joined, TableInfo};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::BotError;

/// An answer larger than this is not one of ours; refuse it instead of buffering it.
const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// How long one HTTP call may take in total (a stuck server must not hang a bot).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the server listens, parsed from `http://host:port`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// Host name or address, as given.
    pub host: String,
    /// TCP port (default 80).
    pub port: u16,
    /// The local address to connect from (`None`: the system's choice): a bench
    /// plays the clients of several addresses from one machine (127.0.0.2, …).
    pub bind: Option<std::net::IpAddr>,
}

impl Server {
    /// Parses `http://host[:port][/]`.
    ///
    /// # Errors
    /// Another scheme (e.g. `https`, which this small client does not speak), a path,
    /// or a bad port.
    pub fn parse(url: &str) -> Result<Self, BotError> {
        let bad = |why: &str| BotError::Usage(format!("--server {url:?}: {why}"));
        let rest = url.strip_prefix("http://").ok_or_else(|| bad("expected http://host:port"))?;
        let rest = rest.trim_end_matches('/');
        if rest.is_empty() || rest.contains('/') {
            return Err(bad("expected http://host:port without a path"));
        }
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') => (h, p.parse().map_err(|_| bad("bad port"))?),
            _ => (rest, 80),
        };
        Ok(Self { host: host.to_owned(), port, bind: None })
    }

    /// A TCP connection to the server, from [`Server::bind`] if set.
    ///
    /// # Errors
    /// The name does not resolve, or the connection fails.
    pub async fn connect(&self) -> std::io::Result<TcpStream> {
        let Some(local) = self.bind else {
            return TcpStream::connect((self.host.as_str(), self.port)).await;
        };
        let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address of the server's family");
        for addr in tokio::net::lookup_host((self.host.as_str(), self.port)).await? {
            if addr.is_ipv4() != local.is_ipv4() {
                continue;
            }
            let socket = if local.is_ipv4() {
                tokio::net::TcpSocket::new_v4()?
            } else {
                tokio::net::TcpSocket::new_v6()?
            };
            socket.bind(std::net::SocketAddr::new(local, 0))?;
            match socket.connect(addr).await {
                Ok(s) => return Ok(s),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// `ws://host:port/ws/{table}`: the table's WebSocket (protocol.md section 2).
    #[must_use]
    pub fn ws_url(&self, table: &str) -> String {
        format!("ws://{}:{}/ws/{table}", self.host, self.port)
    }

    /// The full share link for a `link` path from create or join.
    #[must_use]
    pub fn link(&self, path: &str) -> String {
        format!("http://{}:{}{path}", self.host, self.port)
    }

    /// `POST /api/tables`: create a table; the answer holds the host's seat token.
    ///
    /// # Errors
    /// The network, or the server's error answer (e.g. `busy`, `bad_options`).
    pub async fn create_table(&self, body: &CreateTable) -> Result<Joined, BotError> {
        self.call("POST", "/api/tables", Some(body)).await
    }

    /// `POST /api/tables/{table}/seats`: take a seat.
    ///
    /// # Errors
    /// The network, or the server's error answer (`seat_taken`, `table_full`, …).
    pub async fn join_table(&self, table: &str, body: &JoinTable) -> Result<Joined, BotError> {
        self.call("POST", &format!("/api/tables/{table}/seats"), Some(body)).await
    }

    /// `GET /api/tables/{table}`: the lobby as anyone with the link sees it.
    ///
    /// # Errors
    /// The network, or the server's error answer (`unknown_table`).
    pub async fn table_info(&self, table: &str) -> Result<TableInfo, BotError> {
        self.call::<(), _>("GET", &format!("/api/tables/{table}"), None).await
    }

    /// `GET /api/stats`: the server's counters, as plain JSON (they are for people).
    ///
    /// # Errors
    /// The network, or an answer that is not JSON.
    pub async fn stats(&self) -> Result<serde_json::Value, BotError> {
        self.call::<(), _>("GET", "/api/stats", None).await
    }

    /// `GET /api/tables/{table}/rounds/{round}/review`: the status only (200 ready,
    /// 202 being computed, 409 round not over, 503 busy); a load bench counts them.
    ///
    /// # Errors
    /// The network, or no answer within the call timeout.
    pub async fn review_status(&self, table: &str, round: u32) -> Result<u16, BotError> {
        let path = format!("/api/tables/{table}/rounds/{round}/review");
        let (status, _) = tokio::time::timeout(CALL_TIMEOUT, self.request("GET", &path, ""))
            .await
            .map_err(|_| BotError::Protocol(format!("GET {path}: no answer in {CALL_TIMEOUT:?}")))??;
        Ok(status)
    }

    async fn call<B: Serialize, T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, BotError> {
        let body = match body {
            Some(b) => serde_json::to_string(b).map_err(|e| BotError::Protocol(e.to_string()))?,
            None => String::new(),
        };
        let (status, answer) =
            tokio::time::timeout(CALL_TIMEOUT, self.request(method, path, &body)).await.map_err(|_| {
                BotError::Protocol(format!("{method} {path}: no answer in {CALL_TIMEOUT:?}"))
            })??;
        if (200..300).contains(&status) {
            serde_json::from_slice(&answer)
                .map_err(|e| BotError::Protocol(format!("{method} {path}: unexpected answer: {e}")))
        } else {
            let error = serde_json::from_slice::<ApiError>(&answer).ok();
            Err(BotError::Api {
                status,
                code: error.as_ref().map(|e| e.code),
                message: error.map_or_else(
                    || String::from_utf8_lossy(&answer).chars().take(200).collect(),
                    |e| e.message,
                ),
            })
        }
    }

    /// One HTTP/1.1 exchange; returns the status and the (de-chunked) body.
    async fn request(&self, method: &str, path: &str, body: &str) -> Result<(u16, Vec<u8>), BotError> {
        let mut stream = self.connect().await?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}:{}\r\nAccept: application/json\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.host,
            self.port,
            body.len()
        );
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        let mut raw = Vec::new();
        (&mut stream).take(MAX_RESPONSE_BYTES).read_to_end(&mut raw).await?;
        parse_response(&raw)
    }
}

/// Splits an HTTP/1.1 response into status and body (Content-Length, chunked, or
/// until close); httparse reads the head and the chunk sizes.
fn parse_response(raw: &[u8]) -> Result<(u16, Vec<u8>), BotError> {
    let bad = |why: &str| BotError::Protocol(format!("malformed HTTP response: {why}"));
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut response = httparse::Response::new(&mut headers);
    let split = match response.parse(raw) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Err(bad("no header end")),
        Err(e) => return Err(bad(&e.to_string())),
    };
    let status = response.code.ok_or_else(|| bad("no status"))?;
    let body = raw.get(split..).ok_or_else(|| bad("head longer than the response"))?;
    let header = |name: &str| {
        response
            .headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| String::from_utf8_lossy(h.value))
    };
    if header("transfer-encoding").is_some_and(|v| v.trim().eq_ignore_ascii_case("chunked")) {
        return Ok((status, dechunk(body).ok_or_else(|| bad("bad chunked body"))?));
    }
    match header("content-length").and_then(|v| v.trim().parse::<usize>().ok()) {
        Some(n) => {
            Ok((status, body.get(..n).ok_or_else(|| bad("body shorter than Content-Length"))?.to_vec()))
        }
        None => Ok((status, body.to_vec())),
    }
}

fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let httparse::Status::Complete((start, size)) = httparse::parse_chunk_size(body).ok()? else {
            return None;
        };
        body = body.get(start..)?;
        if size == 0 {
            return Some(out);
        }
        let size = usize::try_from(size).ok()?;
        out.extend_from_slice(body.get(..size)?);
        body = body.get(size..)?.strip_prefix(b"\r\n")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_server_urls() {
        assert_eq!(
            Server::parse("http://127.0.0.1:8080").ok(),
            Some(Server { host: "127.0.0.1".into(), port: 8080, bind: None })
        );
        assert_eq!(
            Server::parse("http://localhost/").ok(),
            Some(Server { host: "localhost".into(), port: 80, bind: None })
        );
        assert!(Server::parse("https://x:1").is_err());
        assert!(Server::parse("http://x:1/api").is_err());
        assert!(Server::parse("http://x:port").is_err());
        let s = Server::parse("http://h:1").ok();
        assert_eq!(s.map(|s| s.ws_url("abc")), Some("ws://h:1/ws/abc".to_owned()));
    }

    #[test]
    fn parses_responses() {
        let r = b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(parse_response(r).ok(), Some((201, b"{}".to_vec())));
        let r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        assert_eq!(parse_response(r).ok(), Some((200, b"abcde".to_vec())));
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
        let r = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc\r\n0\r\n\r\n";
        assert!(parse_response(r).is_err(), "a chunk shorter than its size");
        assert!(parse_response(b"HTTP/1.1 2x0 OK\r\n\r\n").is_err(), "a bad status");
    }
}
