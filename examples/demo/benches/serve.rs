//! `toolc serve --mock` beside the example's generated server, under the same load: the
//! `support-desk` agent of `manifests/`, served over streamable HTTP without sessions, state in
//! memory, by
//!
//! - `mcp-server support-desk` (this crate's binary: the generated code and its handlers);
//! - `toolc serve manifests --agent support-desk --mock` (no Rust: `lookup_order` answered by
//!   its example's result);
//! - the same, on a copy of the manifests whose `lookup_order` has no example, so that each
//!   call answers a value generated from `returns` and validated against it.
//!
//! The load is `replicas.rs`'s baseline: 32 clients, each on its own keep-alive connection, call
//! `lookup_order` 250 times each at once (8,000 calls), every answer checked. The three servers
//! take turns, ROUNDS times, in one run; it prints the median calls per second (and the
//! range), p50 and p99 of each.
//!
//! ```sh
//! cargo build --profile bench -p toolc --bin toolc && cargo bench -p toolc-example --bench serve
//! ```
//!
//! `toolc` is the build beside this bench's (`target/release/toolc`, which that first command
//! makes), or `$TOOLC_BIN`; without one the bench skips, saying so.

mod load;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use load::{CALLS_PER_CLIENT, CLIENTS, Children, Measured, ms, throughput};
use serde_json::{Value, json};

const ROUNDS: usize = 5;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `toolc` to measure: `$TOOLC_BIN`, or the one built beside this bench.
fn toolc() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TOOLC_BIN") {
        return Some(PathBuf::from(path));
    }
    // This bench runs from `target/release/deps/`.
    let beside = std::env::current_exe()
        .ok()?
        .parent()?
        .parent()?
        .join("toolc");
    beside.is_file().then_some(beside)
}

/// `from` copied into `to`, folders and all.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a folder to copy") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("a copy");
        }
    }
}

/// A copy of `manifests/` in `work` whose `lookup_order` has no example.
fn without_example(work: &Path) -> PathBuf {
    let dir = work.join("manifests");
    copy(&root().join("manifests"), &dir);
    let orders = dir.join("orders.toml");
    let text = std::fs::read_to_string(&orders).expect("orders.toml");
    let example = "[[toolboxes.orders.tools.lookup_order.examples]]\n\
                   arguments = { order_id = \"A-1001\" }\n\
                   result = { order_id = \"A-1001\", status = \"in_transit\" }\n";
    assert!(
        text.contains(example),
        "manifests/orders.toml no longer holds lookup_order's example as this bench expects"
    );
    std::fs::write(&orders, text.replace(example, "")).expect("orders.toml written");
    dir
}

fn toolc_serve(toolc: &Path, manifests: &Path) -> Command {
    let mut command = Command::new(toolc);
    command
        .arg("serve")
        .arg(manifests)
        .args(["--agent", "support-desk", "--mock", "--http", "127.0.0.1:0"])
        .args(["--stateless", "--max-concurrent-calls", "64"])
        // The caller: past the agent's policies, as the example's below.
        .args(["--caller", "bench", "--auth", "user", "--role", "support"]);
    command
}

fn mcp_server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-server"));
    command
        .args(["support-desk", "--http", "127.0.0.1:0"])
        .env("TOOLC_STATELESS", "true")
        .env("TOOLC_MAX_CONCURRENT_CALLS", "64")
        .env("TOOLC_CALLER", "bench")
        .env("TOOLC_AUTH", "user")
        .env("TOOLC_ROLES", "support");
    command
}

fn median<T: PartialOrd + Copy>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    // `cargo bench` passes `--bench` (and any filter); this bench has one case and reads none.
    let Some(toolc) = toolc() else {
        println!(
            "serve: skipped: no toolc beside this bench; build it first: \
             cargo build --profile bench -p toolc --bin toolc (or set TOOLC_BIN)"
        );
        return;
    };
    let work = std::env::temp_dir().join(format!("toolc-bench-serve-{}", std::process::id()));
    let generated = without_example(&work);

    let mut children = Children(Vec::new());
    let example = load::start(&mut children, mcp_server()).await;
    let mocked = load::start(
        &mut children,
        toolc_serve(&toolc, &root().join("manifests")),
    )
    .await;
    let generating = load::start(&mut children, toolc_serve(&toolc, &generated)).await;

    // What each answers: the example's handler echoes the order as `placed`; the mock answers
    // the example's result; a generated answer is one `returns` admits.
    let servers: [(&str, _, load::Check); 3] = [
        (
            "mcp-server (generated code)",
            example,
            Arc::new(|order, answer| *answer == json!({"order_id": order, "status": "placed"})),
        ),
        (
            "toolc serve --mock (the example's result)",
            mocked,
            Arc::new(|_, answer| *answer == json!({"order_id": "A-1001", "status": "in_transit"})),
        ),
        (
            "toolc serve --mock (a value generated from returns)",
            generating,
            Arc::new(|_, answer| {
                answer["order_id"].is_string()
                    && ["placed", "in_transit", "delivered"]
                        .map(Value::from)
                        .contains(&answer["status"])
            }),
        ),
    ];
    let mut measured: Vec<Vec<Measured>> = servers.iter().map(|_| Vec::new()).collect();
    for _ in 0..ROUNDS {
        for (i, (_, addr, right)) in servers.iter().enumerate() {
            measured[i].push(throughput(*addr, &vec![None; CLIENTS], Arc::clone(right)).await);
        }
    }

    println!(
        "serve: {CLIENTS} clients, {CALLS_PER_CLIENT} calls each of lookup_order, \
         {ROUNDS} rounds taken in turn; medians"
    );
    println!("| server | calls | wrong answers | calls/s (median; range) | p50 | p99 |");
    println!("|---|---|---|---|---|---|");
    let mut wrong = 0;
    for ((name, ..), rounds) in servers.iter().zip(&measured) {
        let per_second: Vec<f64> = rounds.iter().map(|m| m.per_second).collect();
        let low = per_second.iter().copied().fold(f64::INFINITY, f64::min);
        let high = per_second.iter().copied().fold(0.0, f64::max);
        let p50 = median(rounds.iter().map(|m| m.p50).collect());
        let p99 = median(rounds.iter().map(|m| m.p99).collect());
        let calls: usize = rounds.iter().map(|m| m.calls).sum();
        let w: usize = rounds.iter().map(|m| m.wrong).sum();
        wrong += w;
        println!(
            "| {name} | {calls} | {w} | {:.0} ({low:.0} – {high:.0}) | {} | {} |",
            median(per_second),
            ms(p50),
            ms(p99),
        );
    }
    assert_eq!(wrong, 0, "wrong answers");
    drop(children);
    let _ = std::fs::remove_dir_all(&work);
}
