//! Agents' delegates: other agents and capabilities exposed as one tool,
//! and cycles of delegation refused.

use super::ctx::*;
use super::groups::refine_collisions;
use super::operation::tool_named;

/// The parameters of a delegate that declares none: the task, in words.
fn task_parameters(target: &str) -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "task": {
                "type": "string",
                "description": format!("What {target} should do, in plain words."),
            }
        },
        "required": ["task"],
        "additionalProperties": false,
    })
}

/// Every agent's `delegates`: each resolved as a tool (with `{task: string}`
/// parameters unless it declares its own) bound to the agent or capability
/// it names; then cycles of delegation refused.
pub(super) fn delegates(
    ctx: &mut Ctx<'_>,
    raw_agents: &[&Named<RawAgent>],
    agents: &mut [Agent],
    capabilities: &[Capability],
) {
    for raw in raw_agents {
        let Some(i) = agents.iter().position(|a| a.name == raw.name.value) else {
            continue;
        };
        // A name defined twice keeps its first definition (`duplicate-name`).
        if agents[i].span != Some(raw.name.span) {
            continue;
        }
        let mut resolved = Vec::new();
        for d in &raw.body.delegates {
            let target = match (&d.body.agent, &d.body.capability) {
                (Some(a), None) => match agents.iter().position(|x| x.name == a.value) {
                    Some(j) => Some((
                        DelegateTarget::Agent(j),
                        a.span,
                        format!("agent `{}`", a.value),
                    )),
                    None => {
                        ctx.unknown_ref(
                            "agent",
                            a,
                            agents.iter().map(|x| x.name.as_str()),
                            "define it under `agents:`, or delegate to a capability with `capability:`",
                        );
                        None
                    }
                },
                (None, Some(c)) => match capabilities.iter().position(|x| x.name == c.value) {
                    Some(j) => Some((
                        DelegateTarget::Capability(j),
                        c.span,
                        format!("capability `{}`", c.value),
                    )),
                    None => {
                        ctx.unknown_ref(
                            "capability",
                            c,
                            capabilities.iter().map(|x| x.name.as_str()),
                            "define it under `capabilities:`",
                        );
                        None
                    }
                },
                // Neither or both: reported by the loader.
                _ => None,
            };
            let mut body = d.body.tool.clone();
            if body.parameters.is_none() {
                let what = target.as_ref().map_or("the delegate", |t| t.2.as_str());
                body.parameters = Some(Node::from_json(&task_parameters(what), d.name.span));
            }
            let named = Named {
                name: d.name.clone(),
                body,
            };
            let Some(tool) = tool_named(ctx, &named, "delegate") else {
                continue;
            };
            if let Some((target, target_span, _)) = target {
                resolved.push(Delegate {
                    tool,
                    target,
                    target_span,
                });
            }
        }
        let tools: Vec<Tool> = resolved.iter().map(|d| d.tool.clone()).collect();
        ident_collisions(
            ctx,
            "delegates",
            tools.iter().map(|t| (t.name.as_str(), &t.idents, t.span)),
        );
        refine_collisions(ctx, "delegate", &tools);
        agents[i].delegates = resolved;
    }
    delegation_cycles(ctx, agents);
    delegation_depth(ctx, agents);
}

/// The most delegates one delegated call may pass through, agent to agent: a call of the
/// outermost delegate runs the contract of each, and every agent of the chain is built inside
/// the wiring of the agents above it.
pub const MAX_DELEGATION_DEPTH: usize = 8;

/// Refuses chains of delegation longer than [`MAX_DELEGATION_DEPTH`]: each is reported once,
/// at the first delegate of the longest chain from an agent no over-long chain passes through.
/// Runs after the cycles are removed, so the delegates form a DAG.
fn delegation_depth(ctx: &mut Ctx<'_>, agents: &[Agent]) {
    // depth[a]: the most delegates a call from agent `a` passes; next[a]: the delegate of
    // `a` that starts that chain. Iterative post-order, so a long chain cannot overflow the
    // stack.
    let n = agents.len();
    let mut depth: Vec<Option<usize>> = vec![None; n];
    let mut next: Vec<Option<usize>> = vec![None; n];
    let mut on_path = vec![false; n];
    for root in 0..n {
        if depth[root].is_some() {
            continue;
        }
        // (agent, index of its next delegate to follow)
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        on_path[root] = true;
        while let Some(&mut (a, ref mut k)) = path.last_mut() {
            if let Some(d) = agents[a].delegates.get(*k) {
                *k += 1;
                // An agent on the path again would be a cycle, which resolve has removed.
                if let DelegateTarget::Agent(j) = d.target
                    && depth[j].is_none()
                    && !on_path[j]
                {
                    on_path[j] = true;
                    path.push((j, 0));
                }
                continue;
            }
            let mut best = (0, None);
            for (k, d) in agents[a].delegates.iter().enumerate() {
                let below = match d.target {
                    DelegateTarget::Agent(j) => depth[j].unwrap_or(0),
                    DelegateTarget::Capability(_) => 0,
                };
                if 1 + below > best.0 {
                    best = (1 + below, Some(k));
                }
            }
            depth[a] = Some(best.0);
            next[a] = best.1;
            on_path[a] = false;
            path.pop();
        }
    }
    let too_deep = |a: usize| depth[a].unwrap_or(0) > MAX_DELEGATION_DEPTH;
    // An over-long chain passes through an agent that is itself too deep: report at the top.
    let mut below_another = vec![false; n];
    for a in (0..n).filter(|&a| too_deep(a)) {
        for d in &agents[a].delegates {
            if let DelegateTarget::Agent(j) = d.target {
                below_another[j] = true;
            }
        }
    }
    for a in (0..n).filter(|&a| too_deep(a) && !below_another[a]) {
        let Some(k) = next[a] else { continue };
        let first = &agents[a].delegates[k];
        let mut chain = vec![format!("`{}`", agents[a].name)];
        let mut at = a;
        while let Some(k) = next[at] {
            match agents[at].delegates[k].target {
                DelegateTarget::Agent(j) => {
                    chain.push(format!("`{}`", agents[j].name));
                    at = j;
                }
                DelegateTarget::Capability(_) => break,
            }
        }
        let shown = if chain.len() > 12 {
            let rest = chain.len() - 11;
            let mut shown = chain[..10].to_vec();
            shown.push(format!("… {rest} more"));
            shown.push(chain[chain.len() - 1].clone());
            shown
        } else {
            chain
        };
        ctx.push(
            Diagnostic::new(
                Code::DelegationTooDeep,
                format!(
                    "delegate `{}` of agent `{}` starts a chain of {} delegates ({}), over the limit of {MAX_DELEGATION_DEPTH}",
                    first.tool.name,
                    agents[a].name,
                    depth[a].unwrap_or(0),
                    shown.join(" → ")
                ),
            )
            .at(first.target_span)
            .secondary(first.tool.span, "the delegate is defined here")
            .help(format!(
                "delegate to an agent further down the chain, or to a capability, so that no call passes more than {MAX_DELEGATION_DEPTH} delegates"
            )),
        );
    }
}

/// Refuses agents that delegate to themselves, directly or through other
/// agents: each cycle is reported once, at the delegate that closes it, and
/// that delegate is dropped so later stages see none.
// Over 80 lines: one iterative walk and the report of the cycles it found,
// which share the walk's state; split, that state would only be handed on.
fn delegation_cycles(ctx: &mut Ctx<'_>, agents: &mut [Agent]) {
    // 0: not visited, 1: on the path, 2: done. Iterative, so a long chain of
    // delegating agents cannot overflow the stack.
    let mut state = vec![0u8; agents.len()];
    let mut closing: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for root in 0..agents.len() {
        if state[root] != 0 {
            continue;
        }
        // (agent, index of its next delegate to follow)
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (i, ref mut k)) = path.last_mut() {
            let Some(d) = agents[i].delegates.get(*k) else {
                state[i] = 2;
                path.pop();
                continue;
            };
            let edge = *k;
            *k += 1;
            let DelegateTarget::Agent(j) = d.target else {
                continue;
            };
            match state[j] {
                0 => {
                    state[j] = 1;
                    path.push((j, 0));
                }
                1 => {
                    let from = path.iter().position(|&(p, _)| p == j).unwrap_or(0);
                    let cycle = path[from..].iter().map(|&(p, _)| p).collect();
                    closing.push((i, edge, cycle));
                }
                _ => {}
            }
        }
    }
    for (i, k, cycle) in closing.iter().rev() {
        let d = &agents[*i].delegates[*k];
        let what = format!("delegate `{}` of agent `{}`", d.tool.name, agents[*i].name);
        let mut diag = if cycle.len() == 1 {
            Diagnostic::new(
                Code::DelegationCycle,
                format!("{what} delegates to agent `{}` itself", agents[*i].name),
            )
            .help(
                "an agent already has its own tools; delegate to another agent or to a capability",
            )
        } else {
            let mut names: Vec<String> = cycle
                .iter()
                .take(16)
                .map(|&a| format!("`{}`", agents[a].name))
                .collect();
            if cycle.len() > 16 {
                names.push(format!("… {} more", cycle.len() - 16));
            }
            names.push(format!("`{}`", agents[cycle[0]].name));
            Diagnostic::new(
                Code::DelegationCycle,
                format!(
                    "{what} closes a cycle of delegation: {}",
                    names.join(" → ")
                ),
            )
            .help("a delegated call would never end; remove one delegate of the cycle, or delegate to a capability instead")
        };
        diag = diag
            .at(d.target_span)
            .secondary(d.tool.span, "the delegate is defined here");
        // Each other agent of the cycle points at the next one (the first few).
        for (m, &a) in cycle.iter().enumerate().filter(|(_, a)| **a != *i).take(8) {
            let next = cycle.get(m + 1).copied().unwrap_or(cycle[0]);
            if let Some(back) = agents[a]
                .delegates
                .iter()
                .find(|x| x.target == DelegateTarget::Agent(next))
            {
                diag = diag.secondary(
                    back.target_span,
                    format!("agent `{}` delegates here", agents[a].name),
                );
            }
        }
        ctx.push(diag);
    }
    for (i, k, _) in closing.iter().rev() {
        agents[*i].delegates.remove(*k);
    }
}
