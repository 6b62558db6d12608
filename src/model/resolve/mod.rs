//! Raw manifest structs → [`Toolset`], enforcing every rule of the manifest
//! format. Every problem is reported; what resolves is kept so later checks
//! still run on it.

mod agents;
mod ctx;
mod delegates;
mod groups;
mod operation;

pub use ctx::ResolveOptions;

use agents::{agent, capability, check_agent, manual_of};
use ctx::*;
use delegates::delegates;
use groups::{playbook, sensitive_parameters, toolbox};

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
            scope_span: None,
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
