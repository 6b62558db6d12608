//! Per-caller policy state behind one trait, [`PolicyStore`]: rate-limit allowances and
//! single-use values with a time to live.
//!
//! The dispatcher keeps every piece of state it needs per caller in a store, so that one
//! process can keep it in memory ([`MemoryStore`], the default) and several replicas of a
//! server can share it (`RedisStore`, feature `redis`). A store offers three atomic
//! operations, each a single step on the backend, so that no two replicas can both act on
//! the same read:
//!
//! - [`PolicyStore::check_rate`]: take one call from a GCRA allowance, or say how long until
//!   one is free (the rate limits of the manifests);
//! - [`PolicyStore::put_if_absent`]: store a value under a key for a time to live unless a live
//!   value is already there (for example, to issue a single-use token);
//! - [`PolicyStore::take`]: remove the live value under a key and return it (to redeem that
//!   token exactly once).
//!
//! Rate-limit keys and value keys live in separate namespaces of a store: the same key names
//! different things in each.
//!
//! A store is used through a guard (each generated toolbox holds one, in
//! memory) or bound to a call with [`CallContext::with_store`](crate::CallContext::with_store),
//! which takes precedence; `McpServer::with_store` binds one to every call it serves.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::descriptor::RateLimit;
use crate::vocabulary::BoxFuture;

#[cfg(feature = "redis")]
mod redis;

#[cfg(feature = "redis")]
pub use self::redis::{RedisConfig, RedisStore};

/// What [`PolicyStore::check_rate`] decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateDecision {
    /// One call was taken from the allowance.
    Allowed,
    /// The allowance is used up; a call is allowed again after `retry_after`.
    Limited {
        /// How long until the next call is allowed.
        retry_after: Duration,
    },
}

/// A store could not answer: it is unreachable, timed out or refused the operation.
///
/// The dispatcher fails the call with kind `unavailable` (retryable) rather than guess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// An error with this message. Say which store and what failed, as in `redis at
    /// redis://10.0.0.5:6379/0 did not answer within 500 ms`.
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// Per-caller policy state: rate-limit allowances and single-use values with a time to live.
///
/// Every operation is atomic on the backend. Implementations must not panic; a backend that
/// cannot answer returns a [`StoreError`] promptly (bounded by its own timeouts), so that a call
/// fails rather than hangs.
pub trait PolicyStore: Send + Sync + 'static {
    /// Takes one call from the allowance kept under `key` for `limit` (a GCRA with a burst of
    /// `limit.count` calls, replenished evenly over `limit.period_secs`), or says how long until
    /// one is free. `limit.count` is at least 1 and `limit.period_secs` at least 1.
    fn check_rate<'a>(
        &'a self,
        key: &'a str,
        limit: RateLimit,
    ) -> BoxFuture<'a, Result<RateDecision, StoreError>>;

    /// Stores `value` under `key` for `ttl` (at least one millisecond is kept) unless a value
    /// that has not expired is already there. `true` when stored, `false` when the key was
    /// taken.
    fn put_if_absent<'a>(
        &'a self,
        key: &'a str,
        value: &'a [u8],
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Removes the value under `key` and returns it, if one is there and has not expired.
    /// Of several concurrent takes of one value, exactly one gets it.
    fn take<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>>;

    /// Whether the store answers now (readiness probes ask this).
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Where the state is kept, for logs and messages: `memory`, `redis at redis://…`.
    fn describe(&self) -> String;
}

impl fmt::Debug for dyn PolicyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PolicyStore({})", self.describe())
    }
}

/// The GCRA parameters of a limit in `unit`s of time: the emission interval (time per call)
/// and the burst tolerance (how far ahead of now the theoretical arrival time may run).
/// `None` when the period cannot be split into `count` whole units: no effective limit.
pub(crate) fn gcra_params(limit: RateLimit, units_per_sec: u64) -> Option<(u64, u64)> {
    let period = u128::from(limit.period_secs) * u128::from(units_per_sec);
    let count = u128::from(limit.count);
    let interval = period.checked_div(count)?;
    if interval == 0 {
        return None;
    }
    let tolerance = interval * (count - 1);
    Some((
        u64::try_from(interval).ok()?,
        u64::try_from(tolerance).ok()?,
    ))
}

/// One GCRA step at `now` against the stored theoretical arrival time: the decision and the
/// new arrival time to store (unchanged when limited).
fn gcra_step(tat: Option<u64>, now: u64, interval: u64, tolerance: u64) -> (RateDecision, u64) {
    let tat = tat.map_or(now, |t| t.max(now));
    let ahead = tat - now;
    if ahead > tolerance {
        let wait = ahead - tolerance;
        let decision = RateDecision::Limited {
            retry_after: Duration::from_nanos(wait),
        };
        return (decision, tat);
    }
    (RateDecision::Allowed, tat.saturating_add(interval))
}

/// Where a [`MemoryStore`] reads the time: the system's monotonic clock ([`SystemClock`], the
/// default), or a [`ManualClock`] that moves only when told, so that tests of expiry and rate
/// limits need not wait.
pub trait Clock: Send + Sync + 'static {
    /// The time since this clock's own start; never goes back.
    fn elapsed(&self) -> Duration;
}

/// The system's monotonic clock.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock that starts now.
    pub fn new() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that stands still until [`ManualClock::advance`] moves it: share one (`Arc`) between
/// a test and its [`MemoryStore::with_clock`] to let time pass without waiting.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use toolc_runtime::store::{Clock, ManualClock};
/// use toolc_runtime::MemoryStore;
///
/// let clock = Arc::new(ManualClock::new());
/// let store = MemoryStore::with_clock(clock.clone());
/// clock.advance(Duration::from_secs(60));
/// assert_eq!(clock.elapsed(), Duration::from_secs(60));
/// # drop(store);
/// ```
#[derive(Debug, Default)]
pub struct ManualClock {
    nanos: AtomicU64,
}

impl ManualClock {
    /// A clock at zero.
    pub fn new() -> ManualClock {
        ManualClock::default()
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        let _ = self
            .nanos
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(n.saturating_add(by))
            });
    }
}

impl Clock for ManualClock {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

/// How many operations pass between sweeps of expired state.
const SWEEP_EVERY: u64 = 4096;

/// Policy state in this process's memory: the default, right for one server process.
///
/// Rate limits are a GCRA per key (nanosecond precision, against a monotonic clock); values
/// expire after their time to live. Keys whose allowance has fully replenished, and expired
/// values, are swept every few thousand operations, so memory follows the active callers.
///
/// Time is read from a [`Clock`]: the system's, or one a test moves
/// ([`MemoryStore::with_clock`]).
pub struct MemoryStore {
    clock: Arc<dyn Clock>,
    rates: Mutex<HashMap<String, u64>>,
    /// Each value with the time (on the clock) it expires at.
    values: Mutex<HashMap<String, (Vec<u8>, Duration)>>,
    operations: AtomicU64,
}

impl MemoryStore {
    /// An empty store: every caller starts with a full allowance.
    pub fn new() -> MemoryStore {
        MemoryStore::with_clock(Arc::new(SystemClock::new()))
    }

    /// An empty store that reads the time from `clock`: a [`ManualClock`] lets a test expire
    /// values and replenish allowances without waiting.
    pub fn with_clock(clock: Arc<dyn Clock>) -> MemoryStore {
        MemoryStore {
            clock,
            rates: Mutex::new(HashMap::new()),
            values: Mutex::new(HashMap::new()),
            operations: AtomicU64::new(0),
        }
    }

    fn now_nanos(&self) -> u64 {
        u64::try_from(self.clock.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn sweep_due(&self) -> bool {
        self.operations.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1
    }

    /// The rate decision, synchronously (the memory store never waits).
    fn check_rate_now(&self, key: &str, limit: RateLimit) -> RateDecision {
        if limit.count == 0 {
            return RateDecision::Limited {
                retry_after: limit.period(),
            };
        }
        let Some((interval, tolerance)) = gcra_params(limit, 1_000_000_000) else {
            return RateDecision::Allowed;
        };
        let now = self.now_nanos();
        let mut rates = self.rates.lock().unwrap_or_else(|p| p.into_inner());
        if self.sweep_due() {
            rates.retain(|_, tat| *tat > now);
        }
        let (decision, tat) = gcra_step(rates.get(key).copied(), now, interval, tolerance);
        if decision == RateDecision::Allowed {
            match rates.get_mut(key) {
                Some(slot) => *slot = tat,
                None => {
                    rates.insert(key.to_owned(), tat);
                }
            }
        }
        decision
    }

    fn put_if_absent_now(&self, key: &str, value: &[u8], ttl: Duration) -> bool {
        let now = self.clock.elapsed();
        let ttl = ttl.max(Duration::from_millis(1));
        // A TTL beyond what the clock can represent keeps the value for as long as it can.
        let expires = now.saturating_add(ttl);
        let mut values = self.values.lock().unwrap_or_else(|p| p.into_inner());
        if self.sweep_due() {
            values.retain(|_, (_, at)| *at > now);
        }
        match values.get(key) {
            Some((_, at)) if *at > now => false,
            _ => {
                values.insert(key.to_owned(), (value.to_vec(), expires));
                true
            }
        }
    }

    fn take_now(&self, key: &str) -> Option<Vec<u8>> {
        let now = self.clock.elapsed();
        let mut values = self.values.lock().unwrap_or_else(|p| p.into_inner());
        match values.remove(key) {
            Some((value, at)) if at > now => Some(value),
            _ => None,
        }
    }
}

impl Default for MemoryStore {
    fn default() -> MemoryStore {
        MemoryStore::new()
    }
}

impl fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rates = self.rates.lock().map(|m| m.len()).unwrap_or_default();
        let values = self.values.lock().map(|m| m.len()).unwrap_or_default();
        f.debug_struct("MemoryStore")
            .field("rate_keys", &rates)
            .field("values", &values)
            .finish()
    }
}

impl PolicyStore for MemoryStore {
    fn check_rate<'a>(
        &'a self,
        key: &'a str,
        limit: RateLimit,
    ) -> BoxFuture<'a, Result<RateDecision, StoreError>> {
        let decision = self.check_rate_now(key, limit);
        Box::pin(std::future::ready(Ok(decision)))
    }

    fn put_if_absent<'a>(
        &'a self,
        key: &'a str,
        value: &'a [u8],
        ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        let stored = self.put_if_absent_now(key, value, ttl);
        Box::pin(std::future::ready(Ok(stored)))
    }

    fn take<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Option<Vec<u8>>, StoreError>> {
        let value = self.take_now(key);
        Box::pin(std::future::ready(Ok(value)))
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn describe(&self) -> String {
        "memory".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PER_MIN_30: RateLimit = RateLimit {
        count: 30,
        period_secs: 60,
    };

    #[test]
    fn gcra_grants_the_burst_then_waits_one_interval() {
        let (interval, tolerance) = gcra_params(PER_MIN_30, 1_000).expect("params");
        assert_eq!((interval, tolerance), (2_000, 58_000));
        let mut tat = None;
        for _ in 0..30 {
            let (d, t) = gcra_step(tat, 0, interval, tolerance);
            assert_eq!(d, RateDecision::Allowed);
            tat = Some(t);
        }
        let (d, t) = gcra_step(tat, 0, interval, tolerance);
        assert_eq!(
            d,
            RateDecision::Limited {
                retry_after: Duration::from_nanos(2_000)
            }
        );
        assert_eq!(Some(t), tat, "a refused call leaves the state alone");
        // One interval later, exactly one more call.
        let (d, t) = gcra_step(tat, 2_000, interval, tolerance);
        assert_eq!(d, RateDecision::Allowed);
        assert!(matches!(
            gcra_step(Some(t), 2_000, interval, tolerance).0,
            RateDecision::Limited { .. }
        ));
    }

    #[test]
    fn periods_too_short_to_split_are_no_limit() {
        let limit = RateLimit {
            count: 10,
            period_secs: 1,
        };
        assert_eq!(gcra_params(limit, 1), None);
        assert!(gcra_params(limit, 1_000).is_some());
        let huge = RateLimit {
            count: u32::MAX,
            period_secs: u64::MAX,
        };
        // No overflow: the interval fits, the tolerance does not, so no limit is applied.
        assert_eq!(gcra_params(huge, 1_000_000_000), None);
    }

    #[test]
    fn memory_values_are_single_use_and_expire() {
        let clock = Arc::new(ManualClock::new());
        let store = MemoryStore::with_clock(clock.clone());
        assert!(store.put_if_absent_now("t", b"a", Duration::from_secs(60)));
        assert!(!store.put_if_absent_now("t", b"b", Duration::from_secs(60)));
        assert_eq!(store.take_now("t").as_deref(), Some(&b"a"[..]));
        assert_eq!(store.take_now("t"), None);
        assert!(store.put_if_absent_now("gone", b"x", Duration::ZERO));
        clock.advance(Duration::from_micros(999));
        assert!(
            !store.put_if_absent_now("gone", b"w", Duration::from_secs(60)),
            "alive for its 1 ms minimum"
        );
        clock.advance(Duration::from_micros(1));
        assert_eq!(
            store.take_now("gone"),
            None,
            "expired after its 1 ms minimum"
        );
        assert!(store.put_if_absent_now("gone", b"y", Duration::from_secs(60)));
        assert!(store.put_if_absent_now("far", b"z", Duration::MAX));
        assert_eq!(store.take_now("far").as_deref(), Some(&b"z"[..]));
    }
}
