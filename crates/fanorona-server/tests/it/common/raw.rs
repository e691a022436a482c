//! Bytes written by hand on a TCP socket: HTTP requests a client library
//! would not send (a body announced but never sent) and WebSocket frames
//! that break the protocol (unmasked, reserved bits, unknown opcodes).

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use super::{TestServer, WAIT};

/// Sends `head` (request line and headers, without the blank line) and
/// reads the answer's status line and headers; returns the status.
pub async fn request_head(server: &TestServer, head: &str) -> (TcpStream, u16) {
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    tcp.write_all(format!("{head}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let head = read_head(&mut tcp).await;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    (tcp, status)
}

/// Reads up to the end of an HTTP head (the blank line).
async fn read_head(tcp: &mut TcpStream) -> String {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let byte = tokio::time::timeout(WAIT, tcp.read_u8())
            .await
            .expect("an answer in time")
            .expect("an answer before the connection ends");
        head.push(byte);
    }
    String::from_utf8(head).unwrap()
}

/// A WebSocket upgraded by hand, whose frames the test writes byte by byte.
pub struct RawSocket {
    tcp: TcpStream,
}

impl RawSocket {
    /// Upgrades to the socket of game `id` as the holder of `secret`.
    pub async fn connect(server: &TestServer, id: &str, secret: &str) -> RawSocket {
        let head = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nAuthorization: Bearer {secret}",
            server.addr
        );
        let (tcp, status) = request_head(server, &head).await;
        assert_eq!(status, 101, "the upgrade is accepted");
        RawSocket { tcp }
    }

    /// Writes one frame: `first` is the first byte (FIN, reserved bits,
    /// opcode); the payload is masked when `masked`.
    pub async fn write_frame(&mut self, first: u8, masked: bool, payload: &[u8]) {
        let mut frame = vec![first];
        let mask_bit = if masked { 0x80 } else { 0 };
        match payload.len() {
            n @ 0..=125 => frame.push(mask_bit | u8::try_from(n).unwrap()),
            n @ 126..=0xffff => {
                frame.push(mask_bit | 126);
                frame.extend(u16::try_from(n).unwrap().to_be_bytes());
            }
            n => {
                frame.push(mask_bit | 127);
                frame.extend(u64::try_from(n).unwrap().to_be_bytes());
            }
        }
        let key = [0x12, 0x34, 0x56, 0x78];
        if masked {
            frame.extend(key);
            frame.extend(payload.iter().zip(key.iter().cycle()).map(|(b, k)| b ^ k));
        } else {
            frame.extend(payload);
        }
        // The peer may close before reading everything: that is an answer.
        let _ = self.tcp.write_all(&frame).await;
    }

    /// Reads frames until a close frame; returns its code and reason, or
    /// `None` if the connection ended without one.
    pub async fn close_frame(&mut self) -> Option<(u16, String)> {
        tokio::time::timeout(WAIT, async {
            while let Some((opcode, payload)) = self.read_frame().await {
                if opcode == 0x8 {
                    let code = u16::from_be_bytes([payload[0], payload[1]]);
                    return Some((code, String::from_utf8(payload[2..].to_vec()).unwrap()));
                }
            }
            None
        })
        .await
        .expect("the socket is closed in time")
    }

    /// Reads frames until a text frame that contains `needle`.
    pub async fn text_containing(&mut self, needle: &str) -> String {
        tokio::time::timeout(WAIT, async {
            loop {
                let (opcode, payload) = self.read_frame().await.expect("the socket stays open");
                let text = String::from_utf8_lossy(&payload).into_owned();
                if opcode == 0x1 && text.contains(needle) {
                    return text;
                }
            }
        })
        .await
        .expect("the text arrives in time")
    }

    /// One frame from the server (never masked): its opcode and payload.
    async fn read_frame(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut head = [0u8; 2];
        self.tcp.read_exact(&mut head).await.ok()?;
        let len = match head[1] & 0x7f {
            126 => u64::from(self.tcp.read_u16().await.ok()?),
            127 => self.tcp.read_u64().await.ok()?,
            n => u64::from(n),
        };
        let mut payload = vec![0; usize::try_from(len).unwrap()];
        self.tcp.read_exact(&mut payload).await.ok()?;
        Some((head[0] & 0x0f, payload))
    }
}
