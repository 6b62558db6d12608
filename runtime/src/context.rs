//! Who is calling, and with what scope (contract rules 4 and 5).

use std::any::Any;
use std::fmt;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value};

use crate::errors::ToolError;
use crate::store::PolicyStore;
use crate::vocabulary::{
    ApprovalDecision, ApprovalRequest, Caller, DEFAULT_APPROVAL_TTL, ErrorKind,
};

/// Where a handler's metadata entries go during one call: made by the agent per call, shared
/// by the clones of that call's context.
type Entries = Arc<Mutex<Map<String, Value>>>;

/// Everything the host knows about one call: its id, the caller, the bound scope, which
/// attempt it is, the policy store its rate limits and approvals are kept in (if not the
/// toolbox's own), and, when it resumes a call held for approval, the host's decision.
#[derive(Clone)]
pub struct CallContext {
    call_id: String,
    caller: Caller,
    scope: Option<Arc<dyn Any + Send + Sync>>,
    scope_type: Option<&'static str>,
    attempt: u32,
    entries: Option<Entries>,
    store: Option<Arc<dyn PolicyStore>>,
    approval: Option<(String, ApprovalDecision)>,
    approval_ttl: Option<std::time::Duration>,
}

impl CallContext {
    /// A context for call `call_id`, with an anonymous caller and no scope.
    pub fn new(call_id: impl Into<String>) -> CallContext {
        CallContext {
            call_id: call_id.into(),
            caller: Caller::anonymous(),
            scope: None,
            scope_type: None,
            attempt: 1,
            entries: None,
            store: None,
            approval: None,
            approval_ttl: None,
        }
    }

    /// Says which attempt at the same call this is (1, the default, for the first; 0 reads as
    /// 1). A host that retries a `retryable` failure counts up; the result's metadata reports
    /// it.
    pub fn with_attempt(mut self, attempt: u32) -> CallContext {
        self.attempt = attempt.max(1);
        self
    }

    /// Which attempt at this call it is (1 for the first).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// Records `key: value` in the metadata of the call's [`ToolResult`](crate::ToolResult)
    /// (a later entry of the same key replaces the earlier). Returns `false`, recording
    /// nothing, when no agent is recording this call: outside
    /// [`Agent::call_result`](crate::Agent::call_result) or the MCP server.
    pub fn set_metadata(&self, key: impl Into<String>, value: impl Into<Value>) -> bool {
        let Some(entries) = &self.entries else {
            return false;
        };
        let mut map = entries.lock().unwrap_or_else(|p| p.into_inner());
        map.insert(key.into(), value.into());
        true
    }

    /// A copy of this context that records the handler's metadata entries apart from any
    /// other call's.
    pub(crate) fn recording(&self) -> CallContext {
        let mut ctx = self.clone();
        ctx.entries = Some(Arc::default());
        ctx
    }

    /// The entries recorded so far, taken out.
    pub(crate) fn take_entries(&self) -> Map<String, Value> {
        match &self.entries {
            Some(entries) => {
                std::mem::take(&mut *entries.lock().unwrap_or_else(|p| p.into_inner()))
            }
            None => Map::new(),
        }
    }

    /// Sets the caller.
    pub fn with_caller(mut self, caller: Caller) -> CallContext {
        self.caller = caller;
        self
    }

    /// Binds the run scope; handlers read it as `ToolContext<S>::scope()`.
    pub fn with_scope<S: Any + Send + Sync>(mut self, scope: S) -> CallContext {
        self.scope = Some(Arc::new(scope));
        self.scope_type = Some(std::any::type_name::<S>());
        self
    }

    /// Binds a scope already shared behind an `Arc`.
    pub fn with_shared_scope<S: Any + Send + Sync>(mut self, scope: Arc<S>) -> CallContext {
        self.scope = Some(scope);
        self.scope_type = Some(std::any::type_name::<S>());
        self
    }

    /// Keeps this call's policy state (its rate-limit allowance) in `store` instead of the
    /// toolbox's own in-memory policy guard: calls that share a store share their
    /// allowances, across toolbox instances and, with a shared backend, across processes.
    pub fn with_store(mut self, store: Arc<dyn PolicyStore>) -> CallContext {
        self.store = Some(store);
        self
    }

    /// Resumes a call held for approval: the tool runs if `token` was issued for this tool,
    /// these arguments and this caller, and is neither used nor expired; otherwise the call
    /// fails with `forbidden`. [`Agent::approve`](crate::Agent::approve) calls the tool this way.
    ///
    /// A tool that needs no approval ignores the token.
    pub fn with_approval(mut self, token: impl Into<String>) -> CallContext {
        self.approval = Some((token.into(), ApprovalDecision::Approve));
        self
    }

    /// Withdraws a held call's token: the call fails with `forbidden`, whatever the tool, and
    /// never runs. [`Agent::deny`](crate::Agent::deny) calls the tool this way.
    pub fn with_denial(mut self, token: impl Into<String>) -> CallContext {
        self.approval = Some((token.into(), ApprovalDecision::Deny));
        self
    }

    /// The host's decision on a held call, with its token, if this context carries one.
    pub fn approval(&self) -> Option<(&str, ApprovalDecision)> {
        self.approval.as_ref().map(|(t, d)| (t.as_str(), *d))
    }

    /// How long the approval tokens this call issues stay valid (default
    /// [`DEFAULT_APPROVAL_TTL`], 10 minutes; at least 1 ms is kept).
    pub fn with_approval_ttl(mut self, ttl: std::time::Duration) -> CallContext {
        self.approval_ttl = Some(ttl);
        self
    }

    /// The time to live of the approval tokens this call issues.
    pub fn approval_ttl(&self) -> std::time::Duration {
        self.approval_ttl.unwrap_or(DEFAULT_APPROVAL_TTL)
    }

    /// Whether a time to live for approval tokens was set on this context
    /// ([`CallContext::with_approval_ttl`]): a host that has a default of its own (a server's)
    /// applies it only to contexts without one.
    pub fn has_approval_ttl(&self) -> bool {
        self.approval_ttl.is_some()
    }

    /// A copy of this context that resumes `request` with `decision`.
    pub(crate) fn resuming(
        &self,
        request: &ApprovalRequest,
        decision: ApprovalDecision,
    ) -> CallContext {
        let mut ctx = self.clone();
        ctx.approval = Some((request.token.clone(), decision));
        ctx
    }

    /// A copy of this context with no approval decision: what the inner calls of a delegate
    /// that used its own approval token run with, since a token is bound to the tool it was
    /// issued for.
    pub(crate) fn without_approval(&self) -> CallContext {
        let mut ctx = self.clone();
        ctx.approval = None;
        ctx
    }

    /// The call id.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The policy store bound to this call, if any.
    pub fn store(&self) -> Option<&Arc<dyn PolicyStore>> {
        self.store.as_ref()
    }

    /// The caller.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The bound scope, untyped.
    pub fn scope_any(&self) -> Option<&(dyn Any + Send + Sync)> {
        self.scope.as_deref()
    }

    /// The bound scope as `S`, if one of that type is bound.
    pub fn scope<S: Any>(&self) -> Option<&S> {
        self.scope.as_deref()?.downcast_ref::<S>()
    }

    /// The type name of the bound scope, if any.
    pub fn scope_type_name(&self) -> Option<&'static str> {
        self.scope_type
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("call_id", &self.call_id)
            .field("caller", &self.caller)
            .field("scope", &self.scope_type)
            .field("attempt", &self.attempt)
            .field("store", &self.store.as_ref().map(|s| s.describe()))
            // The token is the host's secret: only the decision is shown.
            .field("approval", &self.approval.as_ref().map(|(_, d)| d))
            .finish()
    }
}

/// What a handler receives: the call's context, with the scope already typed as `S`.
pub struct ToolContext<'a, S> {
    call: &'a CallContext,
    scope: Option<&'a S>,
}

impl<S> Clone for ToolContext<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for ToolContext<'_, S> {}

impl<'a, S: Any> ToolContext<'a, S> {
    /// The handler's view of `call`; the scope is present only when one of type `S` is bound.
    pub fn new(call: &'a CallContext) -> ToolContext<'a, S> {
        ToolContext {
            call,
            scope: call.scope::<S>(),
        }
    }

    /// The scope, if the host bound one of type `S`.
    pub fn scope(&self) -> Option<&'a S> {
        self.scope
    }

    /// The scope, or a `scope_unavailable` error that says how to bind one.
    pub fn require_scope(&self) -> Result<&'a S, ToolError> {
        match self.scope {
            Some(s) => Ok(s),
            None => {
                let expected = std::any::type_name::<S>();
                let found = match self.call.scope_type_name() {
                    Some(other) => format!("the call's scope is a `{other}`"),
                    None => "the call has no scope".to_owned(),
                };
                Err(ToolError::new(
                    ErrorKind::ScopeUnavailable,
                    "",
                    format!(
                        "this tool needs a scope of type `{expected}`, but {found}; \
                         bind one with `CallContext::with_scope({expected} {{ .. }})` \
                         before calling"
                    ),
                ))
            }
        }
    }

    /// The call id.
    pub fn call_id(&self) -> &'a str {
        self.call.call_id()
    }

    /// The caller.
    pub fn caller(&self) -> &'a Caller {
        self.call.caller()
    }

    /// The whole call context.
    pub fn call(&self) -> &'a CallContext {
        self.call
    }

    /// Records `key: value` in the metadata of this call's result (see
    /// [`CallContext::set_metadata`]); `false` when no agent is recording the call.
    pub fn set_metadata(&self, key: impl Into<String>, value: impl Into<Value>) -> bool {
        self.call.set_metadata(key, value)
    }
}

impl<S> fmt::Debug for ToolContext<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("call", self.call)
            .field("typed_scope", &self.scope.is_some())
            .finish()
    }
}
