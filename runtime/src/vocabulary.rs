//! The words every part of the runtime speaks, defined once and importing nothing else of the
//! crate: who calls ([`AuthLevel`], [`Caller`]), what is called ([`OperationKind`]), how a call
//! fails ([`ErrorKind`], [`CauseKind`]), a call held for approval ([`ApprovalRequest`],
//! [`ApprovalDecision`]) and the boxed future of the object-safe traits ([`BoxFuture`]). The
//! modules that act on them (the contract, the policies, the errors, the approvals) import them
//! from here, so none of them needs another to name a kind.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A boxed, sendable future: what the object-safe traits return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How strongly a caller is authenticated. Ordered: `None < User < Admin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum AuthLevel {
    /// Anyone, unauthenticated.
    #[default]
    None,
    /// An authenticated user.
    User,
    /// An administrator.
    Admin,
}

impl AuthLevel {
    /// The manifest spelling: `"none"`, `"user"` or `"admin"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            AuthLevel::None => "none",
            AuthLevel::User => "user",
            AuthLevel::Admin => "admin",
        }
    }
}

impl fmt::Display for AuthLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for AuthLevel {
    type Err = String;

    /// Reads the manifest spelling: `none`, `user` or `admin`.
    fn from_str(text: &str) -> Result<AuthLevel, String> {
        match text {
            "none" => Ok(AuthLevel::None),
            "user" => Ok(AuthLevel::User),
            "admin" => Ok(AuthLevel::Admin),
            other => Err(format!(
                "an auth level is none, user or admin, not '{}'",
                Truncated(other)
            )),
        }
    }
}

impl<'de> serde::Deserialize<'de> for AuthLevel {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<AuthLevel, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The principal a call acts for, as established by the host.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Caller {
    /// A stable id; rate limits are kept per caller id and tool.
    pub id: String,
    /// The caller's auth level.
    pub auth: AuthLevel,
    /// The caller's roles.
    pub roles: Vec<String>,
}

impl Caller {
    /// An unauthenticated caller with id `"anonymous"` and no roles.
    pub fn anonymous() -> Caller {
        Caller {
            id: "anonymous".to_owned(),
            auth: AuthLevel::None,
            roles: Vec::new(),
        }
    }

    /// A caller with this id, auth level `None` and no roles.
    pub fn new(id: impl Into<String>) -> Caller {
        Caller {
            id: id.into(),
            auth: AuthLevel::None,
            roles: Vec::new(),
        }
    }

    /// Sets the auth level.
    pub fn with_auth(mut self, auth: AuthLevel) -> Caller {
        self.auth = auth;
        self
    }

    /// Adds a role.
    pub fn with_role(mut self, role: impl Into<String>) -> Caller {
        self.roles.push(role.into());
        self
    }

    /// Adds several roles.
    pub fn with_roles<I, R>(mut self, roles: I) -> Caller
    where
        I: IntoIterator<Item = R>,
        R: Into<String>,
    {
        self.roles.extend(roles.into_iter().map(Into::into));
        self
    }

    /// Whether the caller has `role`.
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
}

impl Default for Caller {
    fn default() -> Caller {
        Caller::anonymous()
    }
}

/// Whether an operation is a tool (errors are `Err`) or a play (errors are envelopes).
/// Serialized as `"tool"` or `"play"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationKind {
    /// A toolbox tool.
    Tool,
    /// A playbook play.
    Play,
}

impl OperationKind {
    /// `"tool"` or `"play"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            OperationKind::Tool => "tool",
            OperationKind::Play => "play",
        }
    }
}

/// Why a tool or play call produced no value. The set is closed: every failure has exactly one
/// kind.
///
/// One kind is not a failure: [`ErrorKind::ApprovalRequired`] says the call was checked and is
/// held until a person approves it. A `Result<Value, ToolError>` has no other place for a call
/// that produced no value yet, so it travels as an `Err` like the failures, and
/// [`ToolResult`](crate::ToolResult) reports it as its own outcome (`approval`), never as a
/// failed call's `cause`.
///
/// Serialized as its snake_case name (`"arguments_invalid"`, …).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No tool or play of that name is served.
    UnknownTool,
    /// The argument text is malformed or breaks the parameters schema; the handler never ran.
    ArgumentsInvalid,
    /// The handler's serialized result breaks the returns schema.
    OutputInvalid,
    /// The caller's auth level or roles do not satisfy the tool's policy.
    Forbidden,
    /// The handler needs a scope and the call context carries none of the expected type.
    ScopeUnavailable,
    /// The caller has used up the tool's rate limit, or a service the handler calls says it is
    /// rate limited ([`ErrorKind::handler_may_report`]); see
    /// [`ToolError::retry_after`](crate::ToolError::retry_after).
    RateLimited,
    /// The handler did not finish within the tool's `timeout_ms`, or a service it calls did not
    /// answer in time.
    Timeout,
    /// A service the policies depend on (the policy store) did not answer, and the call was not
    /// run; or a service the handler calls is down or cannot be reached. See
    /// [`ToolError::retry_after`](crate::ToolError::retry_after).
    Unavailable,
    /// The handler panicked; the panic was contained to this call.
    Panicked,
    /// The handler returned its own error; see [`ToolError::handler_error`](crate::ToolError::handler_error).
    Handler,
    /// Not a failure: the tool needs a person's approval (`approval: required`). The arguments
    /// were validated and the call is held, its handler not run; [`ToolError::approval`](crate::ToolError::approval) has
    /// the token that resumes it ([`Agent::approve`](crate::Agent::approve) or
    /// [`Agent::deny`](crate::Agent::deny)).
    ApprovalRequired,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::UnknownTool,
        ErrorKind::ArgumentsInvalid,
        ErrorKind::OutputInvalid,
        ErrorKind::Forbidden,
        ErrorKind::ScopeUnavailable,
        ErrorKind::RateLimited,
        ErrorKind::Timeout,
        ErrorKind::Unavailable,
        ErrorKind::Panicked,
        ErrorKind::Handler,
        ErrorKind::ApprovalRequired,
    ];

    /// The stable snake_case name, as it appears in envelopes and `ToolResult::cause.kind`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::ArgumentsInvalid => "arguments_invalid",
            ErrorKind::OutputInvalid => "output_invalid",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::ScopeUnavailable => "scope_unavailable",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Panicked => "panicked",
            ErrorKind::Handler => "handler",
            ErrorKind::ApprovalRequired => "approval_required",
        }
    }

    /// The kind with this snake_case name, if any.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether the same call, repeated later, can succeed.
    ///
    /// Only `rate_limited` (after the retry-after), `timeout` (a transient slowness) and
    /// `unavailable` (after the retry-after) can; every other kind fails again for the same
    /// arguments and caller. `approval_required` is not retryable: the same call is held again;
    /// what resumes it is the approval.
    pub const fn retryable(self) -> bool {
        matches!(
            self,
            ErrorKind::RateLimited | ErrorKind::Timeout | ErrorKind::Unavailable
        )
    }

    /// Whether a handler may fail with this kind by returning a
    /// [`ToolError`](crate::ToolError) of it (through `?` into its
    /// [`HandlerError`](crate::HandlerError)), which the contract then reports as it is,
    /// retry-after included, rather than as kind `handler`: `scope_unavailable` (what
    /// [`ToolContext::require_scope`](crate::ToolContext::require_scope) returns), and the
    /// kinds a service the handler calls can answer: `rate_limited` (an API's 429, with its
    /// retry-after), `unavailable` (a service down or unreachable) and `timeout` (a service
    /// that did not answer in time). Other kinds are the contract's own to decide.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolc_runtime::{ErrorKind, HandlerError, ToolError};
    ///
    /// fn upstream_said_429(retry_after: Duration) -> HandlerError {
    ///     // "this tool" becomes "tool 'x'" in the message the caller reads.
    ///     ToolError::new(ErrorKind::RateLimited, "", "this tool is rate limited by its API")
    ///         .with_retry_after(retry_after)
    ///         .into()
    /// }
    /// # let _ = upstream_said_429(Duration::from_secs(1));
    /// ```
    pub const fn handler_may_report(self) -> bool {
        matches!(
            self,
            ErrorKind::ScopeUnavailable
                | ErrorKind::RateLimited
                | ErrorKind::Unavailable
                | ErrorKind::Timeout
        )
    }

    /// Whether the failure is the call's (`validation`: the model named no tool or sent
    /// arguments the schema refuses, and can fix the call) or the tool side's (`runtime`: the
    /// call was well-formed and a policy, the handler, its result or its time budget failed).
    ///
    /// `approval_required` counts as `runtime` (the call was well-formed and the tool's policy
    /// holds it), though a [`ToolResult`](crate::ToolResult) never reports it as a cause.
    pub const fn cause_kind(self) -> CauseKind {
        match self {
            ErrorKind::UnknownTool | ErrorKind::ArgumentsInvalid => CauseKind::Validation,
            ErrorKind::OutputInvalid
            | ErrorKind::Forbidden
            | ErrorKind::ScopeUnavailable
            | ErrorKind::RateLimited
            | ErrorKind::Timeout
            | ErrorKind::Unavailable
            | ErrorKind::Panicked
            | ErrorKind::Handler
            | ErrorKind::ApprovalRequired => CauseKind::Runtime,
        }
    }

    /// A CamelCase name used as `ToolResult::cause.name` when no handler error type applies.
    pub(crate) const fn type_name(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "UnknownTool",
            ErrorKind::ArgumentsInvalid => "ArgumentsInvalid",
            ErrorKind::OutputInvalid => "OutputInvalid",
            ErrorKind::Forbidden => "Forbidden",
            ErrorKind::ScopeUnavailable => "ScopeUnavailable",
            ErrorKind::RateLimited => "RateLimited",
            ErrorKind::Timeout => "Timeout",
            ErrorKind::Unavailable => "Unavailable",
            ErrorKind::Panicked => "Panicked",
            ErrorKind::Handler => "HandlerError",
            ErrorKind::ApprovalRequired => "ApprovalRequired",
        }
    }
}

/// The coarse class of a failure, as `ToolResult::cause.kind`: whether the model can fix the
/// call ([`ErrorKind::cause_kind`] says which kinds are which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseKind {
    /// The call itself was wrong: no such tool, or arguments the parameters schema refuses.
    /// The handler never ran; a corrected call can succeed.
    Validation,
    /// The call was well-formed and failed on the tool's side: a policy, the handler, its
    /// result, a panic or the time budget.
    Runtime,
}

impl CauseKind {
    /// `"validation"` or `"runtime"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            CauseKind::Validation => "validation",
            CauseKind::Runtime => "runtime",
        }
    }
}

impl fmt::Display for CauseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How long an approval token stays valid unless the call says otherwise
/// ([`CallContext::with_approval_ttl`](crate::CallContext::with_approval_ttl)): 10 minutes.
pub const DEFAULT_APPROVAL_TTL: Duration = Duration::from_secs(600);

/// A call held for a person's approval: what to show them, and the token that resumes it.
///
/// It is the `approval` of a [`ToolResult`](crate::ToolResult) and of a
/// [`ToolError`](crate::ToolError) of kind [`ErrorKind::ApprovalRequired`]; pass it back to
/// [`Agent::approve`](crate::Agent::approve) or [`Agent::deny`](crate::Agent::deny) with the same
/// caller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    /// The single-use token that resumes this call (64 hexadecimal digits). Keep it from the
    /// model: it is the host's to redeem.
    pub token: String,
    /// The tool that needs the approval: the tool the call named, or the inner tool a
    /// delegate reached.
    pub tool: String,
    /// The arguments of `tool` as the dispatcher read and validated them (what the handler will
    /// get), with what the parameters schema marks `sensitive` masked.
    pub arguments: Value,
    /// How long the token stays valid, in milliseconds from when the call was held.
    pub expires_in_ms: u64,
    /// What to ask the person: `tool 'x' needs a person's approval before it runs`, naming
    /// the delegates it was reached through.
    pub message: String,
    /// The delegates the held call went through, the one the host called first (empty for a
    /// tool called directly). Resuming calls `delegates[0]` again with the token, and the
    /// token travels down to `tool`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub delegates: Vec<String>,
    /// The arguments of the call of `delegates[0]` (as validated, `sensitive` parts masked),
    /// which resuming makes again; `None` for a tool called directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delegate_arguments: Option<Value>,
}

impl ApprovalRequest {
    /// The tool a host calls again to resume the held call, and with what: the delegate it
    /// called, or the tool itself.
    pub fn resumed_call(&self) -> (&str, &Value) {
        match (self.delegates.first(), &self.delegate_arguments) {
            (Some(delegate), Some(arguments)) => (delegate, arguments),
            _ => (&self.tool, &self.arguments),
        }
    }
}

/// What a host decided about a held call, carried by its [`CallContext`](crate::CallContext).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApprovalDecision {
    /// Run the held call: the dispatcher redeems the token and runs the handler.
    Approve,
    /// Do not run it: the dispatcher withdraws the token and the call fails with `forbidden`.
    Deny,
}

/// Displays at most 200 bytes of a name that came from outside (a model may send anything).
pub(crate) struct Truncated<'a>(pub &'a str);

impl fmt::Display for Truncated<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 200;
        if self.0.len() <= MAX {
            return f.write_str(self.0);
        }
        let mut end = MAX;
        while !self.0.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}…", &self.0[..end])
    }
}
