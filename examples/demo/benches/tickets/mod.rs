//! What `dispatch.rs` and `calls.rs` call: the benches' generated toolset, the tickets (built once,
//! outside anything timed or counted), and the handlers, which clone the tickets they return
//! as a handler serving them from memory does.

mod bench_toolset {
    toolc_runtime::include_toolset!("bench_toolset");
}

use serde_json::value::RawValue;
use toolc_runtime::{CallContext, HandlerError, ToolContext, Toolbox, Verbatim};

pub use bench_toolset::toolboxes::bench as tb;
use bench_toolset::types::{
    Comment, Customer, CustomerTier, ListTicketDetailsParams, ListTicketsParams, Ticket,
    TicketDetail, TicketDetailPriority, TicketDetailStatus, TicketPriority, TicketStatus,
};

pub fn tickets(n: usize) -> Vec<Ticket> {
    let subjects = ["Cannot log in", "Invoice is wrong", "Feature request"];
    let statuses = [
        TicketStatus::Open,
        TicketStatus::Pending,
        TicketStatus::Open,
    ];
    let priorities = [
        TicketPriority::High,
        TicketPriority::Medium,
        TicketPriority::Low,
    ];
    (0..n)
        .map(|i| Ticket {
            id: format!("T-{}", i + 1),
            subject: subjects[i % 3].into(),
            status: statuses[i % 3],
            priority: priorities[i % 3],
        })
        .collect()
}

pub fn details(n: usize) -> Vec<TicketDetail> {
    let tiers = [
        CustomerTier::Free,
        CustomerTier::Pro,
        CustomerTier::Enterprise,
    ];
    (0..n)
        .map(|i| TicketDetail {
            id: format!("T-{}", i + 1),
            subject: format!("Ticket number {i}: the export fails on large files"),
            status: if i % 2 == 0 {
                TicketDetailStatus::Open
            } else {
                TicketDetailStatus::Pending
            },
            priority: TicketDetailPriority::Medium,
            customer: Customer {
                id: format!("0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b{:04x}", i % 0x10000),
                name: format!("Customer {i}"),
                tier: tiers[i % 3],
            },
            tags: vec![
                "export".into(),
                "billing".into(),
                format!("batch-{}", i % 7),
            ],
            comments: (0..3)
                .map(|c| Comment {
                    author: if c % 2 == 0 { "ada" } else { "grace" }.into(),
                    body: format!("Comment {c} on ticket {i}: looked into it, more soon."),
                    internal: c == 2,
                })
                .collect(),
        })
        .collect()
}

pub struct Impl {
    tickets: Vec<Ticket>,
    details: Vec<TicketDetail>,
}

impl Impl {
    pub fn new(n: usize) -> Impl {
        Impl {
            tickets: tickets(n),
            details: details(200),
        }
    }

    pub fn list(&self, p: &ListTicketsParams) -> Vec<Ticket> {
        self.tickets
            .iter()
            .filter(|t| p.status.is_none_or(|s| s as u8 == t.status as u8))
            .take(usize::try_from(p.limit).unwrap_or(usize::MAX))
            .cloned()
            .collect()
    }

    pub fn list_details(&self, p: &ListTicketDetailsParams) -> Vec<TicketDetail> {
        self.details
            .iter()
            .take(usize::try_from(p.limit).unwrap_or(usize::MAX))
            .cloned()
            .collect()
    }
}

impl tb::Bench for Impl {
    async fn list_tickets(
        &self,
        p: ListTicketsParams,
        _: &ToolContext<'_, tb::Scope>,
    ) -> Result<Vec<Ticket>, HandlerError> {
        Ok(self.list(&p))
    }

    async fn list_tickets_unvalidated(
        &self,
        p: ListTicketsParams,
        _: &ToolContext<'_, tb::Scope>,
    ) -> Result<Verbatim<Vec<Ticket>>, HandlerError> {
        Ok(self.list(&p).into())
    }

    async fn list_ticket_details(
        &self,
        p: ListTicketDetailsParams,
        _: &ToolContext<'_, tb::Scope>,
    ) -> Result<Vec<TicketDetail>, HandlerError> {
        Ok(self.list_details(&p))
    }
}

/// The arguments of `list_tickets`.
pub const ARGS: &str = r#"{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "limit": 20}"#;
/// The arguments of `list_ticket_details`.
pub const DETAIL_ARGS: &str = r#"{"limit": 200}"#;

/// The arguments of `list_tickets` with a 10 KB `query`.
pub fn big_args() -> String {
    format!(
        r#"{{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "limit": 20, "query": "{}"}}"#,
        "x".repeat(10 * 1024)
    )
}

/// The floor of `list_tickets`: the parameters read by serde_json, the same handler, the result
/// written by serde_json.
pub fn floor_list(imp: &Impl, args: &str) -> String {
    let p: ListTicketsParams = serde_json::from_str(args).expect("params");
    serde_json::to_string(&imp.list(&p)).expect("result")
}

/// The floor of `list_ticket_details`, as [`floor_list`].
pub fn floor_details(imp: &Impl, args: &str) -> String {
    let p: ListTicketDetailsParams = serde_json::from_str(args).expect("params");
    serde_json::to_string(&imp.list_details(&p)).expect("result")
}

/// What every group calls with: the runtime both sides run on (`block_on`, as the bench always
/// has), the caller, the 10 KB arguments, and one store of tickets per side and size, built
/// once, outside anything timed or counted.
pub struct Setup {
    pub rt: tokio::runtime::Runtime,
    pub ctx: CallContext,
    pub big_args: String,
    pub floor3: Impl,
    pub floor20: Impl,
    pub toolbox3: tb::BenchToolbox<Impl>,
    pub toolbox20: tb::BenchToolbox<Impl>,
}

impl Setup {
    pub fn new() -> Setup {
        Setup {
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .expect("runtime"),
            ctx: CallContext::new("bench").with_caller(
                toolc_runtime::Caller::new("ada")
                    .with_auth(toolc_runtime::AuthLevel::User)
                    .with_role("support"),
            ),
            big_args: big_args(),
            floor3: Impl::new(3),
            floor20: Impl::new(20),
            toolbox3: tb::BenchToolbox::new(Impl::new(3)),
            toolbox20: tb::BenchToolbox::new(Impl::new(20)),
        }
    }

    /// A full call through the generated toolbox: the text the host receives.
    pub fn full(&self, toolbox: &tb::BenchToolbox<Impl>, tool: &str, args: &str) -> Box<RawValue> {
        self.rt
            .block_on(async { toolbox.call_json(tool, args, &self.ctx).await.expect("ok") })
    }

    /// A floor ([`floor_list`] or [`floor_details`]) on the same runtime.
    pub fn floor(&self, floor: fn(&Impl, &str) -> String, imp: &Impl, args: &str) -> String {
        self.rt.block_on(async { floor(imp, args) })
    }
}
