//! `TOOLC_STAGES`: with it set, `toolc build` and `toolc check` report on stderr the time each
//! pipeline stage took and the process's memory high-water mark after it, the figures by stage
//! in BENCHMARKS.md (`TOOLC_STAGES=1 toolc build manifests`). Unset, nothing is measured.

use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::Instant;

/// When the previous stage ended; `None` when `TOOLC_STAGES` is not set.
fn last() -> &'static Option<Mutex<Instant>> {
    static LAST: OnceLock<Option<Mutex<Instant>>> = OnceLock::new();
    LAST.get_or_init(|| std::env::var_os("TOOLC_STAGES").map(|_| Mutex::new(Instant::now())))
}

/// Starts timing: the next stage is measured from here.
pub(crate) fn start() {
    if let Some(last) = last()
        && let Ok(mut at) = last.lock()
    {
        *at = Instant::now();
    }
}

/// Reports the stage that just ended.
pub(crate) fn done(stage: &str) {
    let Some(last) = last() else { return };
    let Ok(mut at) = last.lock() else { return };
    let now = Instant::now();
    let ms = now.duration_since(*at).as_secs_f64() * 1000.0;
    *at = now;
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
