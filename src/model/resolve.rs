//! Raw manifest structs → [`Toolset`], enforcing every rule of the manifest
//! format. Every problem is reported; what resolves is kept so later checks
//! still run on it.

use super::manual::{self, RefKind};
use super::names::{self, check_name, check_tool_name};
use super::policy::{Approval, AuthLevel, RateLimit, parse_timeout};
use super::schema::{self, SchemaId, Schemas, read::Reader};
use super::*;
use crate::diag::{Code, Diagnostic, Span, did_you_mean};
use crate::manifest::Loaded;
use crate::manifest::node::Node;
use crate::manifest::raw::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Options of the resolve stage.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// The toolset's name. Default: the first manifest folder's name.
    pub name: Option<String>,
    /// The string formats the Rust type plan reads into their own types
    /// (`uuid::Uuid`, …) instead of `String`. Default: none.
    pub typed_formats: std::collections::BTreeSet<super::rust::TypedFormat>,
}

struct Ctx<'a> {
    loaded: &'a mut Loaded,
    diags: Vec<Diagnostic>,
    schemas: Schemas,
}

impl Ctx<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reads one schema of the manifest, links its `$ref`s and checks it;
    /// the id and whether it had no error.
    /// `what` names the schema in messages.
    fn schema(&mut self, node: &Node, what: &str) -> (SchemaId, bool) {
        let errors = |d: &[Diagnostic]| d.iter().filter(|d| d.is_error()).count();
        let before = errors(&self.diags);
        let id = Reader::new(&mut self.schemas, &mut self.diags).read(node);
        schema::read::link(&mut self.schemas, id, what, &mut self.diags);
        schema::read::promote(&mut self.schemas, id);
        schema::check::check_tree(&self.schemas, id, &mut self.diags);
        (id, errors(&self.diags) == before)
    }

    fn unknown_ref<'n>(
        &mut self,
        kind: &str,
        name: &Sp<String>,
        candidates: impl IntoIterator<Item = &'n str>,
        help_none: &str,
    ) {
        let mut d = Diagnostic::new(
            Code::UnknownReference,
            format!("there is no {kind} named `{}`", name.value),
        )
        .at(name.span);
        d = match did_you_mean(&name.value, candidates) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(help_none.to_string()),
        };
        self.push(d);
    }

    fn required_text(&mut self, v: &Option<Sp<String>>, what: &str) -> String {
        match v {
            Some(s) if s.value.trim().is_empty() => {
                self.push(
                    Diagnostic::new(
                        Code::EmptyDescription,
                        format!("the description of {what} is empty"),
                    )
                    .at(s.span)
                    .help("say what it does in a sentence"),
                );
                String::new()
            }
            Some(s) => s.value.clone(),
            // A missing key was reported by the loader.
            None => String::new(),
        }
    }
}

/// Checks a name and reports the problem at its span.
fn name_ok(ctx: &mut Ctx<'_>, name: &Sp<String>, what: &str) -> bool {
    name_reported(ctx, name, what, check_name(&name.value))
}

/// Checks a tool's or play's name, which may hold capitals.
fn tool_name_ok(ctx: &mut Ctx<'_>, name: &Sp<String>, what: &str) -> bool {
    name_reported(ctx, name, what, check_tool_name(&name.value))
}

fn name_reported(
    ctx: &mut Ctx<'_>,
    name: &Sp<String>,
    what: &str,
    checked: Result<(), (String, String)>,
) -> bool {
    match checked {
        Ok(()) => true,
        Err((msg, help)) => {
            ctx.push(
                Diagnostic::new(Code::InvalidName, format!("{what}: {msg}"))
                    .at(name.span)
                    .help(help),
            );
            false
        }
    }
}

/// Gathers one section from every file; a name defined twice is reported
/// with both places and the first definition kept.
fn gather<'f, T>(
    ctx: &mut Ctx<'_>,
    files: &'f [RawFile],
    kind: &str,
    section: impl Fn(&'f RawFile) -> &'f [Named<T>],
) -> Vec<&'f Named<T>> {
    let mut first: HashMap<&str, Span> = HashMap::new();
    let mut out = Vec::new();
    for f in files {
        for n in section(f) {
            if let Some(prev) = first.get(n.name.value.as_str()) {
                ctx.push(
                    Diagnostic::new(
                        Code::DuplicateName,
                        format!("{kind} `{}` is defined twice", n.name.value),
                    )
                    .at(n.name.span)
                    .label("defined again here")
                    .secondary(*prev, "first defined here")
                    .help(format!(
                        "rename one of them; {kind} names are unique across all manifest files"
                    )),
                );
                continue;
            }
            first.insert(&n.name.value, n.name.span);
            out.push(n);
        }
    }
    out
}

/// Reports names that differ but become the same Rust identifier, in snake
/// case or in Pascal case (`a_1` and `a1` are both `A1`). `kinds` is the
/// plural used in the message.
fn ident_collisions<'n>(
    ctx: &mut Ctx<'_>,
    kinds: &str,
    items: impl IntoIterator<Item = (&'n str, &'n Idents, Span)>,
) {
    let mut seen: HashMap<String, (&str, Span)> = HashMap::new();
    for (name, idents, span) in items {
        let snake = idents.snake.to_string();
        let clash = [snake.as_str(), idents.pascal.as_str()]
            .into_iter()
            .find_map(|ident| seen.get(ident).map(|&(other, at)| (ident, other, at)));
        match clash {
            Some((ident, other, other_span)) => ctx.push(
                Diagnostic::new(
                    Code::IdentCollision,
                    format!(
                        "{kinds} `{other}` and `{name}` both become the Rust identifier `{ident}`"
                    ),
                )
                .at(span)
                .secondary(other_span, format!("`{other}` is here"))
                .help("rename one of them so they differ by more than `-`, `_` and case"),
            ),
            None => {
                seen.insert(snake, (name, span));
                seen.entry(idents.pascal.clone()).or_insert((name, span));
            }
        }
    }
}

/// Resolves the loaded files into a toolset. Problems are added to
/// `loaded.diagnostics`; the toolset holds everything that did resolve.
pub fn resolve(loaded: &mut Loaded, options: &ResolveOptions) -> Toolset {
    let files = std::mem::take(&mut loaded.files);
    let mut ctx = Ctx {
        loaded,
        diags: Vec::new(),
        schemas: Schemas::new(),
    };
    let toolset = build(&mut ctx, &files, options);
    let diags = std::mem::take(&mut ctx.diags);
    loaded.files = files;
    for d in diags {
        loaded.diagnostics.push(d);
    }
    toolset
}

fn toolset_name(ctx: &Ctx<'_>, options: &ResolveOptions) -> String {
    if let Some(n) = &options.name {
        return n.clone();
    }
    let dir = ctx
        .loaded
        .roots
        .first()
        .and_then(|r| std::fs::canonicalize(r).ok().or_else(|| Some(r.clone())))
        .and_then(|r| r.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let snake = heck::ToSnakeCase::to_snake_case(dir.as_str());
    if check_name(&snake).is_ok() {
        snake
    } else {
        "toolset".to_string()
    }
}

fn build(ctx: &mut Ctx<'_>, files: &[RawFile], options: &ResolveOptions) -> Toolset {
    let name = toolset_name(ctx, options);
    let mut inputs: Vec<PathBuf> = ctx
        .loaded
        .sources
        .files()
        .map(|(_, f)| f.path.clone())
        .collect();

    // Types first: everything else refers to them. All are read and named
    // before any is linked, so types may refer to each other in any order.
    let raw_types = gather(ctx, files, "type", |f| &f.types);
    let mut types = BTreeMap::new();
    for t in &raw_types {
        if !names::is_type_name(&t.name.value) {
            ctx.push(
                Diagnostic::new(
                    Code::InvalidTypeName,
                    format!("type name `{}` is not PascalCase", t.name.value),
                )
                .at(t.name.span)
                .help({
                    let suggestion = names::pascal_ident(&t.name.value);
                    if names::is_type_name(&suggestion) {
                        format!("type names match `^[A-Z][A-Za-z0-9]*$`, such as `{suggestion}`")
                    } else {
                        "type names match `^[A-Z][A-Za-z0-9]*$`".to_string()
                    }
                }),
            );
            continue;
        }
        let root = Reader::new(&mut ctx.schemas, &mut ctx.diags).read(&t.body);
        ctx.schemas.name(&t.name.value, root);
        types.insert(
            t.name.value.clone(),
            NamedType {
                name: t.name.value.clone(),
                root,
                span: t.name.span,
            },
        );
    }
    for t in types.values() {
        let what = format!("type `{}`", t.name);
        schema::read::link(&mut ctx.schemas, t.root, &what, &mut ctx.diags);
        schema::read::promote(&mut ctx.schemas, t.root);
    }
    for t in types.values() {
        schema::check::check_tree(&ctx.schemas, t.root, &mut ctx.diags);
    }

    let mut toolboxes = Vec::new();
    for tb in gather(ctx, files, "toolbox", |f| &f.toolboxes) {
        if let Some(t) = toolbox(ctx, tb, &types) {
            toolboxes.push(t);
        }
    }
    ident_collisions(
        ctx,
        "toolboxes",
        toolboxes
            .iter()
            .map(|t| (t.name.as_str(), &t.idents, t.span)),
    );
    let mut playbooks = Vec::new();
    for pb in gather(ctx, files, "playbook", |f| &f.playbooks) {
        if let Some(p) = playbook(ctx, pb) {
            playbooks.push(p);
        }
    }
    ident_collisions(
        ctx,
        "playbooks",
        playbooks
            .iter()
            .map(|t| (t.name.as_str(), &t.idents, t.span)),
    );
    let ops = toolboxes
        .iter()
        .flat_map(|t| t.tools.iter().map(|o| (o, "tool")))
        .chain(
            playbooks
                .iter()
                .flat_map(|p| p.plays.iter().map(|o| (o, "play"))),
        );
    sensitive_parameters(ctx, ops);

    let mut manuals = Vec::new();
    for m in gather(ctx, files, "manual", |f| &f.manuals) {
        if name_ok(ctx, &m.name, "manual")
            && let Some(man) = manual_of(ctx, &m.name.value, &m.body, &mut inputs)
        {
            manuals.push(man);
        }
    }

    let mut capabilities = Vec::new();
    for c in gather(ctx, files, "capability", |f| &f.capabilities) {
        if let Some(cap) = capability(ctx, c, &toolboxes, &playbooks, &mut manuals, &mut inputs) {
            capabilities.push(cap);
        }
    }
    ident_collisions(
        ctx,
        "capabilities",
        capabilities
            .iter()
            .map(|c| (c.name.as_str(), &c.idents, c.span)),
    );

    let raw_agents = gather(ctx, files, "agent", |f| &f.agents);
    let mut agents = Vec::new();
    for a in &raw_agents {
        if let Some(agent) = agent(ctx, a, &capabilities, &types) {
            agents.push(agent);
        }
    }
    ident_collisions(
        ctx,
        "agents",
        agents
            .iter()
            .filter_map(|a| a.span.map(|s| (a.name.as_str(), &a.idents, s))),
    );
    if raw_agents.is_empty() && !capabilities.is_empty() {
        agents.push(Agent {
            idents: Idents::of(&name),
            name: name.clone(),
            description: format!("Every capability of the {name} toolset."),
            capabilities: (0..capabilities.len()).collect(),
            scope: None,
            implicit: true,
            span: None,
        });
    }

    let mut set = Toolset {
        name,
        types,
        schemas: std::mem::take(&mut ctx.schemas),
        rust: Default::default(),
        toolboxes,
        playbooks,
        manuals,
        capabilities,
        agents,
        inputs,
    };
    for i in 0..set.agents.len() {
        check_agent(ctx, &mut set, i);
    }
    set.rust = super::rust::plan(&set, &options.typed_formats, &mut ctx.diags);
    set
}

fn toolbox(
    ctx: &mut Ctx<'_>,
    tb: &Named<RawToolbox>,
    types: &BTreeMap<String, NamedType>,
) -> Option<Toolbox> {
    if !name_ok(ctx, &tb.name, "toolbox") {
        return None;
    }
    let what = format!("toolbox `{}`", tb.name.value);
    let description = ctx.required_text(&tb.body.description, &what);
    let scope = tb.body.scope.as_ref().and_then(|s| {
        if types.contains_key(&s.value) {
            Some(s.value.clone())
        } else {
            ctx.unknown_ref(
                "type",
                s,
                types.keys().map(String::as_str),
                "define the scope type under `types:`",
            );
            None
        }
    });
    let tools = members(ctx, &what, tb.name.span, &tb.body.tools, false);
    Some(Toolbox {
        name: tb.name.value.clone(),
        idents: Idents::of(&tb.name.value),
        description,
        scope,
        tools,
        span: tb.name.span,
    })
}

fn playbook(ctx: &mut Ctx<'_>, pb: &Named<RawPlaybook>) -> Option<Playbook> {
    if !name_ok(ctx, &pb.name, "playbook") {
        return None;
    }
    let what = format!("playbook `{}`", pb.name.value);
    let description = ctx.required_text(&pb.body.description, &what);
    let plays = members(ctx, &what, pb.name.span, &pb.body.plays, true);
    Some(Playbook {
        name: pb.name.value.clone(),
        idents: Idents::of(&pb.name.value),
        description,
        plays,
        span: pb.name.span,
    })
}

/// The tools of a toolbox or the plays of a playbook (`what` names the
/// owner): at least one, each resolved, no two with one Rust identifier.
fn members(
    ctx: &mut Ctx<'_>,
    what: &str,
    span: Span,
    raw: &[Named<RawTool>],
    is_play: bool,
) -> Vec<Tool> {
    let (one, kind) = if is_play {
        ("play", "plays")
    } else {
        ("tool", "tools")
    };
    if raw.is_empty() {
        ctx.push(
            Diagnostic::new(Code::EmptySection, format!("{what} has no {kind}"))
                .at(span)
                .help(format!("add at least one {one} under `{kind}:`")),
        );
    }
    let resolved: Vec<Tool> = raw.iter().filter_map(|t| tool(ctx, t, is_play)).collect();
    ident_collisions(
        ctx,
        kind,
        resolved
            .iter()
            .map(|t| (t.name.as_str(), &t.idents, t.span)),
    );
    refine_collisions(ctx, one, &resolved);
    resolved
}

/// A warning for each value marked `sensitive` that is part of some tool's
/// or play's parameters (in their own schema, or in a named type they refer
/// to): the model writes the arguments, so it sees the value. One warning
/// per value, naming every tool and play whose parameters hold it.
fn sensitive_parameters<'t>(
    ctx: &mut Ctx<'_>,
    ops: impl Iterator<Item = (&'t Tool, &'static str)>,
) {
    let mut found: BTreeMap<SchemaId, (Vec<String>, Option<Span>)> = BTreeMap::new();
    for (op, kind) in ops {
        if !op.has_parameters {
            continue;
        }
        for (node, via) in ctx.schemas.sensitive_nodes(op.parameters) {
            let (names, first_via) = found.entry(node).or_insert((Vec::new(), via));
            let name = format!("{kind} `{}`", op.name);
            if !names.contains(&name) {
                names.push(name);
            }
            if first_via.is_none() {
                *first_via = via;
            }
        }
    }
    for (node, (names, via)) in found {
        let n = ctx.schemas.get(node);
        let what = match &n.parent {
            Some((_, step)) if step.keyword == schema::Keyword::Properties => match &step.entry {
                schema::Entry::Name(p) => format!("property `{p}`"),
                _ => "this value".to_string(),
            },
            _ => "this value".to_string(),
        };
        let owners = match names.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
            [] => continue,
        };
        let mut d = Diagnostic::new(
            Code::SensitiveParameter,
            format!(
                "{what} is marked `sensitive` but is part of the parameters of {owners}: the model writes its value, so the model sees it"
            ),
        )
        .severity(crate::diag::Severity::Warning)
        .at(n.key_span(schema::Keyword::Sensitive))
        .help(
            "pass a secret the tool needs in the toolbox's `scope` (bound per call with `CallContext::with_scope`), where the model never sees it; if the model must send it, keep `sensitive: true` so logs and error messages mask it",
        );
        if let Some(at) = via {
            d = d.secondary(at, "the parameters refer to it here".to_string());
        }
        ctx.push(d);
    }
}

/// The trait gets a method `refine_<x>` for each tool or play `x` that
/// takes parameters; another tool or play whose own method has that name
/// would collide with it.
fn refine_collisions(ctx: &mut Ctx<'_>, one: &str, ops: &[Tool]) {
    for t in ops {
        if !t.takes_parameters(&ctx.schemas) {
            continue;
        }
        let method = t.refine_method();
        if let Some(other) = ops.iter().find(|o| o.idents.snake.word() == method) {
            ctx.push(
                Diagnostic::new(
                    Code::IdentCollision,
                    format!(
                        "{one} `{}` becomes the Rust method `{method}`, which the generated trait already has: \
                         it refines the arguments of {one} `{}`",
                        other.name, t.name
                    ),
                )
                .at(other.span)
                .secondary(t.span, format!("`{}` is here", t.name))
                .help(format!("rename `{}`", other.name)),
            );
        }
    }
}

fn tool(ctx: &mut Ctx<'_>, t: &Named<RawTool>, is_play: bool) -> Option<Tool> {
    let kind = if is_play { "play" } else { "tool" };
    if !tool_name_ok(ctx, &t.name, kind) {
        return None;
    }
    let what = format!("{kind} `{}`", t.name.value);
    let raw = &t.body;
    let description = ctx.required_text(&raw.description, &what);
    let has_parameters = raw.parameters.is_some();
    let (parameters, mut params_ok) = match &raw.parameters {
        Some(node) => ctx.schema(node, &format!("the parameters of {what}")),
        None => (no_parameters(&mut ctx.schemas, t.name.span), true),
    };
    if has_parameters && params_ok {
        let root = ctx.schemas.resolved(parameters);
        let is_object = root.types == [schema::JsonType::Object]
            || (root.types.is_empty() && root.properties.is_some());
        if !is_object {
            params_ok = false;
            let found = match root.types.as_slice() {
                [] => "no `type`".to_string(),
                [t] => format!("`type: {}`", t.as_str()),
                ts => format!(
                    "`type: [{}]`",
                    ts.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
                ),
            };
            let at = root.value_span(schema::Keyword::Type);
            ctx.push(
                Diagnostic::new(
                    Code::ParametersNotObject,
                    format!("the parameters of {what} must be an object schema, found {found}"),
                )
                .at(at)
                .help("tool arguments are a JSON object: write `type: object` with `properties:`"),
            );
        }
    }
    let (returns, returns_ok) = match &raw.returns {
        Some(node) => {
            let (id, ok) = ctx.schema(node, &format!("the returns of {what}"));
            (Some(id), ok)
        }
        None => (None, true),
    };

    let mut policy = Policy::default();
    if let Some(a) = &raw.auth {
        match AuthLevel::parse(&a.value) {
            Ok(level) => policy.auth = level,
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidAuth, msg)
                    .at(a.span)
                    .help("use `auth: none`, `auth: user` or `auth: admin`"),
            ),
        }
    }
    for r in &raw.roles {
        if r.value.trim().is_empty() {
            ctx.push(
                Diagnostic::new(Code::InvalidName, format!("{what} has an empty role"))
                    .at(r.span)
                    .help("remove it, or name the role"),
            );
        } else {
            policy.roles.push(r.value.clone());
        }
    }
    if let Some(rl) = &raw.rate_limit {
        match RateLimit::parse(&rl.value) {
            Ok(r) => policy.rate_limit = Some(r),
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidRateLimit, msg)
                    .at(rl.span)
                    .help("write the limit as calls per unit, such as `10/min` or `1/s`"),
            ),
        }
    }
    if let Some(to) = &raw.timeout_ms {
        match parse_timeout(to.value) {
            Ok(ms) => policy.timeout_ms = Some(ms),
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidTimeout, msg)
                    .at(to.span)
                    .help("give the timeout in milliseconds, such as `timeout_ms: 5000`"),
            ),
        }
    }
    if let Some(ap) = &raw.approval {
        match Approval::parse(&ap.value) {
            Ok(a) => {
                policy.approval = a == Approval::Required;
                policy.approval_written = Some(a);
            }
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidApproval, msg)
                    .at(ap.span)
                    .help("write `approval: required` to hold every call for a person's approval, or `approval: none`"),
            ),
        }
    }

    let annotations = super::mcp::Hints::from_raw(&raw.annotations);
    let icons = super::mcp::icons(&raw.icons, &what, &mut ctx.diags);
    let meta = raw
        .meta
        .as_ref()
        .and_then(|m| super::mcp::meta(m, &what, &mut ctx.diags));

    let mut examples = Vec::new();
    let params_validator = params_ok
        .then(|| jsonschema::draft202012::new(&ctx.schemas.bundle(parameters)).ok())
        .flatten();
    let returns_validator = match (returns, returns_ok) {
        (Some(r), true) => jsonschema::draft202012::new(&ctx.schemas.bundle(r)).ok(),
        _ => None,
    };
    for (i, ex) in raw.examples.iter().enumerate() {
        let n = i + 1;
        let arguments = ex.arguments.as_ref().map(|a| {
            if let Some(v) = &params_validator {
                check_example(
                    ctx,
                    v,
                    a,
                    &format!("example {n} of {what}: the arguments"),
                    "parameters",
                );
            }
            a.to_json("", &mut Default::default())
        });
        let result = ex.result.as_ref().map(|r| {
            if let Some(v) = &returns_validator {
                check_example(
                    ctx,
                    v,
                    r,
                    &format!("example {n} of {what}: the result"),
                    "returns",
                );
            }
            r.to_json("", &mut Default::default())
        });
        if let Some(arguments) = arguments {
            examples.push(Example {
                arguments,
                result,
                description: ex.description.as_ref().map(|d| d.value.clone()),
                span: ex.span,
            });
        }
    }

    Some(Tool {
        name: t.name.value.clone(),
        idents: Idents::of(&t.name.value),
        description,
        title: raw.title.as_ref().map(|s| s.value.clone()),
        parameters,
        has_parameters,
        returns,
        validate_returns: raw.validate_returns.as_ref().is_none_or(|v| v.value),
        terminal: raw.terminal.as_ref().is_some_and(|v| v.value),
        policy,
        annotations,
        icons,
        meta,
        deprecated: raw.deprecated.as_ref().and_then(|d| match &d.value {
            RawDeprecated::Flag(false) => None,
            RawDeprecated::Flag(true) => Some(Deprecation { note: None }),
            RawDeprecated::Note(n) => Some(Deprecation {
                note: Some(n.clone()),
            }),
        }),
        examples,
        span: t.name.span,
    })
}

fn check_example(
    ctx: &mut Ctx<'_>,
    validator: &jsonschema::Validator,
    node: &Node,
    what: &str,
    against: &str,
) {
    let mut spans = crate::manifest::node::PointerSpans::new();
    let instance = node.to_json("", &mut spans);
    for e in validator.iter_errors(&instance) {
        let pointer = e.instance_path().as_str().to_string();
        let at = if pointer.is_empty() {
            String::new()
        } else {
            format!(" at `{pointer}`")
        };
        ctx.diags.push(
            Diagnostic::new(
                Code::InvalidExample,
                format!("{what} do not match the {against} schema{at}: {e}"),
            )
            .at(span_at(&spans, &pointer, node.span))
            .help(format!(
                "fix the example, or the {against} schema if the example is right"
            )),
        );
    }
}

/// The span of the node at `pointer`, or of its nearest written parent.
fn span_at(spans: &crate::manifest::node::PointerSpans, pointer: &str, whole: Span) -> Span {
    let mut p = pointer;
    loop {
        if let Some(s) = spans.get(p) {
            return *s;
        }
        match p.rfind('/') {
            Some(i) => p = &p[..i],
            None => return whole,
        }
    }
}

/// The parameters of a tool that declares none: an object with no
/// properties and no others allowed, advertised and enforced alike.
fn no_parameters(schemas: &mut Schemas, at: Span) -> SchemaId {
    let (id, _) = schema::read::from_json(
        schemas,
        &serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false}),
        at,
    );
    id
}

fn manual_of(
    ctx: &mut Ctx<'_>,
    name: &str,
    raw: &RawManual,
    inputs: &mut Vec<PathBuf>,
) -> Option<Manual> {
    let (text, span, source) = if let Some(text) = &raw.text {
        (text.value.clone(), text.span, ManualSource::Inline)
    } else if let Some(file) = &raw.file {
        let manifest = ctx.loaded.sources.path(file.span.file).to_path_buf();
        let root = ctx.loaded.root_of(file.span.file).to_path_buf();
        let path = match manual::confine(&file.value, &manifest, &root) {
            Ok(p) => p,
            Err(msg) => {
                ctx.push(
                    Diagnostic::new(Code::ManualPath, msg)
                        .at(file.span)
                        .help("manual files are given relative to the manifest and stay inside the manifest root"),
                );
                return None;
            }
        };
        match manual::read(&path, &mut ctx.loaded.sources) {
            Ok(id) => {
                // Keep the roots table indexed like the source map.
                ctx.loaded.roots.push(root);
                inputs.push(path.clone());
                let text = ctx.loaded.sources.file(id).text.clone();
                let len = text.len();
                (text, Span::new(id, 0, len), ManualSource::File(path))
            }
            Err(e) => {
                ctx.push(
                    Diagnostic::new(
                        Code::ManualUnreadable,
                        format!("cannot read manual file `{}`: {e}", path.display()),
                    )
                    .at(file.span)
                    .help("check the path: it is relative to the manifest file"),
                );
                return None;
            }
        }
    } else {
        return None;
    };
    let scanned = manual::scan(&text, span, &ctx.loaded.sources, &mut ctx.diags);
    Some(Manual {
        name: name.to_string(),
        description: raw.description.as_ref().map(|d| d.value.clone()),
        text: scanned.text,
        refs: scanned.refs,
        source,
        span,
    })
}

fn capability(
    ctx: &mut Ctx<'_>,
    c: &Named<RawCapability>,
    toolboxes: &[Toolbox],
    playbooks: &[Playbook],
    manuals: &mut Vec<Manual>,
    inputs: &mut Vec<PathBuf>,
) -> Option<Capability> {
    if !name_ok(ctx, &c.name, "capability") {
        return None;
    }
    let what = format!("capability `{}`", c.name.value);
    let description = ctx.required_text(&c.body.description, &what);
    let toolbox = c.body.toolbox.as_ref().and_then(|n| {
        let i = toolboxes.iter().position(|t| t.name == n.value);
        if i.is_none() {
            ctx.unknown_ref(
                "toolbox",
                n,
                toolboxes.iter().map(|t| t.name.as_str()),
                "define it under `toolboxes:`",
            );
        }
        i
    });
    let playbook = c.body.playbook.as_ref().and_then(|n| {
        let i = playbooks.iter().position(|t| t.name == n.value);
        if i.is_none() {
            ctx.unknown_ref(
                "playbook",
                n,
                playbooks.iter().map(|t| t.name.as_str()),
                "define it under `playbooks:`",
            );
        }
        i
    });
    let manual = match &c.body.manual {
        None => None,
        Some(RawManualRef::Name(n)) => {
            let i = manuals.iter().position(|m| m.name == n.value);
            if i.is_none() {
                ctx.unknown_ref(
                    "manual",
                    n,
                    manuals.iter().map(|m| m.name.as_str()),
                    "define it under `manuals:`, or write the text inline",
                );
            }
            i
        }
        Some(RawManualRef::Inline(raw)) => manual_of(ctx, &c.name.value, raw, inputs).map(|m| {
            manuals.push(m);
            manuals.len() - 1
        }),
    };
    if let Some(mi) = manual {
        for r in &manuals[mi].refs {
            let found = match r.kind {
                RefKind::Tool => {
                    toolbox.is_some_and(|t| toolboxes[t].tools.iter().any(|x| x.name == r.name))
                }
                RefKind::Play => {
                    playbook.is_some_and(|p| playbooks[p].plays.iter().any(|x| x.name == r.name))
                }
            };
            if !found {
                let reachable: Vec<&str> = match r.kind {
                    RefKind::Tool => toolbox
                        .map(|t| toolboxes[t].tools.iter().map(|x| x.name.as_str()).collect()),
                    RefKind::Play => playbook
                        .map(|p| playbooks[p].plays.iter().map(|x| x.name.as_str()).collect()),
                }
                .unwrap_or_default();
                let mut d = Diagnostic::new(
                    Code::ManualReference,
                    format!(
                        "the manual names {} `{}`, which {what} does not reach",
                        r.kind.as_str(),
                        r.name
                    ),
                )
                .at(r.span)
                .secondary(c.name.span, "the capability using the manual");
                d = match did_you_mean(&r.name, reachable.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None if reachable.is_empty() => d.help(format!(
                        "{what} has no {}s; bind a {} or remove the reference",
                        r.kind.as_str(),
                        if r.kind == RefKind::Tool {
                            "toolbox"
                        } else {
                            "playbook"
                        }
                    )),
                    None => d.help(format!(
                        "the {}s it reaches are: {}",
                        r.kind.as_str(),
                        reachable.join(", ")
                    )),
                };
                ctx.push(d);
            }
        }
    }
    Some(Capability {
        name: c.name.value.clone(),
        idents: Idents::of(&c.name.value),
        description,
        toolbox,
        playbook,
        manual,
        span: c.name.span,
    })
}

fn agent(
    ctx: &mut Ctx<'_>,
    a: &Named<RawAgent>,
    capabilities: &[Capability],
    types: &BTreeMap<String, NamedType>,
) -> Option<Agent> {
    if !name_ok(ctx, &a.name, "agent") {
        return None;
    }
    let what = format!("agent `{}`", a.name.value);
    let description = ctx.required_text(&a.body.description, &what);
    let mut caps = Vec::new();
    if let Some(list) = &a.body.capabilities {
        if list.value.is_empty() {
            ctx.push(
                Diagnostic::new(Code::EmptySection, format!("{what} has no capabilities"))
                    .at(list.span)
                    .help("list the capabilities the agent uses"),
            );
        }
        for n in &list.value {
            match capabilities.iter().position(|c| c.name == n.value) {
                Some(i) if caps.contains(&i) => ctx.push(
                    Diagnostic::new(
                        Code::DuplicateName,
                        format!("{what} lists capability `{}` twice", n.value),
                    )
                    .at(n.span)
                    .help("remove the second entry"),
                ),
                Some(i) => caps.push(i),
                None => ctx.unknown_ref(
                    "capability",
                    n,
                    capabilities.iter().map(|c| c.name.as_str()),
                    "define it under `capabilities:`",
                ),
            }
        }
    }
    let scope = a.body.scope.as_ref().and_then(|s| {
        if types.contains_key(&s.value) {
            Some(s.value.clone())
        } else {
            ctx.unknown_ref(
                "type",
                s,
                types.keys().map(String::as_str),
                "define the scope type under `types:`",
            );
            None
        }
    });
    Some(Agent {
        name: a.name.value.clone(),
        idents: Idents::of(&a.name.value),
        description,
        capabilities: caps,
        scope,
        implicit: false,
        span: Some(a.name.span),
    })
}

/// Agent-wide rules: distinct tool and play names, one scope type.
fn check_agent(ctx: &mut Ctx<'_>, set: &mut Toolset, i: usize) {
    let agent = &set.agents[i];
    let what = format!("agent `{}`", agent.name);
    let mut seen: HashMap<&str, (String, Span)> = HashMap::new();
    let mut diags = Vec::new();
    // A toolbox or playbook bound by two of the agent's capabilities: one
    // diagnostic for the pair, rather than one per tool it holds.
    let mut reached: HashMap<(&str, usize), &Capability> = HashMap::new();
    for &c in &agent.capabilities {
        let cap = &set.capabilities[c];
        let tools = cap
            .toolbox
            .map(|t| (&set.toolboxes[t].tools, "tool", &set.toolboxes[t].name, t));
        let plays = cap
            .playbook
            .map(|p| (&set.playbooks[p].plays, "play", &set.playbooks[p].name, p));
        for (list, kind, owner, index) in tools.into_iter().chain(plays) {
            let group = if kind == "tool" {
                "toolbox"
            } else {
                "playbook"
            };
            if let Some(first) = reached.get(&(group, index)) {
                diags.push(
                    Diagnostic::new(
                        Code::AgentNameCollision,
                        format!(
                            "{what} reaches {group} `{owner}` twice, through capabilities `{}` and `{}`, so it would see each of its {kind}s twice",
                            first.name, cap.name
                        ),
                    )
                    .at(agent.span.unwrap_or(cap.span))
                    .secondary(first.span, format!("capability `{}` binds `{owner}`", first.name))
                    .secondary(cap.span, format!("capability `{}` binds `{owner}` too", cap.name))
                    .help(format!("give the agent only one capability that binds `{owner}`")),
                );
                continue;
            }
            reached.insert((group, index), cap);
            for t in list {
                let this = if kind == "tool" {
                    format!("tool `{}` of toolbox `{owner}`", t.name)
                } else {
                    format!("play `{}` of playbook `{owner}`", t.name)
                };
                match seen.get(t.name.as_str()) {
                    Some((other, span)) => diags.push(
                        Diagnostic::new(
                            Code::AgentNameCollision,
                            format!("{what} reaches two tools named `{}`: {other} and {this}", t.name),
                        )
                        .at(t.span)
                        .secondary(*span, format!("{other} is defined here"))
                        .help("the model calls tools by name, so every tool and play an agent reaches needs its own name; rename one"),
                    ),
                    None => {
                        seen.insert(&t.name, (this, t.span));
                    }
                }
            }
        }
    }
    // Scope: every toolbox with a scope must use the agent's scope type.
    let mut scope_of_agent = agent.scope.clone();
    let mut first_scoped: Option<(String, Span, String)> = None;
    let mut scope_checked = BTreeSet::new();
    for &c in &agent.capabilities {
        let Some(t) = set.capabilities[c].toolbox else {
            continue;
        };
        if !scope_checked.insert(t) {
            continue;
        }
        let tb = &set.toolboxes[t];
        let Some(scope) = &tb.scope else { continue };
        match (&agent.scope, agent.implicit) {
            (Some(s), _) if s == scope => {}
            (Some(s), _) => diags.push(
                Diagnostic::new(
                    Code::ScopeMismatch,
                    format!("toolbox `{}` reads scope `{scope}`, but {what} binds scope `{s}`", tb.name),
                )
                .at(tb.span)
                .secondary(agent.span.unwrap_or(tb.span), "the agent is defined here")
                .help("every toolbox an agent uses must read the agent's scope type"),
            ),
            (None, true) => match &first_scoped {
                Some((other, other_span, other_scope)) if other_scope != scope => diags.push(
                    Diagnostic::new(
                        Code::ScopeMismatch,
                        format!(
                            "toolboxes `{other}` and `{}` read different scopes (`{other_scope}` and `{scope}`), and the implicit agent can bind only one",
                            tb.name
                        ),
                    )
                    .at(tb.span)
                    .secondary(*other_span, format!("`{other}` reads `{other_scope}`"))
                    .help("define `agents:` that group toolboxes by scope"),
                ),
                Some(_) => {}
                None => {
                    first_scoped = Some((tb.name.clone(), tb.span, scope.clone()));
                    scope_of_agent = Some(scope.clone());
                }
            },
            (None, false) => diags.push(
                Diagnostic::new(
                    Code::ScopeMismatch,
                    format!("toolbox `{}` reads scope `{scope}`, but {what} binds no scope", tb.name),
                )
                .at(tb.span)
                .secondary(agent.span.unwrap_or(tb.span), "the agent is defined here")
                .help(format!("add `scope: {scope}` to the agent")),
            ),
        }
    }
    set.agents[i].scope = scope_of_agent;
    for d in diags {
        ctx.push(d);
    }
}
