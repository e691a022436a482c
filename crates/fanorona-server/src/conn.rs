//! TCP connections: the accept loop, the caps on open connections (per
//! client address and in all), the time limit for a request's headers,
//! and a shutdown that ends within a bound whatever the clients do.
//!
//! A connection over a cap is answered at once with `503` and
//! `Retry-After` and closed, so no client ever waits on an accept that
//! never comes, and the server keeps descriptors for the clients it serves.

use std::{
    io,
    net::SocketAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use axum::{extract::ConnectInfo, Router};
use hyper::server::conn::http1;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    service::TowerToHyperService,
};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{OwnedSemaphorePermit, Semaphore},
};
use tokio_util::{sync::CancellationToken, task::TaskTracker};
use tower_http::add_extension::AddExtension;

use crate::{
    config::Config,
    error::AppError,
    limits::{Held, PerClient},
};

/// The kernel send buffer of every accepted connection. Linux grows it on
/// its own up to `tcp_wmem` (4 MiB here), and a client that stops reading
/// pins all of it: 32 such WebSockets held about 125 MB. Measured with
/// `ss -tmn` on a WebSocket whose client never read (4 KiB receive
/// buffer) while 8,000 states were published: 3,940,102 bytes queued
/// (`tb4194304`) without this, 129,862 bytes (`tb131072`: the kernel
/// doubles the value for its bookkeeping) with it. An answer larger than
/// this is written in more than one go; the largest file served,
/// `web/js/protocol.js`, is 18 KB before compression.
const SEND_BUFFER: usize = 64 * 1024;

/// The `Retry-After` of a refused connection, in seconds.
const RETRY_AFTER: u32 = 5;

/// Refused connections whose request is read (and dropped) before they are
/// closed, at once; past it a refused connection is closed right after its
/// answer is written.
const DRAINING: usize = 32;

/// How long a refused connection is read before it is closed.
const DRAIN_FOR: Duration = Duration::from_millis(500);

/// What the accept loop waits after the first accept error (out of file
/// descriptors, say), doubling to [`MAX_BACKOFF`] while errors go on.
const MIN_BACKOFF: Duration = Duration::from_millis(10);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// The accept loop and every connection it serves.
#[derive(Debug)]
pub(crate) struct Server {
    builder: Arc<http1::Builder>,
    total: Arc<Semaphore>,
    /// `None` behind a trusted proxy: every connection comes from it.
    per_client: Option<PerClient>,
    draining: Arc<Semaphore>,
    refusal: Arc<[u8]>,
    /// Cancelled when shutdown begins: connections finish their answer.
    drain: CancellationToken,
    /// Cancelled when the shutdown bound is reached: connections drop.
    abort: CancellationToken,
    connections: TaskTracker,
}

impl Server {
    /// A server with the caps and timeouts of `config`.
    pub(crate) fn new(config: &Config) -> Server {
        // HTTP/1 only, as before (axum's `http2` feature is off). Not
        // hyper-util's `auto::Builder`: it first waits for the bytes that
        // tell HTTP/1 from HTTP/2 with no time limit, and a connection
        // that sent nothing stayed open past the header timeout (5 s with
        // `--header-timeout 1s`, measured with bash's /dev/tcp).
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(config.header_timeout);
        let total = config
            .max_connections
            .map_or_else(default_total, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let per_client = match config.trusted_proxy_header {
            Some(_) => None,
            None => Some(PerClient::new(config.connections_per_address)),
        };
        tracing::info!(
            total,
            per_address = per_client
                .is_some()
                .then_some(config.connections_per_address),
            "connection caps"
        );
        Server {
            builder: Arc::new(builder),
            total: Arc::new(Semaphore::new(total.min(Semaphore::MAX_PERMITS))),
            per_client,
            draining: Arc::new(Semaphore::new(DRAINING)),
            refusal: refusal().into(),
            drain: CancellationToken::new(),
            abort: CancellationToken::new(),
            connections: TaskTracker::new(),
        }
    }

    /// Accepts connections on `listener` and serves `router` on each, for
    /// ever: an accept error (no file descriptor left, say) is logged and
    /// retried after a pause that grows while errors go on.
    pub(crate) async fn accept(&self, listener: TcpListener, router: Router) {
        let mut backoff = MIN_BACKOFF;
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => {
                    backoff = MIN_BACKOFF;
                    self.admit(stream, peer, &router);
                }
                Err(error) if is_per_connection(&error) => {}
                Err(error) => {
                    tracing::warn!(%error, pause = ?backoff, "accept failed");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// Serves `stream` if no cap is reached, else refuses it.
    fn admit(&self, stream: TcpStream, peer: SocketAddr, router: &Router) {
        let held = match &self.per_client {
            Some(per_client) => match per_client.acquire(peer.ip()) {
                Some(held) => Some(held),
                None => return self.refuse(stream, peer, "per address"),
            },
            None => None,
        };
        let Ok(permit) = self.total.clone().try_acquire_owned() else {
            return self.refuse(stream, peer, "in total");
        };
        // Small frames go out at once: without this, a frame written in
        // two parts waits for the peer's delayed ACK (Nagle), about 40 ms.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        if let Err(error) = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER) {
            tracing::debug!(%error, "cannot set SO_SNDBUF");
        }
        // The peer's address only: never what it sends.
        tracing::trace!(%peer, "connection accepted");
        let io = TokioIo::new(Counted {
            stream,
            _permit: permit,
            _held: held,
        });
        let service =
            TowerToHyperService::new(AddExtension::new(router.clone(), ConnectInfo(peer)));
        let builder = self.builder.clone();
        let (drain, abort) = (self.drain.clone(), self.abort.clone());
        self.connections.spawn(async move {
            let conn = builder.serve_connection(io, service).with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                result = conn.as_mut() => return log_end(result),
                () = drain.cancelled() => {}
                () = abort.cancelled() => return,
            }
            // Closes the connection at once if it waits for a request,
            // else after the answer in progress.
            conn.as_mut().graceful_shutdown();
            tokio::select! {
                result = conn => log_end(result),
                () = abort.cancelled() => {}
            }
        });
    }

    /// Answers `503` with `Retry-After` and closes. The answer fits in the
    /// empty send buffer of a new connection, so it is written without
    /// waiting. Then what the client sent is read for a moment: closing
    /// with unread data sends a reset, which can make the client's kernel
    /// discard the answer before it is read.
    fn refuse(&self, mut stream: TcpStream, peer: SocketAddr, cap: &'static str) {
        tracing::debug!(%peer, cap, "connection refused: too many");
        if stream.try_write(&self.refusal).is_err() {
            return;
        }
        let Ok(permit) = self.draining.clone().try_acquire_owned() else {
            return;
        };
        tokio::spawn(async move {
            let _ = stream.shutdown().await;
            let mut sink = [0u8; 1024];
            let _ = tokio::time::timeout(DRAIN_FOR, async {
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            })
            .await;
            drop(permit);
        });
    }

    /// Begins shutdown: connections waiting for a request close, the
    /// others after their answer. (The listener closes when
    /// [`Server::accept`] is dropped.)
    pub(crate) fn shut_down(&self) {
        self.drain.cancel();
        self.connections.close();
    }

    /// Completes when every connection has ended.
    pub(crate) async fn ended(&self) {
        self.connections.wait().await;
    }

    /// Drops every connection still open.
    pub(crate) fn abort(&self) {
        self.abort.cancel();
    }
}

/// The total cap when none is configured: the open-file limit less an
/// eighth (at least 64) for the database, the listener, refused
/// connections and the rest of the process.
fn default_total() -> usize {
    let files = match rlimit::getrlimit(rlimit::Resource::NOFILE) {
        Ok((soft, _)) => soft,
        Err(_) => 1024,
    };
    let files = usize::try_from(files).unwrap_or(usize::MAX);
    files.saturating_sub((files / 8).max(64)).max(16)
}

/// The whole answer to a connection over a cap.
fn refusal() -> Vec<u8> {
    let body = AppError::Unavailable.to_json();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nretry-after: {RETRY_AFTER}\r\n\
         content-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Errors of one connection that is gone before it was accepted; any
/// other error is the listener's (no descriptor left, no memory).
fn is_per_connection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
    )
}

fn log_end<E: std::fmt::Display>(result: Result<(), E>) {
    match result {
        Ok(()) => tracing::trace!("connection ended"),
        Err(error) => tracing::debug!(%error, "connection ended"),
    }
}

/// A connection counted against the caps until it is dropped, which for a
/// WebSocket is when the socket closes (the upgraded socket keeps it).
#[derive(Debug)]
struct Counted {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    _held: Option<Held>,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
