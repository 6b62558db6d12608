//! Toolboxes and playbooks: their members, and the checks across a group's tools.

use super::ctx::*;
use super::operation::tool;

pub(super) fn toolbox(
    ctx: &mut Ctx<'_>,
    tb: &Named<RawToolbox>,
    types: &BTreeMap<String, NamedType>,
) -> Option<Toolbox> {
    if !name_ok(ctx, &tb.name, "toolbox") {
        return None;
    }
    let what = format!("toolbox `{}`", tb.name.value);
    let description = ctx.required_text(&tb.body.description, &what);
    let scope = tb
        .body
        .scope
        .as_ref()
        .and_then(|s| scope_type(ctx, s, types));
    let tools = members(ctx, &what, tb.name.span, &tb.body.tools, false);
    Some(Toolbox {
        name: tb.name.value.clone(),
        idents: Idents::of(&tb.name.value),
        description,
        scope,
        scope_span: tb.body.scope.as_ref().map(|s| s.span),
        tools,
        span: tb.name.span,
    })
}

pub(super) fn playbook(ctx: &mut Ctx<'_>, pb: &Named<RawPlaybook>) -> Option<Playbook> {
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
pub(super) fn members(
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
pub(super) fn sensitive_parameters<'t>(
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
pub(super) fn refine_collisions(ctx: &mut Ctx<'_>, one: &str, ops: &[Tool]) {
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
