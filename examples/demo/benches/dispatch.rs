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
use toolc_runtime::Toolbox;

mod tickets;

use tickets::{ARGS, DETAIL_ARGS, Impl, Setup, tb};

fn bench(c: &mut Criterion) {
    let s = Setup::new();
    let example = toolc_example::support_desk();
    let (rt, ctx) = (&s.rt, &s.ctx);
    let (floor3, floor20, toolbox3, toolbox20) = (&s.floor3, &s.floor20, &s.toolbox3, &s.toolbox20);
    let big_args = &s.big_args;
    let floor = |imp: &Impl, args: &str| s.floor(tickets::floor_list, imp, args);
    let full =
        |toolbox: &tb::BenchToolbox<Impl>, tool: &str, args: &str| s.full(toolbox, tool, args);

    let mut g = c.benchmark_group("dispatch_list_tickets");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(floor3, ARGS))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(toolbox3, "list_tickets", ARGS))
    });
    g.bench_function("full_call_return_validation_off", |b| {
        b.iter(|| full(toolbox3, "list_tickets_unvalidated", ARGS))
    });
    g.bench_function("full_call_as_value", |b| {
        b.iter(|| {
            rt.block_on(async {
                let v = toolbox3.call("list_tickets", ARGS, ctx).await.expect("ok");
                serde_json::to_string(&v).expect("text")
            })
        })
    });
    g.bench_function("example_agent_with_policies", |b| {
        b.iter(|| {
            rt.block_on(async {
                example
                    .call_json("list_tickets", ARGS, ctx)
                    .await
                    .expect("ok")
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_list_tickets_20");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(floor20, ARGS))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(toolbox20, "list_tickets", ARGS))
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_ticket_details_200_nested");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| s.floor(tickets::floor_details, floor3, DETAIL_ARGS))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(toolbox3, "list_ticket_details", DETAIL_ARGS))
    });
    g.finish();

    let mut g = c.benchmark_group("dispatch_list_tickets_10kb_arguments");
    g.bench_function("floor_serde_parse_and_serialize", |b| {
        b.iter(|| floor(floor3, big_args))
    });
    g.bench_function("full_call_validation_on", |b| {
        b.iter(|| full(toolbox3, "list_tickets", big_args))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
