//! Raw manifest structs → [`Toolset`], enforcing every rule of the manifest
//! format. Every problem is reported; what resolves is kept so later checks
//! still run on it.

mod agents;
mod delegates;
mod groups;
mod operation;

use super::manual::{self, RefKind};
use super::names::{self, check_name, check_tool_name};
use super::policy::{Approval, AuthLevel, RateLimit, parse_timeout};
use super::schema::{self, SchemaId, Schemas, Validator, read::Reader};
use super::*;
use crate::diag::{Code, Diagnostic, Span, did_you_mean};
use crate::manifest::Loaded;
use crate::manifest::node::Node;
use crate::manifest::raw::*;
use agents::{agent, capability, check_agent, manual_of};
use delegates::delegates;
use groups::{playbook, refine_collisions, sensitive_parameters, toolbox};
use operation::{tool, tool_named};
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

/// A schema of the manifest as read and checked. One with errors still has
/// an id, so that the checks after it run on what was read.
#[derive(Debug, Clone, Copy)]
struct ReadSchema {
    id: SchemaId,
    /// No error was found in it: it can be compiled and validated against.
    sound: bool,
}

struct Ctx<'a> {
    loaded: &'a mut Loaded,
    diags: Vec<Diagnostic>,
    schemas: Schemas,
    /// The validators of named types examples were checked against (`None`: the type's schema
    /// builds none), by the type's root: tools that return one named type share one.
    validators: HashMap<SchemaId, Option<Validator>>,
}

impl Ctx<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Reads one schema of the manifest, links its `$ref`s and checks it.
    /// `what` names the schema in messages.
    fn schema(&mut self, node: &Node, what: &str) -> ReadSchema {
        let mut found = Vec::new();
        let id = Reader::new(&mut self.schemas, &mut found).read(node);
        schema::read::link(&mut self.schemas, id, what, &mut found);
        schema::read::promote(&mut self.schemas, id);
        schema::check::check_tree(&self.schemas, id, &mut found);
        let sound = !found.iter().any(Diagnostic::is_error);
        self.diags.extend(found);
        ReadSchema { id, sound }
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

/// The scope type a toolbox or agent names, which must be a named type.
fn scope_type(
    ctx: &mut Ctx<'_>,
    s: &Sp<String>,
    types: &BTreeMap<String, NamedType>,
) -> Option<String> {
    if types.contains_key(&s.value) {
        return Some(s.value.clone());
    }
    ctx.unknown_ref(
        "type",
        s,
        types.keys().map(String::as_str),
        "define the scope type under `types:`",
    );
    None
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
        validators: HashMap::new(),
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

/// The named types of every file: all are read and named before any is
/// linked, so types may refer to each other in any order.
fn named_types(ctx: &mut Ctx<'_>, files: &[RawFile]) -> BTreeMap<String, NamedType> {
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
    types
}

/// The agents of every file, or, when no file declares one, the implicit
/// agent of every capability, named after the toolset.
fn agents(
    ctx: &mut Ctx<'_>,
    files: &[RawFile],
    name: &str,
    capabilities: &[Capability],
    types: &BTreeMap<String, NamedType>,
) -> Vec<Agent> {
    let raw_agents = gather(ctx, files, "agent", |f| &f.agents);
    let mut agents = Vec::new();
    for a in &raw_agents {
        if let Some(agent) = agent(ctx, a, capabilities, types) {
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
    delegates(ctx, &raw_agents, &mut agents, capabilities);
    if raw_agents.is_empty() && !capabilities.is_empty() {
        agents.push(Agent {
            idents: Idents::of(name),
            name: name.to_string(),
            description: format!("Every capability of the {name} toolset."),
            capabilities: (0..capabilities.len()).collect(),
            scope: None,
            delegates: Vec::new(),
            implicit: true,
            span: None,
        });
    }
    agents
}

/// The toolset, section by section in the order they refer to each other.
// Over 80 lines: it is the resolve stage's one sequence (types, toolboxes,
// playbooks, manuals, capabilities, agents, then the checks across them),
// each step a call with the collisions check after it; split, the order
// would be spread over functions that each only pass the sections on.
fn build(ctx: &mut Ctx<'_>, files: &[RawFile], options: &ResolveOptions) -> Toolset {
    let name = toolset_name(ctx, options);
    let mut inputs: Vec<PathBuf> = ctx
        .loaded
        .sources
        .files()
        .map(|(_, f)| f.path.clone())
        .collect();

    // Types first: everything else refers to them.
    let types = named_types(ctx, files);

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

    let agents = agents(ctx, files, &name, &capabilities, &types);

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
