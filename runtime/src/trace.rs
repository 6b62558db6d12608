//! `tracing` events for every call (contract rule 8) and the capped `result_preview`.
//!
//! Events have target `toolc_runtime` and a field `event` of `"started"`, `"completed"`,
//! `"failed"` or `"approval_required"` (a call held for a person's approval, at `info`, its
//! token never logged), plus `call_id`, `tool` and, once finished, `duration_us` (0 when no
//! subscriber would record them as the call started: the clock is read only for them). `completed`
//! carries the `result_preview` of the value; `failed` carries `kind`, `error` and the
//! `result_preview` of the error envelope. Previews are built only when a subscriber listens.
//!
//! No event carries a value its schema marks `sensitive`: the `completed` preview is of the
//! value with those parts masked ([`Schema::redact`](crate::Schema::redact)), and violation
//! messages never quote a sensitive value, so `error` and the failure's preview hold none.

use std::fmt::Write as _;
use std::io;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The most bytes a `result_preview` holds.
pub const RESULT_PREVIEW_LIMIT: usize = 16 * 1024;

/// The value as JSON text of at most [`RESULT_PREVIEW_LIMIT`] bytes that is always valid
/// JSON: the whole value when it fits, otherwise the same shape with long strings cut and
/// arrays and objects cut short, each cut marked with `…`.
pub fn result_preview(value: &Value) -> String {
    preview_with_limit(value, RESULT_PREVIEW_LIMIT)
}

/// [`result_preview`] with another limit (at least 16 bytes).
pub fn preview_with_limit(value: &Value, limit: usize) -> String {
    let limit = limit.max(16);
    let mut capped = Capped {
        buf: Vec::with_capacity(limit.min(4096)),
        limit,
    };
    if serde_json::to_writer(&mut capped, value).is_ok() {
        // serde_json writes valid UTF-8.
        if let Ok(text) = String::from_utf8(capped.buf) {
            return text;
        }
    }
    let mut out = String::with_capacity(limit);
    write_value(value, &mut out, limit, 0);
    out
}

struct Capped {
    buf: Vec<u8>,
    limit: usize,
}

impl io::Write for Capped {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.buf.len() + data.len() > self.limit {
            return Err(io::Error::other("preview limit"));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `"…"`: what stands for anything cut.
const MARK: &str = "\"…\"";
/// Room kept by a container for `,"…"` and its closing bracket.
const RESERVE: usize = 1 + MARK.len() + 1;
/// The deepest level written in full; deeper values become `"…"`.
const MAX_PREVIEW_DEPTH: usize = 32;

/// Writes `v` so that `out.len() <= end`. Needs `end - out.len() >= MARK.len()`.
/// Returns whether the value was written whole.
fn write_value(v: &Value, out: &mut String, end: usize, depth: usize) -> bool {
    let room = end.saturating_sub(out.len());
    match v {
        Value::Null | Value::Bool(_) | Value::Number(_) => {
            let text = v.to_string();
            if text.len() <= room {
                out.push_str(&text);
                true
            } else {
                out.push_str(MARK);
                false
            }
        }
        Value::String(s) => write_string(s, out, end),
        Value::Array(_) | Value::Object(_) if depth >= MAX_PREVIEW_DEPTH || room < 2 + RESERVE => {
            out.push_str(MARK);
            false
        }
        Value::Array(items) => {
            out.push('[');
            let inner_end = end - RESERVE;
            let mut whole = true;
            for (i, item) in items.iter().enumerate() {
                let comma = usize::from(i > 0);
                if out.len() + comma + MARK.len() > inner_end {
                    whole = false;
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                if !write_value(item, out, inner_end, depth + 1) {
                    // The item carries its own mark.
                    out.push(']');
                    return false;
                }
            }
            if !whole {
                if out.ends_with('[') {
                    out.push_str(MARK);
                } else {
                    out.push(',');
                    out.push_str(MARK);
                }
            }
            out.push(']');
            whole
        }
        Value::Object(map) => {
            // `,"…":"…"` and `}`.
            let reserve = 1 + MARK.len() + 1 + MARK.len() + 1;
            if room < 2 + reserve {
                out.push_str(MARK);
                return false;
            }
            out.push('{');
            let inner_end = end - reserve;
            let mut whole = true;
            for (i, (key, item)) in map.iter().enumerate() {
                let key_text = Value::String(key.clone()).to_string();
                let comma = usize::from(i > 0);
                if out.len() + comma + key_text.len() + 1 + MARK.len() > inner_end {
                    whole = false;
                    break;
                }
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&key_text);
                out.push(':');
                if !write_value(item, out, inner_end, depth + 1) {
                    out.push('}');
                    return false;
                }
            }
            if !whole {
                if !out.ends_with('{') {
                    out.push(',');
                }
                let _ = write!(out, "{MARK}:{MARK}");
            }
            out.push('}');
            whole
        }
    }
}

/// Writes the string, cut with `…` before its closing quote when it does not fit.
fn write_string(s: &str, out: &mut String, end: usize) -> bool {
    let start = out.len();
    out.push('"');
    let mut buf = [0u8; 4];
    for c in s.chars() {
        let escaped: String;
        let piece: &str = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if (c as u32) < 0x20 => {
                escaped = format!("\\u{:04x}", c as u32);
                &escaped
            }
            c => c.encode_utf8(&mut buf),
        };
        // Keep room for `…"` (4 bytes).
        if out.len() + piece.len() + 4 > end {
            out.push_str("…\"");
            debug_assert!(out.len() <= end || start + MARK.len() >= out.len());
            return false;
        }
        out.push_str(piece);
    }
    out.push('"');
    true
}

/// When a call started, read only when a subscriber would record the runtime's events: their
/// `duration_us` is all the time is read for, and the two `clock_gettime` calls were 4-5% of a
/// small call in a virtual machine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stopwatch(Option<Instant>);

impl Stopwatch {
    /// Reads the clock when a `failed` event (`warn`), and so also a `completed` one (`info`)
    /// under a level filter, would be recorded.
    pub(crate) fn start() -> Stopwatch {
        let listening = tracing::event_enabled!(target: "toolc_runtime", tracing::Level::WARN);
        Stopwatch(listening.then(Instant::now))
    }

    /// The time since [`Stopwatch::start`]; zero when nothing listened then (a subscriber set
    /// while the call ran sees it take no time).
    pub(crate) fn elapsed(self) -> Duration {
        self.0.map_or(Duration::ZERO, |start| start.elapsed())
    }
}

pub(crate) fn started(call_id: &str, tool: &str) {
    tracing::info!(target: "toolc_runtime", event = "started", call_id, tool, "tool call started");
}

pub(crate) fn completed(
    call_id: &str,
    desc: &crate::ToolDescriptor,
    elapsed: Duration,
    answer: &crate::dispatch::Answer,
) {
    tracing::info!(
        target: "toolc_runtime",
        event = "completed",
        call_id,
        tool = desc.name,
        duration_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        result_preview = %redacted_preview(desc.returns, &answer.to_value()),
        "tool call completed"
    );
}

/// The `result_preview` of `value` with what `schema` marks sensitive masked.
pub(crate) fn redacted_preview(schema: Option<&toolc_schema::Schema>, value: &Value) -> String {
    match schema {
        Some(s) => result_preview(&s.redact(value)),
        None => result_preview(value),
    }
}

/// A call held for approval: not a failure, so at `info`, and without its token.
pub(crate) fn held(call_id: &str, tool: &str, elapsed: Duration) {
    tracing::info!(
        target: "toolc_runtime",
        event = "approval_required",
        call_id,
        tool,
        duration_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        "tool call held for approval"
    );
}

pub(crate) fn failed(call_id: &str, tool: &str, elapsed: Duration, error: &crate::ToolError) {
    tracing::warn!(
        target: "toolc_runtime",
        event = "failed",
        call_id,
        tool,
        duration_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        kind = error.kind().as_str(),
        error = %error,
        result_preview = %result_preview(&crate::ToolResult::failure(error).to_value()),
        "tool call failed"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_values_are_whole() {
        let v = json!({"a": [1, 2, {"b": "c"}], "d": null});
        assert_eq!(result_preview(&v), v.to_string());
    }

    #[test]
    fn cut_values_stay_valid_and_small() {
        for limit in [16, 17, 20, 33, 64, 100, 1000] {
            for v in [
                json!("x".repeat(5000)),
                json!(["\u{1F600}".repeat(300), 1, 2]),
                json!({"k": "\"\\\u{1}".repeat(100), "l": [[[[1]]]]}),
                json!((0..1000).collect::<Vec<_>>()),
                json!([{"a": "b".repeat(100)}, {"c": 1}]),
            ] {
                let p = preview_with_limit(&v, limit);
                assert!(p.len() <= limit, "{limit}: {p}");
                serde_json::from_str::<Value>(&p).unwrap_or_else(|e| panic!("{limit}: {p}: {e}"));
            }
        }
    }
}
