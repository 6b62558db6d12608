//! The whole compile, load → resolve → lower → emit → write, for synthetic toolsets
//! of 100, 1,000 and 10,000 tools, to show how the cost grows. The baseline
//! in each group is reading and parsing the same YAML into an untyped value.

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::path::PathBuf;

fn compile_to(paths: &[PathBuf], out: &std::path::Path) {
    let checked = toolc::check(paths, &Default::default());
    assert!(!checked.diagnostics.has_errors());
    let lowered = toolc::lower::lower(&checked.toolset, &[], Default::default());
    let rust = toolc::emit::rust::generate(&checked.toolset, &lowered, &Default::default())
        .expect("generates");
    let docs = toolc::emit::docs::reference(&checked.toolset).expect("renders");
    toolc::write::write_all(
        out,
        &[
            toolc::write::Output {
                path: "toolset.rs".into(),
                contents: rust,
            },
            toolc::write::Output {
                path: "reference.md".into(),
                contents: docs,
            },
        ],
        &[],
    )
    .expect("writes");
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

    // Where the time of a 1,000-tool compile goes, stage by stage.
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = common::write_toolset(dir.path(), 1_000);
    let checked = toolc::check(&paths, &Default::default());
    let mut g = c.benchmark_group("compile_stages_1000");
    g.sample_size(10);
    g.bench_function("load_resolve", |b| {
        b.iter(|| toolc::check(&paths, &Default::default()))
    });
    let dialects = toolc::Dialect::DEFAULT;
    let settings = toolc::lint::LintSettings::for_dialects(&dialects);
    g.bench_function("lower_default_dialects", |b| {
        b.iter(|| toolc::lower::lower(&checked.toolset, &dialects, Default::default()))
    });
    let lowered = toolc::lower::lower(&checked.toolset, &dialects, Default::default());
    g.bench_function("lint_default_dialects", |b| {
        b.iter(|| toolc::lint::lint_toolset(&checked.toolset, &lowered, &settings))
    });
    // Part of lowering: each agent's tool-search index, which emit writes and lint reads.
    g.bench_function("search_indexes", |b| {
        b.iter(|| {
            checked
                .toolset
                .agents
                .iter()
                .map(|a| toolc::lower::search::agent_index(&checked.toolset, &lowered.tools, a))
                .collect::<Vec<_>>()
        })
    });
    // The dialect-independent rules alone, `indistinguishable-tools` among them.
    let independent = toolc::lint::LintSettings::for_dialects(&[]);
    g.bench_function("lint_no_dialect", |b| {
        b.iter(|| toolc::lint::lint_toolset(&checked.toolset, &lowered, &independent))
    });
    g.bench_function("emit_rust", |b| {
        b.iter(|| {
            toolc::emit::rust::generate(&checked.toolset, &lowered, &Default::default())
                .expect("generates")
        })
    });
    g.bench_function("emit_docs", |b| {
        b.iter(|| toolc::emit::docs::reference(&checked.toolset).expect("renders"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
