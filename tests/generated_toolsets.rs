//! Random valid toolsets build: manifests from the structured generator
//! (tests/support/manifest_gen.rs) are checked, linted for the default dialects and emitted
//! with no error and no panic, the same bytes twice; the emitted Rust parses with `syn`; and
//! a sample of them compiles under clippy `-D warnings` and rustdoc `-D warnings`.
//!
//! The bytes each case reads are drawn from a fixed seed, so a failure names a case that
//! fails again; `TOOLC_GEN_CASES` and `TOOLC_GEN_SEED` draw more or other cases.

use crate::support::{manifest_gen, scratch_crate};
use std::path::PathBuf;

/// A small deterministic generator of bytes (SplitMix64): the property needs reproducible
/// draws, not a statistical RNG.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The manifest of case `i` and what the pipeline made of it: the Rust, or the problems.
fn build(dir: &std::path::Path, text: &str) -> Result<String, String> {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("toolset.yaml");
    std::fs::write(&path, text).unwrap();
    let analysis = toolc::analyze(&[path], &toolc::ResolveOptions::default());
    if analysis.has_errors() {
        let problems: Vec<String> = analysis
            .diagnostics()
            .iter()
            .filter(|d| d.is_error())
            .map(|d| toolc::render_plain(analysis.sources(), d))
            .collect();
        return Err(problems.join("\n"));
    }
    let rust = analysis
        .rust()
        .map_err(|d| format!("the Rust was not emitted: {d:?}"))?;
    analysis
        .reference()
        .map_err(|e| format!("no reference: {e}"))?;
    for agent in analysis.agents() {
        for dialect in toolc::Dialect::DEFAULT {
            analysis.tool_list(agent, dialect);
        }
    }
    Ok(rust)
}

#[test]
fn random_valid_toolsets_build_the_same_twice_and_a_sample_compiles_clippy_clean() {
    let cases = env_or("TOOLC_GEN_CASES", 60);
    let seed = env_or("TOOLC_GEN_SEED", 0x70_01c);
    // Every this many cases, one is compiled (clippy and rustdoc, all in one crate).
    let sample_every = 12;
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generated-toolsets");
    let _ = std::fs::remove_dir_all(&root);
    let mut sample = Vec::new();
    let mut failures = Vec::new();
    for i in 0..cases {
        let raw = bytes(seed.wrapping_add(i), 4096);
        let mut u = arbitrary::Unstructured::new(&raw);
        let text = manifest_gen::manifest(&mut u).expect("the generator never runs dry");
        let dir = root.join(format!("case{i}"));
        match (build(&dir, &text), build(&dir, &text)) {
            (Ok(first), Ok(second)) => {
                if first != second {
                    failures.push(format!("case {i}: two builds differ\n{text}"));
                    continue;
                }
                if let Err(e) = syn::parse_file(&first) {
                    failures.push(format!("case {i}: the Rust does not parse: {e}\n{text}"));
                    continue;
                }
                if i % sample_every == 0 {
                    let file = dir.join("toolset.rs");
                    std::fs::write(&file, &first).unwrap();
                    sample.push((format!("case {i}"), file));
                }
            }
            (Err(e), _) | (_, Err(e)) => {
                failures.push(format!("case {i}: {e}\n--- manifest:\n{text}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} generated toolsets failed (seed {seed}):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    scratch_crate::compile_together(
        "generated_toolsets",
        "Toolsets drawn by the structured generator of valid manifests.",
        &sample,
        "the Rust of a generated toolset",
    );
}
