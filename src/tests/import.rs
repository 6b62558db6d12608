//! `toolc import`'s parts: the YAML it writes reads back as the value it was given.

use crate::diag::SourceMap;
use crate::import::yaml::to_yaml;
use crate::manifest::parse_yaml;
use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;

/// What the manifest loader reads from `text`, as JSON.
fn read_back(text: &str) -> Result<Value, String> {
    let mut sources = SourceMap::new();
    let id = sources.add(Path::new("t.yaml"), text.to_string());
    let node = parse_yaml::parse(sources.file(id), id).map_err(|d| format!("{d:?}"))?;
    Ok(node.to_json("", &mut Default::default()))
}

/// Strings a YAML writer can get wrong: indicators, spaces at the ends, line breaks,
/// look-alikes of other types, non-ASCII.
fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "yes",
            "No",
            "on",
            "null",
            "~",
            "Null",
            "true",
            "False",
            "1",
            "-1",
            "1.0",
            "1e3",
            "0x1F",
            "0o17",
            ".inf",
            "-.inf",
            ".nan",
            "2026-01-01",
            "12:30",
            "- a",
            "a: b",
            "a #b",
            "#c",
            "@x",
            "`x`",
            "!tag",
            "&a",
            "*a",
            "%d",
            "|",
            ">",
            "'",
            "\"",
            "[a]",
            "{a}",
            "a,b",
            "?",
            "? x",
            "x\n",
            "\n",
            "a\n\nb",
            " lead",
            "trail ",
            "tab\tin",
            "\u{feff}bom",
            "é ü ∑ 🚀",
            "a\r\nb",
            "\u{85}next",
            "\u{2028}ls",
            "back\\slash",
            "---",
            "...",
            "- ",
            "a:",
            "=",
            "<<",
        ])
        .prop_map(String::from),
        "[ -~\\n\\t]{0,40}",
        "\\PC{0,20}",
        "([a-z ]{1,30}\\n){1,4}[a-z ]{0,10}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        prop::sample::select(vec![
            0.001,
            0.75,
            7.5,
            1.0,
            -0.0,
            1e300,
            5e-324,
            1e21,
            123456789.0
        ])
        .prop_map(Value::from),
        tricky_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((tricky_string(), inner), 0..6).prop_map(|entries| {
                let mut map = serde_json::Map::new();
                for (k, v) in entries {
                    map.insert(k, v);
                }
                Value::Object(map)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any JSON object written as YAML reads back, through the manifest loader, as the same
    /// value: the same strings, the same numbers (integer or float), the keys in order.
    #[test]
    fn yaml_reads_back_as_written(entries in prop::collection::vec((tricky_string(), json_value()), 0..6)) {
        let mut map = serde_json::Map::new();
        for (k, v) in entries {
            map.insert(k, v);
        }
        let value = Value::Object(map);
        let text = to_yaml(&value).map_err(TestCaseError::fail)?;
        let back = read_back(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&value).unwrap(),
            "the text:\n{}", text
        );
    }
}

#[test]
fn show_sample() {
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string("tests/realworld/servers-time/tools.json").unwrap(),
    )
    .unwrap();
    println!("{}", to_yaml(&v).unwrap());
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string("tests/realworld/excel/tools.json").unwrap())
            .unwrap();
    let t = to_yaml(&v).unwrap();
    println!("{}", &t[..3000]);
}
