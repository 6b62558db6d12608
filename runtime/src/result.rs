//! The result envelope every call yields for the model (contract rule 8).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;

/// The outcome of one call, as the model sees it: `{ ok, value?, error?, cause? }`.
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
    /// What failed, when not `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
}

/// The typed cause of a failed call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cause {
    /// The error kind's snake_case name (`"arguments_invalid"`, …).
    pub kind: String,
    /// The handler error's type name, or the kind's CamelCase name.
    pub name: String,
    /// The cause's own message (the handler error's text, or the violations).
    pub message: String,
}

impl ToolResult {
    /// A successful result.
    pub fn success(value: Value) -> ToolResult {
        ToolResult {
            ok: true,
            value: Some(value),
            error: None,
            cause: None,
        }
    }

    /// A failed result describing `error`.
    pub fn failure(error: &ToolError) -> ToolResult {
        ToolResult {
            ok: false,
            value: None,
            error: Some(error.message().to_owned()),
            cause: Some(Cause {
                kind: error.kind().as_str().to_owned(),
                name: error.cause_name().to_owned(),
                message: error.cause_message(),
            }),
        }
    }

    /// This result as a JSON value.
    pub fn to_value(&self) -> Value {
        let mut map = serde_json::Map::new();
        map.insert("ok".into(), Value::Bool(self.ok));
        if let Some(v) = &self.value {
            map.insert("value".into(), v.clone());
        }
        if let Some(e) = &self.error {
            map.insert("error".into(), Value::String(e.clone()));
        }
        if let Some(c) = &self.cause {
            let mut cause = serde_json::Map::new();
            cause.insert("kind".into(), Value::String(c.kind.clone()));
            cause.insert("name".into(), Value::String(c.name.clone()));
            cause.insert("message".into(), Value::String(c.message.clone()));
            map.insert("cause".into(), Value::Object(cause));
        }
        Value::Object(map)
    }
}

impl From<Result<Value, ToolError>> for ToolResult {
    fn from(result: Result<Value, ToolError>) -> ToolResult {
        match result {
            Ok(value) => ToolResult::success(value),
            Err(error) => ToolResult::failure(&error),
        }
    }
}
