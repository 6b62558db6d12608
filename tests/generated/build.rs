//! Generates the fixtures' Rust into OUT_DIR.

fn main() -> Result<(), toolc::Error> {
    toolc::configure()
        .manifest("../fixtures/codegen/defaults.yaml")
        .file_name("defaults.rs")
        .toolset_name("defaults")
        // The test's handler answers its parameters as it got them.
        .serde_both_ways(true)
        .compile()?;
    // The same toolset twice: formats read into their own types, and as strings.
    toolc::configure()
        .manifest("../fixtures/codegen/formats.yaml")
        .file_name("typed_formats.rs")
        .toolset_name("formats")
        .typed_formats(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/formats.yaml")
        .file_name("string_formats.rs")
        .toolset_name("formats")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/coverage.yaml")
        .file_name("coverage.rs")
        .toolset_name("coverage")
        // The test's handler answers its parameters as it got them.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/imported.yaml")
        .file_name("imported.rs")
        .toolset_name("imported")
        // The test writes parameters back to compare them with what was read.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/vouched.yaml")
        .file_name("vouched.rs")
        .toolset_name("vouched")
        // The test reads results from generated instances.
        .serde_both_ways(true)
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/secrets.yaml")
        .file_name("secrets.rs")
        .toolset_name("secrets")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/search.yaml")
        .file_name("search.rs")
        .toolset_name("search")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/delegation.yaml")
        .file_name("delegation.rs")
        .toolset_name("delegation")
        .compile()?;
    toolc::configure()
        .manifest("../fixtures/codegen/many.yaml")
        .file_name("many.rs")
        .toolset_name("many")
        .compile()?;
    Ok(())
}
