//! `toolc.toml`: parsing, located errors with hints, and code options over
//! file options.

use crate::config::{self, Config, Options};
use crate::{Code, Diagnostic, SourceMap, render_plain};
use crate::{Dialect, RuleId};
use std::path::{Path, PathBuf};

fn parse(text: &str) -> (Options, Vec<String>, Vec<Diagnostic>) {
    let mut sources = SourceMap::new();
    let (o, d) = config::parse_str(&mut sources, Path::new("toolc.toml"), text);
    let rendered = d.iter().map(|x| render_plain(&sources, x)).collect();
    (o, rendered, d)
}

#[test]
fn the_documented_example_parses() {
    let (o, text, _) = parse(
        r#"
[lint]
dialects = ["openai-strict", "gemini", "anthropic", "mcp"]
require_describe = false          # missing-description warnings
deny = ["missing-description"]    # raise to error
allow = ["gemini-string-format"]  # silence

[emit]
out_dir = "generated"

[policy]
approve_destructive = false       # approval: required for destructive tools
"#,
    );
    assert!(text.is_empty(), "{text:?}");
    assert_eq!(o.approve_destructive, Some(false));
    assert_eq!(
        o.dialects,
        Some(vec![
            Dialect::OpenAiStrict,
            Dialect::Gemini,
            Dialect::Anthropic,
            Dialect::Mcp
        ])
    );
    assert_eq!(o.require_describe, Some(false));
    assert_eq!(o.deny, Some(vec!["missing-description".to_string()]));
    assert_eq!(o.allow, Some(vec!["gemini-string-format".to_string()]));
    assert_eq!(o.out_dir, Some(PathBuf::from("generated")));
    let s = o.lint_settings().unwrap();
    assert!(s.deny.contains(&RuleId::MissingDescription));
    assert!(s.allow.contains(&RuleId::GeminiStringFormat));
}

#[test]
fn an_empty_file_means_the_defaults() {
    let (o, text, _) = parse("");
    assert!(text.is_empty());
    assert_eq!(o, Options::default());
    let s = o.lint_settings().unwrap();
    assert_eq!(s.dialects, Dialect::DEFAULT.to_vec());
    assert!(!s.require_describe);
    assert_eq!(Config::default().out_dir(), PathBuf::from("generated"));
}

#[test]
fn out_dir_is_relative_to_the_config_and_normalized() {
    let config = Config {
        path: Some(PathBuf::from("manifests/toolc.toml")),
        options: Options {
            out_dir: Some(PathBuf::from("../generated")),
            ..Options::default()
        },
    };
    assert_eq!(config.out_dir(), PathBuf::from("generated"));
    let here = Config {
        path: Some(PathBuf::from("toolc.toml")),
        options: Options {
            out_dir: Some(PathBuf::from(".")),
            ..Options::default()
        },
    };
    assert_eq!(here.out_dir(), PathBuf::from("."));
}

#[test]
fn unknown_keys_are_located_with_a_hint() {
    let (_, text, d) = parse("[lint]\ndialect = [\"gemini\"]\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::UnknownKey);
    assert!(
        text[0].starts_with("toolc.toml:2:1: error[unknown-key]"),
        "{}",
        text[0]
    );
    assert!(text[0].contains("did you mean `dialects`?"), "{}", text[0]);

    let (_, text, d) = parse("[lnt]\n");
    assert_eq!(d[0].code, Code::UnknownKey);
    assert!(text[0].contains("did you mean `lint`?"), "{}", text[0]);

    let (_, text, _) = parse("[emit]\nout = \"x\"\n");
    assert!(text[0].contains("did you mean `out_dir`?"), "{}", text[0]);

    let (_, text, _) = parse("[policy]\napprove_destructve = true\n");
    assert!(
        text[0].starts_with(
            "toolc.toml:2:1: error[unknown-key]: unknown key `approve_destructve` in `[policy]`"
        ),
        "{}",
        text[0]
    );
    assert!(
        text[0].contains("did you mean `approve_destructive`?"),
        "{}",
        text[0]
    );
    let (_, text, _) = parse("[polciy]\n");
    assert!(text[0].contains("did you mean `policy`?"), "{}", text[0]);
}

#[test]
fn unknown_rules_and_dialects_are_located_with_a_hint() {
    let (o, text, d) = parse("[lint]\ndeny = [\"missing-descripton\"]\n");
    assert_eq!(d[0].code, Code::UnknownRule);
    assert!(
        text[0].starts_with("toolc.toml:2:9: error[unknown-rule]"),
        "{}",
        text[0]
    );
    assert!(
        text[0].contains("did you mean `missing-description`?"),
        "{}",
        text[0]
    );
    assert_eq!(o.deny, Some(vec![]));

    let (o, text, d) = parse("[lint]\ndialects = [\"gemini\", \"opneai-strict\"]\n");
    assert_eq!(d[0].code, Code::UnknownDialect);
    assert!(
        text[0].starts_with("toolc.toml:2:23: error[unknown-dialect]"),
        "{}",
        text[0]
    );
    assert!(
        text[0].contains("did you mean `openai-strict`?"),
        "{}",
        text[0]
    );
    assert_eq!(o.dialects, Some(vec![Dialect::Gemini]));
}

#[test]
fn the_seed_dialect_name_is_an_alias() {
    let (o, text, _) = parse("[lint]\ndialects = [\"gemini-bifrost\"]\n");
    assert!(text.is_empty());
    assert_eq!(o.dialects, Some(vec![Dialect::Gemini]));
}

#[test]
fn wrong_types_and_syntax_errors_are_located() {
    let (_, text, d) = parse("[lint]\nrequire_describe = \"yes\"\n");
    assert_eq!(d[0].code, Code::WrongType);
    assert!(text[0].starts_with("toolc.toml:2:20:"), "{}", text[0]);
    let (_, _, d) = parse("[lint]\ndeny = \"x\"\n");
    assert_eq!(d[0].code, Code::WrongType);
    let (_, _, d) = parse("lint = 3\n");
    assert_eq!(d[0].code, Code::WrongType);
    let (_, _, d) = parse("[emit]\nout_dir = \"\"\n");
    assert_eq!(d[0].code, Code::WrongType);
    let (o, text, d) = parse("[policy]\napprove_destructive = \"yes\"\n");
    assert_eq!(d[0].code, Code::WrongType);
    assert!(
        text[0].starts_with(
            "toolc.toml:2:23: error[wrong-type]: `approve_destructive` must be a boolean, found a string"
        ),
        "{}",
        text[0]
    );
    assert_eq!(o.approve_destructive, None);
    let (_, _, d) = parse("[lint\n");
    assert_eq!(d[0].code, Code::Syntax);
    let (_, _, d) = parse("[lint]\ndeny = []\ndeny = []\n");
    assert_eq!(d[0].code, Code::DuplicateKey);
    let (_, _, d) = parse(&format!("x = {}1{}\n", "[".repeat(200), "]".repeat(200)));
    assert_eq!(d[0].code, Code::TooLarge);
}

#[test]
fn a_rule_both_denied_and_allowed_is_an_error() {
    let (o, text, d) = parse("[lint]\ndeny = [\"tuple\"]\nallow = [\"tuple\"]\n");
    assert_eq!(d.len(), 1, "{text:?}");
    assert!(text[0].starts_with("toolc.toml:3:10:"), "{}", text[0]);
    assert!(d[0].is_error());
    // The file's deny wins over its own allow.
    assert_eq!(o.allow, Some(vec![]));
}

#[test]
fn code_options_win_field_by_field() {
    let (file, _, _) = parse(
        "[lint]\ndialects = [\"gemini\"]\nrequire_describe = true\ndeny = [\"tuple\"]\n[emit]\nout_dir = \"out\"\n",
    );
    let code = Options {
        dialects: Some(vec![Dialect::Mcp]),
        out_dir: Some(PathBuf::from("elsewhere")),
        ..Default::default()
    };
    let merged = code.or(file);
    assert_eq!(merged.dialects, Some(vec![Dialect::Mcp]));
    assert_eq!(merged.require_describe, Some(true));
    assert_eq!(merged.deny, Some(vec!["tuple".to_string()]));
    assert_eq!(merged.out_dir, Some(PathBuf::from("elsewhere")));
    let s = merged.lint_settings().unwrap();
    assert_eq!(s.dialects, [Dialect::Mcp]);
    assert!(s.require_describe);
}

#[test]
fn rule_ids_set_in_code_are_checked_too() {
    let o = Options {
        allow: Some(vec!["tupel".into()]),
        ..Default::default()
    };
    let e = o.lint_settings().unwrap_err();
    assert_eq!(e[0].code, Code::UnknownRule);
    assert!(e[0].span.is_none());
    assert_eq!(e[0].help.as_deref(), Some("did you mean `tuple`?"));
}

#[test]
fn the_config_is_found_in_the_manifest_root_or_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("manifests");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("a.yaml"), "version: 1\n").unwrap();
    assert_eq!(config::find(std::slice::from_ref(&root)), None);
    std::fs::write(dir.path().join("toolc.toml"), "[emit]\nout_dir = \"gen\"\n").unwrap();
    assert_eq!(
        config::find(std::slice::from_ref(&root)),
        Some(dir.path().join("toolc.toml"))
    );
    assert_eq!(
        config::find(&[root.join("a.yaml")]),
        Some(dir.path().join("toolc.toml"))
    );
    std::fs::write(root.join("toolc.toml"), "").unwrap();
    assert_eq!(
        config::find(std::slice::from_ref(&root)),
        Some(root.join("toolc.toml"))
    );

    let mut sources = SourceMap::new();
    let (c, d) = config::load(&dir.path().join("toolc.toml"), &mut sources);
    assert!(d.is_empty());
    assert_eq!(
        c.out_dir(),
        dir.path().join("gen"),
        "out_dir is relative to toolc.toml"
    );
    let (c, d) = config::load(&dir.path().join("missing.toml"), &mut sources);
    assert_eq!(d[0].code, Code::Io);
    assert_eq!(c.options, Options::default());
}

#[test]
fn the_repository_config_is_valid_and_targets_the_documented_dialects() {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/manifests"));
    let path = config::find(std::slice::from_ref(&root)).expect("a toolc.toml for manifests/");
    let mut sources = SourceMap::new();
    let (c, d) = config::load(&path, &mut sources);
    assert!(
        d.is_empty(),
        "{:?}",
        d.iter()
            .map(|x| render_plain(&sources, x))
            .collect::<Vec<_>>()
    );
    let s = c.options.lint_settings().unwrap();
    for want in [
        Dialect::OpenAiStrict,
        Dialect::Gemini,
        Dialect::Anthropic,
        Dialect::Mcp,
    ] {
        assert!(s.dialects.contains(&want), "{want}");
    }
}

#[test]
fn typed_formats_take_true_false_or_a_list() {
    use crate::TypedFormat;
    let set = |text: &str| parse(&format!("[emit]\ntyped_formats = {text}\n"));
    let (o, text, _) = set("true");
    assert!(text.is_empty(), "{text:?}");
    assert_eq!(
        o.typed_formats,
        Some(TypedFormat::ALL.into_iter().collect())
    );
    let (o, _, _) = set("false");
    assert_eq!(o.typed_formats, Some(Default::default()));
    let (o, _, _) = set(r#"["date", "uuid", "date"]"#);
    assert_eq!(
        o.typed_formats,
        Some([TypedFormat::Date, TypedFormat::Uuid].into_iter().collect())
    );
    // A misspelt format is located, with the closest one.
    let (o, text, d) = set(r#"["uuid", "date-tim"]"#);
    assert_eq!(
        text,
        [
            "toolc.toml:2:26: error[wrong-type]: `typed_formats` lists `date-tim`, which is not a format toolc can type\n    help: did you mean `date-time`?"
        ]
    );
    assert_eq!(d[0].code, Code::WrongType);
    assert_eq!(
        o.typed_formats,
        Some([TypedFormat::Uuid].into_iter().collect())
    );
    let (_, text, _) = set(r#"["time"]"#);
    assert!(
        text[0].contains("help: the typed formats are `uuid`, `date-time`, `date`, `email`, `uri`"),
        "{text:?}"
    );
    let (_, text, _) = set("\"uuid\"");
    assert_eq!(
        text,
        [
            "toolc.toml:2:17: error[wrong-type]: `typed_formats` must be a boolean or a list of formats, found a string"
        ]
    );
}

#[test]
fn gemini_form_and_the_lowering_keys_are_read() {
    let (o, text, _) = parse(
        "[lint]\ndialects = [\"gemini\", \"gemini-jsonschema\", \"mcp\"]\ngemini_form = \"parametersJsonSchema\"\n\n[lower]\nclose_objects = true\ndescribe_unsupported = false\n",
    );
    assert!(text.is_empty(), "{text:?}");
    assert_eq!(
        o.gemini_form,
        Some(config::GeminiForm::ParametersJsonSchema)
    );
    // `gemini` stands for `gemini-jsonschema`, listed once.
    assert_eq!(
        o.lint_settings().unwrap().dialects,
        vec![Dialect::GeminiJsonSchema, Dialect::Mcp]
    );
    let lower = o.lower_options();
    assert!(lower.close_objects && !lower.describe_unsupported);
    // The default form leaves the dialects as they are.
    let (o, _, _) = parse("[lint]\ngemini_form = \"parameters\"\n");
    assert_eq!(
        o.lint_settings().unwrap().dialects,
        Dialect::DEFAULT.to_vec()
    );

    let (_, text, diags) = parse(
        "[lint]\ngemini_form = \"json\"\n\n[lower]\nclose_objects = \"yes\"\nclose_object = true\n",
    );
    assert_eq!(diags.len(), 3, "{text:#?}");
    assert!(
        text[0].contains("toolc.toml:2:15") && text[0].contains("`gemini_form` is `json`"),
        "{}",
        text[0]
    );
    assert!(
        text[0].contains("`parameters`") && text[0].contains("`parametersJsonSchema`"),
        "{}",
        text[0]
    );
    assert!(
        text[1].contains("`close_objects` must be a boolean, found a string"),
        "{}",
        text[1]
    );
    assert!(
        text[2].contains("unknown key `close_object`")
            && text[2].contains("did you mean `close_objects`?"),
        "{}",
        text[2]
    );
}

#[test]
fn sensitive_parameter_is_graded_like_a_lint_rule() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.yaml"),
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      login:\n        description: Log in\n        parameters:\n          type: object\n          properties:\n            password: { type: string, sensitive: true, description: The password. }\n          required: [password]\n",
    )
    .unwrap();
    let paths = [dir.path().to_path_buf()];
    let graded = |toml: Option<&str>, code: &Options| {
        match toml {
            Some(text) => std::fs::write(dir.path().join("toolc.toml"), text).unwrap(),
            None => {
                let _ = std::fs::remove_file(dir.path().join("toolc.toml"));
            }
        }
        let analyzed = crate::pipeline::analyze(
            &paths,
            &Default::default(),
            &crate::pipeline::ConfigSource::Discover,
            code,
        );
        let found: Vec<(Code, crate::Severity)> = analyzed
            .all_diagnostics()
            .iter()
            .map(|d| (d.code, d.severity))
            .collect();
        found
    };
    let none = Options::default();
    // A warning by default.
    assert_eq!(
        graded(None, &none),
        [(Code::SensitiveParameter, crate::Severity::Warning)]
    );
    // Silenced, or raised to an error, by the file.
    assert_eq!(
        graded(Some("[lint]\nallow = [\"sensitive-parameter\"]\n"), &none),
        []
    );
    assert_eq!(
        graded(Some("[lint]\ndeny = [\"sensitive-parameter\"]\n"), &none),
        [(Code::SensitiveParameter, crate::Severity::Error)]
    );
    // Code options win over the file's, as for the rules.
    let allow = Options {
        allow: Some(vec!["sensitive-parameter".into()]),
        ..Default::default()
    };
    assert_eq!(
        graded(Some("[lint]\ndeny = [\"sensitive-parameter\"]\n"), &allow),
        []
    );
    // The id is known to the file's checks, with a hint when misspelt.
    let (o, _, d) = parse("[lint]\nallow = [\"sensitive-parameter\"]\n");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(o.allow, Some(vec!["sensitive-parameter".to_string()]));
    let (_, text, _) = parse("[lint]\nallow = [\"sensitive-parameters\"]\n");
    assert!(
        text[0].contains("did you mean `sensitive-parameter`"),
        "{text:?}"
    );
}
