//! The calls of `benches/dispatch.rs`, one group at a time, outside criterion.
//!
//! - `calls <kind> <N>`: one kind of call repeated `N` times. Criterion times a call; this
//!   counts what it does: `scripts/dispatch-instructions.sh` runs it under callgrind with two
//!   values of `N` and gives the instructions of one call, the floor's and the full call's side
//!   by side, a figure the load of a shared machine does not move. The kinds are `floor_3`,
//!   `full_3`, `full_3_unvalidated`, `floor_20`, `full_20`, `floor_200_nested`,
//!   `full_200_nested`, `floor_10kb` and `full_10kb`, the groups of `benches/dispatch.rs`.
//! - `calls paired <group> <BLOCKS>`: the floor and the full call of one group (`3`, `20`,
//!   `200_nested` or `10kb`) timed in alternating blocks of calls, each block long enough to
//!   read the clock once (about 100 µs), the order swapped every block. Criterion times the
//!   floor, then the full call seconds later, and a shared machine's speed moves in between;
//!   here each block's ratio is taken against a floor measured within the same millisecond.
//!   Prints the median time of a call on each side and the median ratio, with the 10th and
//!   90th percentiles of the ratios (`scripts/dispatch-paired.sh` runs every group).

use std::process::ExitCode;
use std::time::Instant;

mod tickets;

use tickets::{ARGS, DETAIL_ARGS, Setup};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "calls <kind> <N> | calls paired <group> <BLOCKS> (see the file's docs)";
    // `cargo bench` runs every bench with `--bench`: nothing to count then.
    if args.is_empty() || args.iter().any(|a| a == "--bench") {
        eprintln!("usage: {usage}");
        return ExitCode::SUCCESS;
    }
    let number = |n: &String| n.parse::<usize>().ok().filter(|&n| n > 0);
    let s = Setup::new();
    let (kind, n) = match args.as_slice() {
        [mode, group, blocks] if mode == "paired" => {
            let Some(blocks) = number(blocks) else {
                eprintln!("error: BLOCKS must be a positive number, not `{blocks}`: {usage}");
                return ExitCode::FAILURE;
            };
            let (Some(floor), Some(full)) = (
                call(&s, &format!("floor_{group}")),
                call(&s, &format!("full_{group}")),
            ) else {
                eprintln!("error: no group `{group}` (the groups are 3, 20, 200_nested and 10kb)");
                return ExitCode::FAILURE;
            };
            paired(group, &*floor, &*full, blocks);
            return ExitCode::SUCCESS;
        }
        [kind, n] => match number(n) {
            Some(n) => (kind, n),
            None => {
                eprintln!("error: N must be a positive number, not `{n}`: {usage}");
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("error: {usage}");
            return ExitCode::FAILURE;
        }
    };
    let Some(one) = call(&s, kind) else {
        eprintln!("error: no call kind `{kind}` (see the file's docs for the kinds)");
        return ExitCode::FAILURE;
    };
    let written: usize = (0..n).map(|_| one()).sum();
    println!("{kind}: {n} calls, {written} bytes written");
    ExitCode::SUCCESS
}

/// One call of `kind`, answering the length of what it wrote.
fn call<'s>(s: &'s Setup, kind: &str) -> Option<Box<dyn Fn() -> usize + 's>> {
    let full = move |toolbox, tool, args| s.full(toolbox, tool, args).get().len();
    let floor = move |f, imp, args| s.floor(f, imp, args).len();
    Some(match kind {
        "floor_3" => Box::new(move || floor(tickets::floor_list, &s.floor3, ARGS)),
        "full_3" => Box::new(move || full(&s.toolbox3, "list_tickets", ARGS)),
        "full_3_unvalidated" => {
            Box::new(move || full(&s.toolbox3, "list_tickets_unvalidated", ARGS))
        }
        "floor_20" => Box::new(move || floor(tickets::floor_list, &s.floor20, ARGS)),
        "full_20" => Box::new(move || full(&s.toolbox20, "list_tickets", ARGS)),
        "floor_200_nested" => {
            Box::new(move || floor(tickets::floor_details, &s.floor3, DETAIL_ARGS))
        }
        "full_200_nested" => {
            Box::new(move || full(&s.toolbox3, "list_ticket_details", DETAIL_ARGS))
        }
        "floor_10kb" => Box::new(move || floor(tickets::floor_list, &s.floor3, &s.big_args)),
        "full_10kb" => Box::new(move || full(&s.toolbox3, "list_tickets", &s.big_args)),
        _ => return None,
    })
}

/// Times `floor` and `full` in `blocks` alternating blocks and prints the medians.
fn paired(group: &str, floor: &dyn Fn() -> usize, full: &dyn Fn() -> usize, blocks: usize) {
    // Warm both up for 200 ms, and size a block to about 100 µs of the floor from the floor's
    // share of that time.
    let start = Instant::now();
    let mut pairs: u128 = 0;
    while start.elapsed().as_millis() < 200 {
        std::hint::black_box(floor());
        std::hint::black_box(full());
        pairs += 1;
    }
    let start = Instant::now();
    for _ in 0..pairs.div_ceil(4) {
        std::hint::black_box(floor());
    }
    let per_call = (start.elapsed().as_nanos() / pairs.div_ceil(4)).max(1);
    let calls = usize::try_from((100_000 / per_call).clamp(1, 10_000)).unwrap_or(1);
    let time = |f: &dyn Fn() -> usize| {
        let start = Instant::now();
        for _ in 0..calls {
            std::hint::black_box(f());
        }
        start.elapsed().as_nanos() as f64 / calls as f64
    };
    let (mut floors, mut fulls, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for block in 0..blocks {
        let (a, b) = if block % 2 == 0 {
            let a = time(floor);
            (a, time(full))
        } else {
            let b = time(full);
            (time(floor), b)
        };
        floors.push(a);
        fulls.push(b);
        ratios.push(b / a);
    }
    let at = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q).round() as usize]
    };
    println!(
        "{group}: floor {:.1} ns, full call {:.1} ns, ratio {:.3} (10th to 90th percentile {:.3} to {:.3}; {blocks} blocks of {calls} calls)",
        at(&mut floors, 0.5),
        at(&mut fulls, 0.5),
        at(&mut ratios, 0.5),
        at(&mut ratios, 0.1),
        at(&mut ratios, 0.9),
    );
}
