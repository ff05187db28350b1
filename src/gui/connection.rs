//! The connections the server accepts, kept on a short leash: a client that stops sending in
//! the middle of a request (or holds an idle connection) is cut off after `READ_TIMEOUT`, so
//! that half-sent requests cannot pile up; and the bare error answers the HTTP library gives
//! to bytes it cannot read as HTTP (a 400 with an empty body) are replaced by the same JSON
//! error every other refusal has.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;

/// How long a connection may stay silent while the server waits for it.
pub const READ_TIMEOUT: Duration = Duration::from_secs(15);

/// A `TcpListener` whose connections are `Guarded`.
pub struct GuardedListener(pub TcpListener);

impl axum::serve::Listener for GuardedListener {
    type Io = Guarded;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Guarded, std::net::SocketAddr) {
        loop {
            match self.0.accept().await {
                Ok((stream, addr)) => return (Guarded::new(stream), addr),
                // Out of file descriptors and the like: wait a moment, as axum does.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.0.local_addr()
    }
}

pub struct Guarded {
    stream: TcpStream,
    /// Running while a read waits for bytes.
    silence: Option<Pin<Box<Sleep>>>,
    /// A replacement answer still to be written.
    replacement: Vec<u8>,
}

impl Guarded {
    fn new(stream: TcpStream) -> Guarded {
        Guarded {
            stream,
            silence: None,
            replacement: Vec::new(),
        }
    }

    /// Writes what is left of a replacement answer; ready when none is left.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.replacement.is_empty() {
            match Pin::new(&mut self.stream).poll_write(cx, &self.replacement) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.replacement.drain(..n);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// The library's own answer to a request it could not read: an error status and no body
/// (every answer of the API has a `content-type`, and its errors a JSON body). Gives the
/// status line's code and reason.
fn bare_error(head: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(head).ok()?;
    let (head, _) = text.split_once("\r\n\r\n")?;
    let status = head.lines().next()?.strip_prefix("HTTP/1.1 ")?;
    let lower = head.to_ascii_lowercase();
    let error = status.starts_with('4') || status.starts_with('5');
    (error && lower.contains("content-length: 0") && !lower.contains("content-type"))
        .then_some(status)
}

/// The JSON answer that replaces a bare error.
fn json_error(status: &str) -> Vec<u8> {
    let body = serde_json::json!({
        "error": format!("the request could not be read as HTTP/1.1 ({status})")
    })
    .to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
         x-frame-options: DENY\r\ncontent-security-policy: frame-ancestors 'none'\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(result) => {
                this.silence = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let silence = this
                    .silence
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(READ_TIMEOUT)));
                match silence.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        this.silence = None;
                        Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "the client sent nothing for too long",
                        )))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        if let Some(status) = bare_error(buf) {
            // Taken whole: the JSON answer goes out instead, on this call and the next ones.
            this.replacement = json_error(status);
            let _ = this.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.drain(cx)?.is_pending() {
            return Poll::Pending;
        }
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_librarys_bare_errors_are_replaced() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert_eq!(bare_error(bare), Some("400 Bad Request"));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(bare_error(ours), None);
        let fine = b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(bare_error(fine), None);
        let reply = String::from_utf8(json_error("400 Bad Request")).unwrap();
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("400 Bad Request"));
    }
}
