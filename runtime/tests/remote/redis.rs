//! Where the Redis tests find a Redis, and keys no other test uses. toolc-mcp's tests include
//! this file too (`mcp/tests/remote/mod.rs`).

use std::sync::atomic::{AtomicU64, Ordering};

/// The Redis URL to test against, or `None` (with a note) when there is none to use.
pub fn redis_url() -> Option<String> {
    match std::env::var("TOOLC_TEST_REDIS_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ if std::env::var_os("TOOLC_TEST_REDIS_REQUIRED").is_some() => {
            panic!("TOOLC_TEST_REDIS_REQUIRED is set but TOOLC_TEST_REDIS_URL is not")
        }
        _ => {
            eprintln!("note: TOOLC_TEST_REDIS_URL is not set; skipping a Redis test");
            None
        }
    }
}

/// A key prefix no other test (or earlier run) uses.
pub fn unique_prefix(test: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "toolc-test:{test}:{}:{nanos}:{}:",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}
