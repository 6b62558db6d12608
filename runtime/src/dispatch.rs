//! The execution contract: [`run_tool`] and [`run_play`], which generated dispatchers call
//! for every tool and play, and the object-safe [`Toolbox`] and [`Playbook`] traits they
//! implement.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::Poll;
use std::time::Instant;

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::arguments::parse_arguments;
use crate::context::CallContext;
use crate::descriptor::{OperationKind, ToolDescriptor};
use crate::errors::{ErrorKind, HandlerError, ToolError, Truncated, Violation};
use crate::policy::{Guard, check_policy};
use crate::schema::json_pointer;
use crate::trace;

/// A boxed, sendable future: what the object-safe traits return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A set of tools served through the execution contract. Generated toolboxes implement it.
pub trait Toolbox: Send + Sync {
    /// The toolbox's name.
    fn name(&self) -> &'static str;
    /// Its tools, in manifest order.
    fn descriptors(&self) -> &'static [ToolDescriptor];
    /// Calls `tool` with argument text; an unknown name fails with `unknown_tool`.
    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: &'a str,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, Result<Value, ToolError>>;
}

/// A set of plays. Plays never fail past the playbook: every failure (unknown play, invalid
/// arguments, handler error, panic, output violation) comes back as a value, never a panic.
///
/// `call` answers the typed outcome, so the agent tells a failure from a success without
/// looking at the JSON; where JSON is wanted ([`Agent::call`](crate::Agent::call)) a failure
/// becomes its [`error_envelope`] `{ "error": message, "kind": kind }`.
pub trait Playbook: Send + Sync {
    /// The playbook's name.
    fn name(&self) -> &'static str;
    /// Its plays, in manifest order.
    fn descriptors(&self) -> &'static [ToolDescriptor];
    /// Runs `play` with argument text: its value, or the failure an envelope is made from.
    fn call<'a>(
        &'a self,
        play: &'a str,
        arguments: &'a str,
    ) -> BoxFuture<'a, Result<Value, ToolError>>;
}

/// The parameters of a tool that takes none: accepts any JSON object (the parameters schema,
/// checked before, decides which objects are allowed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
pub struct NoParams;

impl<'de> Deserialize<'de> for NoParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NoParams, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NoParams;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NoParams, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(NoParams)
            }
        }
        deserializer.deserialize_map(V)
    }
}

/// The error envelope of a failed play: `{ "error": message, "kind": kind }`.
pub fn error_envelope(error: &ToolError) -> Value {
    let mut map = serde_json::Map::new();
    map.insert("error".into(), Value::String(error.message().to_owned()));
    map.insert(
        "kind".into(),
        Value::String(error.kind().as_str().to_owned()),
    );
    Value::Object(map)
}

/// The failure for a play name that no playbook serves (kind `unknown_tool`).
pub fn unknown_play(play: &str) -> ToolError {
    ToolError::new(
        ErrorKind::UnknownTool,
        play,
        format!("unknown play '{}'", Truncated(play)),
    )
}

fn noun(desc: &ToolDescriptor) -> &'static str {
    match desc.kind {
        OperationKind::Tool => "tool",
        OperationKind::Play => "play",
    }
}

/// Runs one tool call through the execution contract.
///
/// In order: a `started` event; the policies (auth level and roles → `forbidden`, rate limit
/// per caller and tool → `rate_limited` with a retry-after, or `unavailable` when the policy
/// store does not answer); the arguments parsed
/// ([`parse_arguments`]) and validated against `desc.parameters`, every violation listed
/// (→ `arguments_invalid`, the handler never runs); the arguments deserialized into `P`; the
/// handler run, under `timeout_ms` when set (→ `timeout`, the handler's future dropped), a
/// panic contained (→ `panicked`), its own error kept (→ `handler`, or `scope_unavailable`
/// from [`ToolContext::require_scope`](crate::ToolContext::require_scope)); the result
/// serialized and, with `validate_returns`, validated against `desc.returns`
/// (→ `output_invalid`); a `completed` or `failed` event.
///
/// A `timeout_ms` needs a Tokio runtime with its time driver; without one the call fails with
/// `panicked` (the timer's own panic, contained).
pub async fn run_tool<P, R, F, Fut>(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
    arguments: &str,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let start = Instant::now();
    trace::started(ctx.call_id(), desc.name);
    let result = match check_policy(desc, guard, ctx).await {
        Ok(()) => execute(desc, arguments, handler).await,
        Err(e) => Err(e),
    };
    match &result {
        Ok(value) => trace::completed(ctx.call_id(), desc.name, start.elapsed(), value),
        Err(error) => trace::failed(ctx.call_id(), desc.name, start.elapsed(), error),
    }
    result
}

/// Runs one play: like [`run_tool`] without a context or policies. Every failure (invalid
/// arguments, handler error, panic, output violation) is answered as `Err`, never a panic; the
/// agent makes the [`error_envelope`] from it where JSON is wanted. Its events carry an empty
/// `call_id`.
pub async fn run_play<P, R, F, Fut>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let start = Instant::now();
    trace::started("", desc.name);
    let result = execute(desc, arguments, handler).await;
    match &result {
        Ok(value) => trace::completed("", desc.name, start.elapsed(), value),
        Err(error) => trace::failed("", desc.name, start.elapsed(), error),
    }
    result
}

async fn execute<P, R, F, Fut>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let (_, params): (Value, P) = prepare(desc, arguments)?;
    let noun = noun(desc);

    // The handler itself may panic before it returns its future.
    let future = match catch_unwind(AssertUnwindSafe(move || handler(params))) {
        Ok(f) => f,
        Err(payload) => return Err(panicked(noun, desc.name, &*payload)),
    };
    let timeout = desc.timeout();
    let guarded = async move {
        match timeout {
            None => Some(future.await),
            // Dropping the `Timeout` on elapse drops the handler's future with it.
            Some(limit) => tokio::time::timeout(limit, future).await.ok(),
        }
    };
    let outcome = match catch_panic(guarded).await {
        Ok(Some(outcome)) => outcome,
        Ok(None) => {
            return Err(ToolError::new(
                ErrorKind::Timeout,
                desc.name,
                format!(
                    "{noun} '{}' timed out after {} ms",
                    desc.name,
                    desc.policy.timeout_ms.unwrap_or_default()
                ),
            ));
        }
        Err(payload) => return Err(panicked(noun, desc.name, &*payload)),
    };
    let result = match outcome {
        Ok(r) => r,
        Err(error) => return Err(handler_failure(noun, desc.name, error)),
    };
    let value = match catch_unwind(AssertUnwindSafe(|| serde_json::to_value(&result))) {
        Ok(Ok(value)) => value,
        Ok(Err(e)) => {
            return Err(ToolError::with_violations(
                ErrorKind::OutputInvalid,
                noun,
                desc.name,
                vec![Violation::new(
                    "",
                    format!("the result cannot be serialized to JSON: {e}"),
                )],
            ));
        }
        Err(payload) => return Err(panicked(noun, desc.name, &*payload)),
    };
    drop(result);
    if desc.validate_returns
        && let Some(returns) = desc.returns
        && !returns.is_valid(&value)
    {
        return Err(ToolError::with_violations(
            ErrorKind::OutputInvalid,
            noun,
            desc.name,
            returns.validate(&value),
        ));
    }
    Ok(value)
}

/// Checks argument text for a tool or play as a call would, without running its handler or
/// its policies: parsed, read as the schema means it (strict-mode nulls for absent optionals,
/// integral floats as integers), validated, and read into the parameters type `P`. Returns the
/// arguments as read, or the `arguments_invalid` error a call would fail with.
///
/// Generated modules call it from their `check_arguments`, which picks `P` by the tool's name.
pub fn check_arguments<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    arguments: &str,
) -> Result<Value, ToolError> {
    prepare::<P>(desc, arguments).map(|(value, _)| value)
}

/// Parses, validates and deserializes the arguments: the value as read, and the parameters.
fn prepare<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    arguments: &str,
) -> Result<(Value, P), ToolError> {
    let noun = noun(desc);
    let invalid = |violations| {
        ToolError::with_violations(ErrorKind::ArgumentsInvalid, noun, desc.name, violations)
    };
    let mut value = parse_arguments(arguments).map_err(|v| invalid(vec![v]))?;
    // `null` for an absent optional, as strict dialects send it; `5.0` for an integer.
    desc.parameters.normalize_arguments(&mut value);
    if !desc.parameters.is_valid(&value) {
        return Err(invalid(desc.parameters.validate(&value)));
    }
    // The fast path first; on failure, again with path tracking for the pointer.
    if let Ok(params) = P::deserialize(&value) {
        return Ok((value, params));
    }
    match serde_path_to_error::deserialize::<_, P>(&value) {
        Ok(params) => Ok((value, params)),
        Err(e) => {
            let segments: Vec<String> = e
                .path()
                .iter()
                .filter_map(|s| match s {
                    serde_path_to_error::Segment::Seq { index } => Some(index.to_string()),
                    serde_path_to_error::Segment::Map { key } => Some(key.clone()),
                    _ => None,
                })
                .collect();
            let pointer = json_pointer(segments.iter().map(String::as_str));
            // Validation passed, so the schema and the generated type disagree here, which
            // the compiler rules out; the message speaks of the value, not of Rust types.
            Err(invalid(vec![Violation::new(
                pointer,
                "this value matches the parameters schema but cannot be read as its generated \
                 type describes; please report it with the manifest"
                    .to_owned(),
            )]))
        }
    }
}

/// A handler's error as a tool error: `scope_unavailable` from `require_scope` keeps its
/// kind; anything else is kind `handler` with the original kept.
fn handler_failure(noun: &str, name: &str, error: HandlerError) -> ToolError {
    let is_scope = error
        .downcast_ref::<ToolError>()
        .is_some_and(|e| e.kind() == ErrorKind::ScopeUnavailable);
    if !is_scope {
        return ToolError::handler_of(noun, name, error);
    }
    let type_name = error.type_name();
    match error.into_inner().downcast::<ToolError>() {
        Ok(tool_error) => {
            let e = (*tool_error).with_tool(name);
            if noun == "play" {
                ToolError::new(e.kind(), name, e.message().replacen("tool '", "play '", 1))
            } else {
                e
            }
        }
        Err(other) => ToolError::handler_of(noun, name, HandlerError::from_boxed(other, type_name)),
    }
}

/// Polls `future`, turning a panic inside any poll into `Err(payload)`.
async fn catch_panic<F: Future>(future: F) -> Result<F::Output, Box<dyn Any + Send>> {
    let mut future = std::pin::pin!(future);
    std::future::poll_fn(move |cx| {
        match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(out)) => Poll::Ready(Ok(out)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(payload)),
        }
    })
    .await
}

fn panicked(noun: &str, name: &str, payload: &(dyn Any + Send)) -> ToolError {
    let what = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string payload".to_owned()
    };
    ToolError::new(
        ErrorKind::Panicked,
        name,
        format!("{noun} '{name}' panicked: {}", Truncated(&what)),
    )
}
