//! A `tools/call`: the call slot, the caller hook, the agent's contract, and a held call asked
//! about through the client's elicitation.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientResult, ElicitRequest, ElicitRequestParams,
    ElicitationAction, ElicitationSchema, ErrorCode, ErrorData, InputRequest, InputRequests,
    InputRequiredResult, ServerRequest,
};
use rmcp::service::RequestContext;
use serde_json::json;
use toolc_runtime::{Agent, ApprovalDecision, ApprovalRequest, CallContext, ErrorKind, ToolResult};

use crate::approval::{
    APPROVAL_INPUT, APPROVAL_STATE, approval_decision, approval_question, approval_refused,
    elicits_forms,
};
use crate::deferred::SEARCH_TOOL;
use crate::listing::Listed;
use crate::panic::{catch_panic, panic_text, panicked};
use crate::request::McpRequest;
use crate::results::{error_result, mcp_result, unknown_tool};
use crate::server::McpServer;
use crate::truncated::Truncated;

impl McpServer {
    /// One `tools/call`: the search of deferred loading, or a tool or play of the agent through
    /// its contract, with the caller the hook makes, a call slot of the connection, and a held
    /// call asked about.
    pub(crate) async fn call(
        &self,
        request: CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.as_ref();
        if let Some(deferred) = &self.deferred
            && name == SEARCH_TOOL
        {
            return Ok(self.search(deferred, &request, context).await.into());
        }
        let served = self.served();
        let Some(listed) = served.get(name) else {
            return Err(unknown_tool(name));
        };
        if !self.visible(listed.desc.name) {
            return Err(ErrorData::invalid_params(
                format!(
                    "tool '{}' is not loaded: call {SEARCH_TOOL} with what it does to load it",
                    Truncated(name)
                ),
                Some(json!({ "kind": ErrorKind::UnknownTool.as_str() })),
            ));
        }
        let arguments = match &request.arguments {
            Some(map) => serde_json::to_string(map).map_err(|e| {
                ErrorData::invalid_params(format!("the arguments are not JSON: {e}"), None)
            })?,
            None => "{}".to_owned(),
        };
        let decision = approval_decision(&request, context)?;
        let call_id = format!("mcp-{}", Truncated(&context.id.to_string()));
        let info = McpRequest {
            tool: listed.desc.name,
            call_id: &call_id,
            context,
        };
        let slots = self.slots_of(context);
        let Ok(_permit) = slots.try_acquire_owned() else {
            let message = format!(
                "too many calls at once on this connection: at most {} run concurrently; retry '{}' when one finishes",
                self.max_calls, listed.desc.name
            );
            return Ok(error_result(listed, ErrorKind::RateLimited, &message, None).into());
        };
        let mut ctx = match catch_unwind(AssertUnwindSafe(|| (self.caller)(&info))) {
            Ok(ctx) => match (&self.store, ctx.store()) {
                (Some(store), None) => ctx.with_store(Arc::clone(store)),
                _ => ctx,
            },
            Err(payload) => {
                let message = format!(
                    "the MCP caller hook panicked on {} '{}': {}",
                    listed.desc.kind.as_str(),
                    listed.desc.name,
                    panic_text(&*payload)
                );
                return Ok(error_result(listed, ErrorKind::Panicked, &message, None).into());
            }
        };
        if let Some(ttl) = self.approval_ttl
            && !ctx.has_approval_ttl()
        {
            ctx = ctx.with_approval_ttl(ttl);
        }
        ctx = match decision {
            Some((token, ApprovalDecision::Approve)) => ctx.with_approval(token),
            Some((token, ApprovalDecision::Deny)) => ctx.with_denial(token),
            None => ctx,
        };
        let agent = &served.agent;
        // A tool the agent's filter hides from this call is not there for it.
        if let Some(filter) = agent.tool_filter()
            && !filter(listed.desc, &ctx)
        {
            return Err(unknown_tool(name));
        }
        let result = self.run(agent, listed, &arguments, &ctx, context).await?;
        let Some(held) = result.approval.clone() else {
            return Ok(mcp_result(listed, result).into());
        };
        self.ask(agent, listed, held, &ctx, context).await
    }

    /// One call through the agent, a panic contained and cancellation honoured.
    async fn run(
        &self,
        agent: &Agent,
        listed: &Listed,
        arguments: &str,
        ctx: &CallContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData> {
        let call = catch_panic(agent.call_result(listed.desc.name, arguments, ctx));
        self.outcome(listed, call, context).await
    }

    /// The outcome of a call (or a resumption) as a result, or the protocol errors of a
    /// cancelled request and an unknown tool.
    async fn outcome<F>(
        &self,
        listed: &Listed,
        call: F,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData>
    where
        F: Future<Output = Result<ToolResult, Box<dyn Any + Send>>>,
    {
        let outcome = match context.ct.run_until_cancelled(call).await {
            Some(outcome) => outcome,
            None => {
                return Err(ErrorData::new(
                    ErrorCode::INTERNAL_ERROR,
                    "the request was cancelled",
                    None,
                ));
            }
        };
        let result = match outcome {
            Ok(result) => result,
            Err(payload) => {
                let error = panicked(listed.desc.kind, listed.desc.name, &*payload);
                return Ok(ToolResult::failure(&error));
            }
        };
        if result.cause.as_ref().map(|c| c.code) == Some(ErrorKind::UnknownTool) {
            return Err(unknown_tool(listed.desc.name));
        }
        Ok(result)
    }

    /// A call held for approval: asks the person through the client's elicitation (in the
    /// request under protocol 2025-11-25 and before; as an `InputRequiredResult` the client
    /// retries under 2026-07-28), or, when the client cannot ask, refuses it with `isError` and
    /// the token in `_meta` for a host that asks by other means.
    async fn ask(
        &self,
        agent: &Agent,
        listed: &Listed,
        held: ApprovalRequest,
        ctx: &CallContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !elicits_forms(context) {
            return Ok(approval_refused(listed, &held).into());
        }
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: approval_question(listed.desc, &held),
            requested_schema: ElicitationSchema::new(Default::default()),
        };
        let per_request = context
            .protocol_version()
            .is_some_and(|v| !v.has_initialize());
        if per_request {
            let mut requests = InputRequests::new();
            requests.insert(
                APPROVAL_INPUT.to_owned(),
                InputRequest::Elicitation(ElicitRequest::new(params)),
            );
            let state = format!("{APPROVAL_STATE}{}", held.token);
            return Ok(InputRequiredResult::new(Some(requests), Some(state)).into());
        }
        let wait = std::time::Duration::from_millis(held.expires_in_ms);
        let asked = context
            .peer
            .send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params)));
        let answer = match tokio::time::timeout(wait, asked).await {
            Ok(Ok(ClientResult::ElicitResult(answer))) => Ok(answer.action),
            Ok(Ok(_)) => {
                Err("the client answered something other than an elicitation result".to_owned())
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} ms", held.expires_in_ms)),
        };
        match answer {
            Ok(ElicitationAction::Accept) => {
                let call = catch_panic(agent.approve(&held, ctx));
                let result = self.outcome(listed, call, context).await?;
                Ok(mcp_result(listed, result).into())
            }
            Ok(_) => {
                let call = catch_panic(agent.deny(&held, ctx));
                let result = self.outcome(listed, call, context).await?;
                Ok(mcp_result(listed, result).into())
            }
            Err(why) => {
                // Withdraw the token: the call is answered now, and it was not run.
                let call = catch_panic(agent.deny(&held, ctx));
                let _ = self.outcome(listed, call, context).await?;
                let message = format!(
                    "{} '{}' was not run: it needs a person's approval, and the client's elicitation got no answer ({}); call it again to ask again",
                    listed.desc.kind.as_str(),
                    listed.desc.name,
                    Truncated(&why)
                );
                Ok(error_result(listed, ErrorKind::Forbidden, &message, None).into())
            }
        }
    }

    /// The call slots of the connection `context` came from.
    fn slots_of(&self, context: &RequestContext<RoleServer>) -> Arc<tokio::sync::Semaphore> {
        #[cfg(feature = "http")]
        if let Some(slots) = context
            .extensions
            .get::<::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<crate::request::CallSlots>())
        {
            return Arc::clone(&slots.0);
        }
        let _ = context;
        Arc::clone(&self.slots)
    }
}
