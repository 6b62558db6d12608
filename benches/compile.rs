//! The whole compile as a build script runs it with no dialect linted, load → resolve → lower
//! (MCP's form and the search indexes) → emit Rust → write, for synthetic toolsets of 100, 1,000
//! and 10,000 tools, to show how the cost grows. The baseline in each group is reading and
//! parsing the same YAML into an untyped value. Then the parts of a 1,000-tool compile, through
//! the public entry points that stop after each.

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::path::PathBuf;

/// What `toolc::compile` does with no dialect to lint, into `out`: the Rust file written.
fn compile_to(paths: &[PathBuf], out: &std::path::Path) {
    toolc::configure()
        .manifests(paths)
        .out_dir(out)
        .dialects(Vec::<&str>::new())
        .cargo_instructions(false)
        .compile()
        .expect("compiles");
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("compile");
    g.sample_size(10);
    for n in [100usize, 1_000, 10_000] {
        let dir = tempfile::tempdir().expect("temp dir");
        let paths = common::write_toolset(dir.path(), n);
        let out = dir.path().join("out");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("toolc_load_to_write", n), &n, |b, _| {
            // A fresh output folder each time would measure the file system;
            // removing the outputs makes every write a real write.
            b.iter(|| {
                let _ = std::fs::remove_dir_all(&out);
                compile_to(&paths, &out)
            })
        });
        g.bench_with_input(BenchmarkId::new("baseline_parse_yaml", n), &n, |b, _| {
            b.iter(|| {
                for path in &paths {
                    let text = std::fs::read_to_string(path).expect("read");
                    serde_saphyr::from_str::<serde_json::Value>(&text).expect("parse");
                }
            })
        });
    }
    g.finish();

    // Where the time of a 1,000-tool compile goes: each public entry point stops after a stage.
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = common::write_toolset(dir.path(), 1_000);
    let mut g = c.benchmark_group("compile_stages_1000");
    g.sample_size(10);
    g.bench_function("load_resolve", |b| {
        b.iter(|| toolc::check(&paths, &Default::default()))
    });
    // load + resolve, then lowering into the default dialects (each agent's tool-search index
    // with it) and their lint: `toolc lint`.
    g.bench_function("load_to_lint_default_dialects", |b| {
        b.iter(|| toolc::analyze(&paths, &Default::default()))
    });
    // The synthetic tools check cleanly; what the lint finds in them does not stop the emitters.
    assert!(
        !toolc::check(&paths, &Default::default())
            .diagnostics
            .has_errors()
    );
    let analysis = toolc::analyze(&paths, &Default::default());
    g.bench_function("emit_rust", |b| {
        b.iter(|| analysis.rust().expect("generates"))
    });
    g.bench_function("emit_docs", |b| {
        b.iter(|| analysis.reference().expect("renders"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
