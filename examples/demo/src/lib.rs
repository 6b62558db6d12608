//! An example user of toolc: the generated toolset for `manifests/`, and
//! in-memory implementations of every tool and play.
//!
//! ```no_run
//! # async fn demo() {
//! use toolc_runtime::{AuthLevel, CallContext, Caller};
//! let agent = toolc_example::support_desk();
//! let ctx = CallContext::new("call-1")
//!     .with_caller(Caller::new("ada").with_auth(AuthLevel::User).with_role("support"));
//! let result = agent
//!     .call("lookup_order", r#"{"order_id": "A-1001"}"#, &ctx)
//!     .await;
//! # }
//! ```

/// The code toolc generated from `manifests/` (see `build.rs`).
pub mod toolset {
    toolc_runtime::include_toolset!();
}

mod days;
pub mod plugins;

use std::collections::BTreeMap;
use std::sync::Mutex;
use toolc_runtime::{HandlerError, ToolContext, Verbatim};
use toolset::playbooks::recipes;
use toolset::toolboxes::{meetings, orders, support};
use toolset::types::{MeetingList, OperatorScope, Ticket, TicketPriority, TicketStatus};

/// Meetings, by ISO day.
pub struct Meetings {
    days: BTreeMap<String, Vec<String>>,
}

impl Default for Meetings {
    fn default() -> Self {
        let mut days = BTreeMap::new();
        days.insert(
            "2026-03-02".to_string(),
            vec!["Standup".to_string(), "Planning".to_string()],
        );
        Meetings { days }
    }
}

impl meetings::Meetings for Meetings {
    async fn list_meetings(
        &self,
        params: meetings::ListMeetingsParams,
        _ctx: &ToolContext<'_, meetings::Scope>,
    ) -> Result<MeetingList, HandlerError> {
        Ok(MeetingList {
            meetings: self.days.get(&params.day).cloned().unwrap_or_default(),
        })
    }

    async fn whoami(
        &self,
        ctx: &ToolContext<'_, meetings::Scope>,
    ) -> Result<Verbatim<OperatorScope>, HandlerError> {
        // `validate_returns: false`: the host's own scope, passed on as it is.
        Ok(ctx.require_scope()?.clone().into())
    }
}

/// The recipes playbook.
pub struct Recipes;

impl recipes::Recipes for Recipes {
    async fn slug_and_span(
        &self,
        params: recipes::SlugAndSpanParams,
    ) -> Result<recipes::SlugAndSpanReturns, HandlerError> {
        let mut slug = String::new();
        for c in params.title.chars() {
            if c.is_alphanumeric() {
                slug.extend(c.to_lowercase());
            } else if !slug.ends_with('-') && !slug.is_empty() {
                slug.push('-');
            }
        }
        let slug = slug.trim_end_matches('-').to_string();
        let days = days::between(&params.from, &params.to)
            .ok_or_else(|| HandlerError::msg("`from` and `to` must be ISO dates"))?;
        Ok(recipes::SlugAndSpanReturns {
            slug,
            days: days as f64,
        })
    }
}

/// A ticket id that matches no ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketNotFound(pub String);

impl std::fmt::Display for TicketNotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no ticket with id {}", self.0)
    }
}

impl std::error::Error for TicketNotFound {}

/// Support tickets, in memory.
pub struct Support {
    tickets: Mutex<Vec<Ticket>>,
}

impl Default for Support {
    fn default() -> Self {
        let ticket = |id: &str, subject: &str, status, priority| Ticket {
            id: id.to_string(),
            subject: subject.to_string(),
            status,
            priority,
        };
        Support {
            tickets: Mutex::new(vec![
                ticket(
                    "T-1",
                    "Cannot log in",
                    TicketStatus::Open,
                    TicketPriority::High,
                ),
                ticket(
                    "T-2",
                    "Invoice is wrong",
                    TicketStatus::Pending,
                    TicketPriority::Medium,
                ),
                ticket(
                    "T-3",
                    "Feature request",
                    TicketStatus::Open,
                    TicketPriority::Low,
                ),
            ]),
        }
    }
}

impl support::Support for Support {
    async fn list_tickets(
        &self,
        params: support::ListTicketsParams,
        _ctx: &ToolContext<'_, support::Scope>,
    ) -> Result<Vec<Ticket>, HandlerError> {
        let tickets = self
            .tickets
            .lock()
            .map_err(|_| HandlerError::msg("ticket store poisoned"))?;
        Ok(tickets
            .iter()
            .filter(|t| params.status.is_none_or(|s| t.status == s))
            .take(usize::try_from(params.limit).unwrap_or(usize::MAX))
            .cloned()
            .collect())
    }

    async fn update_ticket(
        &self,
        params: support::UpdateTicketParams,
        _ctx: &ToolContext<'_, support::Scope>,
    ) -> Result<Ticket, HandlerError> {
        let mut tickets = self
            .tickets
            .lock()
            .map_err(|_| HandlerError::msg("ticket store poisoned"))?;
        let ticket = tickets
            .iter_mut()
            .find(|t| t.id == params.id)
            .ok_or_else(|| TicketNotFound(params.id.clone()))?;
        if let Some(status) = params.status {
            ticket.status = status;
        }
        if let Some(priority) = params.priority {
            ticket.priority = match priority {
                support::UpdateTicketParamsPriority::Low => TicketPriority::Low,
                support::UpdateTicketParamsPriority::Medium => TicketPriority::Medium,
                support::UpdateTicketParamsPriority::High => TicketPriority::High,
                support::UpdateTicketParamsPriority::Urgent => TicketPriority::Urgent,
            };
        }
        Ok(ticket.clone())
    }
}

/// Orders, in memory.
pub struct Orders;

impl orders::Orders for Orders {
    async fn lookup_order(
        &self,
        params: orders::LookupOrderParams,
        _ctx: &ToolContext<'_, orders::Scope>,
    ) -> Result<orders::LookupOrderReturns, HandlerError> {
        let status = match params.order_id.as_str() {
            "A-1001" => orders::LookupOrderReturnsStatus::InTransit,
            "A-1002" => orders::LookupOrderReturnsStatus::Delivered,
            _ => orders::LookupOrderReturnsStatus::Placed,
        };
        Ok(orders::LookupOrderReturns {
            order_id: params.order_id,
            status,
        })
    }

    /// Runs only once a person approved the call (`approve_destructive` in toolc.toml).
    async fn cancel_order(
        &self,
        params: orders::CancelOrderParams,
        ctx: &ToolContext<'_, orders::Scope>,
    ) -> Result<orders::CancelOrderReturns, HandlerError> {
        if let Some(reason) = &params.reason {
            ctx.set_metadata("reason", reason.as_str());
        }
        Ok(orders::CancelOrderReturns {
            cancelled: params.order_id != "A-1002",
            order_id: params.order_id,
        })
    }
}

/// The `assistant` agent with the in-memory implementations.
pub fn assistant() -> toolc_runtime::Agent {
    toolset::agents::Assistant {
        meetings: Meetings::default(),
        recipes: Recipes,
    }
    .build()
}

/// The `support-desk` agent with the in-memory implementations.
pub fn support_desk() -> toolc_runtime::Agent {
    toolset::agents::SupportDesk {
        support: Support::default(),
        orders: Orders,
    }
    .build()
}
