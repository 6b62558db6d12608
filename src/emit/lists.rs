//! Provider tool lists as files: the lowered lists, serialized.

use serde_json::Value;

/// A tool list as the text of its file: pretty JSON, ending with a newline.
pub fn text(list: &Value) -> String {
    let mut text = serde_json::to_string_pretty(list).unwrap_or_default();
    text.push('\n');
    text
}
