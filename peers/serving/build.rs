//! The toolc server's code, generated from serving.yaml as a user's build.rs does.

fn main() -> Result<(), toolc::Error> {
    println!("cargo::rerun-if-changed=serving.yaml");
    toolc::configure()
        .manifest("serving.yaml")
        .file_name("serving_toolset.rs")
        .toolset_name("serving")
        // The data file is read into the generated types.
        .serde_both_ways(true)
        .compile()?;
    Ok(())
}
