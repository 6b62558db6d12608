//! The execution contract around a [`Bound`] operation: events, policies, approvals, the
//! arguments read, the handler under its timeout with panics contained, the result written.
//! Nothing here knows a tool's types, so it is compiled once, whatever the number of tools.

use super::answer::{Answer, Encoding};
use super::operation::{Bound, Operation, read_value};
use crate::approval::{self, ApprovalDecision};
use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::{HandlerError, ToolError};
use crate::panic::{catch_panic, panicked};
use crate::policy::{Guard, check_access, check_policy};
use crate::trace;
use crate::vocabulary::{ErrorKind, OperationKind};
use std::pin::Pin;

/// Serves one tool call through the contract (see [`run_tool`](super::run_tool) for the
/// order of its steps); `None` is a name no tool answers to.
pub(crate) async fn serve_tool(
    bound: Option<Bound<'_>>,
    tool: &str,
    arguments: &str,
    ctx: &CallContext,
    guard: &Guard,
    encoding: Encoding,
) -> Result<Answer, ToolError> {
    let Some(Bound { desc, mut op }) = bound else {
        return Err(ToolError::unknown_tool(tool));
    };
    let start = trace::Stopwatch::start();
    trace::started(ctx.call_id(), desc.name);
    let result = match (desc.policy.approval, ctx.approval()) {
        // A tool that asks for no approval, called without a denial (a token given to it
        // anyway is not looked at): its policies, its arguments, then its handler.
        (false, None | Some((_, ApprovalDecision::Approve))) => {
            match check_policy(desc, guard, ctx).await {
                Ok(()) => match op.as_mut().prepare(desc, arguments) {
                    Ok(()) => execute(desc, op.as_mut(), encoding).await,
                    Err(error) => Err(error),
                },
                Err(error) => Err(error),
            }
        }
        // Boxed apart: these wait on the policy store for the approval itself, and every
        // other call's future would otherwise carry room for that state.
        _ => {
            Box::pin(approval_step(
                desc,
                guard,
                ctx,
                arguments,
                encoding,
                op.as_mut(),
            ))
            .await
        }
    };
    // A delegate whose inner call was held is held too: the host approves the inner tool and
    // resumes this call.
    let result = result.map_err(|error| match held_inside(&error) {
        Some(inner) => approval::held_through(desc, arguments, inner),
        None => error,
    });
    match &result {
        Ok(value) => trace::completed(ctx.call_id(), desc, start.elapsed(), value),
        Err(error) if error.kind() == ErrorKind::ApprovalRequired => {
            trace::held(ctx.call_id(), desc.name, start.elapsed());
        }
        Err(error) => trace::failed(ctx.call_id(), desc.name, start.elapsed(), error),
    }
    result
}

/// The held call a handler passed on with `?`: an inner call's `approval_required`.
fn held_inside(error: &ToolError) -> Option<&crate::approval::ApprovalRequest> {
    if error.kind() != ErrorKind::Handler {
        return None;
    }
    let inner = error.downcast_ref::<ToolError>()?;
    if inner.kind() != ErrorKind::ApprovalRequired {
        return None;
    }
    inner.approval()
}

/// A call with an approval step: a tool that asks for one, or any call with a denial.
async fn approval_step(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
    arguments: &str,
    encoding: Encoding,
    mut op: Pin<&mut (dyn Operation + '_)>,
) -> Result<Answer, ToolError> {
    let store = guard.store_for(ctx);
    match ctx.approval() {
        // A denial never runs anything, whatever the tool or the arguments.
        Some((token, ApprovalDecision::Deny)) => {
            Err(approval::deny(desc, &**store, ctx, token).await)
        }
        // Held: checked as far as a person needs (who calls, with what), and nothing spent.
        None => {
            check_access(desc, ctx)?;
            let value = read_value(desc, arguments)?;
            op.as_mut().prepare(desc, arguments)?;
            Err(approval::hold(desc, &**store, ctx, value).await)
        }
        Some((token, ApprovalDecision::Approve)) => {
            check_policy(desc, guard, ctx).await?;
            let value = read_value(desc, arguments)?;
            op.as_mut().prepare(desc, arguments)?;
            approval::redeem(desc, &**store, ctx, token, &value).await?;
            execute(desc, op, encoding).await
        }
    }
}

/// Serves one play: the arguments, the handler and the result, with events carrying an empty
/// `call_id`; `None` is a name no play answers to.
pub(crate) async fn serve_play(
    bound: Option<Bound<'_>>,
    play: &str,
    arguments: &str,
    encoding: Encoding,
) -> Result<Answer, ToolError> {
    let Some(Bound { desc, mut op }) = bound else {
        return Err(super::unknown_play(play));
    };
    let start = trace::Stopwatch::start();
    trace::started("", desc.name);
    let result = match op.as_mut().prepare(desc, arguments) {
        Ok(()) => execute(desc, op.as_mut(), encoding).await,
        Err(e) => Err(e),
    };
    match &result {
        Ok(value) => trace::completed("", desc, start.elapsed(), value),
        Err(error) => trace::failed("", desc.name, start.elapsed(), error),
    }
    result
}

/// The handler run on prepared parameters: under the timeout, panics contained, then the
/// result written and validated.
async fn execute(
    desc: &'static ToolDescriptor,
    mut op: Pin<&mut (dyn Operation + '_)>,
    encoding: Encoding,
) -> Result<Answer, ToolError> {
    let kind = desc.kind;
    let outcome = match desc.timeout() {
        None => catch_panic(std::future::poll_fn(|cx| op.as_mut().poll_run(cx)))
            .await
            .map(Some),
        Some(limit) => {
            let run = std::future::poll_fn(|cx| op.as_mut().poll_run(cx));
            // The timer is made on the first poll, inside the catch: without a time driver
            // making it panics. On elapse the handler's future stops being polled; it is
            // dropped with the operation, before the call answers.
            catch_panic(async move { tokio::time::timeout(limit, run).await.ok() }).await
        }
    };
    match outcome {
        Ok(Some(Ok(()))) => op.write(desc, encoding),
        Ok(Some(Err(error))) => Err(handler_failure(kind, desc.name, error)),
        Ok(None) => Err(ToolError::new(
            ErrorKind::Timeout,
            desc.name,
            format!(
                "{} '{}' timed out after {} ms",
                kind.as_str(),
                desc.name,
                desc.policy.timeout_ms.unwrap_or_default()
            ),
        )),
        Err(payload) => Err(panicked(kind, desc.name, &*payload)),
    }
}

/// A handler's error as a tool error. A [`ToolError`] the handler returns of a kind it may
/// report ([`ErrorKind::handler_may_report`]: `scope_unavailable` from `require_scope`, and
/// `rate_limited`, `unavailable` or `timeout` from a service the handler calls) keeps its kind
/// and retry-after; anything else is kind `handler` with the original kept.
fn handler_failure(kind: OperationKind, name: &str, error: HandlerError) -> ToolError {
    let reported = error
        .downcast_ref::<ToolError>()
        .is_some_and(|e| e.kind().handler_may_report());
    if !reported {
        return ToolError::handler_of(kind, name, error);
    }
    let type_name = error.type_name();
    match error.into_inner().downcast::<ToolError>() {
        Ok(tool_error) => (*tool_error).with_operation(kind, name),
        Err(other) => ToolError::handler_of(kind, name, HandlerError::from_boxed(other, type_name)),
    }
}
