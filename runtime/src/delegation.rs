//! Delegation: an agent (or a capability) exposed as one tool of another agent.
//!
//! A manifest's `delegates:` gives an agent tools that hand a task to another agent or to a
//! capability. The generated trait `<Agent>Delegates` has one method per delegate; it gets the
//! typed parameters, a [`Delegation`] to the target and the call's context. The delegate tool's
//! own contract (its policies, argument validation, timeout, panic containment, return
//! validation and tracing) runs around the method, and every call the method makes through the
//! [`Delegation`] runs the inner tool's whole contract with the **same caller**, scope and
//! policy store: an inner tool the caller may not call stays refused when reached through a
//! delegate. An inner tool that needs approval holds the delegate call: the request names the
//! inner tool and the delegates it was reached through, and resuming the delegate call with
//! its token runs the inner tool.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::agent::Agent;
use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::ToolError;
use crate::result::ToolResult;
use crate::search::SearchHit;
use crate::vocabulary::{ErrorKind, OperationKind};

/// A delegate's handle to the agent (or capability) it hands its task to, bound to the caller
/// of the delegate call.
///
/// Every call goes through the inner tool's execution contract, with the outer call's context:
/// the same caller (so the inner tools' `auth`, `roles` and per-caller rate limits apply to
/// the original caller), the same scope and the same policy store. An approval decision the
/// outer call carried is passed on when the delegate itself needs no approval (the call
/// resumes a hold of an inner tool, and the token was issued for that tool); a delegate that
/// needs approval used its token itself, and its inner calls run without one.
#[derive(Debug, Clone, Copy)]
pub struct Delegation<'a> {
    agent: &'a Agent,
    ctx: &'a CallContext,
    /// Whether the outer call's approval decision was the delegate's own.
    own_approval: bool,
}

/// A handle to `agent` for the call `ctx` of the delegate `delegate`. Generated delegate
/// toolboxes make one per call.
pub fn delegation<'a>(
    delegate: &ToolDescriptor,
    agent: &'a Agent,
    ctx: &'a CallContext,
) -> Delegation<'a> {
    Delegation {
        agent,
        ctx,
        own_approval: delegate.policy.approval,
    }
}

impl<'a> Delegation<'a> {
    /// The target: the delegated agent, or for a capability, an agent of that capability alone.
    pub fn agent(&self) -> &'a Agent {
        self.agent
    }

    /// The outer call's context, which every inner call runs with.
    pub fn context(&self) -> &'a CallContext {
        self.ctx
    }

    /// The target's tools and plays.
    pub fn tools(&self) -> Vec<&'static ToolDescriptor> {
        self.agent.tools()
    }

    /// The target's `k` tools that best match `query` ([`Agent::search_tools`]).
    pub fn search_tools(&self, query: &str, k: usize) -> Vec<SearchHit> {
        self.agent.search_tools(query, k)
    }

    /// The context inner calls run with: the outer call's, without an approval decision the
    /// delegate used itself.
    fn inner_context(&self) -> std::borrow::Cow<'a, CallContext> {
        if self.own_approval && self.ctx.approval().is_some() {
            std::borrow::Cow::Owned(self.ctx.without_approval())
        } else {
            std::borrow::Cow::Borrowed(self.ctx)
        }
    }

    /// Calls the target's tool or play `name` with `arguments` (any JSON-serializable value,
    /// such as `serde_json::json!({...})` or a generated parameters struct) through its
    /// whole contract. A play's failure is an `Err` here too (not its error envelope), and a
    /// tool that needs approval answers `Err` of kind `approval_required`: passed on with `?`,
    /// it holds the delegate call, the request naming the inner tool and the delegate.
    ///
    /// An `Err` returned from the delegate's method with `?` fails the delegate call with kind
    /// `handler`, the inner error reachable with `ToolError::downcast_ref::<ToolError>()`: the
    /// model called the delegate correctly, so an inner `arguments_invalid` must not tell it
    /// that its own arguments were wrong.
    pub async fn call<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
    ) -> Result<Value, ToolError> {
        let text = serde_json::to_string(arguments).map_err(|e| {
            ToolError::new(
                ErrorKind::ArgumentsInvalid,
                name,
                format!("the arguments for '{name}' cannot be written as JSON: {e}"),
            )
        })?;
        let ctx = self.inner_context();
        self.agent.dispatch(name, &text, &ctx).await.1
    }

    /// [`Delegation::call`], with the result read into `R` (a generated returns type, say).
    /// A value that does not read as `R` fails with `output_invalid`.
    pub async fn call_as<R: DeserializeOwned, A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
    ) -> Result<R, ToolError> {
        let value = self.call(name, arguments).await?;
        serde_json::from_value(value).map_err(|e| {
            let noun = match self.agent.descriptor(name).map(|d| d.kind) {
                Some(OperationKind::Play) => "play",
                _ => "tool",
            };
            ToolError::new(
                ErrorKind::OutputInvalid,
                name,
                format!("the result of {noun} '{name}' does not read as the type asked for: {e}"),
            )
        })
    }

    /// Calls `name` and answers the [`ToolResult`] the target's agent would: for a delegate
    /// that passes the inner outcome on as data rather than failing.
    pub async fn call_result<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
    ) -> ToolResult {
        let text = match serde_json::to_string(arguments) {
            Ok(text) => text,
            Err(e) => {
                return ToolResult::from(Err(ToolError::new(
                    ErrorKind::ArgumentsInvalid,
                    name,
                    format!("the arguments for '{name}' cannot be written as JSON: {e}"),
                )));
            }
        };
        let ctx = self.inner_context();
        self.agent.call_result(name, &text, &ctx).await
    }
}
