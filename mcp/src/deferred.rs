//! Deferred loading: a server that lists only a search tool and the pinned tools, and makes the
//! tools a search finds listed and callable.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ServerNotification, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, SubscriptionSink};
use serde_json::{Value, json};
use toolc_runtime::ErrorKind;

use crate::results::error_payload;
use crate::server::{Deferred, McpServer, ServeError, lock};
use crate::truncated::Truncated;

/// The tool a server with deferred loading lists first: it finds the agent's other tools.
pub const SEARCH_TOOL: &str = "search_tools";

/// How many tools one `search_tools` call answers at most.
pub const MAX_SEARCH_LIMIT: u64 = 50;

impl McpServer {
    /// Turns on deferred loading: `tools/list` lists only [`SEARCH_TOOL`] and the `pinned`
    /// tools; a search answers the matching tools' descriptions (name, title, description,
    /// schemas, score) and makes them listed and callable for the rest of the session, and the
    /// server then sends `notifications/tools/list_changed` (through `subscriptions/listen`
    /// under protocol 2026-07-28). A tool not yet found is not callable: calling it is an
    /// unknown-tool error that says to search first.
    ///
    /// Fails when a pinned name is no tool or play of the agent, or when the agent has a tool
    /// called `search_tools` itself.
    pub fn with_deferred_loading<I, S>(mut self, pinned: I) -> Result<McpServer, ServeError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let served = self.served();
        if served.by_name.contains_key(SEARCH_TOOL) {
            return Err(ServeError(format!(
                "agent '{}' has a tool named '{SEARCH_TOOL}', the name deferred loading lists its \
                 search under: rename that tool",
                served.agent.name()
            )));
        }
        let mut names = BTreeSet::new();
        for name in pinned {
            let name = name.as_ref();
            match served.get(name) {
                Some(listed) => {
                    names.insert(listed.desc.name);
                }
                None => {
                    return Err(ServeError(format!(
                        "cannot pin '{}': agent '{}' serves no tool or play of that name",
                        Truncated(name),
                        served.agent.name()
                    )));
                }
            }
        }
        let input = search_input_schema();
        let parameters = toolc_schema::compile(&input)
            .map_err(|e| ServeError(format!("the {SEARCH_TOOL} schema does not compile: {e}")))?;
        let Value::Object(input) = input else {
            return Err(ServeError(format!(
                "the {SEARCH_TOOL} schema is not an object"
            )));
        };
        let Value::Object(output) = search_output_schema() else {
            return Err(ServeError(format!(
                "the {SEARCH_TOOL} schema is not an object"
            )));
        };
        let search = Tool::new(
            SEARCH_TOOL,
            format!(
                "Search the tools of '{}' by what you need done, in plain words; the tools \
                 found become callable. Call it before any tool you do not see listed.",
                served.agent.name()
            ),
            Arc::new(input),
        )
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false));
        self.deferred = Some(Arc::new(Deferred {
            pinned: names,
            search,
            parameters,
        }));
        Ok(self)
    }

    /// One `search_tools` call: the best matches, each made listed and callable.
    pub(crate) async fn search(
        &self,
        deferred: &Deferred,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let violations = deferred.parameters.validate(&arguments);
        if !violations.is_empty() {
            let message = format!(
                "tool '{SEARCH_TOOL}' arguments are invalid: {}",
                toolc_schema::Violations(violations.clone())
            );
            let payload = error_payload(ErrorKind::ArgumentsInvalid, &message, &violations, None);
            return CallToolResult::error(vec![ContentBlock::text(payload.to_string())]);
        }
        let query = arguments["query"].as_str().unwrap_or_default();
        let limit = arguments
            .get("limit")
            .and_then(Value::as_u64)
            .unwrap_or(5)
            .clamp(1, MAX_SEARCH_LIMIT);
        let served = self.served();
        let hits = served
            .agent
            .search_tools(query, usize::try_from(limit).unwrap_or(5));
        let mut found = Vec::new();
        let mut newly = false;
        for hit in hits {
            let Some(listed) = served.get(hit.tool.name) else {
                continue;
            };
            if !self.visible(listed.desc.name) {
                lock(&self.session.found).insert(listed.desc.name);
                newly = true;
            }
            let mut tool = listed.json();
            tool.insert("score".into(), json!(hit.score));
            found.push(Value::Object(tool));
        }
        if newly {
            self.announce_list_changed(context).await;
        }
        CallToolResult::structured(json!({ "tools": found }))
    }

    /// Sends `notifications/tools/list_changed`: on the session (protocol 2025-11-25 and
    /// before), or on each `subscriptions/listen` stream that asked for it (2026-07-28). A
    /// client that left is not an error.
    async fn announce_list_changed(&self, context: &RequestContext<RoleServer>) {
        // Counted before the streams are read: one registered after that sees the count.
        self.session.changes.fetch_add(1, Ordering::SeqCst);
        let per_request = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        if !per_request {
            let _ = context.peer.notify_tool_list_changed().await;
            return;
        }
        let sinks: Vec<SubscriptionSink> = lock(&self.session.sinks).clone();
        for sink in sinks {
            let notification = ServerNotification::ToolListChangedNotification(Default::default());
            if sink.send(notification).await.is_err() {
                lock(&self.session.sinks).retain(|s| s.id() != sink.id());
            }
        }
    }
}

/// The parameters of [`SEARCH_TOOL`].
fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "description": "What you need a tool for, in plain words (e.g. \"refund an order\")."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_SEARCH_LIMIT,
                "description": "How many tools to answer at most (default 5)."
            }
        },
        "required": ["query"],
        "additionalProperties": false
    })
}

/// The result of [`SEARCH_TOOL`]: the tools found, as `tools/list` would list them, each with
/// its score.
fn search_output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "tools": {
                "type": "array",
                "description": "Best first: each tool as tools/list lists it, plus its score.",
                "items": {"type": "object"}
            }
        },
        "required": ["tools"]
    })
}
