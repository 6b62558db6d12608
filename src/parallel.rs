//! Work spread over the machine's cores, its results kept in the order of its inputs.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The stack of a helper thread that walks schemas: the main thread's, for the recursion over
/// deep ones (reserved, not touched).
pub(crate) const SCHEMA_STACK_BYTES: usize = 8 * 1024 * 1024;

/// `f` of each of `items`, in `items`' order, made on one thread per core (no more threads than
/// items), each taking the next item none has taken. The calling thread works too; each helper
/// has a stack of `stack` bytes, and a helper that cannot be started leaves its items to the
/// others. A panic in a helper is resumed on the caller.
pub(crate) fn map_ordered<T: Sync, R: Send>(
    items: &[T],
    name: &str,
    stack: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(items.len());
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let work = || {
            let mut mine = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break mine };
                mine.push((i, f(item)));
            }
        };
        let helpers: Vec<_> = (1..workers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name(name.to_string())
                    .stack_size(stack)
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        let mut all = work();
        for helper in helpers {
            match helper.join() {
                Ok(theirs) => all.extend(theirs),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}
