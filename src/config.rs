//! `toolc.toml`: the optional project config, beside the manifests' root.
//!
//! ```toml
//! [lint]
//! dialects = ["openai-strict", "gemini", "anthropic", "mcp"]
//! gemini_form = "parameters"        # or "parametersJsonSchema"
//! require_describe = false          # missing-description warnings
//! deny = ["missing-description"]    # raise to error
//! allow = ["gemini-string-format"]  # silence
//!
//! [emit]
//! out_dir = "generated"
//! typed_formats = ["uuid", "date-time"]  # or true for all
//!
//! [lower]
//! close_objects = false             # list objects with other keys closed (a loss)
//! describe_unsupported = false      # say unstatable keywords in descriptions (a loss)
//!
//! [policy]
//! approve_destructive = false       # approval: required for destructive tools
//! ```
//!
//! The same options can be set in code ([`Options`]); code wins, field by
//! field ([`Options::or`]). Paths in the file are relative to its folder.

use crate::diag::{Code, Diagnostic, FileId, Severity, SourceMap, Span, did_you_mean};
use crate::lint::{LintSettings, RuleId, rules};
use crate::lower::Dialect;
use crate::manifest::node::MAX_NODES;
use crate::manifest::parse_toml::{self, Refusal};
use crate::model::rust::TypedFormat;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The config file's name.
pub const FILE_NAME: &str = crate::manifest::CONFIG_FILE;

/// The default `[emit] out_dir`.
pub const DEFAULT_OUT_DIR: &str = "generated";

/// Every option of `toolc.toml`; `None` where not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// `[lint] dialects`: the dialects linted.
    pub dialects: Option<Vec<Dialect>>,
    /// `[lint] gemini_form`: which of Gemini's forms the `gemini` dialect stands for.
    pub gemini_form: Option<GeminiForm>,
    /// `[lint] require_describe`: turns on `missing-description`.
    pub require_describe: Option<bool>,
    /// `[lint] deny`: rule ids raised to errors.
    pub deny: Option<Vec<String>>,
    /// `[lint] allow`: rule ids silenced.
    pub allow: Option<Vec<String>>,
    /// `[emit] out_dir`: where generated files go.
    pub out_dir: Option<PathBuf>,
    /// `[emit] extensions`: keep `x-` keys of schemas in the tool lists.
    pub extensions: Option<bool>,
    /// `[emit] typed_formats`: the string formats read into Rust types of
    /// their own (`true` is all of them, `false` none).
    pub typed_formats: Option<BTreeSet<TypedFormat>>,
    /// `[lower] close_objects`: objects that declare properties and take other keys are
    /// listed closed where the dialect has no open object with properties.
    pub close_objects: Option<bool>,
    /// `[lower] describe_unsupported`: keywords a dialect cannot state are said in the
    /// description instead of being refused.
    pub describe_unsupported: Option<bool>,
    /// `[policy] approve_destructive`: tools annotated `destructive: true` need a person's
    /// approval unless they say `approval: none`.
    pub approve_destructive: Option<bool>,
}

/// Which of Gemini's two forms of a tool's schemas the `gemini` dialect stands for
/// (`[lint] gemini_form`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GeminiForm {
    /// `FunctionDeclaration.parameters` / `response`, the OpenAPI 3.0 subset: the `gemini`
    /// dialect itself.
    #[default]
    Parameters,
    /// `parametersJsonSchema` / `responseJsonSchema`, JSON Schema: the `gemini` dialect is
    /// linted and listed as `gemini-jsonschema`.
    ParametersJsonSchema,
}

impl GeminiForm {
    /// The values `gemini_form` takes, as written.
    pub const NAMES: [&'static str; 2] = ["parameters", "parametersJsonSchema"];

    /// The form named `s`, as `toolc.toml` writes it.
    pub fn parse(s: &str) -> Option<GeminiForm> {
        match s {
            "parameters" => Some(GeminiForm::Parameters),
            "parametersJsonSchema" => Some(GeminiForm::ParametersJsonSchema),
            _ => None,
        }
    }

    /// The dialect `d` stands for under this form: `gemini` is `gemini-jsonschema` under
    /// `parametersJsonSchema`; every other dialect is itself.
    pub fn dialect(self, d: Dialect) -> Dialect {
        match (self, d) {
            (GeminiForm::ParametersJsonSchema, Dialect::Gemini) => Dialect::GeminiJsonSchema,
            _ => d,
        }
    }
}

impl Options {
    /// These options where set, `fallback`'s elsewhere: `code.or(file)`.
    pub fn or(self, fallback: Options) -> Options {
        Options {
            dialects: self.dialects.or(fallback.dialects),
            gemini_form: self.gemini_form.or(fallback.gemini_form),
            require_describe: self.require_describe.or(fallback.require_describe),
            deny: self.deny.or(fallback.deny),
            allow: self.allow.or(fallback.allow),
            out_dir: self.out_dir.or(fallback.out_dir),
            extensions: self.extensions.or(fallback.extensions),
            typed_formats: self.typed_formats.or(fallback.typed_formats),
            close_objects: self.close_objects.or(fallback.close_objects),
            describe_unsupported: self.describe_unsupported.or(fallback.describe_unsupported),
            approve_destructive: self.approve_destructive.or(fallback.approve_destructive),
        }
    }

    /// The dialect `d` stands for under `[lint] gemini_form` (`gemini` may be
    /// `gemini-jsonschema`).
    pub fn dialect(&self, d: Dialect) -> Dialect {
        self.gemini_form.unwrap_or_default().dialect(d)
    }

    /// The policy defaults these options give.
    pub fn policy_defaults(&self) -> crate::model::PolicyDefaults {
        crate::model::PolicyDefaults {
            approve_destructive: self.approve_destructive.unwrap_or(false),
        }
    }

    /// The lowering options these options give.
    pub fn lower_options(&self) -> crate::lower::Options {
        crate::lower::Options {
            extensions: self.extensions.unwrap_or(false),
            close_objects: self.close_objects.unwrap_or(false),
            describe_unsupported: self.describe_unsupported.unwrap_or(false),
        }
    }

    /// The diagnostics of earlier stages that `deny` raises to errors and `allow` silences,
    /// as lint rules are ([`GRADED_CODES`]); `allow` wins where code options and the file
    /// disagree no more than for rules, since code options replace the file's lists.
    pub fn graded_codes(&self) -> (BTreeSet<Code>, BTreeSet<Code>) {
        let codes = |list: &Option<Vec<String>>| -> BTreeSet<Code> {
            list.iter()
                .flatten()
                .filter_map(|id| graded_code(id))
                .collect()
        };
        (codes(&self.deny), codes(&self.allow))
    }

    /// The lint settings these options give, defaults filled in. Rule ids
    /// that do not exist (set in code; the file's are checked on load) are
    /// errors without a place.
    pub fn lint_settings(&self) -> Result<LintSettings, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut ids = |list: &Option<Vec<String>>, what: &str| -> BTreeSet<RuleId> {
            let mut out = BTreeSet::new();
            for id in list.iter().flatten() {
                match RuleId::parse(id) {
                    Some(r) => {
                        out.insert(r);
                    }
                    // Graded, but not by lint: see `graded_codes`.
                    None if graded_code(id).is_some() => {}
                    None => {
                        let (msg, help) = unknown_id(id);
                        errors.push(
                            Diagnostic::new(Code::UnknownRule, format!("{what}: {msg}")).help(help),
                        );
                    }
                }
            }
            out
        };
        let deny = ids(&self.deny, "lint `deny`");
        let allow = ids(&self.allow, "lint `allow`");
        for both in deny.intersection(&allow) {
            errors.push(
                Diagnostic::new(
                    Code::UnknownRule,
                    format!("lint rule `{both}` is both denied and allowed"),
                )
                .help("keep it in one of `deny` and `allow`"),
            );
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut dialects: Vec<Dialect> = self
            .dialects
            .clone()
            .unwrap_or_else(|| Dialect::DEFAULT.to_vec())
            .into_iter()
            .map(|d| self.dialect(d))
            .collect();
        let mut seen = BTreeSet::new();
        dialects.retain(|d| seen.insert(*d));
        Ok(LintSettings {
            dialects,
            require_describe: self.require_describe.unwrap_or(false),
            deny,
            allow,
        })
    }
}

/// The diagnostics of resolve that `[lint] deny` and `allow` grade as they grade lint rules,
/// by their code: warnings a project may decide about (`sensitive-parameter`: a secret the
/// model writes may be what the tool is for, a login say).
pub const GRADED_CODES: &[Code] = &[Code::SensitiveParameter];

/// The graded code `id` names, if any.
fn graded_code(id: &str) -> Option<Code> {
    GRADED_CODES.iter().copied().find(|c| c.as_str() == id)
}

/// What is said of an id that is neither a lint rule nor a graded code: with a "did you mean"
/// over both.
fn unknown_id(id: &str) -> (String, String) {
    let (msg, help) = rules::unknown_message(id);
    match did_you_mean(id, GRADED_CODES.iter().map(|c| c.as_str())) {
        Some(m) if RuleId::parse(m).is_none() && !help.starts_with("did you mean") => {
            (msg, format!("did you mean `{m}`?"))
        }
        _ => (msg, help),
    }
}

/// A loaded config: the file (when there is one) and its options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub path: Option<PathBuf>,
    pub options: Options,
}

impl Config {
    /// The folder paths in the file are relative to: the file's own, or
    /// `.` when there is no file.
    #[cfg(feature = "cli")]
    pub fn dir(&self) -> PathBuf {
        self.path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    }

    /// `[emit] out_dir` resolved against [`Config::dir`].
    #[cfg(feature = "cli")]
    pub fn out_dir(&self) -> PathBuf {
        let rel = self
            .options
            .out_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT_DIR));
        if rel.is_absolute() {
            return rel;
        }
        // `manifests/../generated` reads better as `generated`.
        let joined = crate::model::manual::normalize(&self.dir().join(rel));
        if joined.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            joined
        }
    }
}

/// Where the config for these manifest paths is: `toolc.toml` in the first
/// manifest root (a folder given, or a file's folder), else beside it (in
/// the root's parent).
pub fn find(paths: &[PathBuf]) -> Option<PathBuf> {
    let first = paths.first()?;
    let root = if first.is_dir() {
        first.clone()
    } else {
        first.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let inside = root.join(FILE_NAME);
    if inside.is_file() {
        return Some(inside);
    }
    let parent = if root.as_os_str().is_empty() || root == Path::new(".") {
        return None;
    } else {
        root.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let beside = parent.join(FILE_NAME);
    beside.is_file().then_some(beside)
}

/// Finds and loads the config for these manifest paths. The file is added
/// to `sources` so its diagnostics render with excerpts.
pub fn discover(paths: &[PathBuf], sources: &mut SourceMap) -> (Config, Vec<Diagnostic>) {
    match find(paths) {
        Some(p) => load(&p, sources),
        None => (Config::default(), Vec::new()),
    }
}

/// Loads one config file.
pub fn load(path: &Path, sources: &mut SourceMap) -> (Config, Vec<Diagnostic>) {
    let mut config = Config {
        path: Some(path.to_path_buf()),
        options: Options::default(),
    };
    let text = match std::fs::metadata(path) {
        Ok(m) if m.len() > crate::manifest::MAX_FILE_BYTES => {
            Err(format!("it is {} bytes", m.len()))
        }
        _ => std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "it is not valid UTF-8".to_string())),
    };
    match text {
        Ok(text) => {
            let id = sources.add(path, text);
            let (options, diags) = parse(sources, id);
            config.options = options;
            (config, diags)
        }
        Err(e) => (
            config,
            vec![
                Diagnostic::new(Code::Io, format!("cannot read `{}`: {e}", path.display()))
                    .path(path),
            ],
        ),
    }
}

/// Deeper bracket nesting than any config needs is refused before parsing.
const MAX_BRACKETS: usize = 32;

fn span(file: FileId, r: std::ops::Range<usize>) -> Span {
    Span::new(file, r.start, r.end)
}

fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

struct Parser {
    file: FileId,
    diags: Vec<Diagnostic>,
}

/// Where `openai` stands in `[lint] dialects`, when the list has it and not `openai-strict`: a
/// toolset ported from a linter whose `openai` meant strict mode would lint the wrong form.
fn openai_alone(dialects: &[Dialect], spans: &[Span]) -> Option<Span> {
    if dialects.contains(&Dialect::OpenAiStrict) {
        return None;
    }
    let i = dialects.iter().position(|d| *d == Dialect::OpenAi)?;
    spans.get(i).copied()
}

impl Parser {
    fn wrong(&mut self, v: &Spanned<DeValue<'_>>, key: &str, expected: &str) {
        self.diags.push(
            Diagnostic::new(
                Code::WrongType,
                format!(
                    "`{key}` must be {expected}, found {}",
                    type_name(v.get_ref())
                ),
            )
            .at(span(self.file, v.span())),
        );
    }

    fn unknown(
        &mut self,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        section: &str,
        known: &[&'static str],
    ) {
        let name = key.get_ref();
        let mut d = Diagnostic::new(
            Code::UnknownKey,
            format!("unknown key `{name}` in {section}"),
        )
        .at(span(self.file, key.span()));
        d = match did_you_mean(name, known.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(format!(
                "the keys here are {}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        self.diags.push(d);
    }

    fn table<'a, 'i>(&mut self, v: &'a Spanned<DeValue<'i>>, key: &str) -> Option<&'a DeTable<'i>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => {
                self.wrong(v, key, "a table");
                None
            }
        }
    }

    fn strings<'a>(&mut self, v: &'a Spanned<DeValue<'_>>, key: &str) -> Vec<(&'a str, Span)> {
        let DeValue::Array(items) = v.get_ref() else {
            self.wrong(v, key, "a list of strings");
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            match item.get_ref() {
                DeValue::String(s) => out.push((s.as_ref(), span(self.file, item.span()))),
                _ => self.wrong(item, &format!("{key}[..]"), "a string"),
            }
        }
        out
    }

    fn rule_ids(&mut self, v: &Spanned<DeValue<'_>>, key: &str) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for (id, sp) in self.strings(v, key) {
            if RuleId::parse(id).is_some() || graded_code(id).is_some() {
                out.push((id.to_string(), sp));
            } else {
                let (msg, help) = unknown_id(id);
                self.diags
                    .push(Diagnostic::new(Code::UnknownRule, msg).at(sp).help(help));
            }
        }
        out
    }

    /// Reads `[lint]` into `options`.
    fn lint(&mut self, t: &DeTable<'_>, options: &mut Options) {
        let mut deny: Vec<(String, Span)> = Vec::new();
        let mut allow: Vec<(String, Span)> = Vec::new();
        for (k, v) in t.iter() {
            match k.get_ref().as_ref() {
                "dialects" => {
                    let mut ds = Vec::new();
                    let mut spans = Vec::new();
                    for (name, sp) in self.strings(v, "dialects") {
                        match Dialect::parse(name) {
                            Some(d) => {
                                ds.push(d);
                                spans.push(sp);
                            }
                            None => {
                                let (msg, help) = Dialect::unknown_message(name);
                                self.diags.push(
                                    Diagnostic::new(Code::UnknownDialect, msg).at(sp).help(help),
                                );
                            }
                        }
                    }
                    if let Some(sp) = openai_alone(&ds, &spans) {
                        self.diags.push(
                            Diagnostic::new(
                                Code::OpenaiNotStrict,
                                "`openai` is OpenAI's tool calling without strict mode: its rules let optional properties, open objects and any keyword through",
                            )
                            .at(sp)
                            .severity(Severity::Note)
                            .help("for strict mode (`strict: true`, Structured Outputs; the dialect other schema linters call `openai`), write `openai-strict`; list both to lint each form"),
                        );
                    }
                    options.dialects = Some(ds);
                }
                "gemini_form" => match v.get_ref() {
                    DeValue::String(name) => match GeminiForm::parse(name) {
                        Some(f) => options.gemini_form = Some(f),
                        None => {
                            let help = match did_you_mean(name, GeminiForm::NAMES) {
                                Some(s) => format!("did you mean `{s}`?"),
                                None => "write `parameters` (Gemini's OpenAPI subset, the default) or `parametersJsonSchema` (JSON Schema)".to_string(),
                            };
                            self.diags.push(
                                Diagnostic::new(
                                    Code::WrongType,
                                    format!("`gemini_form` is `{name}`, which is not a form of Gemini's function declarations"),
                                )
                                .at(span(self.file, v.span()))
                                .help(help),
                            );
                        }
                    },
                    _ => self.wrong(v, "gemini_form", "a string"),
                },
                "require_describe" => match v.get_ref() {
                    DeValue::Boolean(b) => options.require_describe = Some(*b),
                    _ => self.wrong(v, "require_describe", "a boolean"),
                },
                "deny" => deny = self.rule_ids(v, "deny"),
                "allow" => allow = self.rule_ids(v, "allow"),
                _ => self.unknown(k, "`[lint]`", LINT_KEYS),
            }
        }
        for (id, sp) in &allow {
            if let Some((_, first)) = deny.iter().find(|(d, _)| d == id) {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownRule,
                        format!("lint rule `{id}` is both denied and allowed"),
                    )
                    .at(*sp)
                    .secondary(*first, "denied here")
                    .help("keep it in one of `deny` and `allow`"),
                );
            }
        }
        if t.get("deny").is_some() {
            options.deny = Some(deny.into_iter().map(|(d, _)| d).collect());
        }
        if t.get("allow").is_some() {
            let denied: BTreeSet<String> = options.deny.iter().flatten().cloned().collect();
            options.allow = Some(
                allow
                    .into_iter()
                    .map(|(a, _)| a)
                    .filter(|a| !denied.contains(a))
                    .collect(),
            );
        }
    }

    /// Reads `[emit]` into `options`.
    fn emit(&mut self, t: &DeTable<'_>, options: &mut Options) {
        for (k, v) in t.iter() {
            match k.get_ref().as_ref() {
                "out_dir" => match v.get_ref() {
                    DeValue::String(s) if !s.trim().is_empty() => {
                        options.out_dir = Some(PathBuf::from(s.as_ref()));
                    }
                    DeValue::String(_) => self.diags.push(
                        Diagnostic::new(Code::WrongType, "`out_dir` is empty")
                            .at(span(self.file, v.span()))
                            .help(format!("name a folder, such as `{DEFAULT_OUT_DIR}`")),
                    ),
                    _ => self.wrong(v, "out_dir", "a string"),
                },
                "extensions" => match v.get_ref() {
                    DeValue::Boolean(b) => options.extensions = Some(*b),
                    _ => self.wrong(v, "extensions", "a boolean"),
                },
                "typed_formats" => match v.get_ref() {
                    DeValue::Boolean(true) => {
                        options.typed_formats = Some(TypedFormat::ALL.into_iter().collect())
                    }
                    DeValue::Boolean(false) => options.typed_formats = Some(BTreeSet::new()),
                    DeValue::Array(_) => {
                        let mut set = BTreeSet::new();
                        for (name, sp) in self.strings(v, "typed_formats") {
                            match TypedFormat::parse(name) {
                                Some(f) => {
                                    set.insert(f);
                                }
                                None => self.diags.push(unknown_format(name).at(sp)),
                            }
                        }
                        options.typed_formats = Some(set);
                    }
                    _ => self.wrong(v, "typed_formats", "a boolean or a list of formats"),
                },
                _ => self.unknown(k, "`[emit]`", EMIT_KEYS),
            }
        }
    }

    /// Reads `[lower]` into `options`.
    fn lower(&mut self, t: &DeTable<'_>, options: &mut Options) {
        for (k, v) in t.iter() {
            let slot = match k.get_ref().as_ref() {
                "close_objects" => &mut options.close_objects,
                "describe_unsupported" => &mut options.describe_unsupported,
                _ => {
                    self.unknown(k, "`[lower]`", LOWER_KEYS);
                    continue;
                }
            };
            match v.get_ref() {
                DeValue::Boolean(b) => *slot = Some(*b),
                _ => self.wrong(v, k.get_ref(), "a boolean"),
            }
        }
    }

    /// Reads `[policy]` into `options`.
    fn policy(&mut self, t: &DeTable<'_>, options: &mut Options) {
        for (k, v) in t.iter() {
            match k.get_ref().as_ref() {
                "approve_destructive" => match v.get_ref() {
                    DeValue::Boolean(b) => options.approve_destructive = Some(*b),
                    _ => self.wrong(v, "approve_destructive", "a boolean"),
                },
                _ => self.unknown(k, "`[policy]`", POLICY_KEYS),
            }
        }
    }
}

const SECTIONS: &[&str] = &["lint", "emit", "lower", "policy"];
const LINT_KEYS: &[&str] = &[
    "dialects",
    "gemini_form",
    "require_describe",
    "deny",
    "allow",
];
const LOWER_KEYS: &[&str] = &["close_objects", "describe_unsupported"];
const EMIT_KEYS: &[&str] = &["out_dir", "extensions", "typed_formats"];
const POLICY_KEYS: &[&str] = &["approve_destructive"];

/// Parses the config in `sources` under `file`.
pub fn parse(sources: &SourceMap, file: FileId) -> (Options, Vec<Diagnostic>) {
    let mut p = Parser {
        file,
        diags: Vec::new(),
    };
    let options = Options::default();
    let at = |offset: usize| Span::new(file, offset, offset + 1);
    let root = match parse_toml::read(sources.file(file), file, MAX_BRACKETS, MAX_NODES) {
        Ok(root) => root,
        Err(Refusal::TooDeep(offset)) => {
            p.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    format!("`{FILE_NAME}` nests brackets more than {MAX_BRACKETS} deep"),
                )
                .at(at(offset)),
            );
            return (options, p.diags);
        }
        Err(Refusal::TooManyNodes(offset)) => {
            p.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    format!("`{FILE_NAME}` has more than {MAX_NODES} values"),
                )
                .at(at(offset)),
            );
            return (options, p.diags);
        }
        Err(Refusal::Syntax(diags)) => return (options, diags),
    };
    let mut options = options;
    for (k, v) in root.get_ref().iter() {
        match k.get_ref().as_ref() {
            "lint" => {
                if let Some(t) = p.table(v, "lint") {
                    p.lint(t, &mut options);
                }
            }
            "emit" => {
                if let Some(t) = p.table(v, "emit") {
                    p.emit(t, &mut options);
                }
            }
            "lower" => {
                if let Some(t) = p.table(v, "lower") {
                    p.lower(t, &mut options);
                }
            }
            "policy" => {
                if let Some(t) = p.table(v, "policy") {
                    p.policy(t, &mut options);
                }
            }
            _ => p.unknown(k, "`toolc.toml`", SECTIONS),
        }
    }
    (options, p.diags)
}

/// The error for a name in `typed_formats` that is no typed format.
pub fn unknown_format(name: &str) -> Diagnostic {
    let names: Vec<&str> = TypedFormat::ALL.iter().map(|f| f.as_str()).collect();
    let help = match did_you_mean(name, names.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!(
            "the typed formats are {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(
        Code::WrongType,
        format!("`typed_formats` lists `{name}`, which is not a format toolc can type"),
    )
    .help(help)
}

#[cfg(test)]
/// Parses config text (for tests and tools): the text is added to `sources`
/// under `path`.
pub fn parse_str(sources: &mut SourceMap, path: &Path, text: &str) -> (Options, Vec<Diagnostic>) {
    let id = sources.add(path, text.to_string());
    parse(sources, id)
}
