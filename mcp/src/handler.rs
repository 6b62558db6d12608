//! The MCP methods the server answers (`initialize`, `notifications/initialized`, `tools/list`,
//! `tools/call`, `subscriptions/listen`), as rmcp's `ServerHandler`.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use crate::deferred::SEARCH_TOOL;
use crate::server::{McpServer, lock};

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let served = self.served();
        let mut server = Implementation::new(served.agent.name(), self.version.clone());
        let description = served.agent.description().trim();
        if !description.is_empty() {
            server.description = Some(description.to_owned());
        }
        let capabilities = if self.deferred.is_some() || self.listeners.is_some() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        let mut info = ServerConfig::new(capabilities).with_server_info(server);
        let instructions = served.agent.instructions();
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
        let served = self.served();
        let i = *served.by_name.get(name)?;
        self.visible(i).then(|| served.tools[i].tool.clone())
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        (self.deferred.is_some() || self.listeners.is_some())
            .then(|| SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let sink = context.sink().clone();
        let id = sink.id().clone();
        lock(&self.session.sinks).push(sink.clone());
        if let Some(listeners) = &self.listeners {
            lock(&listeners.sinks).push(sink);
        }
        context.cancelled().await;
        lock(&self.session.sinks).retain(|s| *s.id() != id);
        if let Some(listeners) = &self.listeners {
            lock(&listeners.sinks).retain(|s| *s.id() != id);
        }
        Ok(())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // A reloadable server tells this session when the agent it serves is replaced.
        if let Some(listeners) = &self.listeners {
            lock(&listeners.peers).push(context.peer);
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, &context).await
    }
}
