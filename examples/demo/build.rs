//! Generates the toolset's Rust from the example manifests into OUT_DIR.

fn main() -> Result<(), toolc::Error> {
    toolc::compile("../../manifests")?;
    Ok(())
}
