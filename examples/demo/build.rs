//! Generates the toolset's Rust from the example manifests into OUT_DIR,
//! and beside it the benches' own small toolset and the one of tests/results.rs.

fn main() -> Result<(), toolc::Error> {
    toolc::compile("../../manifests")?;
    toolc::configure()
        .manifest("benches/bench.yaml")
        .file_name("bench_toolset.rs")
        .toolset_name("bench")
        .compile()?;
    toolc::configure()
        .manifest("tests/results.yaml")
        .file_name("results_toolset.rs")
        .toolset_name("results")
        .compile()?;
    Ok(())
}
