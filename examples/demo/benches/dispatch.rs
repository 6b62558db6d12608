//! A full tool call through generated code (argument text → typed params →
//! handler → result text, validation on) against the floor: parsing the
//! params struct with serde_json and serializing the result, in one group.

use criterion::{Criterion, criterion_group, criterion_main};
use toolc_runtime::{CallContext, HandlerError, ToolContext, Toolbox};

mod bench_toolset {
    toolc_runtime::include_toolset!("bench_toolset");
}

use bench_toolset::toolboxes::bench as tb;
use bench_toolset::types::{ListTicketsParams, Ticket, TicketPriority, TicketStatus};

fn tickets() -> Vec<Ticket> {
    let t = |id: &str, subject: &str, status, priority| Ticket {
        id: id.into(),
        subject: subject.into(),
        status,
        priority,
    };
    vec![
        t(
            "T-1",
            "Cannot log in",
            TicketStatus::Open,
            TicketPriority::High,
        ),
        t(
            "T-2",
            "Invoice is wrong",
            TicketStatus::Pending,
            TicketPriority::Medium,
        ),
        t(
            "T-3",
            "Feature request",
            TicketStatus::Open,
            TicketPriority::Low,
        ),
    ]
}

struct Impl(Vec<Ticket>);

impl Impl {
    fn list(&self, p: &ListTicketsParams) -> Vec<Ticket> {
        self.0
            .iter()
            .filter(|t| p.status.is_none_or(|s| s as u8 == t.status as u8))
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
}

const ARGS: &str = r#"{"customerId": "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e", "limit": 20}"#;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let toolbox = tb::BenchToolbox::new(Impl(tickets()));
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
    let floor = |args: &str| {
        let p: ListTicketsParams = serde_json::from_str(args).expect("params");
        let r = Impl(tickets()).list(&p);
        serde_json::to_string(&r).expect("result")
    };

    let mut g = c.benchmark_group("dispatch_list_tickets");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| rt.block_on(async { floor(ARGS) }))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = toolbox.call("list_tickets", ARGS, &ctx).await.expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.bench_function("full_call_return_validation_off", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = toolbox
                    .call("list_tickets_unvalidated", ARGS, &ctx)
                    .await
                    .expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.bench_function("example_agent_with_policies", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = example.call("list_tickets", ARGS, &ctx).await.expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_list_tickets_10kb_arguments");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| rt.block_on(async { floor(&big_args) }))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = toolbox
                    .call("list_tickets", &big_args, &ctx)
                    .await
                    .expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
