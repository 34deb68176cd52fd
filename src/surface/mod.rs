//! The server's contract surface: capture it (`capture`), store it (`lockfile`), compare two
//! of them (`diff`, walking schemas with `schema_walk` and output shapes with `shape`, in the
//! words of `drift_vocab`). Pure code except `lockfile::load`/`lockfile::write`.

pub mod canonical;
pub mod capture;
pub mod diff;
pub mod drift_vocab;
pub mod json;
pub mod latency;
pub mod lockfile;
pub mod other;
pub mod rename;
pub mod schema_text;
pub mod schema_walk;
pub mod shape;
pub mod snapshot;
pub mod text;

/// Items per thread below which a job stays on one thread (threads cost more than they save).
const MIN_PER_THREAD: usize = 500;

/// `f` over consecutive chunks of `items`, one chunk per core when there are enough items
/// to pay for the threads (a 10,000-tool capture or lockfile rendering is a few hundred
/// milliseconds of independent per-tool work; small surfaces stay on one thread). Results
/// come back in chunk order.
pub(crate) fn parallel_chunks<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(8).min(items.len() / MIN_PER_THREAD);
    if threads < 2 {
        return vec![f(items)];
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let workers: Vec<_> = items.chunks(chunk).map(|c| s.spawn(move || f(c))).collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// `items.iter().map(f)` in order, through `parallel_chunks`.
pub(crate) fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    parallel_chunks(items, |c| c.iter().map(&f).collect::<Vec<R>>())
        .into_iter()
        .flatten()
        .collect()
}
