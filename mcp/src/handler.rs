//! The MCP methods the server answers (`initialize`, `tools/list`, `tools/call`,
//! `subscriptions/listen`), as rmcp's `ServerHandler`.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use crate::deferred::SEARCH_TOOL;
use crate::server::McpServer;

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let agent = self.agent();
        let mut server = Implementation::new(agent.name(), self.version.clone());
        let description = agent.description().trim();
        if !description.is_empty() {
            server.description = Some(description.to_owned());
        }
        // The list changes with deferred loading's searches and with `McpServer::update`.
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        let instructions = agent.instructions();
        if !instructions.is_empty() {
            info = info.with_instructions(instructions);
        }
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools_for_request(&context),
        ))
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.listen_for_changes(context.peer);
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        if let Some(d) = &self.deferred
            && name == SEARCH_TOOL
        {
            return Some(d.search.clone());
        }
        let served = self.served();
        let listed = served.get(name)?;
        self.visible(listed.desc.name).then(|| listed.tool.clone())
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // rmcp acknowledges the request next, and calls `listen` once that is written.
        self.listen_accepted();
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        self.start_listening(sink.clone()).await;
        context.cancelled().await;
        self.stop_listening(&sink);
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
