//! The result envelope every call yields for the model and the host (contract rule 8).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::errors::ToolError;
use crate::vocabulary::{ApprovalRequest, CauseKind, ErrorKind, OperationKind};
use toolc_schema::Violation;

/// The outcome of one call: `{ ok, value?, error?, cause?, approval?, terminal?, metadata? }`.
///
/// [`Agent::call_result`](crate::Agent::call_result) makes it from the dispatcher's own
/// outcome: a play's failure is `ok: false` here whatever JSON the play's `returns` accepts.
///
/// Three outcomes, told apart by which field is set:
///
/// - `ok: true` with `value`: the call succeeded;
/// - `ok: false` with `error` and `cause`: it failed;
/// - `ok: false` with `approval` (and neither `error` nor `cause`): it was not run yet, but held
///   for a person's approval. The host asks them and resumes it with
///   [`Agent::approve`](crate::Agent::approve) or [`Agent::deny`](crate::Agent::deny).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// Whether the call succeeded.
    pub ok: bool,
    /// The result value, when `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The error message, when not `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What failed, when not `ok` (and the call was not held for approval).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The call is held for a person's approval (never set with `error` or `cause`): the tool,
    /// the validated arguments, and the token that resumes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalRequest>,
    /// The call succeeded and the tool is `terminal`: the host ends the agent's turn with
    /// this result instead of asking the model again. Never set on a failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub terminal: bool,
    /// How the call ran (call id, duration, attempt, tool kind) and the handler's own entries;
    /// `None` when the result was made from a bare `Result` rather than by an agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Metadata>,
}

/// The typed cause of a failed call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cause {
    /// `validation` (the call was wrong; a corrected call can succeed) or `runtime` (it failed
    /// on the tool's side); see [`ErrorKind::cause_kind`].
    pub kind: CauseKind,
    /// The kind in the closed taxonomy (`"arguments_invalid"`, `"rate_limited"`, …).
    pub code: ErrorKind,
    /// The handler error's type name, or the kind's CamelCase name.
    pub name: String,
    /// The cause's own message (the handler error's text, or the violations).
    pub message: String,
    /// Whether the same call, repeated later, can succeed ([`ErrorKind::retryable`]).
    pub retryable: bool,
    /// For `rate_limited`: milliseconds until the caller may call again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// For `arguments_invalid` and `output_invalid`: every violation, with its JSON pointer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

/// How one call ran, for the host: logs, retries, UIs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// The call id of the [`CallContext`](crate::CallContext).
    pub call_id: String,
    /// `"tool"` or `"play"`; absent when no tool or play of that name is served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_kind: Option<OperationKind>,
    /// Wall-clock time of the whole call (policies, validation, handler), in microseconds.
    pub duration_us: u64,
    /// Which attempt at this call it was, from
    /// [`CallContext::with_attempt`](crate::CallContext::with_attempt) (1 for the first).
    pub attempt: u32,
    /// What the handler recorded with
    /// [`ToolContext::set_metadata`](crate::ToolContext::set_metadata), by key.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub entries: Map<String, Value>,
}

impl Cause {
    /// The cause of `error`.
    pub fn of(error: &ToolError) -> Cause {
        let kind = error.kind();
        Cause {
            kind: kind.cause_kind(),
            code: kind,
            name: error.cause_name().to_owned(),
            message: error.cause_message(),
            retryable: kind.retryable(),
            retry_after_ms: error
                .retry_after()
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            violations: error.violations().to_vec(),
        }
    }
}

impl ToolResult {
    /// A successful result.
    pub fn success(value: Value) -> ToolResult {
        ToolResult {
            ok: true,
            value: Some(value),
            error: None,
            cause: None,
            approval: None,
            terminal: false,
            metadata: None,
        }
    }

    /// A failed result describing `error`.
    pub fn failure(error: &ToolError) -> ToolResult {
        ToolResult {
            ok: false,
            value: None,
            error: Some(error.message().to_owned()),
            cause: Some(Cause::of(error)),
            approval: None,
            terminal: false,
            metadata: None,
        }
    }

    /// A call held for approval.
    pub fn held(request: ApprovalRequest) -> ToolResult {
        ToolResult {
            ok: false,
            value: None,
            error: None,
            cause: None,
            approval: Some(request),
            terminal: false,
            metadata: None,
        }
    }

    /// This result as a JSON value.
    pub fn to_value(&self) -> Value {
        // Every field is a string, number, bool or JSON value: serializing cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A success, a failure, or (for an `approval_required` error) a call held for approval.
impl From<Result<Value, ToolError>> for ToolResult {
    fn from(result: Result<Value, ToolError>) -> ToolResult {
        match result {
            Ok(value) => ToolResult::success(value),
            Err(error) => match error.approval() {
                Some(request) => ToolResult::held(request.clone()),
                None => ToolResult::failure(&error),
            },
        }
    }
}
