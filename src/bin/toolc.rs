//! The `toolc` command line; the commands are `toolc::cli`, in the library. The binary only
//! picks the allocator, which a library must leave to the program that links it.

use std::process::ExitCode;

/// A build allocates and frees millions of small nodes (tokens, syntax trees, JSON values);
/// mimalloc does that in about half the time of the system allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`, `mi_option_e`, the same in its
/// versions 2 and 3); the crate exports no constant for it.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // Never hand freed pages back to the kernel: a run is short, and purging them (10 ms
    // after they are freed, by default) only to fault them in again took the kernel about
    // as long as the time mimalloc saved (`toolc build` of 1,000 tools: 0.2-0.5 s of
    // system time against 0.05 s).
    // SAFETY: sets a process-wide option of mimalloc, which it reads when it purges.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
    toolc::cli::main()
}
