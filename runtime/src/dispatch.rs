//! The execution contract: [`run_tool`] and [`run_play`], which generated dispatchers call
//! for every tool and play, and the object-safe [`Toolbox`] and [`Playbook`] traits they
//! implement.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::time::Instant;

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::approval::{self, ApprovalDecision};
use crate::arguments::parse_arguments;
use crate::context::CallContext;
use crate::descriptor::{OperationKind, ToolDescriptor};
use crate::errors::{ErrorKind, HandlerError, ToolError, Truncated, Violation, Violations};
use crate::panic::{catch_panic, panicked};
use crate::policy::{Guard, check_access, check_policy};
use crate::schema::json_pointer;
use crate::schema::stream;
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

    /// [`Toolbox::call`], answering the result as the JSON text the host receives, with no
    /// `serde_json::Value` on the way: generated toolboxes validate the result while they
    /// write it. The default serializes the value [`Toolbox::call`] answers.
    fn call_json<'a>(
        &'a self,
        tool: &'a str,
        arguments: &'a str,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, Result<Box<RawValue>, ToolError>> {
        Box::pin(async move {
            self.call(tool, arguments, ctx)
                .await
                .map(|v| Answer::Value(v).into_json())
        })
    }
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

    /// [`Playbook::call`], answering the value as JSON text (see [`Toolbox::call_json`]). The
    /// default serializes the value [`Playbook::call`] answers.
    fn call_json<'a>(
        &'a self,
        play: &'a str,
        arguments: &'a str,
    ) -> BoxFuture<'a, Result<Box<RawValue>, ToolError>> {
        Box::pin(async move {
            self.call(play, arguments)
                .await
                .map(|v| Answer::Value(v).into_json())
        })
    }
}

/// What a call answers in: a `serde_json::Value` ([`Toolbox::call`]) or JSON text
/// ([`Toolbox::call_json`]). Generated dispatchers pass it through to the runtime, so each tool
/// is dispatched by one function whichever is asked.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// A `serde_json::Value`.
    Value,
    /// JSON text.
    Json,
}

/// A call's result in the [`Encoding`] asked for.
#[doc(hidden)]
#[derive(Debug)]
pub enum Answer {
    /// A `serde_json::Value`.
    Value(Value),
    /// JSON text.
    Json(Box<RawValue>),
}

impl Answer {
    /// The result as a `Value` (read from the text when it is text).
    pub fn into_value(self) -> Value {
        match self {
            Answer::Value(v) => v,
            // The text was written by serde_json: it reads back.
            Answer::Json(raw) => serde_json::from_str(raw.get()).unwrap_or(Value::Null),
        }
    }

    /// The result as JSON text (written from the value when it is a value).
    pub fn into_json(self) -> Box<RawValue> {
        match self {
            Answer::Json(raw) => raw,
            // A `Value` always serializes.
            Answer::Value(v) => {
                serde_json::value::to_raw_value(&v).unwrap_or_else(|_| RawValue::NULL.to_owned())
            }
        }
    }

    /// The result as a `Value` for a preview, without consuming it.
    pub(crate) fn to_value(&self) -> std::borrow::Cow<'_, Value> {
        match self {
            Answer::Value(v) => std::borrow::Cow::Borrowed(v),
            Answer::Json(raw) => {
                std::borrow::Cow::Owned(serde_json::from_str(raw.get()).unwrap_or(Value::Null))
            }
        }
    }
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

/// Runs one tool call through the execution contract.
///
/// In order: a `started` event; the policies (auth level and roles → `forbidden`, rate limit
/// per caller and tool → `rate_limited` with a retry-after, or `unavailable` when the policy
/// store does not answer); the arguments parsed
/// ([`parse_arguments`]) and validated against `desc.parameters`, every violation listed
/// (→ `arguments_invalid`, the handler never runs); the arguments deserialized into `P` (and,
/// for generated toolboxes, the implementation's refinement run on them: its violations are
/// `arguments_invalid` too); the handler run, under `timeout_ms` when set (→ `timeout`, the handler's future dropped), a
/// panic contained (→ `panicked`), its own error kept (→ `handler`, or `scope_unavailable`
/// from [`ToolContext::require_scope`](crate::ToolContext::require_scope)); the result
/// serialized and, with `validate_returns`, validated against `desc.returns`
/// (→ `output_invalid`); a `completed` or `failed` event.
///
/// A tool whose policy asks for approval ([`crate::approval`]) is held instead of run: after
/// the auth level, roles and arguments (refinement included) are checked, the call answers
/// `approval_required` with a token (and an `approval_required` event); no rate-limit
/// allowance is spent. Called again with that token ([`CallContext::with_approval`]), it runs
/// the whole contract above, the token redeemed once the arguments are validated
/// (→ `forbidden` when it is not valid for this tool, arguments and caller); with
/// [`CallContext::with_denial`] the token is withdrawn and the call never runs (→ `forbidden`).
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
    run_tool_refined(desc, guard, ctx, arguments, accept::<P>, handler).await
}

/// [`run_tool`] with a refinement: `refine` runs on the parameters once they are
/// deserialized, before the handler; its violations fail the call with `arguments_invalid`,
/// exactly as schema violations do. Generated dispatchers call it with the trait's
/// `refine_<tool>` method.
#[doc(hidden)]
pub async fn run_tool_refined<P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
    arguments: &str,
    refine: C,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    C: FnOnce(&P) -> Result<(), Violations>,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    ToolCall::new(guard, ctx, arguments, Encoding::Value)
        .serve(desc, refine, handler)
        .await
        .map(Answer::into_value)
}

/// One call of a generated toolbox's `dispatch`, made once before it matches the tool's name:
/// each arm then names only what is its own, `call.serve(&DESCRIPTORS[i], refine, handler)`.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ToolCall<'a> {
    guard: &'a Guard,
    ctx: &'a CallContext,
    arguments: &'a str,
    encoding: Encoding,
}

impl<'a> ToolCall<'a> {
    /// The call of `arguments` under `ctx`, through `guard`, answering in `encoding`.
    pub fn new(
        guard: &'a Guard,
        ctx: &'a CallContext,
        arguments: &'a str,
        encoding: Encoding,
    ) -> ToolCall<'a> {
        ToolCall {
            guard,
            ctx,
            arguments,
            encoding,
        }
    }

    /// [`run_tool_refined`] for this call, answering in its [`Encoding`]: what generated
    /// toolboxes call from both [`Toolbox::call`] and [`Toolbox::call_json`].
    ///
    /// On the way the arguments are validated while they are deserialized, and the result while
    /// it is serialized, straight into the encoding asked for; whenever that fast path cannot
    /// vouch for a value (invalid, or a case only the full walk decides) the call takes the full
    /// walk over a `serde_json::Value`, which lists every violation with its pointer, so the
    /// outcome is the same either way.
    pub async fn serve<P, R, C, F, Fut>(
        self,
        desc: &'static ToolDescriptor,
        refine: C,
        handler: F,
    ) -> Result<Answer, ToolError>
    where
        P: DeserializeOwned,
        R: Serialize,
        C: FnOnce(&P) -> Result<(), Violations>,
        F: FnOnce(P) -> Fut,
        Fut: Future<Output = Result<R, HandlerError>> + Send,
    {
        let ToolCall {
            guard,
            ctx,
            arguments,
            encoding,
        } = self;
        let start = Instant::now();
        trace::started(ctx.call_id(), desc.name);
        let result = checked_tool(desc, guard, ctx, arguments, encoding, refine, handler).await;
        match &result {
            Ok(value) => trace::completed(ctx.call_id(), desc, start.elapsed(), value),
            Err(error) if error.kind() == ErrorKind::ApprovalRequired => {
                trace::held(ctx.call_id(), desc.name, start.elapsed());
            }
            Err(error) => trace::failed(ctx.call_id(), desc.name, start.elapsed(), error),
        }
        result
    }
}

/// The policies, the approval and the arguments of a tool call, then its handler.
async fn checked_tool<P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    guard: &Guard,
    ctx: &CallContext,
    arguments: &str,
    encoding: Encoding,
    refine: C,
    handler: F,
) -> Result<Answer, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    C: FnOnce(&P) -> Result<(), Violations>,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let store = guard.store_for(ctx);
    match (desc.policy.approval, ctx.approval()) {
        // A denial never runs anything, whatever the tool or the arguments.
        (_, Some((token, ApprovalDecision::Deny))) => {
            Err(approval::deny(desc, &**store, ctx, token).await)
        }
        (false, _) => {
            check_policy(desc, guard, ctx).await?;
            let params = prepare_params(desc, arguments, refine)?;
            execute(desc, params, handler, encoding).await
        }
        // Held: checked as far as a person needs (who calls, with what), and nothing spent.
        (true, None) => {
            check_access(desc, ctx)?;
            let (value, _) = prepare(desc, arguments, refine)?;
            Err(approval::hold(desc, &**store, ctx, value).await)
        }
        (true, Some((token, ApprovalDecision::Approve))) => {
            check_policy(desc, guard, ctx).await?;
            let (value, params) = prepare(desc, arguments, refine)?;
            approval::redeem(desc, &**store, ctx, token, &value).await?;
            execute(desc, params, handler, encoding).await
        }
    }
}

/// The refinement that accepts everything: what a tool without one runs.
fn accept<P>(_: &P) -> Result<(), Violations> {
    Ok(())
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
    run_play_refined(desc, arguments, accept::<P>, handler).await
}

/// [`run_play`] with a refinement, as [`run_tool_refined`]: generated playbooks call it with
/// the trait's `refine_<play>` method.
#[doc(hidden)]
pub async fn run_play_refined<P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: C,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    C: FnOnce(&P) -> Result<(), Violations>,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    serve_play(desc, arguments, Encoding::Value, refine, handler)
        .await
        .map(Answer::into_value)
}

/// [`run_play_refined`] answering in the [`Encoding`] asked for, as [`ToolCall::serve`]: what
/// generated playbooks call from both [`Playbook::call`] and [`Playbook::call_json`].
#[doc(hidden)]
pub async fn serve_play<P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    encoding: Encoding,
    refine: C,
    handler: F,
) -> Result<Answer, ToolError>
where
    P: DeserializeOwned,
    R: Serialize,
    C: FnOnce(&P) -> Result<(), Violations>,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let start = Instant::now();
    trace::started("", desc.name);
    let result = match prepare_params(desc, arguments, refine) {
        Ok(params) => execute(desc, params, handler, encoding).await,
        Err(e) => Err(e),
    };
    match &result {
        Ok(value) => trace::completed("", desc, start.elapsed(), value),
        Err(error) => trace::failed("", desc.name, start.elapsed(), error),
    }
    result
}

/// The handler run on read parameters: the timeout, panics contained, the result serialized
/// and validated.
async fn execute<P, R, F, Fut>(
    desc: &'static ToolDescriptor,
    params: P,
    handler: F,
    encoding: Encoding,
) -> Result<Answer, ToolError>
where
    R: Serialize,
    F: FnOnce(P) -> Fut,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let kind = desc.kind;

    // The handler itself may panic before it returns its future.
    let future = match catch_unwind(AssertUnwindSafe(move || handler(params))) {
        Ok(f) => f,
        Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
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
                    "{} '{}' timed out after {} ms",
                    kind.as_str(),
                    desc.name,
                    desc.policy.timeout_ms.unwrap_or_default()
                ),
            ));
        }
        Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
    };
    let result = match outcome {
        Ok(r) => r,
        Err(error) => return Err(handler_failure(kind, desc.name, error)),
    };
    encode(desc, kind, &result, encoding)
}

/// The handler's result in the encoding asked for, validated against `desc.returns` (with
/// `validate_returns`) while it is written; when that cannot vouch for it, serialized to a
/// `Value` and validated by the full walk, which lists every violation.
fn encode<R: Serialize>(
    desc: &'static ToolDescriptor,
    kind: OperationKind,
    result: &R,
    encoding: Encoding,
) -> Result<Answer, ToolError> {
    let schema = if desc.validate_returns {
        desc.returns
    } else {
        None
    };
    let fast = catch_unwind(AssertUnwindSafe(|| match encoding {
        Encoding::Value => stream::ser::to_value(schema, result).map(Answer::Value),
        Encoding::Json => stream::ser::to_json(schema, result).map(Answer::Json),
    }));
    match fast {
        Ok(Some(answer)) => return Ok(answer),
        Ok(None) => {}
        Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
    }
    let value = match catch_unwind(AssertUnwindSafe(|| serde_json::to_value(result))) {
        Ok(Ok(value)) => value,
        Ok(Err(e)) => {
            return Err(ToolError::with_violations(
                ErrorKind::OutputInvalid,
                kind,
                desc.name,
                vec![Violation::new(
                    "",
                    format!("the result cannot be serialized to JSON: {e}"),
                )],
            ));
        }
        Err(payload) => return Err(panicked(kind, desc.name, &*payload)),
    };
    if desc.validate_returns
        && let Some(returns) = desc.returns
        && !returns.is_valid(&value)
    {
        return Err(ToolError::with_violations(
            ErrorKind::OutputInvalid,
            kind,
            desc.name,
            returns.validate(&value),
        ));
    }
    Ok(match encoding {
        Encoding::Value => Answer::Value(value),
        Encoding::Json => Answer::Json(Answer::Value(value).into_json()),
    })
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
    prepare::<P, _>(desc, arguments, accept::<P>).map(|(value, _)| value)
}

/// [`check_arguments`] with a refinement, as a refined call runs it: generated toolbox and
/// playbook servers call it from their `check_arguments` method with the trait's
/// `refine_<tool>` method. A refinement that panics gives `panicked`, as in a call.
#[doc(hidden)]
pub fn check_arguments_refined<P, C>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: C,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned,
    C: FnOnce(&P) -> Result<(), Violations>,
{
    prepare::<P, C>(desc, arguments, refine).map(|(value, _)| value)
}

/// Parses, validates, deserializes and refines the arguments: the value as read, and the
/// parameters.
fn prepare<P, C>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: C,
) -> Result<(Value, P), ToolError>
where
    P: DeserializeOwned,
    C: FnOnce(&P) -> Result<(), Violations>,
{
    let (value, params) = read_params::<P>(desc, arguments)?;
    refined(desc, params, refine).map(|params| (value, params))
}

/// [`prepare`] when only the parameters are wanted: the arguments are validated while they
/// are deserialized, and read the full way (parsed to a `Value`, normalized, validated, every
/// violation listed) only when that cannot vouch for them.
fn prepare_params<P, C>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: C,
) -> Result<P, ToolError>
where
    P: DeserializeOwned,
    C: FnOnce(&P) -> Result<(), Violations>,
{
    let params = match stream::de::from_str::<P>(desc.parameters, arguments) {
        Some(params) => params,
        None => read_params::<P>(desc, arguments)?.1,
    };
    refined(desc, params, refine)
}

/// Runs the refinement on read parameters.
fn refined<P, C>(desc: &'static ToolDescriptor, params: P, refine: C) -> Result<P, ToolError>
where
    C: FnOnce(&P) -> Result<(), Violations>,
{
    let kind = desc.kind;
    // The refinement is the implementer's code: a panic there fails this call only.
    match catch_unwind(AssertUnwindSafe(|| refine(&params))) {
        Ok(Ok(())) => Ok(params),
        Ok(Err(Violations(mut violations))) => {
            if violations.is_empty() {
                violations.push(Violation::new(
                    "",
                    "refused by the tool's own check of its arguments, which gave no reason",
                ));
            }
            Err(ToolError::with_violations(
                ErrorKind::ArgumentsInvalid,
                kind,
                desc.name,
                violations,
            ))
        }
        Err(payload) => Err(panicked(kind, desc.name, &*payload)),
    }
}

/// Parses, validates and deserializes the arguments: the value as read, and the parameters.
fn read_params<P: DeserializeOwned>(
    desc: &'static ToolDescriptor,
    arguments: &str,
) -> Result<(Value, P), ToolError> {
    let invalid = |violations| {
        ToolError::with_violations(
            ErrorKind::ArgumentsInvalid,
            desc.kind,
            desc.name,
            violations,
        )
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
fn handler_failure(kind: OperationKind, name: &str, error: HandlerError) -> ToolError {
    let is_scope = error
        .downcast_ref::<ToolError>()
        .is_some_and(|e| e.kind() == ErrorKind::ScopeUnavailable);
    if !is_scope {
        return ToolError::handler_of(kind, name, error);
    }
    let type_name = error.type_name();
    match error.into_inner().downcast::<ToolError>() {
        Ok(tool_error) => (*tool_error).with_operation(kind, name),
        Err(other) => ToolError::handler_of(kind, name, HandlerError::from_boxed(other, type_name)),
    }
}
