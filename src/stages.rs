//! `TOOLC_STAGES`: with it set, `toolc build` and `toolc check` report on stderr the time each
//! pipeline stage took and the process's memory high-water mark after it, the figures by stage
//! in BENCHMARKS.md (`TOOLC_STAGES=1 toolc build manifests`). Unset, nothing is measured.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::Instant;

/// Whether `TOOLC_STAGES` is set.
fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os("TOOLC_STAGES").is_some())
}

thread_local! {
    /// When the previous stage of this thread ended: stages that run beside each other (lint
    /// and the emitters) are each timed on their own thread.
    static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Starts timing on this thread: its next stage is measured from here.
pub(crate) fn start() {
    if enabled() {
        LAST.with(|last| last.set(Some(Instant::now())));
    }
}

/// Reports the stage of this thread that just ended.
pub(crate) fn done(stage: &str) {
    if !enabled() {
        return;
    }
    let now = Instant::now();
    let Some(at) = LAST.with(|last| last.replace(Some(now))) else {
        return;
    };
    let ms = now.duration_since(at).as_secs_f64() * 1000.0;
    let peak = high_water_mark()
        .map(|kib| format!(", peak {:.1} MiB", kib as f64 / 1024.0))
        .unwrap_or_default();
    eprintln!("toolc: stage {stage}: {ms:.1} ms{peak}");
}

/// The process's resident memory high-water mark in KiB, where the system says it (Linux).
fn high_water_mark() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
