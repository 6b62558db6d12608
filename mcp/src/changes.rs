//! A tool list that changes while the server serves it: who is told
//! (`notifications/tools/list_changed`), and the list one request sees when the agent decides
//! it per call.

use rmcp::RoleServer;
use rmcp::model::{ServerNotification, Tool};
use rmcp::service::{Peer, RequestContext, SubscriptionSink};

use crate::request::McpRequest;
use crate::server::{McpServer, lock};

impl McpServer {
    /// Remembers a session's peer, to tell it when [`McpServer::update`] changes the list.
    pub(crate) fn listen_for_changes(&self, peer: Peer<RoleServer>) {
        let mut peers = lock(&self.audience.peers);
        peers.retain(|p| !p.is_transport_closed());
        peers.push(peer);
    }

    /// Sends `notifications/tools/list_changed` to every session of the server and every
    /// `subscriptions/listen` stream that asked for it. A client that left is forgotten, not an
    /// error.
    pub(crate) async fn announce_everywhere(&self) {
        let peers: Vec<Peer<RoleServer>> = lock(&self.audience.peers).clone();
        for peer in peers {
            if peer.notify_tool_list_changed().await.is_err() {
                lock(&self.audience.peers).retain(|p| !p.is_transport_closed());
            }
        }
        let sinks: Vec<SubscriptionSink> = lock(&self.audience.sinks).clone();
        for sink in sinks {
            let notification = ServerNotification::ToolListChangedNotification(Default::default());
            if sink.send(notification).await.is_err() {
                lock(&self.audience.sinks).retain(|s| s.id() != sink.id());
            }
        }
    }

    /// The tools `tools/list` answers this request: [`McpServer::tools`], less those the agent's
    /// filter ([`Agent::with_tool_filter`](toolc_runtime::Agent::with_tool_filter)) hides from
    /// the caller the caller hook makes for it (run with an empty tool name).
    pub(crate) fn tools_for_request(&self, context: &RequestContext<RoleServer>) -> Vec<Tool> {
        let tools = self.tools();
        let served = self.served();
        let Some(filter) = served.agent.tool_filter() else {
            return tools;
        };
        let call_id = format!("mcp-{}", context.id);
        let request = McpRequest {
            tool: "",
            call_id: &call_id,
            context,
        };
        let Ok(ctx) =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.caller)(&request)))
        else {
            // A hook that panics lists what needs no caller: nothing the filter decides.
            return Vec::new();
        };
        tools
            .into_iter()
            .filter(|t| match served.get(&t.name) {
                Some(listed) => filter(listed.desc, &ctx),
                None => true,
            })
            .collect()
    }
}
