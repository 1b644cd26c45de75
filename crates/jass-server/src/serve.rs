//! The accept loop and one HTTP/1.1 connection task per TCP connection, in place of
//! `axum::serve`, which has no header timeout and no per-address connection cap
//! (protocol.md 1): an idle or trickling connection would otherwise hold a descriptor
//! for ever, and enough of them starve `/healthz` and every upgrade.
//!
//! - hyper's header read timeout closes a connection that has not sent a complete
//!   request head in time: idle after connecting, trickling headers, or idle between
//!   keep-alive requests (hyper restarts the timer for every request head).
//! - Each address holds at most `max_http_connections_per_ip` connections that are
//!   still HTTP; a WebSocket leaves this count when it is upgraded (hyper's
//!   connection future ends then) and is counted by the socket cap instead.
//! - Every connection closes by [`Linger`]: the write side first, then what the peer
//!   still sends is read and dropped for a short bounded time (protocol.md 8), so a
//!   last frame (a close 1009 after an oversized frame, a 408) is not destroyed by the
//!   reset the kernel sends when a socket closes with unread input.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower_service::Service;

use crate::app::App;
use crate::per_ip::IpSlot;
use crate::shutdown::{Shutdown, TaskGuard};
use crate::stats::bump;

/// Most bytes a closing connection reads and drops before it gives up on a clean
/// close: a peer still sending after this is not waiting for an answer.
const LINGER_BYTES: usize = 1 << 20;

/// What an address over its connection cap gets before the close; written without
/// waiting (it fits any socket buffer), so a refusal costs no task.
const REFUSAL: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
content-length: 73\r\nconnection: close\r\n\r\n\
{\"code\":\"busy\",\"message\":\"this address is at its limit of HTTP connections\"}";

/// Accepts until `stopping` fires, then stops listening (the listener is dropped on
/// return); each connection finishes its request and closes, within the shutdown
/// grace.
pub(crate) async fn serve(listener: TcpListener, router: Router, app: Arc<App>, stopping: Shutdown) {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stopping.cancelled() => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (EMFILE) or memory: the backlog keeps the
                // waiting clients; try again shortly rather than spin.
                if !is_connection_error(&e) {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                continue;
            }
        };
        // Small frames must go out at once: Nagle's algorithm would hold a card play
        // back for the peer's delayed ACK (tens of milliseconds per move).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        if crate::proxy::trusted(peer.ip(), &app.config.trusted_proxies) {
            // A balancer's connection: the client's address comes first (PROXY
            // protocol), read in the connection's own task within the header timeout.
            let Some(guard) = app.guards.guard() else { break };
            let (router, app, stopping) = (router.clone(), Arc::clone(&app), stopping.clone());
            tokio::spawn(async move {
                let mut tcp = tcp;
                match crate::proxy::read_client(&mut tcp, peer, app.config.http_header_timeout).await {
                    Ok(client) => {
                        if let Some((conn, slot)) = Conn::admit(tcp, client, &router, &app) {
                            conn.run(slot, guard, stopping).await;
                        }
                    }
                    Err(e) => tracing::warn!(%peer, error = %e, "a trusted proxy's connection is not served"),
                }
            });
            continue;
        }
        let Some((conn, slot)) = Conn::admit(tcp, peer, &router, &app) else { continue };
        let Some(guard) = app.guards.guard() else { break };
        tokio::spawn(conn.run(slot, guard, stopping.clone()));
    }
}

/// Errors of one connection that leave the listener healthy.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    )
}

/// One accepted connection, before its task starts.
struct Conn {
    tcp: TcpStream,
    peer: SocketAddr,
    router: Router,
    header_timeout: Duration,
    linger: Duration,
    app: Arc<App>,
}

impl Conn {
    /// A connection from `peer` (the client, behind a trusted balancer too), unless its
    /// address is at its limit of HTTP connections: then it gets the refusal.
    fn admit(tcp: TcpStream, peer: SocketAddr, router: &Router, app: &Arc<App>) -> Option<(Self, IpSlot)> {
        let Some(slot) = app.per_ip.http_connect(peer.ip()) else {
            bump(&app.stats.counters.http_connection_refusals);
            let _ = tcp.try_write(REFUSAL);
            return None;
        };
        let conn = Self {
            tcp,
            peer,
            router: router.clone(),
            header_timeout: app.config.http_header_timeout,
            linger: app.config.close_linger,
            app: Arc::clone(app),
        };
        Some((conn, slot))
    }

    /// Serves requests until the peer closes, a timeout, an upgrade, or shutdown.
    async fn run(self, slot: IpSlot, guard: TaskGuard, stopping: Shutdown) {
        let Self { tcp, peer, router, header_timeout, linger, app } = self;
        let io = TokioIo::new(Linger { tcp: Some(tcp), eof: false, linger });
        // The peer address feeds the per-address limits (`ConnectInfo` in handlers).
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(req)
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
        let conn = builder.serve_connection(io, service).with_upgrades();
        tokio::pin!(conn);
        let served = tokio::select! {
            served = conn.as_mut() => served,
            () = stopping.cancelled() => {
                // Idle connections close now, a request in progress is answered first.
                conn.as_mut().graceful_shutdown();
                conn.await
            }
        };
        if let Err(e) = served {
            if e.is_timeout() {
                bump(&app.stats.counters.http_timeouts);
            }
            tracing::debug!(error = %e, "HTTP connection ended");
        }
        drop(slot);
        drop(guard);
    }
}

/// A TCP stream that closes cleanly when dropped: unless the peer has closed its side
/// already, a task shuts the write side and reads what still comes (at most
/// `LINGER_BYTES`, for at most `linger`) before the descriptor is closed. Also under
/// an upgraded WebSocket, which holds it until its task ends.
struct Linger {
    /// `None` only once dropped.
    tcp: Option<TcpStream>,
    /// A read returned end of stream: the peer is done, nothing to drain.
    eof: bool,
    /// How long a drain may take.
    linger: Duration,
}

fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "connection already closed")
}

impl AsyncRead for Linger {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let Some(tcp) = this.tcp.as_mut() else { return Poll::Ready(Err(gone())) };
        let before = buf.filled().len();
        let polled = Pin::new(tcp).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() == before && buf.remaining() > 0 {
            this.eof = true;
        }
        polled
    }
}

impl AsyncWrite for Linger {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_write(cx, data),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_write_vectored(cx, bufs),
            None => Poll::Ready(Err(gone())),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.as_ref().is_some_and(AsyncWrite::is_write_vectored)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_flush(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut().tcp.as_mut() {
            Some(tcp) => Pin::new(tcp).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }
}

impl Drop for Linger {
    fn drop(&mut self) {
        let Some(tcp) = self.tcp.take() else { return };
        if self.eof {
            return;
        }
        // Outside a runtime (never in the server) the stream just closes.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(drain(tcp, self.linger));
        }
    }
}

/// Sends FIN after whatever was written, then reads and drops the peer's bytes until
/// its end of stream, `LINGER_BYTES`, or `linger`.
async fn drain(mut tcp: TcpStream, linger: Duration) {
    let _ = tokio::time::timeout(linger, async {
        if tcp.shutdown().await.is_err() {
            return;
        }
        let mut scratch = [0u8; 4096];
        let mut left = LINGER_BYTES;
        while let Ok(n @ 1..) = tcp.read(&mut scratch).await {
            left = left.saturating_sub(n);
            if left == 0 {
                break;
            }
        }
    })
    .await;
}
