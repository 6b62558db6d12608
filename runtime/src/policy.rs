//! Policies enforced before a handler runs (contract rule 4): auth level, roles, rate limits
//! kept per caller and tool in a [`PolicyStore`], and approvals (see [`crate::approval`]),
//! whose tokens the same store keeps.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::ToolError;
use crate::store::{MemoryStore, PolicyStore, RateDecision};
use crate::vocabulary::ErrorKind;

/// How long a caller is told to wait when the policy store does not answer.
const UNAVAILABLE_RETRY: Duration = Duration::from_secs(1);

/// The policy state of one toolbox instance: its rate limits, per caller and tool, in a
/// [`PolicyStore`] (in memory unless told otherwise). Generated toolboxes hold one and pass it
/// to [`run_tool`](crate::codegen::run_tool). A store bound to the call's context
/// ([`CallContext::with_store`]) takes precedence over the guard's.
#[derive(Clone)]
pub struct Guard {
    store: Arc<dyn PolicyStore>,
}

impl Guard {
    /// A guard over a fresh [`MemoryStore`]: every caller starts with a full allowance.
    pub fn new() -> Guard {
        Guard {
            store: Arc::new(MemoryStore::new()),
        }
    }

    /// A guard over `store`.
    pub fn with_store(store: Arc<dyn PolicyStore>) -> Guard {
        Guard { store }
    }

    /// The guard's store.
    pub fn store(&self) -> &Arc<dyn PolicyStore> {
        &self.store
    }

    /// The store that keeps `ctx`'s policy state: the one bound to the context, else the
    /// guard's. Every policy that keeps per-caller state reads and writes it here.
    pub fn store_for<'a>(&'a self, ctx: &'a CallContext) -> &'a Arc<dyn PolicyStore> {
        ctx.store().unwrap_or(&self.store)
    }
}

impl Default for Guard {
    fn default() -> Guard {
        Guard::new()
    }
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guard")
            .field("store", &self.store.describe())
            .finish()
    }
}

/// The key of `caller`'s allowance for `tool`: `<tool>:<caller id>` (tool names hold no `:`).
pub fn rate_key(tool: &str, caller: &str) -> String {
    let mut key = String::with_capacity(tool.len() + 1 + caller.len());
    key.push_str(tool);
    key.push(':');
    key.push_str(caller);
    key
}

/// Checks the descriptor's auth, roles and rate limit against the context's caller.
///
/// Auth and roles come first, so a forbidden caller never spends rate-limit allowance. The
/// rate limit is taken from the context's store if one is bound, else from the guard's; a
/// store that does not answer fails the call with kind `unavailable` (retryable).
pub async fn check_policy(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
) -> Result<(), ToolError> {
    check_access(desc, ctx)?;
    check_rate(desc, guard, ctx).await
}

/// Checks the descriptor's auth level and roles against the context's caller (`forbidden`).
pub fn check_access(desc: &ToolDescriptor, ctx: &CallContext) -> Result<(), ToolError> {
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
    Ok(())
}

/// Takes one call from the caller's allowance for the tool, if it has a rate limit
/// (`rate_limited` with a retry-after when used up, `unavailable` when the store does not
/// answer).
pub async fn check_rate(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
) -> Result<(), ToolError> {
    let policy = &desc.policy;
    let caller = ctx.caller();
    let Some(limit) = policy.rate_limit else {
        return Ok(());
    };
    if limit.period_secs == 0 {
        return Ok(());
    }
    let store = guard.store_for(ctx);
    let decision = if limit.count == 0 {
        RateDecision::Limited {
            retry_after: limit.period(),
        }
    } else {
        match store
            .check_rate(&rate_key(desc.name, &caller.id), limit)
            .await
        {
            Ok(decision) => decision,
            Err(e) => {
                // The details (addresses, errors) are for the operator, not the caller.
                tracing::warn!(
                    target: "toolc_runtime::store",
                    call_id = ctx.call_id(),
                    tool = desc.name,
                    error = %e,
                    "the policy store did not answer a rate-limit check; the call fails closed"
                );
                return Err(ToolError::new(
                    ErrorKind::Unavailable,
                    desc.name,
                    format!(
                        "tool '{}' is rate limited, and the store that keeps its allowances did not answer; retry after {} ms",
                        desc.name,
                        UNAVAILABLE_RETRY.as_millis()
                    ),
                )
                .with_retry_after(UNAVAILABLE_RETRY));
            }
        }
    };
    if let RateDecision::Limited { retry_after } = decision {
        // Round up to whole milliseconds so a retry at `retry_after` is never early.
        let wait = Duration::from_millis(
            u64::try_from(retry_after.as_nanos().div_ceil(1_000_000)).unwrap_or(u64::MAX),
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
