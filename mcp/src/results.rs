//! A call's outcome as MCP answers it: a `CallToolResult` (its text, `structuredContent`,
//! `isError` and `_meta`), or a protocol error.

use rmcp::model::{CallToolResult, ContentBlock, ErrorData, MetaObject};
use serde_json::{Map, Value, json};
use toolc_runtime::{Cause, ErrorKind, ToolResult, Violation};

use crate::listing::Listed;
use crate::truncated::Truncated;

/// The MCP result of a call's [`ToolResult`]: decided by its `ok`, never by the JSON's shape
/// (a play whose `returns` accepts `{"error", "kind"}` still fails as `isError`). `_meta`
/// carries `toolc/terminal` and `toolc/metadata` (call id, duration, attempt, tool kind, the
/// handler's entries).
pub(crate) fn mcp_result(listed: &Listed, result: ToolResult) -> CallToolResult {
    let mut meta = Map::new();
    meta.insert("toolc/terminal".into(), Value::Bool(result.terminal));
    if let Some(metadata) = &result.metadata
        && let Ok(value) = serde_json::to_value(metadata)
    {
        meta.insert("toolc/metadata".into(), value);
    }
    let mut out = match (&result.cause, result.ok) {
        (None, true) => success_result(listed, result.value.unwrap_or(Value::Null)),
        (cause, _) => {
            let message = result.error.as_deref().unwrap_or("the call failed");
            match cause {
                Some(c) => error_result(listed, c.code, message, Some(c)),
                None => error_result(listed, ErrorKind::Handler, message, None),
            }
        }
    };
    out.meta = Some(MetaObject(meta));
    out
}

/// A successful call: the JSON as text, and as `structuredContent` when an output schema is
/// listed.
pub(crate) fn success_result(listed: &Listed, value: Value) -> CallToolResult {
    let text = ContentBlock::text(json_text(&value));
    if listed.tool.output_schema.is_none() {
        return CallToolResult::success(vec![text]);
    }
    if value.is_object() {
        // `CallToolResult::structured`, but with the text written straight into bytes: the
        // `Display` of a `Value` it uses goes through the formatter for every token, and cost
        // a fifth of a 20-ticket call.
        let mut result = CallToolResult::success(vec![text]);
        result.structured_content = Some(value);
        return result;
    }
    // Unreachable while the runtime validates results; said plainly if it ever is not.
    let message = format!(
        "{} '{}' output violated its returns schema: (root): expected an object",
        listed.desc.kind.as_str(),
        listed.desc.name
    );
    error_result(listed, ErrorKind::OutputInvalid, &message, None)
}

/// `value` as JSON text.
fn json_text(value: &Value) -> String {
    // A `Value` always serializes (its keys are strings).
    serde_json::to_string(value).unwrap_or_default()
}

/// A failed call: `isError`, the error as JSON text, and the same JSON as `structuredContent`
/// unless the tool lists an output schema (clients check `structuredContent` against it).
pub(crate) fn error_result(
    listed: &Listed,
    kind: ErrorKind,
    message: &str,
    cause: Option<&Cause>,
) -> CallToolResult {
    let payload = error_payload(
        kind,
        message,
        cause.map(|c| c.violations.as_slice()).unwrap_or_default(),
        cause.and_then(|c| c.retry_after_ms),
    );
    let mut result = CallToolResult::error(vec![ContentBlock::text(json_text(&payload))]);
    if listed.tool.output_schema.is_none() {
        result.structured_content = Some(payload);
    }
    result
}

/// `{"kind", "message", "retryable"}`, with `violations` and `retry_after_ms` when known.
pub(crate) fn error_payload(
    kind: ErrorKind,
    message: &str,
    violations: &[Violation],
    retry_after_ms: Option<u64>,
) -> Value {
    let mut payload = json!({
        "kind": kind.as_str(),
        "message": message,
        "retryable": kind.retryable(),
    });
    if !violations.is_empty() {
        payload["violations"] = json!(violations);
    }
    if let Some(after) = retry_after_ms {
        payload["retry_after_ms"] = json!(after);
    }
    payload
}

pub(crate) fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool '{}'", Truncated(name)),
        Some(json!({ "kind": ErrorKind::UnknownTool.as_str() })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_payloads_say_kind_message_and_retry() {
        let p = error_payload(ErrorKind::RateLimited, "slow down", &[], Some(1500));
        assert_eq!(
            p,
            json!({"kind": "rate_limited", "message": "slow down", "retryable": true, "retry_after_ms": 1500})
        );
        let p = error_payload(
            ErrorKind::ArgumentsInvalid,
            "bad",
            &[Violation::new("/a", "missing")],
            None,
        );
        assert_eq!(
            p["violations"],
            json!([{"pointer": "/a", "message": "missing"}])
        );
        assert_eq!(p["retryable"], false);
    }
}
