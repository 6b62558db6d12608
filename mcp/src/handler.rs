//! The MCP methods the server answers (`initialize`, `tools/list`, `tools/call`,
//! `subscriptions/listen`), as rmcp's `ServerHandler`.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use crate::deferred::SEARCH_TOOL;
use crate::server::{McpServer, lock};

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let mut server = Implementation::new(self.agent.name(), self.version.clone());
        let description = self.agent.description().trim();
        if !description.is_empty() {
            server.description = Some(description.to_owned());
        }
        let capabilities = if self.deferred.is_some() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        let instructions = self.agent.instructions();
        if !instructions.is_empty() {
            info = info.with_instructions(instructions);
        }
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if let Some(d) = &self.deferred
            && name == SEARCH_TOOL
        {
            return Some(d.search.clone());
        }
        let i = *self.by_name.get(name)?;
        self.visible(i).then(|| self.tools[i].tool.clone())
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.deferred
            .as_ref()
            .map(|_| SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        let id = sink.id().clone();
        lock(&self.session.sinks).push(sink);
        context.cancelled().await;
        lock(&self.session.sinks).retain(|s| *s.id() != id);
        Ok(())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Boxed: rmcp keeps this future inside every request's service task, which it moves
        // as it spawns and polls it; a call's future (the contract, approvals, elicitation) is
        // large enough that those moves cost more than the allocation.
        Box::pin(self.call(request, &context)).await
    }
}
