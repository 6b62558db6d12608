//! A full tool call through generated code (argument text → typed params → handler → result
//! text, validation on) against the floor: parsing the params struct with serde_json, the same
//! handler, and serializing the result, in one group.
//!
//! The tickets are built once, outside the timed closures, on both sides: each call (floor or
//! full) clones the ones it returns, as a handler serving them from memory does.
//!
//! Groups: 3 and 20 tickets returned, 200 tickets with nested objects (a customer, tags,
//! comments) returned, and a 10 KB argument payload.

use criterion::{Criterion, criterion_group, criterion_main};
use toolc_runtime::{CallContext, HandlerError, ToolContext, Toolbox};

mod bench_toolset {
    toolc_runtime::include_toolset!("bench_toolset");
}

use bench_toolset::toolboxes::bench as tb;
use bench_toolset::types::{
    Comment, Customer, CustomerTier, ListTicketDetailsParams, ListTicketsParams, Ticket,
    TicketDetail, TicketDetailPriority, TicketDetailStatus, TicketPriority, TicketStatus,
};

fn tickets(n: usize) -> Vec<Ticket> {
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

fn details(n: usize) -> Vec<TicketDetail> {
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

struct Impl {
    tickets: Vec<Ticket>,
    details: Vec<TicketDetail>,
}

impl Impl {
    fn new(n: usize) -> Impl {
        Impl {
            tickets: tickets(n),
            details: details(200),
        }
    }

    fn list(&self, p: &ListTicketsParams) -> Vec<Ticket> {
        self.tickets
            .iter()
            .filter(|t| p.status.is_none_or(|s| s as u8 == t.status as u8))
            .take(usize::try_from(p.limit).unwrap_or(usize::MAX))
            .cloned()
            .collect()
    }

    fn list_details(&self, p: &ListTicketDetailsParams) -> Vec<TicketDetail> {
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
    ) -> Result<Vec<Ticket>, HandlerError> {
        Ok(self.list(&p))
    }

    async fn list_ticket_details(
        &self,
        p: ListTicketDetailsParams,
        _: &ToolContext<'_, tb::Scope>,
    ) -> Result<Vec<TicketDetail>, HandlerError> {
        Ok(self.list_details(&p))
    }
}

const ARGS: &str = r#"{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "limit": 20}"#;
const DETAIL_ARGS: &str = r#"{"limit": 200}"#;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let example = toolc_example::support_desk();
    let ctx = CallContext::new("bench").with_caller(
        toolc_runtime::Caller::new("ada")
            .with_auth(toolc_runtime::AuthLevel::User)
            .with_role("support"),
    );
    let big_args = format!(
        r#"{{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "limit": 20, "query": "{}"}}"#,
        "x".repeat(10 * 1024)
    );

    // One store of tickets per side and size, built here, outside every timed closure.
    let floor3 = Impl::new(3);
    let floor20 = Impl::new(20);
    let toolbox3 = tb::BenchToolbox::new(Impl::new(3));
    let toolbox20 = tb::BenchToolbox::new(Impl::new(20));
    // Both sides run on the runtime (`block_on`), as the bench always has.
    let floor = |imp: &Impl, args: &str| {
        rt.block_on(async {
            let p: ListTicketsParams = serde_json::from_str(args).expect("params");
            serde_json::to_string(&imp.list(&p)).expect("result")
        })
    };
    let full = |toolbox: &tb::BenchToolbox<Impl>, tool: &str, args: &str| {
        rt.block_on(async { toolbox.call_json(tool, args, &ctx).await.expect("ok") })
    };

    let mut g = c.benchmark_group("dispatch_list_tickets");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(&floor3, ARGS))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(&toolbox3, "list_tickets", ARGS))
    });
    g.bench_function("full_call_return_validation_off", |b| {
        b.iter(|| full(&toolbox3, "list_tickets_unvalidated", ARGS))
    });
    g.bench_function("full_call_as_value", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = toolbox3.call("list_tickets", ARGS, &ctx).await.expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.bench_function("example_agent_with_policies", |b| {
        b.iter(|| {
            rt.block_on(async {
                example
                    .call_json("list_tickets", ARGS, &ctx)
                    .await
                    .expect("ok")
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_list_tickets_20");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(&floor20, ARGS))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(&toolbox20, "list_tickets", ARGS))
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_ticket_details_200_nested");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| {
            rt.block_on(async {
                let p: ListTicketDetailsParams = serde_json::from_str(DETAIL_ARGS).expect("params");
                serde_json::to_string(&floor3.list_details(&p)).expect("result")
            })
        })
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(&toolbox3, "list_ticket_details", DETAIL_ARGS))
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_list_tickets_10kb_arguments");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(&floor3, &big_args))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(&toolbox3, "list_tickets", &big_args))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
