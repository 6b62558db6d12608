//! Load and resolve never panic, whatever happens to a manifest: the example
//! manifests are mutated (bit flips, deletions, insertions of YAML and TOML
//! syntax, duplicated slices, truncation) and loaded beside the untouched
//! others. Every diagnostic must point inside its file, on character
//! boundaries, and render in every format.

use crate::ResolveOptions;
use crate::manifest::{self, Loaded};
use crate::model;
use crate::{render_human, render_json, render_plain};
use proptest::prelude::*;
use std::path::Path;

/// Toolsets to mutate, each a set of manifests loaded together, by the
/// name each is loaded under (its folder is where manual files are looked
/// up).
const TOOLSETS: &[&[(&str, &str)]] = &[
    &[
        (
            "manifests/meetings.yaml",
            include_str!("../../manifests/meetings.yaml"),
        ),
        (
            "manifests/support.yaml",
            include_str!("../../manifests/support.yaml"),
        ),
        (
            "manifests/orders.toml",
            include_str!("../../manifests/orders.toml"),
        ),
        (
            "manifests/agents.yaml",
            include_str!("../../manifests/agents.yaml"),
        ),
    ],
    &[(
        "tests/formats/toolset.yaml",
        include_str!("../../tests/formats/toolset.yaml"),
    )],
    &[(
        "tests/formats/toolset.toml",
        include_str!("../../tests/formats/toolset.toml"),
    )],
];

/// Pieces of YAML and TOML syntax (and of what manifests hold) to insert.
const TOKENS: &[&str] = &[
    ":",
    ": ",
    "-",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "'",
    "#",
    "&a ",
    "*a",
    "!",
    "!!str ",
    "|",
    ">",
    "?",
    "---",
    "...",
    "\n",
    "  ",
    "\t",
    "=",
    " = ",
    "[[",
    "]]",
    ".",
    "\\",
    "{{",
    "}}",
    "$ref",
    "~",
    "null",
    "0",
    "-1",
    "1.5",
    "1e999",
    "nan",
    "\u{feff}",
    "é",
    "\r\n",
    "<<: *a",
    "\"\"\"",
    "'''",
    "x-",
    "#/types/",
    "tool(\"",
    "../",
    "/",
    "1979-05-27",
    "0x_1",
    "+inf",
];

/// A change to the bytes of a manifest. Positions are taken modulo the
/// length at the time the change is made.
#[derive(Debug, Clone)]
enum Mutation {
    FlipBit(usize, u8),
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit(at, bit)),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, t)| Mutation::Insert(at, t)),
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| Mutation::Duplicate(at, len)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let len = bytes.len();
    let at = |i: &usize| i % (len + 1);
    match m {
        Mutation::FlipBit(i, bit) => {
            if len > 0 {
                bytes[i % len] ^= 1 << bit;
            }
        }
        Mutation::Delete(i, n) => {
            let start = at(i);
            let end = (start + n).min(len);
            bytes.drain(start..end);
        }
        Mutation::Insert(i, t) => {
            let start = at(i);
            bytes.splice(start..start, TOKENS[*t].bytes());
        }
        Mutation::Duplicate(i, n) => {
            let start = at(i);
            let end = (start + n).min(len);
            let slice = bytes[start..end].to_vec();
            bytes.splice(end..end, slice);
        }
        Mutation::Truncate(i) => bytes.truncate(at(i)),
    }
}

/// Loads every manifest of a toolset, the `target`th (modulo their number)
/// mutated, resolves, and checks the diagnostics. Returns how many were
/// found.
fn check(toolset: usize, target: usize, mutations: &[Mutation]) -> usize {
    let manifests = TOOLSETS[toolset];
    let target = target % manifests.len();
    let mut loaded = Loaded::default();
    for (i, (name, text)) in manifests.iter().enumerate() {
        let path = Path::new(name);
        let root = path.parent().unwrap();
        let text = if i == target {
            let mut bytes = text.as_bytes().to_vec();
            for m in mutations {
                apply(&mut bytes, m);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            text.to_string()
        };
        manifest::load_str(&mut loaded, root, path, text);
    }
    model::resolve(
        &mut loaded,
        &ResolveOptions {
            name: Some("mutated".into()),
            ..Default::default()
        },
    );
    for d in &loaded.diagnostics {
        let spans = d.span.iter().chain(d.secondary.iter().map(|l| &l.span));
        for span in spans {
            let text = &loaded.sources.file(span.file).text;
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{d:?} points outside its file ({} bytes)",
                text.len()
            );
            assert!(
                text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
                "{d:?} splits a character"
            );
        }
        render_human(&loaded.sources, d, false);
        render_plain(&loaded.sources, d);
        render_json(&loaded.sources, d);
    }
    loaded.diagnostics.len()
}

#[test]
fn the_examples_are_clean() {
    // The baseline the mutations start from: no mutation, no diagnostic.
    for toolset in 0..TOOLSETS.len() {
        assert_eq!(check(toolset, 0, &[]), 0, "toolset {toolset}");
    }
}

#[test]
fn a_known_mutation_is_reported() {
    // Deleting `version: 1` from meetings.yaml, or cutting toolset.toml
    // short, is found: the property below runs the same path.
    assert!(check(0, 0, &[Mutation::Delete(0, 11)]) > 0);
    assert!(check(2, 0, &[Mutation::Truncate(400)]) > 0);
}

proptest! {
    #[test]
    fn load_and_resolve_never_panic(
        toolset in 0..TOOLSETS.len(),
        target in 0..4usize,
        mutations in prop::collection::vec(mutation(), 1..8),
    ) {
        check(toolset, target, &mutations);
    }
}
