//! Hyper answers requests it cannot parse by itself, before the router sees them: a request
//! line past 64 KiB (414), headers past its buffer (431), a malformed request (400). Those
//! answers have an empty body. [`JsonErrors`] wraps a connection and rewrites them, as they
//! are written, into the arcade's one-line JSON error (`{"error": "..."}`), so that every
//! rejection reads the same.
//!
//! Hyper's own error answers are the only ones the server writes with a 4xx status and
//! `content-length: 0`: every answer of the router's carries a JSON body.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose hyper-made error answers become JSON.
pub struct JsonErrors<T> {
    inner: T,
    /// Bytes of a rewritten answer still to send.
    pending: Vec<u8>,
}

impl<T> JsonErrors<T> {
    /// Wraps `inner`.
    pub fn new(inner: T) -> Self {
        JsonErrors { inner, pending: Vec::new() }
    }
}

/// The JSON answer for hyper's own answer `head` (its status line and headers), if it is one.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status = text.strip_prefix("HTTP/1.1 4").or_else(|| text.strip_prefix("HTTP/1.0 4"))?;
    let lower = text.to_ascii_lowercase();
    if !lower.contains("\r\ncontent-length: 0\r\n") || !text.ends_with("\r\n\r\n") {
        return None;
    }
    let code: u16 = format!("4{}", status.get(..2)?).parse().ok()?;
    let message = match code {
        414 => "the request's address is longer than 64 KiB; send big requests as a POST body",
        431 => "the request's headers are too large",
        400 => "the request is not valid HTTP/1.1",
        _ => "the request was refused before it was read",
    };
    let reason = text.lines().next().unwrap_or_default().get(13..).unwrap_or_default();
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!(
            "HTTP/1.1 {code} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Sends what is left of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.pending) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.pending.drain(..n);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        match this.poll_pending(cx) {
            Poll::Ready(Ok(())) => {}
            Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
            Poll::Pending => return Poll::Pending,
        }
        if let Some(answer) = rewrite(buf) {
            this.pending = answer;
            // Hyper's bytes count as written; ours go out now, or on the flush that follows.
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match this.poll_pending(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match this.poll_pending(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hyper_own_empty_errors_are_rewritten() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Sat, 05 Dec 2026 05:00:00 GMT\r\n\r\n";
        let out = String::from_utf8(rewrite(head).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{out}");
        let body = out.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("64 KiB"));
        assert!(out.contains(&format!("content-length: {}\r\n", body.len())));
        for keep in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n{\"error\":\"\"}",
            b"HTTP/1.1 303 See Other\r\nlocation: /#/2048\r\ncontent-length: 0\r\n\r\n",
            b"event: steps\r\n",
        ] {
            assert!(rewrite(keep).is_none(), "{}", String::from_utf8_lossy(keep));
        }
    }
}
