//! Turns the parameter and named types of a synthetic toolset's manifests
//! (`cargo run --release --example synthetic-toolset -- DIR N` at the root)
//! into formatted Rust types with typify, as typify's own users do
//! (`TypeSpace::add_root_schema`, `to_stream`, `prettyplease::unparse`), and
//! prints how long that took, reading the manifests apart.
//!
//! ```sh
//! toolc-peer-typify DIR OUT.rs
//! ```
//!
//! Every manifest's `types` become `definitions`, and each tool's
//! `parameters` one more, named `<Tool>Params`; `$ref: "#/types/X"` becomes
//! `#/definitions/X`. The tools' `returns` are references to named types, which
//! typify already makes once.

use serde_json::{Map, Value};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: toolc-peer-typify DIR OUT.rs");
        return ExitCode::from(2);
    };
    let read = Instant::now();
    let mut definitions = Map::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("read the toolset folder")
        .map(|e| e.expect("folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read a manifest");
        let doc: Value = serde_saphyr::from_str(&text).expect("parse a manifest");
        if let Some(types) = doc.get("types").and_then(Value::as_object) {
            for (name, schema) in types {
                definitions.insert(name.clone(), refs(schema.clone()));
            }
        }
        for toolbox in doc
            .get("toolboxes")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(Map::values)
        {
            for (tool, spec) in toolbox
                .get("tools")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                if let Some(params) = spec.get("parameters") {
                    definitions.insert(format!("{}Params", pascal(tool)), refs(params.clone()));
                }
            }
        }
    }
    let root: schemars::schema::RootSchema = serde_json::from_value(serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": definitions,
    }))
    .expect("a JSON Schema");
    let count = root.definitions.len();
    let read = read.elapsed();

    let types = Instant::now();
    let mut settings = typify::TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    let mut space = typify::TypeSpace::new(&settings);
    space
        .add_root_schema(root)
        .expect("typify takes the schemas");
    let file: syn::File = syn::parse2(space.to_stream()).expect("typify's output parses");
    let text = prettyplease::unparse(&file);
    let types = types.elapsed();

    std::fs::write(out, &text).expect("write the types");
    println!(
        "{count} schemas: read {:.3} s, typify + prettyplease {:.3} s, {} bytes",
        read.as_secs_f64(),
        types.as_secs_f64(),
        text.len()
    );
    ExitCode::SUCCESS
}

/// `#/types/X` → `#/definitions/X`, everywhere in a schema.
fn refs(mut v: Value) -> Value {
    match &mut v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "$ref"
                    && let Value::String(s) = x
                    && let Some(rest) = s.strip_prefix("#/types/")
                {
                    *s = format!("#/definitions/{rest}");
                } else {
                    *x = refs(std::mem::take(x));
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| *x = refs(std::mem::take(x))),
        _ => {}
    }
    v
}

/// `tool_0_12` → `Tool012`, as typify would name a titled type.
fn pascal(name: &str) -> String {
    name.split(['_', '-'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}
