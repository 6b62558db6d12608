//! A tool list that changes while the server serves it: who is told
//! (`notifications/tools/list_changed`), and the list one request sees when the agent decides
//! it per call.

use std::sync::atomic::Ordering;

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

    /// The generation of the list this session sees: it grows with every change, by
    /// [`McpServer::update`] or by this session's searches.
    fn list_generation(&self) -> u64 {
        self.audience.changes.load(Ordering::SeqCst) + self.session.changes.load(Ordering::SeqCst)
    }

    /// A `subscriptions/listen` request is accepted: its acknowledgment is about to be sent,
    /// and its stream registered ([`McpServer::start_listening`]) only once that is written.
    pub(crate) fn listen_accepted(&self) {
        let mut pending = lock(&self.session.pending);
        if pending.count == 0 {
            pending.since = self.list_generation();
        }
        pending.count += 1;
    }

    /// Registers an accepted `subscriptions/listen` stream, and sends it the change it would
    /// have missed: the client may have read the acknowledgment and made a call that changed
    /// the list (a search) before the stream was registered. Compared with the generation at
    /// the oldest pending acceptance, a change is never missed; at worst one is told twice,
    /// which only makes the client list again.
    pub(crate) async fn start_listening(&self, sink: SubscriptionSink) {
        lock(&self.session.sinks).push(sink.clone());
        lock(&self.audience.sinks).push(sink.clone());
        let since = {
            let mut pending = lock(&self.session.pending);
            pending.count = pending.count.saturating_sub(1);
            pending.since
        };
        if self.list_generation() != since {
            let notification = ServerNotification::ToolListChangedNotification(Default::default());
            let _ = sink.send(notification).await;
        }
    }

    /// Forgets a stream that ended.
    pub(crate) fn stop_listening(&self, sink: &SubscriptionSink) {
        lock(&self.session.sinks).retain(|s| s.id() != sink.id());
        lock(&self.audience.sinks).retain(|s| s.id() != sink.id());
    }

    /// Sends `notifications/tools/list_changed` to every session of the server and every
    /// `subscriptions/listen` stream that asked for it. A client that left is forgotten, not an
    /// error.
    pub(crate) async fn announce_everywhere(&self) {
        // Counted before the streams are read: one registered after that sees the count.
        self.audience.changes.fetch_add(1, Ordering::SeqCst);
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
