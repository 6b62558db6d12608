//! One kind of call of `benches/dispatch.rs`, repeated `N` times: `calls <kind> <N>`.
//!
//! Criterion times a call; this counts what it does. `scripts/dispatch-instructions.sh` runs it
//! under callgrind with two values of `N` and gives the instructions of one call, the floor's
//! and the full call's side by side: a figure the load of a shared machine does not move.
//! The kinds are `floor_3`, `full_3`, `full_3_unvalidated`, `floor_20`, `full_20`,
//! `floor_200_nested`, `full_200_nested`, `floor_10kb` and `full_10kb`, the groups of
//! `benches/dispatch.rs`.

use std::process::ExitCode;

mod tickets;

use tickets::{ARGS, DETAIL_ARGS, Setup};

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
    let s = Setup::new();
    let full = |toolbox, tool, args| s.full(toolbox, tool, args).get().len();
    let floor = |f, imp, args| s.floor(f, imp, args).len();
    let one: Box<dyn Fn() -> usize> = match kind.as_str() {
        "floor_3" => Box::new(|| floor(tickets::floor_list, &s.floor3, ARGS)),
        "full_3" => Box::new(|| full(&s.toolbox3, "list_tickets", ARGS)),
        "full_3_unvalidated" => Box::new(|| full(&s.toolbox3, "list_tickets_unvalidated", ARGS)),
        "floor_20" => Box::new(|| floor(tickets::floor_list, &s.floor20, ARGS)),
        "full_20" => Box::new(|| full(&s.toolbox20, "list_tickets", ARGS)),
        "floor_200_nested" => Box::new(|| floor(tickets::floor_details, &s.floor3, DETAIL_ARGS)),
        "full_200_nested" => Box::new(|| full(&s.toolbox3, "list_ticket_details", DETAIL_ARGS)),
        "floor_10kb" => Box::new(|| floor(tickets::floor_list, &s.floor3, &s.big_args)),
        "full_10kb" => Box::new(|| full(&s.toolbox3, "list_tickets", &s.big_args)),
        other => {
            eprintln!("error: no call kind `{other}` (see the file's docs for the kinds)");
            return ExitCode::FAILURE;
        }
    };
    let written: usize = (0..n).map(|_| one()).sum();
    println!("{kind}: {n} calls, {written} bytes written");
    ExitCode::SUCCESS
}
