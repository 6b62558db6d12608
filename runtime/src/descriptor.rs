//! Static, const-constructible descriptions of tools and plays.

use std::time::Duration;

use crate::vocabulary::{AuthLevel, OperationKind};
use toolc_schema::Schema;

/// A rate limit: at most `count` calls per `period_secs` per caller, replenished evenly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RateLimit {
    /// Calls allowed per period (the burst size). `0` refuses every call.
    pub count: u32,
    /// The period in seconds. `0` means no limit.
    pub period_secs: u64,
}

impl RateLimit {
    /// At most `count` calls per `period_secs` seconds per caller.
    pub const fn new(count: u32, period_secs: u64) -> RateLimit {
        RateLimit { count, period_secs }
    }

    /// The period as a duration.
    pub const fn period(&self) -> Duration {
        Duration::from_secs(self.period_secs)
    }
}

/// The policies a tool declares; enforced before its handler runs (contract rule 4).
///
/// Build one from [`Policy::NONE`] (`Policy { auth: AuthLevel::User, ..Policy::NONE }`), as
/// generated code does, so that new policies keep it compiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy {
    /// The minimum auth level of the caller.
    pub auth: AuthLevel,
    /// Roles the caller needs at least one of (none listed: no role needed).
    pub roles: &'static [&'static str],
    /// Calls per caller and tool.
    pub rate_limit: Option<RateLimit>,
    /// The handler's time budget in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Whether a person approves each call before the handler runs (`approval: required`; see
    /// [`crate::approval`]).
    pub approval: bool,
}

impl Policy {
    /// No policy: anyone, any number of times, no timeout.
    pub const NONE: Policy = Policy {
        auth: AuthLevel::None,
        roles: &[],
        rate_limit: None,
        timeout_ms: None,
        approval: false,
    };
}

impl Default for Policy {
    fn default() -> Policy {
        Policy::NONE
    }
}

/// Everything known about one tool or play at compile time.
///
/// Build one with [`ToolDescriptor::new`] and set the other fields over it (`ToolDescriptor {
/// title: Some("…"), ..ToolDescriptor::new(name, kind, description, &PARAMS) }`), as generated
/// code does, so that fields added later keep it compiling.
#[derive(Debug, Clone, Copy)]
pub struct ToolDescriptor {
    /// The name models call it by.
    pub name: &'static str,
    /// Tool or play.
    pub kind: OperationKind,
    /// A human title.
    pub title: Option<&'static str>,
    /// The model-facing description.
    pub description: &'static str,
    /// The input schema as MCP lists it (JSON text): the compiler's `mcp` form of the
    /// parameters.
    pub input_schema: &'static str,
    /// The output schema as MCP lists it (JSON text): present for a plain-object result that
    /// is validated, the only results MCP's `structuredContent` carries.
    pub output_schema: Option<&'static str>,
    /// The parameters, as a validation schema.
    pub parameters: &'static Schema,
    /// The result, as a validation schema, if declared.
    pub returns: Option<&'static Schema>,
    /// Whether results are validated against `returns` (after serialization).
    pub validate_returns: bool,
    /// Whether a successful call ends the agent's turn.
    pub terminal: bool,
    /// Whether the tool is deprecated.
    pub deprecated: bool,
    /// Auth, roles, rate limit and timeout.
    pub policy: Policy,
    /// The MCP annotations as JSON object text (`"{}"` when none): `title` and the hints
    /// (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`).
    pub annotations: &'static str,
    /// The icons MCP lists for the tool (JSON array text), if any.
    pub icons: Option<&'static str>,
    /// The tool's MCP `_meta` (JSON object text), if any.
    pub meta: Option<&'static str>,
}

impl ToolDescriptor {
    /// A descriptor of the fields every tool has, the others at their defaults: no title, an
    /// input schema of any object, no returns (nothing to validate, no output schema), not
    /// terminal, not deprecated, [`Policy::NONE`], no annotations, icons or `_meta`.
    pub const fn new(
        name: &'static str,
        kind: OperationKind,
        description: &'static str,
        parameters: &'static Schema,
    ) -> ToolDescriptor {
        ToolDescriptor {
            name,
            kind,
            title: None,
            description,
            input_schema: r#"{"type":"object"}"#,
            output_schema: None,
            parameters,
            returns: None,
            validate_returns: true,
            terminal: false,
            deprecated: false,
            policy: Policy::NONE,
            annotations: "{}",
            icons: None,
            meta: None,
        }
    }

    /// The input schema as a JSON value (`{"type":"object"}` if the text does not parse).
    pub fn input_schema_json(&self) -> serde_json::Value {
        serde_json::from_str(self.input_schema)
            .unwrap_or_else(|_| serde_json::json!({ "type": "object" }))
    }

    /// The output schema as a JSON value, if declared and well-formed.
    pub fn output_schema_json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(self.output_schema?).ok()
    }

    /// The annotations as a JSON value (an empty object if the text does not parse).
    pub fn annotations_json(&self) -> serde_json::Value {
        serde_json::from_str(self.annotations)
            .unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new()))
    }

    /// The timeout, if any.
    pub fn timeout(&self) -> Option<Duration> {
        self.policy.timeout_ms.map(Duration::from_millis)
    }
}
