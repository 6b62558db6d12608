//! The schema rule functions: pure, from one schema (and the dialect it is
//! meant for) to hits. Each is named in the rule table; the functions are
//! in one file per provider (`common` for rules of several).

mod anthropic;
mod common;
mod gemini;
mod mcp;
mod openai;

pub use anthropic::*;
pub use common::*;
pub use gemini::*;
pub use mcp::*;
pub use openai::*;

use super::rules::{Check, RULES, Rule, RuleId};
use super::walk::{self, Node, accepts_null, esc, is_array, is_object, required, types};
use super::{Dialect, Hit, Role, Spot};
use serde_json::Value;

/// What every schema check sees besides the node.
pub struct Cx<'a> {
    pub root: &'a Value,
    pub dialect: Dialect,
    pub role: Role,
}

/// Runs the node and schema checks of every rule graded for `dialect` and
/// `enabled`, in table order.
pub fn run_schema(
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

pub(super) fn stamp(id: RuleId, spots: Vec<Spot>) -> impl Iterator<Item = Hit> {
    spots.into_iter().map(move |s| s.hit(id))
}

/// The end of a help line where `[lower] describe_unsupported` lowers the construct.
pub(crate) const OR_DESCRIBE: &str = "or set `[lower] describe_unsupported = true` in `toolc.toml`, and toolc says it in the description (the provider then no longer holds the model to it; the dispatcher still checks it)";

/// The end of a help line where `[lower] close_objects` lowers the construct.
pub(crate) const OR_CLOSE: &str = "or set `[lower] close_objects = true` in `toolc.toml`, and toolc lists the object closed (the model can then send only its declared properties)";

/// The end of a help line where Gemini's JSON Schema form takes the construct as written.
pub(crate) const OR_GEMINI_JSON: &str = "or set `[lint] gemini_form = \"parametersJsonSchema\"` in `toolc.toml`: Gemini's JSON Schema form (`gemini-jsonschema`) takes it as written";

fn at(n: &Node<'_>, key: &str) -> String {
    format!("{}/{}", n.pointer, esc(key))
}

fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    } else {
        s
    }
}

/// `$defs` and `definitions` hold named schemas, not a schema node of their
/// own; node checks about shape skip the container's direct entries only
/// through the walk (they are visited as schemas, which they are).
fn is_schema_node(n: &Node<'_>) -> bool {
    n.value.is_object()
}
