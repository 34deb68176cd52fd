//! SSE parser over arbitrary bytes. Property: the events, the last event id and the retry
//! value do not depend on how the stream is cut into chunks (one feed, the fuzzer's own
//! chunking, and byte by byte all agree).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::{bounded, chunks, split2};
// Crate API used (re-point here after a move):
use mcpward::transport::sse::{Event, Parser};

fn run<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> (Vec<Event>, Option<String>, Option<u64>) {
    let mut p = Parser::default();
    let mut evs = Vec::new();
    for part in parts {
        evs.extend(p.feed(part));
    }
    (evs, p.last_id.clone(), p.retry_ms)
}

fuzz_target!(|data: &[u8]| {
    // Bytes after a NUL choose the chunk sizes; NUL itself is ordinary data for SSE, so
    // the stream part also runs whole.
    let (stream, seed) = split2(data);
    bounded("sse parse", || {
        let whole = run([data]);
        let _ = whole;
        let one = run([stream]);
        let cut = run(chunks(stream, seed));
        assert_eq!(one, cut, "chunking changed the events");
        let bytes = run(stream.chunks(1));
        assert_eq!(one, bytes, "byte-by-byte feeding changed the events");
    });
});
