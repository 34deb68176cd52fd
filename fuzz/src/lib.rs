//! Shared pieces of the fuzz targets: the per-input time bound and input splitting.
//!
//! The bound is CPU time of the fuzzing thread, not wall time: this machine and CI are
//! shared, and a preempted input must not look like a regex blow-up.

use std::time::Duration;

/// Most CPU time one input may take (see docs/fuzzing.md). Inputs are at most
/// `-max_len` bytes (16 KiB in the documented runs); every covered function is linear or
/// near-linear in its input, so a well-behaved input takes a few milliseconds.
pub const BOUND: Duration = Duration::from_millis(250);

fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid out-pointer for the duration of the call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Runs `f` and fails the input (a libFuzzer crash) when it used more than [`BOUND`].
/// `MCPWARD_FUZZ_BOUND_MS` overrides the bound (e.g. to measure, or under a sanitizer).
pub fn bounded<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let bound = std::env::var("MCPWARD_FUZZ_BOUND_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(BOUND);
    let start = thread_cpu();
    let r = f();
    let used = thread_cpu().saturating_sub(start);
    assert!(
        used <= bound,
        "time bound: {what} took {used:?} of CPU for one input (bound {bound:?})"
    );
    r
}

/// Splits an input at the first NUL byte: two documents for the two-sided targets.
pub fn split2(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// Chunk sizes for the incremental readers, drawn from the input's own bytes so the
/// fuzzer explores boundaries too: `1 + b % 97` for each byte of `seed`, cycling.
pub fn chunks<'a>(data: &'a [u8], seed: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while at < data.len() {
        let n = seed
            .get(i % seed.len().max(1))
            .map_or(data.len(), |b| 1 + usize::from(*b) % 97);
        let end = (at + n).min(data.len());
        out.push(&data[at..end]);
        at = end;
        i += 1;
    }
    out
}
