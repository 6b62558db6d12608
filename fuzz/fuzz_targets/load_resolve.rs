//! Load and resolve any bytes as a manifest: nothing may panic, and every
//! diagnostic must point inside its file and render.
//!
//! The first byte picks the format (even: YAML, odd: TOML); the rest is
//! the manifest, lossily decoded as UTF-8 (`toolc check` reports bytes that
//! are not UTF-8 before parsing, so the parsers only ever see text).
//! Seed the corpus with the example manifests:
//!
//!     mkdir -p fuzz/corpus/load_resolve
//!     for f in manifests/*.yaml; do (printf '\0'; cat "$f") > "fuzz/corpus/load_resolve/$(basename "$f")"; done
//!     for f in manifests/*.toml; do (printf '\1'; cat "$f") > "fuzz/corpus/load_resolve/$(basename "$f")"; done

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use toolc::ResolveOptions;
use toolc::{render_human, render_json, render_plain};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let name = if selector % 2 == 0 {
        "fuzz/toolset.yaml"
    } else {
        "fuzz/toolset.toml"
    };
    let text = String::from_utf8_lossy(rest).into_owned();
    let checked = toolc::check_text(
        Path::new("fuzz"),
        Path::new(name),
        text,
        &ResolveOptions {
            name: Some("fuzz".into()),
            ..Default::default()
        },
    );
    for d in &checked.diagnostics {
        for span in d.span.iter().chain(d.secondary.iter().map(|l| &l.span)) {
            let text = &checked.sources.file(span.file).text;
            assert!(span.start <= span.end && span.end <= text.len());
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
        render_human(&checked.sources, d, false);
        render_plain(&checked.sources, d);
        render_json(&checked.sources, d);
    }
});
