//! `toolc serve` and `toolc call`: one agent of a checked toolset as a runtime
//! [`Agent`](toolc_runtime::Agent), each of its tools and plays a
//! [`RegisteredTool`](toolc_runtime::RegisteredTool) answered by its backend.
//!
//! What is listed is what `toolc dump --dialect mcp` prints (each tool's lowered MCP entry:
//! schemas, title, annotations, icons, `_meta`, in the dump's order); what is validated is what
//! the generated dispatcher validates (the schemas' `DISPATCH` JSON, compiled by
//! `toolc-schema`); every policy is the runtime's own. The command line's alone (feature
//! `serve`), beside the pipeline: it reads the stages' output and no stage reads it.

pub(crate) mod command;
pub(crate) mod generate;
pub(crate) mod http;
pub(crate) mod mock;
pub(crate) mod pattern;
pub(crate) mod rng;
pub(crate) mod secrets;

use crate::lower::Dialect;
use crate::model::backend::Backend;
use crate::model::schema::JsonOptions;
use crate::model::{self, AuthLevel, Toolset};
use crate::pipeline::Analyzed;
use crate::{Code, Diagnostic, Severity};
use secrets::Secrets;
use serde_json::Value;
use std::time::Duration;
use toolc_runtime::{Agent, Capability, RateLimit, RegisteredTool, ToolHandler};

/// How the tools are answered.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Every tool answered by a mock, whatever its backend.
    pub mock: bool,
    /// The mocks' seed.
    pub seed: u64,
}

/// An agent ready to serve, and what was noticed building it (warnings).
pub struct Built {
    pub agent: Agent,
    pub warnings: Vec<Diagnostic>,
    /// The values of the environment variables the backends read.
    pub secrets: Secrets,
}

/// Which of the toolset's agents `name` is (the only one when `name` is `None`), or the
/// diagnostic that says why none is.
pub fn find_agent<'t>(
    toolset: &'t Toolset,
    name: Option<&str>,
) -> Result<&'t model::Agent, Box<Diagnostic>> {
    let found = match name {
        Some(name) => toolset.agents.iter().find(|a| a.name == name),
        None if toolset.agents.len() == 1 => toolset.agents.first(),
        None => None,
    };
    if let Some(a) = found {
        return Ok(a);
    }
    let names: Vec<&str> = toolset.agents.iter().map(|a| a.name.as_str()).collect();
    if names.is_empty() {
        return Err(Box::new(Diagnostic::new(
            Code::MissingKey,
            "the manifests define no agent to serve: without `agents`, a toolset has one when it has a capability",
        )
        .help("bind the toolbox in a capability, such as `capabilities: {weather: {description: Weather, toolbox: weather}}`")));
    }
    Err(Box::new(match name {
        Some(name) => {
            let d = Diagnostic::new(
                Code::UnknownReference,
                format!("there is no agent named `{name}`"),
            );
            match crate::did_you_mean(name, names.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!("the agents are {}", names.join(", "))),
            }
        }
        None => Diagnostic::new(
            Code::MissingKey,
            "this toolset has several agents: say which with `--agent`",
        )
        .help(format!("the agents are {}", names.join(", "))),
    }))
}

/// The runtime agent of `agent`, every tool and play it reaches registered with its backend
/// (a mock for every one with `options.mock`). Fails, building nothing, when a tool has no
/// backend (and no `--mock`) or a backend reads an environment variable that is not set.
pub fn build(
    analyzed: &Analyzed,
    agent: &model::Agent,
    options: Options,
) -> Result<Built, Vec<Diagnostic>> {
    let toolset = &analyzed.toolset;
    let operations: Vec<&model::Tool> = toolset.operations().collect();
    let plays = toolset.tool_count()..toolset.tool_count() + toolset.play_count();
    let ops = toolset.agent_operations(agent);
    let mut problems = Vec::new();
    let mut warnings = Vec::new();

    // The environment the backends read, each variable once, before anything is built.
    let mut env: Vec<(String, String)> = Vec::new();
    if !options.mock {
        for &op in &ops {
            let tool = operations[op];
            match &tool.backend {
                None => problems.push(no_backend(tool, plays.contains(&op))),
                Some(Backend::Http(http)) => {
                    for name in http.env_names() {
                        if env.iter().any(|(n, _)| n == name) {
                            continue;
                        }
                        match std::env::var(name) {
                            Ok(v) if !v.is_empty() => env.push((name.to_string(), v)),
                            Ok(_) | Err(std::env::VarError::NotPresent) => {
                                problems.push(unset_env(tool, name, "is not set"));
                            }
                            Err(std::env::VarError::NotUnicode(_)) => {
                                problems.push(unset_env(tool, name, "is not UTF-8"));
                            }
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let secrets = Secrets::new(env.iter().map(|(_, v)| v.clone()));
    let client = (!options.mock
        && ops
            .iter()
            .any(|&op| matches!(operations[op].backend, Some(Backend::Http(_)))))
    .then(http::HttpClient::new);

    let name: &'static str = leak(&agent.name);
    let description: &'static str = leak(&agent.description);
    let mut runtime = match Agent::new(name, description, manuals(toolset, agent)) {
        Ok(a) => a,
        Err(e) => {
            return Err(vec![Diagnostic::new(
                Code::UnsupportedSchema,
                e.to_string(),
            )]);
        }
    };
    for &op in &ops {
        let tool = operations[op];
        let is_play = plays.contains(&op);
        let entry = analyzed
            .lowered
            .form(op, Dialect::Mcp)
            .map(|f| f.entry(tool))
            .unwrap_or(Value::Null);
        let returns = tool
            .returns
            .map(|r| toolset.schemas.bundle_with(r, JsonOptions::DISPATCH));
        let handler: Box<dyn ToolHandler> = match (&tool.backend, options.mock) {
            (Some(Backend::Command(c)), false) => {
                Box::new(command::Program::new(&tool.name, c, secrets.clone()))
            }
            (Some(Backend::Http(h)), false) => {
                let values: Vec<(String, String)> = h
                    .query
                    .iter()
                    .chain(&h.headers)
                    .filter_map(|(_, s)| match s {
                        model::backend::Source::Env { name, prefix } => {
                            let v = env.iter().find(|(n, _)| n == name)?;
                            Some((name.clone(), format!("{prefix}{}", v.1)))
                        }
                        model::backend::Source::Template(_) => None,
                    })
                    .collect();
                Box::new(http::HttpBackend::new(
                    h,
                    values,
                    client.clone().unwrap_or_else(http::HttpClient::new),
                    secrets.clone(),
                    tool.policy.timeout_ms.map(Duration::from_millis),
                ))
            }
            _ => {
                // The mock generates from the schema with its annotations (`examples` and
                // `default` as hints); the validator is the dispatcher's.
                let hinted = tool.returns.map(|r| {
                    toolset.schemas.bundle_with(
                        r,
                        JsonOptions {
                            annotations: true,
                            ..JsonOptions::DISPATCH
                        },
                    )
                });
                let validator = match returns.as_ref().map(toolc_schema::compile) {
                    Some(Ok(v)) => Some(v),
                    Some(Err(e)) => {
                        problems.push(schema_problem(tool, &e.to_string()));
                        continue;
                    }
                    None => None,
                };
                let results: Vec<Value> = tool
                    .examples
                    .iter()
                    .filter_map(|e| e.result.clone())
                    .collect();
                let mock =
                    mock::Mock::new(&tool.name, results, hinted.zip(validator), options.seed);
                if let Err(e) = mock.check() {
                    warnings.push(no_mock_value(tool, is_play, &e.why));
                }
                Box::new(mock)
            }
        };
        let registered = registered(toolset, tool, is_play, &entry, returns, handler);
        if let Err(e) = runtime.register(registered) {
            problems.push(schema_problem(tool, &e.to_string()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Built {
        agent: runtime,
        warnings,
        secrets,
    })
}

/// The tool as the runtime registers it: its MCP entry listed, its DISPATCH schemas
/// validated, its policies.
fn registered(
    toolset: &Toolset,
    tool: &model::Tool,
    is_play: bool,
    entry: &Value,
    returns: Option<Value>,
    handler: Box<dyn ToolHandler>,
) -> RegisteredTool {
    let parameters = toolset
        .schemas
        .bundle_with(tool.parameters, JsonOptions::DISPATCH);
    let description = entry
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or(&tool.description);
    let mut r = RegisteredTool::new(tool.name.clone(), description, parameters, Boxed(handler))
        .validate_returns(tool.validate_returns)
        .deprecated(tool.deprecated.is_some());
    if let Some(returns) = returns {
        r = r.returns(returns);
    }
    let listed_input = entry.get("inputSchema").cloned().unwrap_or(Value::Null);
    let listed_output = entry.get("outputSchema").cloned();
    if !listed_input.is_null() {
        r = r.listed_schemas(listed_input, listed_output);
    }
    if let Some(title) = entry.get("title").and_then(Value::as_str) {
        r = r.title(title);
    }
    if let Some(Value::Object(annotations)) = entry.get("annotations") {
        for (k, v) in annotations {
            r = r.annotation(k.clone(), v.clone());
        }
    }
    if let Some(icons) = entry.get("icons") {
        r = r.icons(icons.clone());
    }
    if let Some(meta) = entry.get("_meta") {
        r = r.meta(meta.clone());
    }
    if is_play {
        return r.play();
    }
    let p = &tool.policy;
    r = r
        .terminal(tool.terminal)
        .approval(p.approval)
        .auth(match p.auth {
            AuthLevel::None => toolc_runtime::AuthLevel::None,
            AuthLevel::User => toolc_runtime::AuthLevel::User,
            AuthLevel::Admin => toolc_runtime::AuthLevel::Admin,
        });
    for role in &p.roles {
        r = r.role(role.clone());
    }
    if let Some(limit) = p.rate_limit {
        r = r.rate_limit(RateLimit::new(limit.count, limit.period_secs));
    }
    if let Some(ms) = p.timeout_ms {
        r = r.timeout(Duration::from_millis(ms));
    }
    r
}

/// A boxed handler is a handler.
struct Boxed(Box<dyn ToolHandler>);

impl ToolHandler for Boxed {
    fn call(
        &self,
        arguments: Value,
        ctx: toolc_runtime::CallContext,
    ) -> toolc_runtime::BoxFuture<'static, Result<Value, toolc_runtime::HandlerError>> {
        self.0.call(arguments, ctx)
    }
}

/// The agent's manuals, each as a capability of no tools: what the runtime joins into the
/// server's instructions.
fn manuals(toolset: &Toolset, agent: &model::Agent) -> Vec<Capability> {
    agent
        .capabilities
        .iter()
        .filter_map(|&c| {
            let cap = &toolset.capabilities[c];
            let manual = &toolset.manuals[cap.manual?];
            Some(
                Capability::new(leak(&cap.name), leak(&cap.description))
                    .with_manual(leak(&manual.text)),
            )
        })
        .collect()
}

/// A text that lives as long as the agent: the runtime's agents hold `'static` names, as
/// generated code's are.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn no_backend(tool: &model::Tool, is_play: bool) -> Diagnostic {
    let noun = if is_play { "play" } else { "tool" };
    Diagnostic::new(
        Code::NoBackend,
        format!("{noun} `{}` has no backend to answer its calls", tool.name),
    )
    .at(tool.span)
    .help("give it one (`backend: mock`, `backend: {http: {...}}` or `backend: {command: [...]}`), or answer every tool with a mock: `--mock`")
}

fn unset_env(tool: &model::Tool, name: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::UnsetEnv,
        format!(
            "the environment variable `{name}`, which the backend of tool `{}` reads, {why}",
            tool.name
        ),
    )
    .at(tool.span)
    .help(format!(
        "set `{name}` in the environment toolc runs in, or serve with `--mock`"
    ))
}

fn no_mock_value(tool: &model::Tool, is_play: bool, why: &str) -> Diagnostic {
    let noun = if is_play { "play" } else { "tool" };
    Diagnostic::new(
        Code::NoMockValue,
        format!(
            "the mock of {noun} `{}` finds no value its returns schema admits: {why}",
            tool.name
        ),
    )
    .severity(Severity::Warning)
    .at(tool.span)
    .help("its calls will fail: give it an example with a `result`, or check that `returns` admits a value")
}

fn schema_problem(tool: &model::Tool, why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedSchema,
        format!("tool `{}` cannot be served: {why}", tool.name),
    )
    .at(tool.span)
}
