//! One kind of call of `benches/dispatch.rs`, repeated `N` times: `calls <kind> <N>`.
//!
//! Criterion times a call; this counts what it does. `scripts/dispatch-instructions.sh` runs it
//! under callgrind with two values of `N` and gives the instructions of one call, the floor's
//! and the full call's side by side: a figure the load of a shared machine does not move.
//! The kinds are `floor_3`, `full_3`, `full_3_unvalidated`, `floor_20`, `full_20`,
//! `floor_200_nested`, `full_200_nested`, `floor_10kb` and `full_10kb`, the groups of
//! `benches/dispatch.rs`.

use std::process::ExitCode;

use toolc_runtime::{CallContext, Toolbox};

mod tickets;

use tickets::{ARGS, DETAIL_ARGS, Impl, tb};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` runs every bench with `--bench`: nothing to count then.
    if args.is_empty() || args.iter().any(|a| a == "--bench") {
        eprintln!("usage: calls <kind> <N> (see the file's docs for the kinds)");
        return ExitCode::SUCCESS;
    }
    let (Some(kind), Some(n)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("error: expected a kind and a number of calls: calls <kind> <N>");
        return ExitCode::FAILURE;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let ctx = CallContext::new("bench").with_caller(
        toolc_runtime::Caller::new("ada")
            .with_auth(toolc_runtime::AuthLevel::User)
            .with_role("support"),
    );
    let big_args = tickets::big_args();
    let floor3 = Impl::new(3);
    let floor20 = Impl::new(20);
    let toolbox3 = tb::BenchToolbox::new(Impl::new(3));
    let toolbox20 = tb::BenchToolbox::new(Impl::new(20));
    let full = |toolbox: &tb::BenchToolbox<Impl>, tool: &str, args: &str| {
        rt.block_on(async { toolbox.call_json(tool, args, &ctx).await.expect("ok") })
            .get()
            .len()
    };
    let floor = |f: fn(&Impl, &str) -> String, imp: &Impl, args: &str| {
        rt.block_on(async { f(imp, args) }).len()
    };
    let one: Box<dyn Fn() -> usize> = match kind.as_str() {
        "floor_3" => Box::new(|| floor(tickets::floor_list, &floor3, ARGS)),
        "full_3" => Box::new(|| full(&toolbox3, "list_tickets", ARGS)),
        "full_3_unvalidated" => Box::new(|| full(&toolbox3, "list_tickets_unvalidated", ARGS)),
        "floor_20" => Box::new(|| floor(tickets::floor_list, &floor20, ARGS)),
        "full_20" => Box::new(|| full(&toolbox20, "list_tickets", ARGS)),
        "floor_200_nested" => Box::new(|| floor(tickets::floor_details, &floor3, DETAIL_ARGS)),
        "full_200_nested" => Box::new(|| full(&toolbox3, "list_ticket_details", DETAIL_ARGS)),
        "floor_10kb" => Box::new(|| floor(tickets::floor_list, &floor3, &big_args)),
        "full_10kb" => Box::new(|| full(&toolbox3, "list_tickets", &big_args)),
        other => {
            eprintln!("error: no call kind `{other}` (see the file's docs for the kinds)");
            return ExitCode::FAILURE;
        }
    };
    let written: usize = (0..n).map(|_| one()).sum();
    println!("{kind}: {n} calls, {written} bytes written");
    ExitCode::SUCCESS
}
