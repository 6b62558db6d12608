//! load + resolve of a generated 1,000-tool manifest, against the floor of
//! parsing the same YAML into an untyped value.

use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;

/// A toolbox of `n` tools, each with a parameters schema, a named return
/// type, policies and an example: a realistic manifest, scaled.
fn manifest(n: usize) -> String {
    let mut s = String::from(
        "version: 1\ntypes:\n  Item:\n    type: object\n    properties:\n      id: { type: string }\n      count: { type: integer, minimum: 0 }\n    required: [id, count]\ntoolboxes:\n  bench:\n    description: Generated tools\n    tools:\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "      tool_{i}:\n        description: Tool number {i}\n        auth: user\n        roles: [ops]\n        rate_limit: 10/min\n        timeout_ms: 5000\n        parameters:\n          type: object\n          properties:\n            id: {{ type: string, description: The id }}\n            limit: {{ type: integer, minimum: 1, maximum: 100, default: 20 }}\n          required: [id]\n        returns: {{ $ref: \"#/types/Item\" }}\n        examples:\n          - arguments: {{ id: x{i}, limit: 5 }}\n            result: {{ id: x{i}, count: 1 }}\n"
        ));
    }
    s
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.yaml");
    let text = manifest(1000);
    std::fs::write(&path, &text).expect("write manifest");
    let paths = vec![PathBuf::from(&path)];
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
