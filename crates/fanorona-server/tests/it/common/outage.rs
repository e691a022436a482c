//! A database outage a test can cause and end without touching the
//! machine's PostgreSQL server, which other tests share: a TCP proxy
//! between the server under test and PostgreSQL. [`Outage::cut`] closes
//! every connection through it and stops listening, so new ones are
//! refused, as when PostgreSQL stops; [`Outage::restore`] listens again on
//! the same port.

use std::{net::SocketAddr, sync::Arc};

use tokio::{
    net::{TcpListener, TcpStream},
    sync::{watch, Mutex},
    task::JoinHandle,
};

/// The proxy, listening while the database is "up".
pub struct Outage {
    addr: SocketAddr,
    target: String,
    /// Every connection through the proxy ends when this turns false.
    up: watch::Sender<bool>,
    accepting: Mutex<Option<JoinHandle<()>>>,
}

impl Outage {
    /// A proxy on 127.0.0.1 to the PostgreSQL server of `url`, up.
    pub async fn start(url: &str) -> Arc<Outage> {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let outage = Arc::new(Outage {
            addr: listener.local_addr().unwrap(),
            target: authority(url).1,
            up: watch::Sender::new(true),
            accepting: Mutex::new(None),
        });
        outage.accept_on(listener).await;
        outage
    }

    /// `url` with its host and port replaced by the proxy's.
    pub fn url(&self, url: &str) -> String {
        let (place, _) = authority(url);
        format!("{}{}{}", &url[..place.start], self.addr, &url[place.end..])
    }

    /// The database goes away: every connection through the proxy is
    /// closed, and new ones are refused.
    pub async fn cut(&self) {
        if let Some(task) = self.accepting.lock().await.take() {
            task.abort();
            let _ = task.await;
        }
        self.up.send_replace(false);
    }

    /// The database is back, on the same port.
    pub async fn restore(&self) {
        self.up.send_replace(true);
        let listener = TcpListener::bind(self.addr).await.unwrap();
        self.accept_on(listener).await;
    }

    async fn accept_on(&self, listener: TcpListener) {
        let target = self.target.clone();
        let up = self.up.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(pipe(client, target.clone(), up.subscribe()));
            }
        });
        *self.accepting.lock().await = Some(task);
    }
}

/// Copies both ways between `client` and `target` until either closes or
/// the proxy is cut.
async fn pipe(mut client: TcpStream, target: String, mut up: watch::Receiver<bool>) {
    let Ok(mut server) = TcpStream::connect(&target).await else {
        return;
    };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = up.wait_for(|up| !up) => {}
    }
}

/// Where the host (and port) of `url` are in it, and the address they
/// name: `postgres://user@127.0.0.1:5432/test?...` gives the place of
/// `127.0.0.1:5432`, and that address.
fn authority(url: &str) -> (std::ops::Range<usize>, String) {
    let start = url.find("://").unwrap() + 3;
    let rest = &url[start..];
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let at = rest[..end].rfind('@').map_or(0, |i| i + 1);
    let host = &rest[at..end];
    let address = if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:5432")
    };
    (start + at..start + end, address)
}
