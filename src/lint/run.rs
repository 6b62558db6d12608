//! The runners: each rule of the table graded for a dialect and enabled, run over a schema
//! (its node and schema checks) or over a tool list (its list checks), in table order.

use super::checks::Cx;
use super::list::ListCx;
use super::rules::{Check, RULES, Rule};
use super::spot::{Hit, stamp};
use super::walk;
use crate::lower::{Dialect, Role};
use serde_json::Value;

/// Runs the node and schema checks of every rule graded for `dialect` and
/// `enabled`, in table order.
pub fn schema(
    schema: &Value,
    dialect: Dialect,
    role: Role,
    enabled: &dyn Fn(&Rule) -> bool,
) -> Vec<Hit> {
    let cx = Cx {
        root: schema,
        dialect,
        role,
    };
    let rules: Vec<&Rule> = RULES
        .iter()
        .filter(|r| r.grade(Some(dialect)).is_some() && enabled(r))
        .collect();
    let mut out = Vec::new();
    let mut node_rules = Vec::new();
    for r in &rules {
        match r.check {
            Check::Node(f) => node_rules.push((r.id, f)),
            Check::Schema(f) => {
                let mut hits = Vec::new();
                f(&cx, &mut hits);
                out.extend(stamp(r.id, hits));
            }
            Check::List(_) | Check::Model(_) | Check::Emitter | Check::Agent => {}
        }
    }
    if !node_rules.is_empty() {
        walk::each(schema, &mut |n| {
            for (id, f) in &node_rules {
                let mut hits = Vec::new();
                f(&cx, n, &mut hits);
                out.extend(stamp(*id, hits));
            }
        });
    }
    out
}

/// The list rules enabled, over `cx`'s entries.
pub fn list(cx: &ListCx<'_>, enabled: &dyn Fn(&Rule) -> bool) -> Vec<Hit> {
    let dialect = cx.dialect;
    let mut out = Vec::new();
    for r in RULES {
        if let Check::List(f) = r.check
            && r.grade(Some(dialect)).is_some()
            && enabled(r)
        {
            let mut hits = Vec::new();
            f(cx, &mut hits);
            out.extend(stamp(r.id, hits));
        }
    }
    out
}
