//! stdio line framer (the reader task of the stdio wire) over arbitrary server stdout,
//! delivered in chunks whose sizes the input chooses. Properties: the framer does the same
//! as a plain split at LF (CR stripped, blank lines skipped, each line dispatched or
//! recorded as stray), whatever the chunking; it ends, and closes the dispatcher, at EOF.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::{bounded, chunks, split2};
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};
// Crate API used (re-point here after a move):
use mcpward::observed::Chatter;
use mcpward::transport::rpc::{Dispatcher, Guard};
use mcpward::transport::stdio::reader;

/// A pipe that yields the given chunks, one per read (as a server's writes arrive).
struct Chunked(VecDeque<Vec<u8>>);

impl AsyncRead for Chunked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if let Some(mut c) = self.0.pop_front() {
            let n = c.len().min(buf.remaining());
            buf.put_slice(&c[..n]);
            if n < c.len() {
                self.0.push_front(c.split_off(n));
            }
        }
        Poll::Ready(Ok(()))
    }
}

type Summary = (
    Vec<serde_json::Value>,
    Vec<serde_json::Value>,
    Vec<String>,
    usize,
);

fn summary(c: Chatter) -> Summary {
    (c.notifications, c.server_requests, c.stray, c.stray_count)
}

fn framed(stream: &[u8], seed: &[u8]) -> (bool, Summary) {
    let (d, _replies) = Dispatcher::new(Guard::default());
    let (_rx, _) = d.register(d.next_id(), true, false);
    let (_rx2, _) = d.register(d.next_id(), false, false);
    let pipe = Chunked(
        chunks(stream, seed)
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect(),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(reader(pipe, Arc::clone(&d)));
    (d.is_closed(), summary(d.chatter()))
}

fn reference(stream: &[u8]) -> Summary {
    let (d, _replies) = Dispatcher::new(Guard::default());
    let (_rx, _) = d.register(d.next_id(), true, false);
    let (_rx2, _) = d.register(d.next_id(), false, false);
    for line in stream.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if !d.dispatch_text(line) {
            d.record_stray(line);
        }
    }
    summary(d.chatter())
}

fuzz_target!(|data: &[u8]| {
    // After the first NUL: chunk sizes (NUL is otherwise ordinary output).
    let (stream, seed) = split2(data);
    bounded("stdio framer", || {
        let (closed, got) = framed(stream, seed);
        assert!(closed, "reader ended without closing the dispatcher");
        assert_eq!(
            got,
            reference(stream),
            "framer differs from a plain LF split"
        );
        let (_, whole) = framed(data, &[]);
        assert_eq!(
            whole,
            reference(data),
            "framer differs from a plain LF split (one chunk)"
        );
    });
});
