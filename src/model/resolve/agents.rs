//! Manuals, capabilities and agents.

use super::ctx::*;

pub(super) fn manual_of(
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

pub(super) fn capability(
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
        let reach = Reach {
            toolbox: toolbox.map(|t| &toolboxes[t]),
            playbook: playbook.map(|p| &playbooks[p]),
        };
        manual_refs(ctx, c, &what, &manuals[mi], reach);
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

pub(super) fn agent(
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
        // An agent of delegates alone routes every task to other agents.
        if list.value.is_empty() && a.body.delegates.is_empty() {
            ctx.push(
                Diagnostic::new(Code::EmptySection, format!("{what} has no capabilities"))
                    .at(list.span)
                    .help("list the capabilities the agent uses, or give it `delegates:`"),
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
    let scope = a
        .body
        .scope
        .as_ref()
        .and_then(|s| scope_type(ctx, s, types));
    Some(Agent {
        name: a.name.value.clone(),
        idents: Idents::of(&a.name.value),
        description,
        capabilities: caps,
        scope,
        scope_span: a.body.scope.as_ref().map(|s| s.span),
        delegates: Vec::new(),
        implicit: false,
        span: Some(a.name.span),
    })
}

/// Agent-wide rules: distinct tool and play names, one scope type.
pub(super) fn check_agent(ctx: &mut Ctx<'_>, set: &mut Toolset, i: usize) {
    let agent = &set.agents[i];
    let what = format!("agent `{}`", agent.name);
    let mut diags = Vec::new();
    let mut seen = HashMap::new();
    distinct_names(set, agent, &what, &mut seen, &mut diags);
    delegate_checks(set, agent, &what, &mut seen, &mut diags);
    let scope = agent_scope(set, agent, &what, &mut diags);
    set.agents[i].scope = scope;
    for d in diags {
        ctx.push(d);
    }
}

/// The tools an agent reaches by name: what each is, and where.
type Seen<'s> = HashMap<&'s str, (String, Span)>;

/// Reports two tools or plays of one name that agent `what` reaches, and a
/// toolbox or playbook it reaches twice.
fn distinct_names<'s>(
    set: &'s Toolset,
    agent: &'s Agent,
    what: &str,
    seen: &mut Seen<'s>,
    diags: &mut Vec<Diagnostic>,
) {
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
}

/// Reports a delegate named as another tool the agent reaches, and one whose
/// target's tools read a scope the agent does not bind.
fn delegate_checks<'s>(
    set: &'s Toolset,
    agent: &'s Agent,
    what: &str,
    seen: &mut Seen<'s>,
    diags: &mut Vec<Diagnostic>,
) {
    for d in &agent.delegates {
        let t = &d.tool;
        let this = format!("delegate `{}` of {what}", t.name);
        match seen.get(t.name.as_str()) {
            Some((other, span)) => diags.push(
                Diagnostic::new(
                    Code::AgentNameCollision,
                    format!("{what} reaches two tools named `{}`: {other} and {this}", t.name),
                )
                .at(t.span)
                .secondary(*span, format!("{other} is defined here"))
                .help("the model calls tools by name, so every tool, play and delegate an agent reaches needs its own name; rename one"),
            ),
            None => {
                seen.insert(&t.name, (this, t.span));
            }
        }
        // The inner tools run with the outer call's context, scope included.
        let (target_scope, target_what) = match d.target {
            DelegateTarget::Agent(j) => {
                let inner = &set.agents[j];
                (inner.scope.clone(), format!("agent `{}`", inner.name))
            }
            DelegateTarget::Capability(c) => {
                let cap = &set.capabilities[c];
                (
                    cap.toolbox.and_then(|t| set.toolboxes[t].scope.clone()),
                    format!("capability `{}`", cap.name),
                )
            }
        };
        if let Some(inner) = target_scope
            && agent.scope.as_ref() != Some(&inner)
        {
            let binds = match &agent.scope {
                Some(s) => format!("binds scope `{s}`"),
                None => "binds no scope".to_string(),
            };
            diags.push(
                Diagnostic::new(
                    Code::ScopeMismatch,
                    format!(
                        "delegate `{}` hands its task to {target_what}, whose tools read scope `{inner}`, but {what} {binds}",
                        t.name
                    ),
                )
                .at(d.target_span)
                .secondary(
                    agent.scope_span.or(agent.span).unwrap_or(t.span),
                    match &agent.scope {
                        Some(s) => format!("{what} binds `{s}` here"),
                        None => format!("{what} is defined here, without `scope:`"),
                    },
                )
                .help(format!(
                    "a delegate's inner tools run with the outer call's context, scope included: give {what} `scope: {inner}`, or delegate to a target that reads the same scope"
                )),
            );
        }
    }
}

/// The agent's scope type: its own, or for the implicit agent the one its
/// toolboxes read. Every toolbox with a scope must read the agent's.
fn agent_scope(
    set: &Toolset,
    agent: &Agent,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
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
        // Reported where the toolbox names its scope, with the agent's `scope:` (or, when
        // it has none, its name) beside it: the two places one of which must change.
        let at = tb.scope_span.unwrap_or(tb.span);
        match (&agent.scope, agent.implicit) {
            (Some(s), _) if s == scope => {}
            (Some(s), _) => diags.push(
                Diagnostic::new(
                    Code::ScopeMismatch,
                    format!("toolbox `{}` reads scope `{scope}`, but {what} binds scope `{s}`", tb.name),
                )
                .at(at)
                .secondary(
                    agent.scope_span.or(agent.span).unwrap_or(tb.span),
                    format!("{what} binds `{s}` here"),
                )
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
                    .at(at)
                    .secondary(*other_span, format!("`{other}` reads `{other_scope}` here"))
                    .help("define `agents:` that group toolboxes by scope"),
                ),
                Some(_) => {}
                None => {
                    first_scoped = Some((tb.name.clone(), at, scope.clone()));
                    scope_of_agent = Some(scope.clone());
                }
            },
            (None, false) => diags.push(
                Diagnostic::new(
                    Code::ScopeMismatch,
                    format!("toolbox `{}` reads scope `{scope}`, but {what} binds no scope", tb.name),
                )
                .at(at)
                .secondary(
                    agent.span.unwrap_or(tb.span),
                    format!("{what} is defined here, without `scope:`"),
                )
                .help(format!("add `scope: {scope}` to the agent")),
            ),
        }
    }
    scope_of_agent
}

/// The toolbox and playbook a capability binds, which its manual may name.
#[derive(Clone, Copy)]
struct Reach<'a> {
    toolbox: Option<&'a Toolbox>,
    playbook: Option<&'a Playbook>,
}

/// Reports each tool or play the manual of capability `c` (`what`) names
/// that the capability does not reach.
fn manual_refs(
    ctx: &mut Ctx<'_>,
    c: &Named<RawCapability>,
    what: &str,
    manual: &Manual,
    reach: Reach<'_>,
) {
    for r in &manual.refs {
        let found = match r.kind {
            RefKind::Tool => reach
                .toolbox
                .is_some_and(|t| t.tools.iter().any(|x| x.name == r.name)),
            RefKind::Play => reach
                .playbook
                .is_some_and(|p| p.plays.iter().any(|x| x.name == r.name)),
        };
        if !found {
            let reachable: Vec<&str> = match r.kind {
                RefKind::Tool => reach
                    .toolbox
                    .map(|t| t.tools.iter().map(|x| x.name.as_str()).collect()),
                RefKind::Play => reach
                    .playbook
                    .map(|p| p.plays.iter().map(|x| x.name.as_str()).collect()),
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
