//! load + resolve of a generated 1,000-tool manifest, against the floor of
//! parsing the same YAML into an untyped value.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths = common::write_toolset(dir.path(), 1000);
    let path = paths[0].clone();
    let mut g = c.benchmark_group("load_resolve_1000_tools");
    g.sample_size(20);
    g.bench_function("toolc_check", |b| {
        b.iter(|| {
            let checked = toolc::check(&paths, &Default::default());
            assert!(!checked.diagnostics.has_errors());
            checked
        })
    });
    g.bench_function("floor_yaml_to_json_value", |b| {
        b.iter(|| {
            let text = std::fs::read_to_string(&path).expect("read");
            serde_saphyr::from_str::<serde_json::Value>(&text).expect("parse")
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
