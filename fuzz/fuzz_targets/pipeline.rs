//! The whole pipeline, from manifest text to every output: load, resolve, lower, lint and
//! emit (the Rust, the reference, each agent's tool list in each default dialect), asserting
//! that nothing panics, that the same input gives the same bytes twice, and that the emitted
//! Rust parses with `syn`.
//!
//! The first byte picks what the rest is: even, the choices of the structured generator of
//! valid manifests (tests/support/manifest_gen.rs, shared with the property test), so the
//! later stages are reached; odd, a manifest's bytes as they are (YAML, or TOML when the
//! byte is 1 modulo 4). See fuzz/README.md.

#![no_main]

#[path = "../../tests/support/manifest_gen.rs"]
mod manifest_gen;

use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// Every output of the manifest at `path`, or its errors, as text.
fn outputs(path: &PathBuf) -> Vec<String> {
    let analysis = toolc::analyze(
        std::slice::from_ref(path),
        &toolc::ResolveOptions::default(),
    );
    let mut out: Vec<String> = analysis
        .diagnostics()
        .iter()
        .map(|d| toolc::render_plain(analysis.sources(), d))
        .collect();
    if analysis.has_errors() {
        return out;
    }
    match analysis.rust() {
        Ok(rust) => {
            if let Err(e) = syn::parse_file(&rust) {
                panic!("the emitted Rust does not parse: {e}\n{rust}");
            }
            out.push(rust);
        }
        Err(d) => out.push(format!("{d:?}")),
    }
    out.push(format!("{:?}", analysis.reference()));
    for agent in analysis.agents() {
        for dialect in toolc::Dialect::DEFAULT {
            out.push(format!("{:?}", analysis.tool_list(agent, dialect)));
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (text, ext) = if selector % 2 == 0 {
        let mut u = arbitrary::Unstructured::new(rest);
        match manifest_gen::manifest(&mut u) {
            Ok(text) => (text, "yaml"),
            Err(_) => return,
        }
    } else {
        let ext = if selector % 4 == 1 { "toml" } else { "yaml" };
        (String::from_utf8_lossy(rest).into_owned(), ext)
    };
    // One folder per process: libFuzzer runs inputs one at a time.
    let dir = std::env::temp_dir().join(format!("toolc-fuzz-pipeline-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(format!("toolset.{ext}"));
    std::fs::write(&path, &text).expect("the manifest is written");
    let first = outputs(&path);
    let second = outputs(&path);
    assert!(
        first == second,
        "the same manifest gave different outputs:\n{text}"
    );
    // A generated manifest is valid: the pipeline must accept it.
    if selector % 2 == 0 {
        let analysis = toolc::analyze(
            std::slice::from_ref(&path),
            &toolc::ResolveOptions::default(),
        );
        assert!(
            !analysis.has_errors(),
            "a generated manifest was refused:\n{text}\n{:#?}",
            analysis
                .diagnostics()
                .iter()
                .map(|d| toolc::render_plain(analysis.sources(), d))
                .collect::<Vec<_>>()
        );
    }
});
