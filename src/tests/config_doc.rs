//! docs/config.md lists every key `toolc.toml` accepts, and the defaults it
//! shows are the ones toolc uses.

use super::repo;
use crate::Dialect;
use crate::SourceMap;
use crate::config::{self, Options};
use std::path::Path;

fn page() -> String {
    std::fs::read_to_string(repo().join("docs/config.md")).expect("docs/config.md")
}

/// The keys toolc accepts in one place of the file, as it lists them when
/// it meets an unknown key there.
fn accepted(section: Option<&str>) -> Vec<String> {
    let text = match section {
        Some(s) => format!("[{s}]\nzzz_not_a_key = 1\n"),
        None => "[zzz_not_a_section]\n".to_string(),
    };
    let mut sources = SourceMap::new();
    let (_, diags) = config::parse_str(&mut sources, Path::new("toolc.toml"), &text);
    let help = diags
        .iter()
        .find_map(|d| d.help.clone())
        .expect("an unknown key gets a help line");
    let list = help
        .strip_prefix("the keys here are ")
        .unwrap_or_else(|| panic!("unexpected help: {help}"));
    list.split(", ")
        .map(|k| k.trim_matches('`').to_string())
        .collect()
}

/// The keys of the table under `### \`[section]\``, with their defaults.
fn documented(page: &str, section: &str) -> Vec<(String, String)> {
    let start = page
        .find(&format!("### `[{section}]`"))
        .unwrap_or_else(|| panic!("docs/config.md has no `[{section}]` section"));
    let rest = &page[start..];
    let rest = &rest[..rest[4..].find("\n#").map_or(rest.len(), |i| i + 4)];
    rest.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (
                cells[0]
                    .trim_start_matches("| ")
                    .trim_matches('`')
                    .to_string(),
                cells[2].trim_matches('`').to_string(),
            )
        })
        .collect()
}

#[test]
fn every_key_is_documented_and_every_documented_key_exists() {
    let page = page();
    let sections = accepted(None);
    assert_eq!(sections, ["lint", "emit", "lower", "policy"]);
    for s in &sections {
        let mut keys = accepted(Some(s));
        let mut listed: Vec<String> = documented(&page, s).into_iter().map(|(k, _)| k).collect();
        keys.sort();
        listed.sort();
        assert_eq!(listed, keys, "docs/config.md `[{s}]`");
    }
}

#[test]
fn the_documented_defaults_are_the_defaults() {
    let page = page();
    let defaults: Vec<(String, String)> = ["lint", "emit", "lower", "policy"]
        .iter()
        .flat_map(|s| documented(&page, s))
        .collect();
    let default = |k: &str| {
        defaults
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, d)| d.clone())
            .unwrap()
    };
    let names: Vec<String> = Dialect::DEFAULT
        .iter()
        .map(|d| format!("\"{}\"", d.as_str()))
        .collect();
    assert_eq!(default("dialects"), format!("[{}]", names.join(", ")));
    assert_eq!(
        default("out_dir"),
        format!("\"{}\"", config::DEFAULT_OUT_DIR)
    );
    let settings = Options::default().lint_settings().unwrap();
    assert_eq!(
        default("require_describe"),
        settings.require_describe.to_string()
    );
    assert!(settings.deny.is_empty() && settings.allow.is_empty());
    // Typed formats are off unless asked for: the generated Rust has `String`s.
    assert_eq!(default("typed_formats"), "false");
    assert_eq!(Options::default().typed_formats, None);
    assert!(crate::ResolveOptions::default().typed_formats.is_empty());
    assert_eq!(
        (default("deny"), default("allow")),
        ("[]".into(), "[]".into())
    );
    // Gemini's form is `parameters`, and no lowering that loses something is on.
    assert_eq!(default("gemini_form"), "\"parameters\"");
    assert_eq!(
        Options::default().gemini_form.unwrap_or_default(),
        config::GeminiForm::Parameters
    );
    let lower = Options::default().lower_options();
    assert_eq!(default("close_objects"), lower.close_objects.to_string());
    assert_eq!(
        default("describe_unsupported"),
        lower.describe_unsupported.to_string()
    );
    assert_eq!(
        default("approve_destructive"),
        Options::default()
            .policy_defaults()
            .approve_destructive
            .to_string()
    );

    // The file shown first, "every key at its default", changes nothing.
    let block = page
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a toml block");
    assert!(block.starts_with("# toolc.toml, every key at its default"));
    let mut sources = SourceMap::new();
    let (options, diags) = config::parse_str(&mut sources, Path::new("toolc.toml"), block);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(options.lint_settings().unwrap(), settings);
    assert_eq!(
        options.policy_defaults(),
        Options::default().policy_defaults()
    );
    assert_eq!(options.typed_formats, Some(Default::default()));
    let loaded = config::Config {
        path: Some("toolc.toml".into()),
        options,
    };
    assert_eq!(loaded.out_dir(), Path::new(config::DEFAULT_OUT_DIR));
}
