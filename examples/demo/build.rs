//! Generates the toolset's Rust from the example manifests into OUT_DIR,
//! and the benches' own small toolset beside it.

fn main() -> Result<(), toolc::Error> {
    toolc::compile("../../manifests")?;
    toolc::configure()
        .manifest("benches/bench.yaml")
        .file_name("bench_toolset.rs")
        .toolset_name("bench")
        .compile()?;
    Ok(())
}
