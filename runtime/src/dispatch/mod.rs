//! The execution contract: [`run_tool`] and [`run_play`], which generated dispatchers call
//! for every tool and play, and the object-safe [`Toolbox`] and [`Playbook`] traits they
//! implement.

mod answer;
mod contract;
mod names;
mod operation;

use std::future::Future;

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

pub use answer::{Answer, Answered, Encoding};
pub use names::NameIndex;
pub use operation::{Bound, bind};

use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::errors::{HandlerError, ToolError};
use crate::policy::Guard;
use crate::vocabulary::{BoxFuture, ErrorKind, Truncated};
use toolc_schema::Violations;

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
/// ([`parse_arguments`](crate::parse_arguments)) and validated against `desc.parameters`, every violation listed
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
    P: DeserializeOwned + Send,
    R: Serialize + Send,
    F: FnOnce(P) -> Fut + Send,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    run_tool_refined(desc, guard, ctx, arguments, accept::<P>, handler).await
}

/// [`run_tool`] with a refinement: `refine` runs on the parameters once they are
/// deserialized, before the handler; its violations fail the call with `arguments_invalid`,
/// exactly as schema violations do.
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
    P: DeserializeOwned + Send,
    R: Serialize + Send,
    C: FnOnce(&P) -> Result<(), Violations> + Send,
    F: FnOnce(P) -> Fut + Send,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    let bound = bind(desc, None, refine, handler, crate::conforms::unvouched);
    contract::serve_tool(
        Some(bound),
        desc.name,
        arguments,
        ctx,
        guard,
        Encoding::Value,
    )
    .await
    .map(Answer::into_value)
}

/// A generated toolbox's [`Toolbox::call`] and [`Toolbox::call_json`]: `bound` is the tool its
/// dispatcher bound to the name `tool` (`None` for a name it does not know), served through
/// the contract and answered in the form the method returns.
#[doc(hidden)]
pub fn call_tool<'a, A: Answered>(
    bound: Option<Bound<'a>>,
    tool: &'a str,
    arguments: &'a str,
    ctx: &'a CallContext,
    guard: &'a Guard,
) -> BoxFuture<'a, Result<A, ToolError>> {
    Box::pin(async move {
        contract::serve_tool(bound, tool, arguments, ctx, guard, A::ENCODING)
            .await
            .map(A::from_answer)
    })
}

/// A generated playbook's [`Playbook::call`] and [`Playbook::call_json`], as [`call_tool`].
#[doc(hidden)]
pub fn call_play<'a, A: Answered>(
    bound: Option<Bound<'a>>,
    play: &'a str,
    arguments: &'a str,
) -> BoxFuture<'a, Result<A, ToolError>> {
    Box::pin(async move {
        contract::serve_play(bound, play, arguments, A::ENCODING)
            .await
            .map(A::from_answer)
    })
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
    P: DeserializeOwned + Send,
    R: Serialize + Send,
    F: FnOnce(P) -> Fut + Send,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    run_play_refined(desc, arguments, accept::<P>, handler).await
}

/// [`run_play`] with a refinement, as [`run_tool_refined`].
#[doc(hidden)]
pub async fn run_play_refined<P, R, C, F, Fut>(
    desc: &'static ToolDescriptor,
    arguments: &str,
    refine: C,
    handler: F,
) -> Result<Value, ToolError>
where
    P: DeserializeOwned + Send,
    R: Serialize + Send,
    C: FnOnce(&P) -> Result<(), Violations> + Send,
    F: FnOnce(P) -> Fut + Send,
    Fut: Future<Output = Result<R, HandlerError>> + Send,
{
    contract::serve_play(
        Some(bind(
            desc,
            None,
            refine,
            handler,
            crate::conforms::unvouched,
        )),
        desc.name,
        arguments,
        Encoding::Value,
    )
    .await
    .map(Answer::into_value)
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
    operation::checked(desc, arguments, accept::<P>)
}
