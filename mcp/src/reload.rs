//! Replacing the agent a running server serves, and telling its clients: what a host that
//! rebuilds its agent (a manifest edited, a plugin loaded) needs to keep one server running.

use std::sync::Arc;

use rmcp::model::ServerNotification;
use rmcp::service::SubscriptionSink;
use toolc_runtime::Agent;

use crate::server::{Listeners, McpServer, ServeError, Served, lock, write};

/// Replaces the agent of the [`McpServer`] it came from ([`McpServer::reloadable`]), and of
/// every clone of it (each HTTP session), and tells their clients. Cheap to clone.
#[derive(Clone)]
pub struct Reloader {
    server: McpServer,
    listeners: Arc<Listeners>,
}

impl McpServer {
    /// This server, announcing `tools.listChanged`, and a [`Reloader`] that replaces the agent
    /// it serves while it runs.
    ///
    /// Fails with deferred loading ([`McpServer::with_deferred_loading`]): what a session has
    /// found is a set of the old agent's tools.
    pub fn reloadable(mut self) -> Result<(McpServer, Reloader), ServeError> {
        if self.deferred.is_some() {
            return Err(ServeError(
                "a server with deferred loading cannot replace its agent: what each session \
                 has found belongs to the old one; serve without deferred loading to reload"
                    .to_owned(),
            ));
        }
        let listeners = Arc::new(Listeners::default());
        self.listeners = Some(Arc::clone(&listeners));
        let reloader = Reloader {
            server: self.clone(),
            listeners,
        };
        Ok((self, reloader))
    }
}

impl Reloader {
    /// Serves `agent` from now on: a call that has begun finishes with the agent it began
    /// with, a held call is resumed by it, and every later request reaches `agent`. Then each
    /// connected client is sent `notifications/tools/list_changed` (a client that left is
    /// forgotten); returns how many were told.
    ///
    /// Policy state lives where the old agent kept it: in the server's store
    /// ([`McpServer::with_store`]) rate limits and approval tokens outlive the replacement, in
    /// the toolboxes' own memory they start again.
    pub async fn replace(&self, agent: impl Into<Arc<Agent>>) -> usize {
        let served = Arc::new(Served::of(agent.into()));
        *write(&self.server.served) = served;
        self.announce().await
    }

    /// Sends `notifications/tools/list_changed` to every client of the server; returns how
    /// many got it.
    async fn announce(&self) -> usize {
        let peers = lock(&self.listeners.peers).clone();
        let mut told = 0;
        for peer in peers {
            if peer.is_transport_closed() || peer.notify_tool_list_changed().await.is_err() {
                lock(&self.listeners.peers).retain(|p| !p.is_transport_closed());
            } else {
                told += 1;
            }
        }
        let sinks: Vec<SubscriptionSink> = lock(&self.listeners.sinks).clone();
        for sink in sinks {
            let notification = ServerNotification::ToolListChangedNotification(Default::default());
            if sink.send(notification).await.is_err() {
                lock(&self.listeners.sinks).retain(|s| s.id() != sink.id());
            } else {
                told += 1;
            }
        }
        told
    }
}

impl std::fmt::Debug for Reloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reloader")
            .field("agent", &self.server.served().agent.name())
            .finish()
    }
}
