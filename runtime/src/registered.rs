//! Tools a host adds to an agent at run time: a name, a description, a JSON Schema and a
//! handler, served through the same execution contract as generated tools.
//!
//! ```
//! use serde_json::{Value, json};
//! use toolc_runtime::{Agent, CallContext, HandlerError, RegisteredTool};
//!
//! # async fn demo(mut agent: Agent) -> Result<(), Box<dyn std::error::Error>> {
//! let schema = json!({
//!     "type": "object",
//!     "properties": { "city": { "type": "string", "minLength": 1 } },
//!     "required": ["city"],
//!     "additionalProperties": false
//! });
//! agent.register(
//!     RegisteredTool::new("weather", "Current weather for a city.", schema, |args: Value, ctx: CallContext| async move {
//!         ctx.set_metadata("source", "plugin");
//!         let city = args["city"].as_str().unwrap_or_default().to_owned();
//!         Ok::<_, HandlerError>(json!({ "city": city, "celsius": 21 }))
//!     })
//!     .timeout(std::time::Duration::from_secs(5)),
//! )?;
//! let result = agent.call_result("weather", r#"{"city": "Oslo"}"#, &CallContext::new("c1")).await;
//! assert!(result.ok);
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::agent::AgentError;
use crate::context::CallContext;
use crate::descriptor::{Policy, RateLimit, ToolDescriptor};
use crate::dispatch::run_tool;
use crate::errors::{HandlerError, ToolError};
use crate::policy::Guard;
use crate::vocabulary::{AuthLevel, BoxFuture, OperationKind};
use toolc_schema as schema;

/// The handler of a registered tool: validated arguments in, a JSON result or an error out.
///
/// Any `Fn(Value, CallContext) -> impl Future<Output = Result<Value, HandlerError>>` that is
/// `Send + Sync + 'static` (with a `Send + 'static` future) is one. The context is the call's
/// own (a clone), so the handler can keep it across `.await`s and record metadata with
/// [`CallContext::set_metadata`].
pub trait ToolHandler: Send + Sync + 'static {
    /// Runs one call.
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<Value, HandlerError>>;
}

impl<F, Fut> ToolHandler for F
where
    F: Fn(Value, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, HandlerError>> + Send + 'static,
{
    fn call(
        &self,
        arguments: Value,
        ctx: CallContext,
    ) -> BoxFuture<'static, Result<Value, HandlerError>> {
        Box::pin(self(arguments, ctx))
    }
}

/// The manifest's annotation names and the MCP hints they are listed as.
const MCP_HINTS: [(&str, &str); 4] = [
    ("read_only", "readOnlyHint"),
    ("destructive", "destructiveHint"),
    ("idempotent", "idempotentHint"),
    ("open_world", "openWorldHint"),
];

/// A tool for [`Agent::register`](crate::Agent::register): what a manifest says of a tool,
/// given at run time, and its handler.
pub struct RegisteredTool {
    name: String,
    title: Option<String>,
    description: String,
    parameters: Value,
    returns: Option<Value>,
    validate_returns: bool,
    terminal: bool,
    deprecated: bool,
    auth: AuthLevel,
    roles: Vec<String>,
    rate_limit: Option<RateLimit>,
    timeout: Option<Duration>,
    approval: bool,
    annotations: Map<String, Value>,
    play: bool,
    listed_input: Option<Value>,
    listed_output: Option<Option<Value>>,
    icons: Option<Value>,
    meta: Option<Value>,
    /// JSON pointers to the arguments and the result's parts marked sensitive.
    sensitive: Vec<String>,
    sensitive_returns: Vec<String>,
    handler: Arc<dyn ToolHandler>,
}

impl RegisteredTool {
    /// A tool called `name` whose arguments `parameters` (a JSON Schema with an object root)
    /// describes, served by `handler`. No policy, no timeout, results not validated until
    /// set.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        parameters: Value,
        handler: impl ToolHandler,
    ) -> RegisteredTool {
        RegisteredTool {
            name: name.into(),
            title: None,
            description: description.into(),
            parameters,
            returns: None,
            validate_returns: true,
            terminal: false,
            deprecated: false,
            auth: AuthLevel::None,
            roles: Vec::new(),
            rate_limit: None,
            timeout: None,
            approval: false,
            annotations: Map::new(),
            play: false,
            listed_input: None,
            listed_output: None,
            icons: None,
            meta: None,
            sensitive: Vec::new(),
            sensitive_returns: Vec::new(),
            handler: Arc::new(handler),
        }
    }

    /// The name it will be called by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sets a human title.
    pub fn title(mut self, title: impl Into<String>) -> RegisteredTool {
        self.title = Some(title.into());
        self
    }

    /// Declares the result's JSON Schema; results are validated against it (after
    /// serialization) unless [`RegisteredTool::validate_returns`] turns that off.
    pub fn returns(mut self, schema: Value) -> RegisteredTool {
        self.returns = Some(schema);
        self
    }

    /// Whether results are validated against [`RegisteredTool::returns`] (default `true`).
    pub fn validate_returns(mut self, validate: bool) -> RegisteredTool {
        self.validate_returns = validate;
        self
    }

    /// Marks the tool terminal: a successful call ends the agent's turn.
    pub fn terminal(mut self, terminal: bool) -> RegisteredTool {
        self.terminal = terminal;
        self
    }

    /// Marks the tool deprecated.
    pub fn deprecated(mut self, deprecated: bool) -> RegisteredTool {
        self.deprecated = deprecated;
        self
    }

    /// The minimum auth level of the caller (`forbidden` below it).
    pub fn auth(mut self, auth: AuthLevel) -> RegisteredTool {
        self.auth = auth;
        self
    }

    /// Adds a role; a caller needs at least one of the roles listed.
    pub fn role(mut self, role: impl Into<String>) -> RegisteredTool {
        self.roles.push(role.into());
        self
    }

    /// At most `limit.count` calls per `limit.period_secs` per caller (`rate_limited` past it).
    pub fn rate_limit(mut self, limit: RateLimit) -> RegisteredTool {
        self.rate_limit = Some(limit);
        self
    }

    /// The handler's time budget (`timeout` past it; needs a Tokio runtime with its timer).
    pub fn timeout(mut self, timeout: Duration) -> RegisteredTool {
        self.timeout = Some(timeout);
        self
    }

    /// Whether a person approves each call before the handler runs (see
    /// [`crate::approval`]): calls are held and answer `approval_required` with a token until
    /// [`Agent::approve`](crate::Agent::approve) resumes them.
    pub fn approval(mut self, required: bool) -> RegisteredTool {
        self.approval = required;
        self
    }

    /// Marks the argument at `pointer` (a JSON pointer such as `/password`, each step a
    /// property the parameters schema declares) sensitive, as a manifest's `sensitive: true`
    /// marks a generated field: tracing events, `result_preview`, error messages and the
    /// approval request mask it; the handler gets it as sent. A `"sensitive": true` written in
    /// the schema itself does the same. Neither is listed to models.
    pub fn sensitive(mut self, pointer: impl Into<String>) -> RegisteredTool {
        self.sensitive.push(pointer.into());
        self
    }

    /// Marks the part of the result at `pointer` sensitive ([`RegisteredTool::sensitive`],
    /// in the [`RegisteredTool::returns`] schema): the host gets it, logs do not.
    pub fn sensitive_in_returns(mut self, pointer: impl Into<String>) -> RegisteredTool {
        self.sensitive_returns.push(pointer.into());
        self
    }

    /// Sets an annotation. `read_only`, `destructive`, `idempotent` and `open_world` (the
    /// manifest's spellings) are listed to MCP clients as `readOnlyHint`, `destructiveHint`,
    /// `idempotentHint` and `openWorldHint`; any other key is kept as given.
    pub fn annotation(mut self, key: impl Into<String>, value: impl Into<Value>) -> RegisteredTool {
        let key = key.into();
        let key = match MCP_HINTS.iter().find(|(short, _)| *short == key) {
            Some((_, hint)) => (*hint).to_owned(),
            None => key,
        };
        self.annotations.insert(key, value.into());
        self
    }

    /// Serves it as a play: a play has no policies (auth, roles, rate limit, timeout,
    /// approval) and never fails past the agent: [`Agent::call`](crate::Agent::call) answers a
    /// failure as its error envelope `{"error", "kind"}`, as it does for a generated playbook's
    /// play. Registering a play with a policy fails with [`AgentError::PlayPolicy`].
    pub fn play(mut self) -> RegisteredTool {
        self.play = true;
        self
    }

    /// What MCP clients are shown as the tool's `inputSchema` and `outputSchema`, when it is
    /// not the schemas calls are validated against: a compiler's form of them for MCP, say,
    /// which says the same in other words. `output` `None` lists no output schema. By default
    /// the parameters schema is listed, and the returns schema when results are validated and
    /// it is a plain object (the only results MCP's `structuredContent` carries).
    pub fn listed_schemas(mut self, input: Value, output: Option<Value>) -> RegisteredTool {
        self.listed_input = Some(input);
        self.listed_output = Some(output);
        self
    }

    /// The icons MCP lists for the tool: a JSON array of `{src, mimeType?, sizes?, theme?}`.
    pub fn icons(mut self, icons: Value) -> RegisteredTool {
        self.icons = Some(icons);
        self
    }

    /// The tool's MCP `_meta` (a JSON object).
    pub fn meta(mut self, meta: Value) -> RegisteredTool {
        self.meta = Some(meta);
        self
    }

    /// Checks the name, compiles the schemas and makes the static descriptor. The descriptor
    /// and the schema tree are leaked, like the statics of generated tools.
    pub(crate) fn build(mut self) -> Result<Registered, AgentError> {
        check_name(&self.name)?;
        let has_policy = self.auth != AuthLevel::None
            || !self.roles.is_empty()
            || self.rate_limit.is_some()
            || self.timeout.is_some()
            || self.approval
            || self.terminal;
        if self.play && has_policy {
            return Err(AgentError::PlayPolicy {
                play: self.name.clone(),
            });
        }
        // As for generated tools, MCP clients that read `annotations.title` find the title,
        // unless the annotations give a title of their own.
        let mut annotations = std::mem::take(&mut self.annotations);
        if let Some(title) = &self.title {
            annotations
                .entry("title")
                .or_insert_with(|| Value::String(title.clone()));
        }
        let schema_error = |which, error| AgentError::Schema {
            tool: self.name.clone(),
            which,
            error,
        };
        let object_root = self.parameters.get("type").is_some_and(|t| match t {
            Value::String(t) => t == "object",
            _ => false,
        });
        if !object_root {
            return Err(schema_error(
                "parameters",
                schema::SchemaError {
                    keyword: "type".to_owned(),
                    pointer: String::new(),
                    message:
                        "tool arguments are a JSON object: the root needs `\"type\": \"object\"`"
                            .to_owned(),
                },
            ));
        }
        // What the validator reads: the schemas with the sensitive marks set.
        let mut marked = self.parameters.clone();
        for pointer in &self.sensitive {
            mark_sensitive(&mut marked, pointer).map_err(|e| schema_error("parameters", e))?;
        }
        let parameters = schema::compile(&marked).map_err(|e| schema_error("parameters", e))?;
        let returns = match &self.returns {
            Some(r) => {
                let mut marked = r.clone();
                for pointer in &self.sensitive_returns {
                    mark_sensitive(&mut marked, pointer).map_err(|e| schema_error("returns", e))?;
                }
                Some(schema::compile(&marked).map_err(|e| schema_error("returns", e))?)
            }
            None if !self.sensitive_returns.is_empty() => {
                return Err(schema_error(
                    "returns",
                    schema::SchemaError {
                        keyword: "sensitive".to_owned(),
                        pointer: String::new(),
                        message: "marks a part of the result sensitive, but the tool declares no `returns` schema".to_owned(),
                    },
                ));
            }
            None => None,
        };
        let text = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
        let roles: Vec<&'static str> = self.roles.iter().map(|r| text(r)).collect();
        let timeout_ms = self
            .timeout
            .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1));
        let input_schema = self.listed_input.as_ref().unwrap_or(&self.parameters);
        let output_schema = match &self.listed_output {
            Some(listed) => listed.as_ref(),
            // MCP's `structuredContent` carries only validated plain-object results.
            None => self
                .returns
                .as_ref()
                .filter(|r| self.validate_returns && is_plain_object(r)),
        };
        let desc: &'static ToolDescriptor = Box::leak(Box::new(ToolDescriptor {
            name: text(&self.name),
            kind: if self.play {
                OperationKind::Play
            } else {
                OperationKind::Tool
            },
            title: self.title.as_deref().map(text),
            description: text(&self.description),
            input_schema: text(&unmarked(input_schema).to_string()),
            output_schema: output_schema.map(|r| text(&unmarked(r).to_string())),
            parameters,
            returns,
            validate_returns: self.validate_returns,
            terminal: self.terminal,
            deprecated: self.deprecated,
            policy: Policy {
                auth: self.auth,
                roles: Box::leak(roles.into_boxed_slice()),
                rate_limit: self.rate_limit,
                timeout_ms,
                approval: self.approval,
            },
            annotations: text(&Value::Object(annotations).to_string()),
            icons: self.icons.as_ref().map(|i| text(&i.to_string())),
            meta: self.meta.as_ref().map(|m| text(&m.to_string())),
        }));
        Ok(Registered {
            desc,
            handler: self.handler,
            guard: Guard::new(),
        })
    }
}

/// Sets `sensitive: true` on the subschema of `schema` that the value at `pointer` meets: each
/// step a property the object schema there declares under `properties`.
fn mark_sensitive(schema: &mut Value, pointer: &str) -> Result<(), schema::SchemaError> {
    let refused = |message: String| schema::SchemaError {
        keyword: "sensitive".to_owned(),
        pointer: pointer.to_owned(),
        message,
    };
    let steps: Vec<String> = match pointer.strip_prefix('/') {
        Some(rest) => rest
            .split('/')
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect(),
        None if pointer.is_empty() => Vec::new(),
        None => {
            return Err(refused(format!(
                "`{pointer}` is not a JSON pointer (it starts with `/`, as in `/password`)"
            )));
        }
    };
    let mut at = schema;
    for step in &steps {
        at = match at.get_mut("properties").and_then(|p| p.get_mut(step)) {
            Some(next) => next,
            None => {
                return Err(refused(format!(
                    "marks `{pointer}` sensitive, but the schema declares no property `{step}` there (under `properties`)"
                )));
            }
        };
    }
    match at {
        Value::Object(map) => {
            map.insert("sensitive".to_owned(), Value::Bool(true));
        }
        // `true` as a schema: any value, now a secret.
        other => *other = serde_json::json!({ "sensitive": true }),
    }
    Ok(())
}

/// `schema` without toolc's own keyword `sensitive`, which models are never shown (a property
/// named `sensitive` stays).
fn unmarked(schema: &Value) -> std::borrow::Cow<'_, Value> {
    fn strip(v: &mut Value, schemas_by_name: bool) {
        match v {
            Value::Object(map) => {
                if !schemas_by_name && map.get("sensitive").is_some_and(Value::is_boolean) {
                    map.remove("sensitive");
                }
                for (key, child) in map.iter_mut() {
                    // Values, not schemas: left as written.
                    if !schemas_by_name
                        && matches!(key.as_str(), "enum" | "const" | "default" | "examples")
                    {
                        continue;
                    }
                    let by_name = !schemas_by_name
                        && matches!(
                            key.as_str(),
                            "properties"
                                | "patternProperties"
                                | "$defs"
                                | "definitions"
                                | "dependentSchemas"
                        );
                    strip(child, by_name);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| strip(i, false)),
            _ => {}
        }
    }
    if !schema.to_string().contains("\"sensitive\"") {
        return std::borrow::Cow::Borrowed(schema);
    }
    let mut copy = schema.clone();
    strip(&mut copy, false);
    std::borrow::Cow::Owned(copy)
}

/// A schema whose root accepts objects only, and not through a root union: what MCP
/// takes as an `outputSchema`.
fn is_plain_object(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::String("object".into()))
        && ["anyOf", "oneOf", "$ref", "nullable"]
            .iter()
            .all(|k| schema.get(k).is_none())
}

impl fmt::Debug for RegisteredTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegisteredTool")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// Names as MCP names tools (and manifests name tools and plays): 1 to 128 ASCII letters,
/// digits, `_`, `-` and `.`, with a letter or digit among them. Providers take less (OpenAI and
/// Anthropic no `.`, OpenAI 64 characters): a compiler's lint says so for the providers a
/// toolset targets.
fn check_name(name: &str) -> Result<(), AgentError> {
    let reason = if name.is_empty() {
        Some("the name is empty".to_owned())
    } else if name.len() > 128 {
        Some(format!(
            "the name is {} bytes long; MCP accepts at most 128",
            name.len()
        ))
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        Some(format!(
            "{c:?} is not accepted; names use ASCII letters, digits, `_`, `-` and `.` (a tool of another server can be renamed, e.g. `server__tool`)"
        ))
    } else if !name.chars().any(|c| c.is_ascii_alphanumeric()) {
        Some("the name has no letter or digit".to_owned())
    } else {
        None
    };
    match reason {
        Some(reason) => Err(AgentError::InvalidName {
            name: name.chars().take(80).collect(),
            reason,
        }),
        None => Ok(()),
    }
}

/// A registered tool, ready to call.
#[derive(Clone)]
pub(crate) struct Registered {
    desc: &'static ToolDescriptor,
    handler: Arc<dyn ToolHandler>,
    guard: Guard,
}

impl Registered {
    pub(crate) fn descriptor(&self) -> &'static ToolDescriptor {
        self.desc
    }

    /// One call through the execution contract.
    pub(crate) async fn call(
        &self,
        arguments: &str,
        ctx: &CallContext,
    ) -> Result<Value, ToolError> {
        let handler = Arc::clone(&self.handler);
        run_tool(
            self.desc,
            &self.guard,
            ctx,
            arguments,
            move |params: Value| handler.call(params, ctx.clone()),
        )
        .await
    }
}
