//! Policies enforced before a handler runs (contract rule 4): auth level, roles, and rate
//! limits kept per caller and tool in a [`Guard`].

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::context::CallContext;
use crate::descriptor::{RateLimit, ToolDescriptor};
use crate::errors::{ErrorKind, ToolError};

type KeyedLimiter = RateLimiter<String, DefaultKeyedStateStore<String>, DefaultClock>;

/// How many checks pass between sweeps of callers whose limits have fully replenished.
const SWEEP_EVERY: u64 = 4096;

/// Rate-limit state of one toolbox instance: one keyed limiter per tool, keyed by caller id.
/// Generated toolboxes hold one and pass it to [`run_tool`](crate::run_tool).
pub struct Guard {
    limiters: Mutex<HashMap<&'static str, Arc<KeyedLimiter>>>,
    checks: AtomicU64,
}

impl Guard {
    /// An empty guard: every caller starts with a full allowance.
    pub fn new() -> Guard {
        Guard {
            limiters: Mutex::new(HashMap::new()),
            checks: AtomicU64::new(0),
        }
    }

    fn limiter(&self, tool: &'static str, limit: RateLimit) -> Option<Arc<KeyedLimiter>> {
        let count = NonZeroU32::new(limit.count)?;
        let period = limit.period();
        let replenish = period.checked_div(limit.count)?;
        let quota = Quota::with_period(replenish)?.allow_burst(count);
        let mut map = self.limiters.lock().unwrap_or_else(|p| p.into_inner());
        Some(Arc::clone(
            map.entry(tool)
                .or_insert_with(|| Arc::new(RateLimiter::keyed(quota))),
        ))
    }

    /// Takes one call from `caller`'s allowance for `tool`, or says how long until one is free.
    pub fn check_rate(
        &self,
        tool: &'static str,
        limit: RateLimit,
        caller: &String,
    ) -> Result<(), Duration> {
        if limit.period_secs == 0 {
            return Ok(());
        }
        if limit.count == 0 {
            return Err(limit.period());
        }
        let Some(limiter) = self.limiter(tool, limit) else {
            // A period too short to split into `count` nanosecond steps: no effective limit.
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limiter.retain_recent();
        }
        match limiter.check_key(caller) {
            Ok(()) => Ok(()),
            Err(not_until) => Err(not_until.wait_time_from(limiter.clock().now())),
        }
    }
}

impl Default for Guard {
    fn default() -> Guard {
        Guard::new()
    }
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let map = self.limiters.lock().unwrap_or_else(|p| p.into_inner());
        f.debug_struct("Guard")
            .field("limited_tools", &map.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Checks the descriptor's auth, roles and rate limit against the context's caller.
///
/// Auth and roles come first, so a forbidden caller never spends rate-limit allowance.
pub fn check_policy(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
) -> Result<(), ToolError> {
    let policy = &desc.policy;
    let caller = ctx.caller();
    if caller.auth < policy.auth {
        return Err(ToolError::new(
            ErrorKind::Forbidden,
            desc.name,
            format!(
                "tool '{}' requires auth level '{}', but caller '{}' has '{}'",
                desc.name, policy.auth, caller.id, caller.auth
            ),
        ));
    }
    if !policy.roles.is_empty() && !policy.roles.iter().any(|r| caller.has_role(r)) {
        let roles: Vec<String> = policy.roles.iter().map(|r| format!("'{r}'")).collect();
        return Err(ToolError::new(
            ErrorKind::Forbidden,
            desc.name,
            format!(
                "tool '{}' requires one of the roles {}, and caller '{}' has none of them",
                desc.name,
                roles.join(", "),
                caller.id
            ),
        ));
    }
    if let Some(limit) = policy.rate_limit
        && let Err(wait) = guard.check_rate(desc.name, limit, &caller.id)
    {
        // Round up to whole milliseconds so a retry at `retry_after` is never early.
        let wait = Duration::from_millis(
            u64::try_from(wait.as_nanos().div_ceil(1_000_000)).unwrap_or(u64::MAX),
        );
        return Err(ToolError::new(
            ErrorKind::RateLimited,
            desc.name,
            format!(
                "tool '{}' is rate limited to {} calls per {} s for caller '{}'; retry after {} ms",
                desc.name,
                limit.count,
                limit.period_secs,
                caller.id,
                wait.as_millis()
            ),
        )
        .with_retry_after(wait));
    }
    Ok(())
}
