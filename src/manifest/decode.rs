//! Spanned [`Node`] tree → raw manifest structs.
//!
//! Decoding never stops at the first problem: every unknown key (with a "did
//! you mean"), wrong type and missing key of the file is reported, and the
//! parts that do decode are kept for the later stages.

use super::node::{Entry, Node, Value};
use super::raw::*;
use crate::diag::{Code, Diagnostic, FileId, Span, did_you_mean};

pub mod backend;

/// The format versions this compiler reads.
pub const SUPPORTED_VERSIONS: &[i64] = &[1];

/// The keys of a manifest file's top level.
pub const TOP_KEYS: &[&str] = &[
    "version",
    "types",
    "toolboxes",
    "playbooks",
    "manuals",
    "capabilities",
    "agents",
];
/// The keys of a toolbox.
pub const TOOLBOX_KEYS: &[&str] = &["description", "scope", "tools"];
/// The keys of a playbook.
pub const PLAYBOOK_KEYS: &[&str] = &["description", "plays"];
/// The keys of a tool.
pub const TOOL_KEYS: &[&str] = &[
    "description",
    "title",
    "parameters",
    "returns",
    "validate_returns",
    "terminal",
    "auth",
    "roles",
    "rate_limit",
    "timeout_ms",
    "approval",
    "annotations",
    "icons",
    "meta",
    "deprecated",
    "examples",
    "backend",
];
/// Keys a tool has and a play refuses.
pub const TOOL_ONLY_KEYS: &[&str] = &[
    "terminal",
    "auth",
    "roles",
    "rate_limit",
    "timeout_ms",
    "approval",
];
/// The keys of a play.
pub const PLAY_KEYS: &[&str] = &[
    "description",
    "title",
    "parameters",
    "returns",
    "validate_returns",
    "annotations",
    "icons",
    "meta",
    "deprecated",
    "examples",
    "backend",
];
/// The keys of a tool's `annotations` toolc reads: the MCP hints, in toolc's spelling, and the
/// title. Other keys pass to MCP as written.
pub const HINT_KEYS: &[&str] = &[
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "title",
];
/// MCP's names of the hints, each with toolc's.
const MCP_HINT_NAMES: &[(&str, &str)] = &[
    ("readOnlyHint", "read_only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open_world"),
];
/// The keys of an icon.
pub const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];
/// The keys of an example.
pub const EXAMPLE_KEYS: &[&str] = &["arguments", "result", "description"];
/// The keys of a manual.
pub const MANUAL_KEYS: &[&str] = &["description", "text", "file"];
/// The keys of a capability.
pub const CAPABILITY_KEYS: &[&str] = &["description", "toolbox", "playbook", "manual"];
/// The keys of an agent.
pub const AGENT_KEYS: &[&str] = &["description", "capabilities", "scope", "delegates"];
/// The keys of a delegate: a tool's keys and the target it delegates to.
pub const DELEGATE_KEYS: &[&str] = &[
    "agent",
    "capability",
    "description",
    "title",
    "parameters",
    "returns",
    "validate_returns",
    "terminal",
    "auth",
    "roles",
    "rate_limit",
    "timeout_ms",
    "approval",
    "annotations",
    "icons",
    "meta",
    "deprecated",
    "examples",
    "backend",
];

/// The keys of one mapping, read one at a time; what is left unread at the
/// end is reported as unknown.
struct Obj<'a> {
    span: Span,
    entries: &'a [Entry],
    used: Vec<bool>,
}

impl<'a> Obj<'a> {
    fn new(node: &'a Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Self> {
        match &node.value {
            Value::Map(entries) => Some(Obj {
                span: node.span,
                entries,
                used: vec![false; entries.len()],
            }),
            other => {
                diags.push(wrong_type(node.span, what, "a mapping", other));
                None
            }
        }
    }

    fn get(&mut self, key: &str) -> Option<&'a Entry> {
        let i = self.entries.iter().position(|e| e.key == key)?;
        self.used[i] = true;
        Some(&self.entries[i])
    }

    /// The entries not read, in the order written.
    fn unread(self) -> impl Iterator<Item = &'a Entry> {
        self.entries
            .iter()
            .zip(self.used)
            .filter(|(_, used)| !used)
            .map(|(e, _)| e)
    }

    /// Reports every key not read, unless it is an `x-` extension key.
    fn finish(self, what: &str, known: &[&str], diags: &mut Vec<Diagnostic>) {
        self.finish_with(what, known, diags, |_| None);
    }

    fn finish_with(
        self,
        what: &str,
        known: &[&str],
        diags: &mut Vec<Diagnostic>,
        special: impl Fn(&Entry) -> Option<Diagnostic>,
    ) {
        for (e, used) in self.entries.iter().zip(self.used) {
            if used || e.key.starts_with("x-") {
                continue;
            }
            if let Some(d) = special(e) {
                diags.push(d);
                continue;
            }
            let mut d = Diagnostic::new(
                Code::UnknownKey,
                format!("unknown key `{}` in {what}", e.key),
            )
            .at(e.key_span);
            d = match did_you_mean(&e.key, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!(
                    "the keys of {what} are: {}; extension keys start with `x-`",
                    known.join(", ")
                )),
            };
            diags.push(d);
        }
    }
}

fn wrong_type(span: Span, what: &str, expected: &str, found: &Value) -> Diagnostic {
    Diagnostic::new(
        Code::WrongType,
        format!("{what} must be {expected}, found {}", found.type_name()),
    )
    .at(span)
}

fn missing(span: Span, key: &str, what: &str) -> Diagnostic {
    Diagnostic::new(Code::MissingKey, format!("{what} is missing `{key}`"))
        .at(span)
        .help(format!("add a `{key}` key to {what}"))
}

fn string(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Sp<String>> {
    match &e.value.value {
        Value::String(s) => Some(Sp::new(s.clone(), e.value.span)),
        other => {
            diags.push(wrong_type(
                e.value.span,
                &format!("`{}` of {what}", e.key),
                "a string",
                other,
            ));
            None
        }
    }
}

fn boolean(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Sp<bool>> {
    match &e.value.value {
        Value::Bool(b) => Some(Sp::new(*b, e.value.span)),
        other => {
            diags.push(wrong_type(
                e.value.span,
                &format!("`{}` of {what}", e.key),
                "true or false",
                other,
            ));
            None
        }
    }
}

fn string_list(e: &Entry, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Sp<Vec<Sp<String>>>> {
    let field = format!("`{}` of {what}", e.key);
    match &e.value.value {
        Value::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match &item.value {
                    Value::String(s) => out.push(Sp::new(s.clone(), item.span)),
                    other => diags.push(wrong_type(
                        item.span,
                        &format!("each item of {field}"),
                        "a string",
                        other,
                    )),
                }
            }
            Some(Sp::new(out, e.value.span))
        }
        other => {
            diags.push(wrong_type(e.value.span, &field, "a list of strings", other));
            None
        }
    }
}

/// The entries of a `name → body` section.
fn section<'a>(e: &'a Entry, diags: &mut Vec<Diagnostic>) -> &'a [Entry] {
    match &e.value.value {
        Value::Map(entries) => entries,
        // `tools:` with nothing after it: an empty section, reported by the
        // caller where emptiness matters.
        Value::Null => &[],
        other => {
            diags.push(wrong_type(
                e.value.span,
                &format!("`{}`", e.key),
                "a mapping of names to definitions",
                other,
            ));
            &[]
        }
    }
}

fn named<T>(e: &Entry, body: T) -> Named<T> {
    Named {
        name: Sp::new(e.key.clone(), e.key_span),
        body,
    }
}

/// Decodes one file's tree.
pub fn decode(file: FileId, root: &Node, diags: &mut Vec<Diagnostic>) -> RawFile {
    let mut raw = RawFile {
        file,
        version: None,
        types: Vec::new(),
        toolboxes: Vec::new(),
        playbooks: Vec::new(),
        manuals: Vec::new(),
        capabilities: Vec::new(),
        agents: Vec::new(),
    };
    let Some(mut top) = Obj::new(root, "the manifest", diags) else {
        return raw;
    };
    match top.get("version") {
        None => diags.push(
            Diagnostic::new(Code::MissingKey, "the manifest is missing `version`")
                .at(Span::new(file, root.span.start, root.span.start))
                .help("start the file with `version: 1` (YAML) or `version = 1` (TOML)"),
        ),
        Some(e) => match &e.value.value {
            Value::Number(n) if n.as_i64().is_some_and(|v| SUPPORTED_VERSIONS.contains(&v)) => {
                raw.version = Some(Sp::new(n.as_i64().unwrap_or(1), e.value.span));
            }
            other => {
                let shown = match other {
                    Value::Number(n) => n.to_string(),
                    Value::String(s) => format!("{s:?}"),
                    v => v.type_name().to_string(),
                };
                diags.push(
                    Diagnostic::new(
                        Code::UnsupportedVersion,
                        format!("unsupported manifest version {shown}"),
                    )
                    .at(e.value.span)
                    .help("this toolc reads manifest version 1: write `version: 1` (YAML) or `version = 1` (TOML)"),
                );
            }
        },
    }
    if let Some(e) = top.get("types") {
        for t in section(e, diags) {
            raw.types.push(named(t, t.value.clone()));
        }
    }
    if let Some(e) = top.get("toolboxes") {
        for t in section(e, diags) {
            if let Some(b) = toolbox(t, diags) {
                raw.toolboxes.push(named(t, b));
            }
        }
    }
    if let Some(e) = top.get("playbooks") {
        for t in section(e, diags) {
            if let Some(b) = playbook(t, diags) {
                raw.playbooks.push(named(t, b));
            }
        }
    }
    if let Some(e) = top.get("manuals") {
        for t in section(e, diags) {
            let what = format!("manual `{}`", t.key);
            if let Some(m) = manual(&t.value, &what, diags) {
                raw.manuals.push(named(t, m));
            }
        }
    }
    if let Some(e) = top.get("capabilities") {
        for t in section(e, diags) {
            if let Some(c) = capability(t, diags) {
                raw.capabilities.push(named(t, c));
            }
        }
    }
    if let Some(e) = top.get("agents") {
        for t in section(e, diags) {
            if let Some(a) = agent(t, diags) {
                raw.agents.push(named(t, a));
            }
        }
    }
    top.finish("the manifest", TOP_KEYS, diags);
    raw
}

fn toolbox(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<RawToolbox> {
    let what = format!("toolbox `{}`", e.key);
    let mut o = Obj::new(&e.value, &what, diags)?;
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    if o.get("description").is_none() {
        diags.push(missing(e.key_span, "description", &what));
    }
    let scope = o.get("scope").and_then(|d| string(d, &what, diags));
    let mut tools = Vec::new();
    match o.get("tools") {
        None => diags.push(missing(e.key_span, "tools", &what)),
        Some(t) => {
            for te in section(t, diags) {
                if let Some(tool) = tool(te, false, diags) {
                    tools.push(named(te, tool));
                }
            }
        }
    }
    o.finish(&what, TOOLBOX_KEYS, diags);
    Some(RawToolbox {
        span: e.key_span,
        description,
        scope,
        tools,
    })
}

fn playbook(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<RawPlaybook> {
    let what = format!("playbook `{}`", e.key);
    let mut o = Obj::new(&e.value, &what, diags)?;
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    if o.get("description").is_none() {
        diags.push(missing(e.key_span, "description", &what));
    }
    let mut plays = Vec::new();
    match o.get("plays") {
        None => diags.push(missing(e.key_span, "plays", &what)),
        Some(t) => {
            for pe in section(t, diags) {
                if let Some(play) = tool(pe, true, diags) {
                    plays.push(named(pe, play));
                }
            }
        }
    }
    o.finish(&what, PLAYBOOK_KEYS, diags);
    Some(RawPlaybook {
        span: e.key_span,
        description,
        plays,
    })
}

/// A tool (`is_play == false`) or a play.
fn tool(e: &Entry, is_play: bool, diags: &mut Vec<Diagnostic>) -> Option<RawTool> {
    let member = if is_play { Member::Play } else { Member::Tool };
    member_of(e, member, diags).map(|(t, _)| t)
}

/// What a tool-shaped entry is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Tool,
    Play,
    Delegate,
}

/// A delegate of an agent: a tool's keys, and `agent` or `capability`.
fn delegate(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<RawDelegate> {
    let (tool, target) = member_of(e, Member::Delegate, diags)?;
    let (agent, capability) = target.unwrap_or_default();
    let what = format!("delegate `{}`", e.key);
    if agent.is_some() == capability.is_some() {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                format!("{what} needs exactly one of `agent` and `capability`"),
            )
            .at(e.key_span)
            .help("name what the delegate hands its task to: `agent: <agent name>` or `capability: <capability name>`"),
        );
    }
    Some(RawDelegate {
        tool,
        agent,
        capability,
    })
}

/// The `agent` and `capability` keys of a delegate.
type DelegateTarget = (Option<Sp<String>>, Option<Sp<String>>);

/// A tool, a play or a delegate; for a delegate, its target keys too.
fn member_of(
    e: &Entry,
    member: Member,
    diags: &mut Vec<Diagnostic>,
) -> Option<(RawTool, Option<DelegateTarget>)> {
    let is_play = member == Member::Play;
    let noun = match member {
        Member::Tool => "tool",
        Member::Play => "play",
        Member::Delegate => "delegate",
    };
    let what = format!("{noun} `{}`", e.key);
    let mut o = Obj::new(&e.value, &what, diags)?;
    let target = (member == Member::Delegate).then(|| {
        (
            o.get("agent").and_then(|d| string(d, &what, diags)),
            o.get("capability").and_then(|d| string(d, &what, diags)),
        )
    });
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    if o.get("description").is_none() {
        diags.push(missing(e.key_span, "description", &what));
    }
    let title = o.get("title").and_then(|d| string(d, &what, diags));
    let parameters = o.get("parameters").map(|p| p.value.clone());
    let returns = o.get("returns").map(|p| p.value.clone());
    if is_play && returns.is_none() {
        diags.push(
            Diagnostic::new(
                Code::PlayMissingReturns,
                format!("{what} has no `returns` schema"),
            )
            .at(e.key_span)
            .help("plays must declare what they return: add `returns:` with a schema"),
        );
    }
    let validate_returns = o
        .get("validate_returns")
        .and_then(|d| boolean(d, &what, diags));
    let mut t = RawTool {
        span: e.key_span,
        description,
        title,
        parameters,
        returns,
        validate_returns,
        terminal: None,
        auth: None,
        roles: Vec::new(),
        rate_limit: None,
        timeout_ms: None,
        approval: None,
        annotations: RawHints::default(),
        icons: Vec::new(),
        meta: None,
        deprecated: None,
        examples: Vec::new(),
        backend: None,
    };
    if !is_play {
        tool_policies(&mut o, &what, diags, &mut t);
    }
    presentation(&mut o, &what, diags, &mut t);
    t.backend = o
        .get("backend")
        .and_then(|b| backend::backend(b, &what, diags));
    let known = match member {
        Member::Tool => TOOL_KEYS,
        Member::Play => PLAY_KEYS,
        Member::Delegate => DELEGATE_KEYS,
    };
    o.finish_with(&what, known, diags, |entry| {
        (is_play && TOOL_ONLY_KEYS.contains(&entry.key.as_str())).then(|| {
            Diagnostic::new(
                Code::ToolOnlyKey,
                format!("plays take no `{}`: {what} is a play", entry.key),
            )
            .at(entry.key_span)
            .help("plays never see the call context; move this play into a toolbox as a tool if it needs policies")
        })
    });
    Some((t, target))
}

/// The policy keys of a tool (plays have none) into `t`.
fn tool_policies(o: &mut Obj<'_>, what: &str, diags: &mut Vec<Diagnostic>, t: &mut RawTool) {
    t.terminal = o.get("terminal").and_then(|d| boolean(d, what, diags));
    t.auth = o.get("auth").and_then(|d| string(d, what, diags));
    t.roles = o
        .get("roles")
        .and_then(|d| string_list(d, what, diags))
        .map(|l| l.value)
        .unwrap_or_default();
    t.rate_limit = o.get("rate_limit").and_then(|d| string(d, what, diags));
    t.approval = o.get("approval").and_then(|d| string(d, what, diags));
    t.timeout_ms = o.get("timeout_ms").and_then(|d| match &d.value.value {
        Value::Number(n) => n.as_f64().map(|v| Sp::new(v, d.value.span)),
        other => {
            diags.push(wrong_type(
                d.value.span,
                &format!("`timeout_ms` of {what}"),
                "a positive integer",
                other,
            ));
            None
        }
    });
}

/// The keys that change how a tool or play is shown (annotations, icons, `_meta`, deprecation
/// and examples) into `t`.
fn presentation(o: &mut Obj<'_>, what: &str, diags: &mut Vec<Diagnostic>, t: &mut RawTool) {
    if let Some(a) = o.get("annotations") {
        t.annotations = hints(&a.value, what, diags);
    }
    if let Some(i) = o.get("icons") {
        match &i.value.value {
            Value::Seq(items) => t
                .icons
                .extend(items.iter().filter_map(|item| icon(item, what, diags))),
            other => diags.push(wrong_type(
                i.value.span,
                &format!("`icons` of {what}"),
                "a list of icons, each `{src: ...}`",
                other,
            )),
        }
    }
    t.meta = o.get("meta").and_then(|d| match &d.value.value {
        Value::Map(_) => Some(d.value.clone()),
        other => {
            diags.push(wrong_type(
                d.value.span,
                &format!("`meta` of {what}"),
                "a mapping",
                other,
            ));
            None
        }
    });
    t.deprecated = o.get("deprecated").and_then(|d| match &d.value.value {
        Value::Bool(b) => Some(Sp::new(RawDeprecated::Flag(*b), d.value.span)),
        Value::String(s) => Some(Sp::new(RawDeprecated::Note(s.clone()), d.value.span)),
        other => {
            diags.push(wrong_type(
                d.value.span,
                &format!("`deprecated` of {what}"),
                "true, false or a note",
                other,
            ));
            None
        }
    });
    if let Some(ex) = o.get("examples") {
        match &ex.value.value {
            Value::Seq(items) => {
                for item in items {
                    if let Some(x) = example(item, what, diags) {
                        t.examples.push(x);
                    }
                }
            }
            other => diags.push(wrong_type(
                ex.value.span,
                &format!("`examples` of {what}"),
                "a list",
                other,
            )),
        }
    }
}

/// A tool's `annotations`: the hints, in toolc's spelling; `title`; and any other key, passed
/// to MCP's `annotations` as written. MCP's own names of the hints (`readOnlyHint`) and keys
/// close to a known one (`readonly`, `titel`) are refused with the key to write, so each hint
/// has one spelling and a typo is not sent to clients as a key of its own.
fn hints(node: &Node, owner: &str, diags: &mut Vec<Diagnostic>) -> RawHints {
    let what = format!("the annotations of {owner}");
    let Some(mut o) = Obj::new(node, &what, diags) else {
        return RawHints::default();
    };
    let mut flag = |key: &str| o.get(key).and_then(|d| boolean(d, &what, diags));
    let mut out = RawHints {
        read_only: flag("read_only"),
        destructive: flag("destructive"),
        idempotent: flag("idempotent"),
        open_world: flag("open_world"),
        ..RawHints::default()
    };
    out.title = o.get("title").and_then(|d| string(d, &what, diags));
    for entry in o.unread() {
        if entry.key.starts_with("x-") {
            continue;
        }
        if let Some((mcp, ours)) = MCP_HINT_NAMES.iter().find(|(m, _)| *m == entry.key) {
            diags.push(
                Diagnostic::new(
                    Code::UnknownKey,
                    format!("unknown key `{mcp}` in {what}: it is MCP's name for the hint toolc spells `{ours}`"),
                )
                .at(entry.key_span)
                .help(format!("did you mean `{ours}`? toolc sends it to MCP clients as `{mcp}`")),
            );
            continue;
        }
        if let Some(known) = near_hint_key(&entry.key) {
            diags.push(
                Diagnostic::new(
                    Code::UnknownKey,
                    format!("unknown key `{}` in {what}", entry.key),
                )
                .at(entry.key_span)
                .help(format!(
                    "did you mean `{known}`? A key of your own is passed to MCP clients as written, but not one this close to a key toolc reads"
                )),
            );
            continue;
        }
        out.other.push((entry.key.clone(), entry.value.clone()));
    }
    out
}

/// The key of `annotations` toolc reads that `key` is a near-miss of: the same but for case,
/// separators and MCP's `Hint` suffix (`READ-ONLY`, `openWorldHint`), or close by the did-you-mean
/// distance (`destructve`).
fn near_hint_key(key: &str) -> Option<&'static str> {
    let plain = |k: &str| {
        let k: String = k
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | '.' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        k.strip_suffix("hint").map(str::to_string).unwrap_or(k)
    };
    let key_plain = plain(key);
    HINT_KEYS
        .iter()
        .copied()
        .find(|k| plain(k) == key_plain)
        .or_else(|| did_you_mean(key, HINT_KEYS.iter().copied()))
}

/// One of a tool's `icons`.
fn icon(node: &Node, owner: &str, diags: &mut Vec<Diagnostic>) -> Option<RawIcon> {
    let what = format!("an icon of {owner}");
    let mut o = Obj::new(node, &what, diags)?;
    let src = o.get("src").and_then(|d| string(d, &what, diags));
    if o.get("src").is_none() {
        diags.push(missing(node.span, "src", &what));
    }
    let mime_type = o.get("mime_type").and_then(|d| string(d, &what, diags));
    let sizes = o
        .get("sizes")
        .and_then(|d| string_list(d, &what, diags))
        .map(|l| l.value)
        .unwrap_or_default();
    let theme = o.get("theme").and_then(|d| string(d, &what, diags));
    o.finish(&what, ICON_KEYS, diags);
    Some(RawIcon {
        span: node.span,
        src,
        mime_type,
        sizes,
        theme,
    })
}

fn example(node: &Node, owner: &str, diags: &mut Vec<Diagnostic>) -> Option<RawExample> {
    let what = format!("an example of {owner}");
    let mut o = Obj::new(node, &what, diags)?;
    let arguments = o.get("arguments").map(|e| e.value.clone());
    if arguments.is_none() {
        diags.push(missing(node.span, "arguments", &what));
    }
    let result = o.get("result").map(|e| e.value.clone());
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    o.finish(&what, EXAMPLE_KEYS, diags);
    Some(RawExample {
        span: node.span,
        arguments,
        result,
        description,
    })
}

fn manual(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<RawManual> {
    let mut o = Obj::new(node, what, diags)?;
    let description = o.get("description").and_then(|d| string(d, what, diags));
    let text = o.get("text").and_then(|d| string(d, what, diags));
    let file = o.get("file").and_then(|d| string(d, what, diags));
    let has_text = o.get("text").is_some();
    let has_file = o.get("file").is_some();
    if has_text == has_file {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                format!("{what} needs exactly one of `text` and `file`"),
            )
            .at(o.span)
            .help("write the instructions inline with `text:`, or point at a Markdown file with `file:`"),
        );
    }
    o.finish(what, MANUAL_KEYS, diags);
    Some(RawManual {
        span: node.span,
        description,
        text,
        file,
    })
}

/// Whether a string is a valid section name (and so, as a capability's
/// `manual`, a reference rather than inline text).
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

fn capability(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<RawCapability> {
    let what = format!("capability `{}`", e.key);
    let mut o = Obj::new(&e.value, &what, diags)?;
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    if o.get("description").is_none() {
        diags.push(missing(e.key_span, "description", &what));
    }
    let toolbox = o.get("toolbox").and_then(|d| string(d, &what, diags));
    let playbook = o.get("playbook").and_then(|d| string(d, &what, diags));
    let manual = o.get("manual").and_then(|m| match &m.value.value {
        Value::String(s) if is_name(s) => {
            Some(RawManualRef::Name(Sp::new(s.clone(), m.value.span)))
        }
        Value::String(s) => Some(RawManualRef::Inline(RawManual {
            span: m.value.span,
            description: None,
            text: Some(Sp::new(s.clone(), m.value.span)),
            file: None,
        })),
        Value::Map(_) => {
            manual(&m.value, &format!("the manual of {what}"), diags).map(RawManualRef::Inline)
        }
        other => {
            diags.push(wrong_type(
                m.value.span,
                &format!("`manual` of {what}"),
                "a manual name, inline text or a manual mapping",
                other,
            ));
            None
        }
    });
    if o.get("toolbox").is_none() && o.get("playbook").is_none() {
        diags.push(
            Diagnostic::new(
                Code::EmptySection,
                format!("{what} has neither a `toolbox` nor a `playbook`"),
            )
            .at(e.key_span)
            .help(
                "a capability binds a toolbox, a playbook, or both: add `toolbox:` or `playbook:`",
            ),
        );
    }
    o.finish(&what, CAPABILITY_KEYS, diags);
    Some(RawCapability {
        span: e.key_span,
        description,
        toolbox,
        playbook,
        manual,
    })
}

fn agent(e: &Entry, diags: &mut Vec<Diagnostic>) -> Option<RawAgent> {
    let what = format!("agent `{}`", e.key);
    let mut o = Obj::new(&e.value, &what, diags)?;
    let description = o.get("description").and_then(|d| string(d, &what, diags));
    if o.get("description").is_none() {
        diags.push(missing(e.key_span, "description", &what));
    }
    let capabilities = o
        .get("capabilities")
        .and_then(|d| string_list(d, &what, diags));
    if o.get("capabilities").is_none() {
        diags.push(missing(e.key_span, "capabilities", &what));
    }
    let scope = o.get("scope").and_then(|d| string(d, &what, diags));
    let mut delegates = Vec::new();
    if let Some(d) = o.get("delegates") {
        for de in section(d, diags) {
            if let Some(body) = delegate(de, diags) {
                delegates.push(named(de, body));
            }
        }
    }
    o.finish(&what, AGENT_KEYS, diags);
    Some(RawAgent {
        span: e.key_span,
        description,
        capabilities,
        scope,
        delegates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key lists are constants, each written out in full: a key added to
    /// tools must reach delegates, and plays unless it is one they refuse.
    #[test]
    fn play_and_delegate_keys_follow_the_tool_keys() {
        let plays: Vec<&str> = TOOL_KEYS
            .iter()
            .copied()
            .filter(|k| !TOOL_ONLY_KEYS.contains(k))
            .collect();
        assert_eq!(PLAY_KEYS, plays.as_slice());
        let delegates: Vec<&str> = ["agent", "capability"]
            .into_iter()
            .chain(TOOL_KEYS.iter().copied())
            .collect();
        assert_eq!(DELEGATE_KEYS, delegates.as_slice());
    }
}
