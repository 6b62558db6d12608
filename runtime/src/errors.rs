//! The closed error taxonomy (contract rule 7) and the errors handlers return.

use std::error::Error;
use std::fmt;
use std::time::Duration;

use crate::vocabulary::{ApprovalRequest, ErrorKind, OperationKind, Truncated};
use toolc_schema::{Violation, Violations};

type BoxError = Box<dyn Error + Send + Sync + 'static>;

/// The error of a failed tool call: a kind from the closed taxonomy, the tool's name, a
/// message for people and models (never a backtrace), and what caused it.
///
/// One pointer wide, so `Result<Value, ToolError>` stays small.
pub struct ToolError(Box<Inner>);

struct Inner {
    kind: ErrorKind,
    tool: String,
    message: String,
    violations: Vec<Violation>,
    retry_after: Option<Duration>,
    handler: Option<HandlerError>,
    source: Option<Violations>,
    approval: Option<ApprovalRequest>,
}

impl ToolError {
    /// A tool error of `kind` for `tool` with a complete `message`.
    pub fn new(kind: ErrorKind, tool: impl Into<String>, message: impl Into<String>) -> ToolError {
        ToolError(Box::new(Inner {
            kind,
            tool: tool.into(),
            message: message.into(),
            violations: Vec::new(),
            retry_after: None,
            handler: None,
            source: None,
            approval: None,
        }))
    }

    /// `unknown_tool`: nothing named `tool` is served here.
    pub fn unknown_tool(tool: &str) -> ToolError {
        ToolError::new(
            ErrorKind::UnknownTool,
            tool,
            format!("unknown tool '{}'", Truncated(tool)),
        )
    }

    /// `arguments_invalid` with every violation listed in the message.
    pub fn arguments_invalid(tool: &str, violations: Vec<Violation>) -> ToolError {
        ToolError::with_violations(
            ErrorKind::ArgumentsInvalid,
            OperationKind::Tool,
            tool,
            violations,
        )
    }

    /// `output_invalid`: `tool 'x' output violated its returns schema: …`, the violations
    /// kept as the source.
    pub fn output_invalid(tool: &str, violations: Vec<Violation>) -> ToolError {
        ToolError::with_violations(
            ErrorKind::OutputInvalid,
            OperationKind::Tool,
            tool,
            violations,
        )
    }

    /// `handler`: the handler's own error, kept for [`ToolError::downcast_ref`].
    pub fn handler(tool: &str, error: HandlerError) -> ToolError {
        ToolError::handler_of(OperationKind::Tool, tool, error)
    }

    /// `arguments_invalid` or `output_invalid`, for the tool or play `name`.
    pub(crate) fn with_violations(
        kind: ErrorKind,
        operation: OperationKind,
        name: &str,
        violations: Vec<Violation>,
    ) -> ToolError {
        let noun = operation.as_str();
        let list = Violations(violations);
        let message = match kind {
            ErrorKind::OutputInvalid => {
                format!("{noun} '{name}' output violated its returns schema: {list}")
            }
            _ => format!("{noun} '{name}' arguments are invalid: {list}"),
        };
        let mut e = ToolError::new(kind, name, message);
        e.0.violations = list.0.clone();
        e.0.source = Some(list);
        e
    }

    pub(crate) fn handler_of(
        operation: OperationKind,
        name: &str,
        error: HandlerError,
    ) -> ToolError {
        let mut e = ToolError::new(
            ErrorKind::Handler,
            name,
            format!("{} '{name}' failed: {error}", operation.as_str()),
        );
        e.0.handler = Some(error);
        e
    }

    /// Sets the retry-after hint (used with `rate_limited`).
    pub fn with_retry_after(mut self, after: Duration) -> ToolError {
        self.0.retry_after = Some(after);
        self
    }

    /// Attaches the held call of an `approval_required` error.
    pub(crate) fn with_approval(mut self, request: ApprovalRequest) -> ToolError {
        self.0.approval = Some(request);
        self
    }

    /// For `approval_required`: the held call, with the token that resumes it.
    pub fn approval(&self) -> Option<&ApprovalRequest> {
        self.0.approval.as_ref()
    }

    /// Sets the tool name when it was not known where the error was made; a message that
    /// speaks of "this tool" then names it.
    pub fn with_tool(self, tool: &str) -> ToolError {
        self.with_operation(OperationKind::Tool, tool)
    }

    /// [`ToolError::with_tool`] for a tool or a play: a message that speaks of "this tool"
    /// then names the operation as what it is (`play 'x' …`).
    pub(crate) fn with_operation(mut self, operation: OperationKind, name: &str) -> ToolError {
        if let Some(rest) = self.0.message.strip_prefix("this tool ") {
            self.0.message = format!("{} '{name}' {rest}", operation.as_str());
        }
        self.0.tool = name.to_owned();
        self
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The tool (or play) the call named; empty when not known where the error was made.
    pub fn tool(&self) -> &str {
        &self.0.tool
    }

    /// The full message, the same text as `Display`.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The schema violations of `arguments_invalid` and `output_invalid`; empty otherwise.
    pub fn violations(&self) -> &[Violation] {
        &self.0.violations
    }

    /// For `rate_limited`: how long until the caller may call this tool again.
    pub fn retry_after(&self) -> Option<Duration> {
        self.0.retry_after
    }

    /// Whether a retry can help (see [`ErrorKind::retryable`]).
    pub fn retryable(&self) -> bool {
        self.0.kind.retryable()
    }

    /// The handler's original error, for kind `handler`.
    pub fn handler_error(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        self.0.handler.as_ref().map(|h| h.as_error())
    }

    /// The handler's original error as `E`, if it is one.
    pub fn downcast_ref<E: Error + 'static>(&self) -> Option<&E> {
        self.0.handler.as_ref()?.downcast_ref::<E>()
    }

    /// The type name of the handler's original error (`ToolResult::cause.name`), or the kind's
    /// CamelCase name.
    pub fn cause_name(&self) -> &'static str {
        match &self.0.handler {
            Some(h) => h.type_name,
            None => self.0.kind.type_name(),
        }
    }

    /// The message without the `tool 'x' …` prefix: the handler error's own text, or the
    /// violations, or the whole message.
    pub fn cause_message(&self) -> String {
        if let Some(h) = &self.0.handler {
            return h.to_string();
        }
        if let Some(v) = &self.0.source {
            return v.to_string();
        }
        self.0.message.clone()
    }

    /// Takes the handler error out, if any.
    pub fn into_handler_error(self) -> Option<HandlerError> {
        self.0.handler
    }

    /// The handler's own error handed back by value, when the call failed with one of type
    /// `E`: the very value the handler returned (moved, never copied, re-wrapped or turned
    /// into text), so a host matches on its own error type as it would on a direct call.
    /// Any other failure (another error type, or a kind other than `handler`) comes back
    /// unchanged as `Err`, so nothing is lost by asking:
    ///
    /// ```
    /// # use toolc_runtime::ToolError;
    /// # #[derive(Debug)] struct NotFound { id: u64 }
    /// # impl std::fmt::Display for NotFound {
    /// #     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "no {}", self.id) }
    /// # }
    /// # impl std::error::Error for NotFound {}
    /// # fn demo(error: ToolError) {
    /// match error.into_handler::<NotFound>() {
    ///     Ok(not_found) => println!("ticket {} is gone", not_found.id),
    ///     Err(other) => println!("{}: {other}", other.kind()),
    /// }
    /// # }
    /// ```
    pub fn into_handler<E: Error + 'static>(mut self) -> Result<E, ToolError> {
        let Some(handler) = self.0.handler.take() else {
            return Err(self);
        };
        match handler.inner.downcast::<E>() {
            Ok(original) => Ok(*original),
            Err(inner) => {
                self.0.handler = Some(HandlerError {
                    inner,
                    type_name: handler.type_name,
                });
                Err(self)
            }
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("ToolError");
        d.field("kind", &self.0.kind)
            .field("tool", &self.0.tool)
            .field("message", &self.0.message);
        if !self.0.violations.is_empty() {
            d.field("violations", &self.0.violations);
        }
        if let Some(r) = self.0.retry_after {
            d.field("retry_after", &r);
        }
        if let Some(h) = &self.0.handler {
            d.field("handler_error", &h.inner);
        }
        if let Some(a) = &self.0.approval {
            // The token is the host's secret: never in logs.
            d.field("approval_tool", &a.tool);
        }
        d.finish()
    }
}

impl Error for ToolError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        if let Some(h) = &self.0.handler {
            return Some(h.as_error());
        }
        self.0.source.as_ref().map(|v| v as &(dyn Error + 'static))
    }
}

/// What handlers return on failure. Any `std::error::Error + Send + Sync + 'static` converts
/// into it with `?`; [`HandlerError::msg`] makes one from a message.
///
/// Like `anyhow::Error`, it does not implement `std::error::Error` itself, which keeps the
/// blanket `From` coherent. The original error stays reachable from the [`ToolError`] with
/// [`ToolError::downcast_ref`].
pub struct HandlerError {
    inner: BoxError,
    type_name: &'static str,
}

impl HandlerError {
    /// Wraps an error.
    pub fn new<E: Error + Send + Sync + 'static>(error: E) -> HandlerError {
        HandlerError {
            inner: Box::new(error),
            type_name: std::any::type_name::<E>(),
        }
    }

    /// A handler error made of a message.
    pub fn msg<M>(message: M) -> HandlerError
    where
        M: fmt::Display + fmt::Debug + Send + Sync + 'static,
    {
        HandlerError {
            inner: Box::new(MessageError(message)),
            type_name: "HandlerError",
        }
    }

    pub(crate) fn from_boxed(inner: BoxError, type_name: &'static str) -> HandlerError {
        HandlerError { inner, type_name }
    }

    /// The wrapped error.
    pub fn as_error(&self) -> &(dyn Error + Send + Sync + 'static) {
        &*self.inner
    }

    /// The wrapped error as `E`, if it is one.
    pub fn downcast_ref<E: Error + 'static>(&self) -> Option<&E> {
        self.inner.downcast_ref::<E>()
    }

    /// The wrapped error, by value.
    pub fn into_inner(self) -> Box<dyn Error + Send + Sync + 'static> {
        self.inner
    }

    /// The type name of the wrapped error (`"HandlerError"` for [`HandlerError::msg`]).
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

impl<E: Error + Send + Sync + 'static> From<E> for HandlerError {
    fn from(error: E) -> HandlerError {
        HandlerError::new(error)
    }
}

impl fmt::Display for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

impl fmt::Debug for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

struct MessageError<M>(M);

impl<M: fmt::Display> fmt::Display for MessageError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<M: fmt::Debug> fmt::Debug for MessageError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<M: fmt::Display + fmt::Debug> Error for MessageError<M> {}
