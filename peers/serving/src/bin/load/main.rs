//! The serving bench's load client: MCP servers side by side on the same calls.
//!
//! ```text
//! serving-load --data DATA.json --server NAME=COMMAND… [--rounds 3] [--clients 1,8,32]
//!              [--calls 6400] [--warmup 400] [--transports stdio,http] [--tool mix]
//!              [--baseline rmcp] [--lead toolc] [--out results.tsv] [--verbose]
//! ```
//!
//! Each server is a command to which `stdio` or `http PORT` is appended. For every round,
//! transport and number of clients N, every server is started afresh in turn (the order turns
//! by one each round), and N sessions call it at once, `--calls / N` calls each after
//! `--warmup / N` calls not timed: over stdio each session is a process of its own (as an MCP
//! host starts one per client); over HTTP all N sessions, each on its own keep-alive connection,
//! reach one process serving stateless streamable HTTP. Every answer is checked against the
//! data file. Measured: calls per second (all calls over the wall time from the first to the
//! last), each call's latency (p50, p99), the servers' peak resident set (`VmHWM`, summed over
//! the processes) and their CPU time per call. The table gives each figure's median over the
//! rounds, then each server's ratios to the baseline, and the lead server's to each other.

mod expect;
mod server;
mod session;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Barrier;

use expect::{Expect, Mix, check};
use server::{Spec, cpu_ticks, peak_rss_kib, stop};
use session::Session;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Transport {
    Stdio,
    Http,
}

impl Transport {
    fn name(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

struct Options {
    data: String,
    servers: Vec<Spec>,
    rounds: usize,
    clients: Vec<usize>,
    calls: usize,
    warmup: usize,
    transports: Vec<Transport>,
    mix: Mix,
    baseline: String,
    lead: String,
    out: Option<String>,
    verbose: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        data: String::new(),
        servers: Vec::new(),
        rounds: 3,
        clients: vec![1, 8, 32],
        calls: 6400,
        warmup: 400,
        transports: vec![Transport::Stdio, Transport::Http],
        mix: Mix::Both,
        baseline: "rmcp".to_owned(),
        lead: "toolc".to_owned(),
        out: None,
        verbose: false,
    };
    let mut args = std::env::args().skip(1);
    let number = |v: Option<String>, what: &str| -> Result<usize, String> {
        v.as_deref()
            .and_then(|v| v.parse().ok())
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{what} wants a positive number"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--data" => options.data = args.next().ok_or("--data wants a file")?,
            "--server" => options.servers.push(Spec::parse(
                &args.next().ok_or("--server wants NAME=COMMAND")?,
            )?),
            "--rounds" => options.rounds = number(args.next(), "--rounds")?,
            "--calls" => options.calls = number(args.next(), "--calls")?,
            "--warmup" => options.warmup = number(args.next(), "--warmup")?,
            "--clients" => {
                options.clients = args
                    .next()
                    .ok_or("--clients wants a list such as 1,8,32")?
                    .split(',')
                    .map(|n| number(Some(n.to_owned()), "--clients"))
                    .collect::<Result<_, _>>()?;
            }
            "--transports" => {
                options.transports = args
                    .next()
                    .ok_or("--transports wants stdio, http or both")?
                    .split(',')
                    .map(|t| match t {
                        "stdio" => Ok(Transport::Stdio),
                        "http" => Ok(Transport::Http),
                        other => Err(format!("unknown transport {other:?}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--tool" => {
                let tool = args
                    .next()
                    .ok_or("--tool wants mix, lookup_order or list_tickets")?;
                options.mix = Mix::parse(&tool).ok_or_else(|| {
                    format!("--tool wants mix, lookup_order or list_tickets, got {tool:?}")
                })?;
            }
            "--baseline" => options.baseline = args.next().ok_or("--baseline wants a name")?,
            "--lead" => options.lead = args.next().ok_or("--lead wants a name")?,
            "--out" => options.out = Some(args.next().ok_or("--out wants a file")?),
            "--verbose" => options.verbose = true,
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    if options.data.is_empty() || options.servers.is_empty() {
        return Err("name the data file (--data) and at least one --server".to_owned());
    }
    Ok(options)
}

/// One measurement: one server, transport and number of clients, in one round.
struct Cell {
    calls: usize,
    wall: Duration,
    latencies: Vec<Duration>,
    rss_kib: u64,
    cpu_ticks: u64,
}

impl Cell {
    fn calls_per_s(&self) -> f64 {
        self.calls as f64 / self.wall.as_secs_f64()
    }

    fn percentile(&self, p: f64) -> Duration {
        let i = ((self.latencies.len() as f64 * p).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[i - 1]
    }

    fn cpu_us_per_call(&self) -> f64 {
        self.cpu_ticks as f64 * 10_000.0 / self.calls as f64
    }
}

/// Runs `calls` calls (after `warmup`) in each of `sessions` at once; the latencies, and the
/// wall time from the barrier to the last answer.
async fn drive(
    sessions: Vec<Session>,
    calls: usize,
    warmup: usize,
    expect: &Arc<Expect>,
    pids: &[u32],
) -> Result<Cell, String> {
    let n = sessions.len();
    let barrier = Arc::new(Barrier::new(n + 1));
    let mut tasks = Vec::with_capacity(n);
    for (s, mut session) in sessions.into_iter().enumerate() {
        let barrier = Arc::clone(&barrier);
        let expect = Arc::clone(expect);
        tasks.push(tokio::spawn(async move {
            let ready = async {
                session.initialize().await?;
                for i in 0..warmup {
                    let call = expect.call(s, i);
                    check(call, &session.call(call.tool, &call.arguments).await?)?;
                }
                Ok::<_, String>(())
            }
            .await;
            barrier.wait().await;
            ready?;
            let mut latencies = Vec::with_capacity(calls);
            for i in warmup..warmup + calls {
                let call = expect.call(s, i);
                let start = Instant::now();
                let answer = session.call(call.tool, &call.arguments).await?;
                check(call, &answer)?;
                latencies.push(start.elapsed());
            }
            // The session is kept open until the servers' memory is read: a stdio server
            // exits when its input closes.
            Ok::<_, String>((latencies, session))
        }));
    }
    barrier.wait().await;
    let cpu_before: u64 = pids.iter().map(|&p| cpu_ticks(p)).sum();
    let start = Instant::now();
    let mut latencies = Vec::with_capacity(n * calls);
    let mut open = Vec::with_capacity(n);
    let mut failure = None;
    for task in tasks {
        match task.await {
            Ok(Ok((l, session))) => {
                latencies.extend(l);
                open.push(session);
            }
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(e) => failure = failure.or(Some(format!("a session panicked: {e}"))),
        }
    }
    let wall = start.elapsed();
    let cpu_after: u64 = pids.iter().map(|&p| cpu_ticks(p)).sum();
    if let Some(e) = failure {
        return Err(e);
    }
    let rss: Vec<u64> = pids.iter().filter_map(|&p| peak_rss_kib(p)).collect();
    if rss.len() != pids.len() {
        return Err(format!(
            "{} of {} server processes ended before their memory was read",
            pids.len() - rss.len(),
            pids.len()
        ));
    }
    drop(open);
    latencies.sort_unstable();
    Ok(Cell {
        calls: latencies.len(),
        wall,
        latencies,
        rss_kib: rss.iter().sum(),
        cpu_ticks: cpu_after.saturating_sub(cpu_before),
    })
}

async fn measure(
    spec: &Spec,
    transport: Transport,
    clients: usize,
    options: &Options,
    expect: &Arc<Expect>,
) -> Result<Cell, String> {
    let calls = (options.calls / clients).max(1);
    let warmup = (options.warmup / clients).max(2);
    match transport {
        Transport::Stdio => {
            let (mut children, sessions) = spec.spawn_stdio(clients, options.verbose)?;
            let pids: Vec<u32> = children.iter().filter_map(|c| c.id()).collect();
            let cell = drive(sessions, calls, warmup, expect, &pids).await;
            for child in &mut children {
                stop(child).await;
            }
            cell
        }
        Transport::Http => {
            let (mut child, port) = spec.spawn_http(options.verbose).await?;
            let pids: Vec<u32> = child.id().into_iter().collect();
            let mut sessions = Vec::with_capacity(clients);
            for _ in 0..clients {
                sessions.push(Session::http(port).await?);
            }
            let cell = drive(sessions, calls, warmup, expect, &pids).await;
            stop(&mut child).await;
            cell
        }
    }
}

/// The medians over the rounds of one server, transport and number of clients.
struct Summary {
    calls_per_s: f64,
    p50: Duration,
    p99: Duration,
    rss_mib: f64,
    cpu_us_per_call: f64,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if !n.is_multiple_of(2) {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn summarize(cells: &[Cell]) -> Summary {
    let of = |f: &dyn Fn(&Cell) -> f64| median(cells.iter().map(f).collect());
    Summary {
        calls_per_s: of(&Cell::calls_per_s),
        p50: Duration::from_secs_f64(of(&|c| c.percentile(0.50).as_secs_f64())),
        p99: Duration::from_secs_f64(of(&|c| c.percentile(0.99).as_secs_f64())),
        rss_mib: of(&|c| c.rss_kib as f64 / 1024.0),
        cpu_us_per_call: of(&Cell::cpu_us_per_call),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

type Key = (Transport, usize, String);

fn print_tables(options: &Options, results: &BTreeMap<Key, Vec<Cell>>) {
    let summaries: BTreeMap<&Key, Summary> = results
        .iter()
        .map(|(k, cells)| (k, summarize(cells)))
        .collect();
    let order: Vec<&str> = options.servers.iter().map(|s| s.name.as_str()).collect();
    println!(
        "\nmedians of {} rounds; {} calls per cell ({}), split among the clients\n",
        options.rounds,
        options.calls,
        options.mix.name()
    );
    println!(
        "| transport | clients | server | calls/s | p50 | p99 | peak RSS | server CPU per call |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for &transport in &options.transports {
        for &clients in &options.clients {
            for name in &order {
                let key = (transport, clients, (*name).to_owned());
                let Some(s) = summaries.get(&key) else {
                    continue;
                };
                println!(
                    "| {} | {clients} | {name} | {:.0} | {} | {} | {:.1} MiB | {:.0} µs |",
                    transport.name(),
                    s.calls_per_s,
                    ms(s.p50),
                    ms(s.p99),
                    s.rss_mib,
                    s.cpu_us_per_call
                );
            }
        }
    }
    let ratio_table = |title: &str, of: &str, to: &[&str], inverse: bool| {
        println!("\n{title}\n");
        let names: Vec<&&str> = to.iter().filter(|n| **n != of).collect();
        print!("| transport | clients |");
        for n in &names {
            print!(" {n}: calls/s | {n}: p99 |");
        }
        println!();
        print!("|---|---|");
        for _ in &names {
            print!("---|---|");
        }
        println!();
        for &transport in &options.transports {
            for &clients in &options.clients {
                let get = |n: &str| summaries.get(&(transport, clients, n.to_owned()));
                let Some(base) = get(of) else { continue };
                print!("| {} | {clients} |", transport.name());
                for n in &names {
                    match get(n) {
                        Some(s) if inverse => print!(
                            " {:.2}× | {:.2}× |",
                            base.calls_per_s / s.calls_per_s,
                            base.p99.as_secs_f64() / s.p99.as_secs_f64()
                        ),
                        Some(s) => print!(
                            " {:.2}× | {:.2}× |",
                            s.calls_per_s / base.calls_per_s,
                            s.p99.as_secs_f64() / base.p99.as_secs_f64()
                        ),
                        None => print!(" – | – |"),
                    }
                }
                println!();
            }
        }
    };
    if order.contains(&options.baseline.as_str()) {
        ratio_table(
            &format!(
                "each server / {} (calls/s: higher is faster; p99: lower is faster)",
                options.baseline
            ),
            &options.baseline,
            &order,
            false,
        );
    }
    if order.contains(&options.lead.as_str()) {
        ratio_table(
            &format!("{} / each server", options.lead),
            &options.lead,
            &order,
            true,
        );
    }
}

async fn run(options: Options) -> Result<(), String> {
    let text = std::fs::read_to_string(&options.data)
        .map_err(|e| format!("cannot read {}: {e}", options.data))?;
    let data: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", options.data))?;
    let expect = Arc::new(Expect::new(&data, options.mix)?);
    let mut results: BTreeMap<Key, Vec<Cell>> = BTreeMap::new();
    let mut rows = String::from(
        "round\ttransport\tclients\tserver\tcalls\twall_s\tcalls_per_s\tp50_us\tp99_us\tpeak_rss_kib\tcpu_us_per_call\n",
    );
    for round in 0..options.rounds {
        let n = options.servers.len();
        let order: Vec<&Spec> = (0..n).map(|i| &options.servers[(i + round) % n]).collect();
        for &transport in &options.transports {
            for &clients in &options.clients {
                for spec in &order {
                    let cell = measure(spec, transport, clients, &options, &expect)
                        .await
                        .map_err(|e| {
                            format!(
                                "{} over {} with {clients} clients: {e}",
                                spec.name,
                                transport.name()
                            )
                        })?;
                    eprintln!(
                        "round {} {:5} {:2} clients {:8} {:8.0} calls/s  p50 {:>9}  p99 {:>9}  {:7.1} MiB  {:5.0} µs CPU/call",
                        round + 1,
                        transport.name(),
                        clients,
                        spec.name,
                        cell.calls_per_s(),
                        ms(cell.percentile(0.5)),
                        ms(cell.percentile(0.99)),
                        cell.rss_kib as f64 / 1024.0,
                        cell.cpu_us_per_call()
                    );
                    rows.push_str(&format!(
                        "{}\t{}\t{clients}\t{}\t{}\t{:.4}\t{:.1}\t{}\t{}\t{}\t{:.1}\n",
                        round + 1,
                        transport.name(),
                        spec.name,
                        cell.calls,
                        cell.wall.as_secs_f64(),
                        cell.calls_per_s(),
                        cell.percentile(0.5).as_micros(),
                        cell.percentile(0.99).as_micros(),
                        cell.rss_kib,
                        cell.cpu_us_per_call()
                    ));
                    results
                        .entry((transport, clients, spec.name.clone()))
                        .or_default()
                        .push(cell);
                }
            }
        }
    }
    if let Some(out) = &options.out {
        std::fs::write(out, rows).map_err(|e| format!("cannot write {out}: {e}"))?;
    }
    print_tables(&options, &results);
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("serving-load: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("serving-load: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("serving-load: {e}");
            ExitCode::FAILURE
        }
    }
}
