//! Generates the fixtures' Rust into OUT_DIR.

fn main() -> Result<(), toolc::Error> {
    toolc::configure()
        .manifest("../fixtures/codegen/defaults.yaml")
        .file_name("defaults.rs")
        .toolset_name("defaults")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/coverage.yaml")
        .file_name("coverage.rs")
        .toolset_name("coverage")
        .compile()?;
    Ok(())
}
