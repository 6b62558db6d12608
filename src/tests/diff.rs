//! `toolc diff`'s comparison: one test per change kind (named after it; a meta-test
//! checks that every kind of `ChangeKind::ALL` has one and a row in
//! docs/diff.md) and the comparison by meaning. The command is tested from the
//! outside, in tests/toolchain/diff.rs.

use super::manifest_text::{param, tool};
use super::repo;
use crate::Dialect;
use crate::ResolveOptions;
use crate::diff::{ChangeKind, Class, DiffOptions};
use crate::manifest::{self, Loaded};
use crate::model::{self, Toolset};
use std::path::Path;

fn toolset(yaml: &str) -> Toolset {
    let mut loaded = Loaded::default();
    manifest::load_str(
        &mut loaded,
        Path::new("."),
        Path::new("toolset.yaml"),
        yaml.to_string(),
    );
    let set = model::resolve(
        &mut loaded,
        &ResolveOptions {
            name: Some("desk".into()),
            ..Default::default()
        },
    );
    let errors: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| crate::render_plain(&loaded.sources, d))
        .collect();
    assert!(errors.is_empty(), "{yaml}\n{}", errors.join("\n"));
    set
}

/// The changes from `old` to `new`: (kind, class, message), in order.
fn changes_with(old: &str, new: &str, options: &DiffOptions) -> Vec<(ChangeKind, Class, String)> {
    crate::diff::diff(&toolset(old), &toolset(new), options)
        .into_iter()
        .map(|c| (c.kind, c.class, c.message))
        .collect()
}

fn changes(old: &str, new: &str) -> Vec<(ChangeKind, Class, String)> {
    changes_with(old, new, &DiffOptions::default())
}

/// The one change from `old` to `new`.
fn only(old: &str, new: &str) -> (ChangeKind, Class, String) {
    let all = changes(old, new);
    assert_eq!(all.len(), 1, "{all:#?}");
    all.into_iter().next().unwrap()
}

/// A tool returning `schema` (flow YAML).
fn returns(schema: &str) -> String {
    tool(&format!("        returns: {schema}\n"))
}

use ChangeKind as K;
use Class::{BreakingCallers as C, BreakingModel as M, Compatible as OK};

// ------------------------------------------------------------ agents and tools

const TWO_AGENTS: &str = "version: 1
toolboxes:
  t:
    description: Tools.
    tools:
      a: { description: Does a. }
capabilities:
  c: { description: C., toolbox: t }
agents:
  front: { description: Front desk., capabilities: [c] }
  back: { description: Back office., capabilities: [c] }
";

#[test]
fn agent_removed() {
    let one = TWO_AGENTS.replace(
        "  back: { description: Back office., capabilities: [c] }\n",
        "",
    );
    assert_eq!(
        only(TWO_AGENTS, &one),
        (K::AgentRemoved, C, "agent `back` was removed".into())
    );
}

#[test]
fn agent_added() {
    let one = TWO_AGENTS.replace(
        "  back: { description: Back office., capabilities: [c] }\n",
        "",
    );
    assert_eq!(
        only(&one, TWO_AGENTS),
        (K::AgentAdded, OK, "agent `back` was added".into())
    );
}

const TWO_TOOLS: &str = "version: 1
toolboxes:
  t:
    description: Tools.
    tools:
      a: { description: Does a. }
      b: { description: Does b. }
";

#[test]
fn tool_removed() {
    let one = TWO_TOOLS.replace("      b: { description: Does b. }\n", "");
    assert_eq!(
        only(TWO_TOOLS, &one),
        (K::ToolRemoved, C, "tool `b` was removed".into())
    );
}

#[test]
fn tool_added() {
    let one = TWO_TOOLS.replace("      b: { description: Does b. }\n", "");
    assert_eq!(
        only(&one, TWO_TOOLS),
        (K::ToolAdded, OK, "tool `b` was added".into())
    );
}

#[test]
fn tool_kind_changed() {
    let as_tool = tool("        returns: { type: string }\n");
    let as_play = "version: 1
playbooks:
  t:
    description: Plays.
    plays:
      a:
        description: Does a.
        returns: { type: string }
";
    assert_eq!(
        only(&as_tool, as_play),
        (
            K::ToolKindChanged,
            C,
            "`a` was a tool and is a play: its failures now come back as an error envelope in the result".into()
        )
    );
}

#[test]
fn policy_tightened() {
    let before = tool("        roles: [support, admin]\n        rate_limit: 30/min\n");
    let after = tool(
        "        auth: user\n        roles: [admin]\n        rate_limit: 1/s\n        timeout_ms: 500\n",
    );
    let all = changes(&before, &after);
    assert_eq!(
        all,
        [
            (
                K::PolicyTightened,
                C,
                "tool `a`: `auth` went from none to user".into()
            ),
            (
                K::PolicyTightened,
                C,
                "tool `a`: `roles` went from `support`, `admin` to `admin`".into()
            ),
            // 1/s is more than 30/min: the rate limit loosened.
            (
                K::PolicyLoosened,
                OK,
                "tool `a`: `rate_limit` went from 30/min to 1/s".into()
            ),
            (
                K::PolicyTightened,
                C,
                "tool `a`: `timeout_ms` went from no timeout to 500 ms".into()
            ),
        ]
    );
    // The same roles in another order are the same policy.
    let swapped = tool("        roles: [admin, support]\n        rate_limit: 30/min\n");
    assert!(changes(&before, &swapped).is_empty());
    // Calls that ran at once now wait for a person.
    assert_eq!(
        only(&tool(""), &tool("        approval: required\n")),
        (
            K::PolicyTightened,
            C,
            "tool `a`: `approval` went from none to required".into()
        )
    );
    // Written out, the default is no change.
    assert!(changes(&tool(""), &tool("        approval: none\n")).is_empty());
}

#[test]
fn policy_loosened() {
    let before = tool(
        "        auth: admin\n        roles: [admin]\n        rate_limit: 2/min\n        timeout_ms: 500\n",
    );
    let after =
        tool("        auth: user\n        roles: [admin, support]\n        timeout_ms: 1000\n");
    let kinds: Vec<(ChangeKind, Class)> = changes(&before, &after)
        .into_iter()
        .map(|(k, c, _)| (k, c))
        .collect();
    assert_eq!(kinds, [(K::PolicyLoosened, OK); 4]);
    assert_eq!(
        only(&tool("        approval: required\n"), &tool("")),
        (
            K::PolicyLoosened,
            OK,
            "tool `a`: `approval` went from required to none".into()
        )
    );
}

// ------------------------------------------------------------ schemas

#[test]
fn type_narrowed() {
    let (old, new) = ("{ type: [string, \"null\"] }", "{ type: string }");
    assert_eq!(
        only(&param(old, true), &param(new, true)),
        (
            K::TypeNarrowed,
            C,
            "tool `a`: parameter `p` took string or null, now takes string".into()
        )
    );
    // In a result, fewer kinds of value is no surprise for callers.
    assert_eq!(only(&returns(old), &returns(new)).1, OK);
}

#[test]
fn type_widened() {
    let (old, new) = ("{ type: integer }", "{ type: number }");
    assert_eq!(
        only(&param(old, true), &param(new, true)),
        (
            K::TypeWidened,
            OK,
            "tool `a`: parameter `p` took integer, now takes number".into()
        )
    );
    // A result that may now be a fraction breaks callers reading integers.
    assert_eq!(
        only(&returns(old), &returns(new)),
        (
            K::TypeWidened,
            C,
            "tool `a`: its result took integer, now takes number".into()
        )
    );
}

#[test]
fn type_changed() {
    assert_eq!(
        only(
            &param("{ type: string }", true),
            &param("{ type: boolean }", true)
        ),
        (
            K::TypeChanged,
            C,
            "tool `a`: parameter `p` took string, now takes boolean".into()
        )
    );
    assert_eq!(
        only(&returns("{ type: string }"), &returns("{ type: boolean }")).1,
        C
    );
}

#[test]
fn enum_narrowed() {
    let (old, new) = (
        "{ enum: [open, closed, pending] }",
        "{ enum: [open, pending] }",
    );
    assert_eq!(
        only(&param(old, true), &param(new, true)),
        (
            K::EnumNarrowed,
            C,
            "tool `a`: parameter `p` no longer allows `closed`".into()
        )
    );
    assert_eq!(only(&returns(old), &returns(new)).1, OK);
    // A list where there was none.
    assert_eq!(
        only(
            &param("{ type: string }", true),
            &param("{ type: string, enum: [a, b] }", true)
        ),
        (
            K::EnumNarrowed,
            C,
            "tool `a`: parameter `p` is now limited to `a`, `b`".into()
        )
    );
}

#[test]
fn enum_widened() {
    let (old, new) = ("{ const: 1 }", "{ enum: [1, 2] }");
    assert_eq!(
        only(&param(old, true), &param(new, true)),
        (
            K::EnumWidened,
            OK,
            "tool `a`: parameter `p` now also allows `2`".into()
        )
    );
    assert_eq!(only(&returns(old), &returns(new)).1, C);
}

#[test]
fn bound_tightened() {
    let old = "{ type: integer, minimum: 1, maximum: 100 }";
    let new = "{ type: integer, exclusiveMinimum: 1, maximum: 50, multipleOf: 5 }";
    assert_eq!(
        changes(&param(old, true), &param(new, true)),
        [
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now has the lower bound > 1 (it was >= 1)".into()
            ),
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now has the upper bound <= 50 (it was <= 100)".into()
            ),
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now has a `multipleOf` 5".into()
            ),
        ]
    );
    // Strings and arrays, and an integer's format, which is its range.
    let old = "{ type: array, items: { type: string }, maxItems: 5 }";
    let new = "{ type: array, items: { type: string, pattern: \"^[a-z]+$\", maxLength: 8 }, maxItems: 5, uniqueItems: true }";
    let found: Vec<String> = changes(&param(old, true), &param(new, true))
        .into_iter()
        .map(|(k, c, m)| {
            assert_eq!((k, c), (K::BoundTightened, C), "{m}");
            m
        })
        .collect();
    assert_eq!(
        found,
        [
            "tool `a`: parameter `p` its items must now be unique",
            "tool `a`: parameter `p[]` now has a `maxLength` 8",
            "tool `a`: parameter `p[]` now has a `pattern` `^[a-z]+$`",
        ]
    );
    assert_eq!(
        changes(
            &param("{ type: integer }", true),
            &param("{ type: integer, format: int32 }", true)
        ),
        [
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now has the lower bound >= -2147483648 (it was >= -9223372036854775808)".into()
            ),
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now has the upper bound <= 2147483647 (it was <= 9223372036854775807)".into()
            ),
        ]
    );
    assert!(
        changes(&returns(old), &returns(new))
            .iter()
            .all(|(_, c, _)| *c == OK)
    );
}

#[test]
fn bound_loosened() {
    let old = "{ type: string, minLength: 3, format: email }";
    let new = "{ type: string, minLength: 1 }";
    assert_eq!(
        changes(&param(old, true), &param(new, true)),
        [
            (
                K::BoundLoosened,
                OK,
                "tool `a`: parameter `p` now has the `minLength` 1 (it was 3)".into()
            ),
            (
                K::BoundLoosened,
                OK,
                "tool `a`: parameter `p` no longer has a `format` (it was `email`)".into()
            ),
        ]
    );
    // A result that may now be shorter or in no format breaks callers relying on it.
    assert!(
        changes(&returns(old), &returns(new))
            .iter()
            .all(|(_, c, _)| *c == C)
    );
}

/// `dependentRequired`: a property required beside another is a bound on the object, each pair
/// on its own; so is a schema of `dependentSchemas`.
#[test]
fn dependent_keywords_are_bounds() {
    let object = |deps: &str| {
        format!(
            "{{ type: object, properties: {{ card: {{ type: string }}, address: {{ type: string }}, zip: {{ type: string }} }}{deps} }}"
        )
    };
    let (none, one, other) = (
        object(""),
        object(", dependentRequired: { card: [address] }"),
        object(", dependentRequired: { card: [zip] }"),
    );
    assert_eq!(
        only(&param(&none, true), &param(&one, true)),
        (
            K::BoundTightened,
            C,
            "tool `a`: parameter `p` now requires `address` when `card` is given".into()
        )
    );
    assert_eq!(
        changes(&param(&one, true), &param(&other, true)),
        [
            (
                K::BoundTightened,
                C,
                "tool `a`: parameter `p` now requires `zip` when `card` is given".into()
            ),
            (
                K::BoundLoosened,
                OK,
                "tool `a`: parameter `p` no longer requires `address` when `card` is given".into()
            ),
        ]
    );
    // `dependentSchemas`: added, replaced, removed.
    let with = |schema: &str| object(&format!(", dependentSchemas: {{ card: {schema} }}"));
    let (zip, address) = (with("{ required: [zip] }"), with("{ required: [address] }"));
    assert_eq!(
        only(&param(&none, true), &param(&zip, true)),
        (
            K::BoundTightened,
            C,
            "tool `a`: parameter `p` must now match a schema when `card` is given".into()
        )
    );
    assert_eq!(
        only(&param(&zip, true), &param(&address, true)),
        (
            K::BoundChanged,
            C,
            "tool `a`: parameter `p` has another schema to match when `card` is given".into()
        )
    );
    assert_eq!(
        only(&param(&zip, true), &param(&none, true)).0,
        K::BoundLoosened
    );
}

#[test]
fn bound_changed() {
    assert_eq!(
        only(
            &param("{ type: string, pattern: \"^A-\" }", true),
            &param("{ type: string, pattern: \"^B-\" }", true)
        ),
        (
            K::BoundChanged,
            C,
            "tool `a`: parameter `p` now has the `pattern` `^B-` (it was `^A-`)".into()
        )
    );
}

const OBJECT: &str = "{ type: object, properties: { id: { type: string }, note: { type: string } }, required: [id] }";

#[test]
fn property_added() {
    let more = "{ type: object, properties: { id: { type: string }, note: { type: string }, tag: { type: string } }, required: [id] }";
    assert_eq!(
        only(&param(OBJECT, true), &param(more, true)),
        (
            K::PropertyAdded,
            OK,
            "tool `a`: parameter `p.tag` was added".into()
        )
    );
    assert_eq!(
        only(&returns(OBJECT), &returns(more)),
        (
            K::PropertyAdded,
            OK,
            "tool `a`: result field `tag` was added".into()
        )
    );
}

#[test]
fn property_removed() {
    let less = "{ type: object, properties: { id: { type: string } }, required: [id] }";
    assert_eq!(
        only(&param(OBJECT, true), &param(less, true)),
        (
            K::PropertyRemoved,
            C,
            "tool `a`: parameter `p.note` was removed".into()
        )
    );
    // A return field callers read is gone.
    assert_eq!(
        only(&returns(OBJECT), &returns(less)),
        (
            K::PropertyRemoved,
            C,
            "tool `a`: result field `note` was removed".into()
        )
    );
}

#[test]
fn property_now_required() {
    // A parameter added as required.
    let more = "{ type: object, properties: { id: { type: string }, note: { type: string }, tag: { type: string } }, required: [id, tag] }";
    assert_eq!(
        only(&param(OBJECT, true), &param(more, true)),
        (
            K::PropertyNowRequired,
            C,
            "tool `a`: parameter `p.tag` is new and required".into()
        )
    );
    // An optional one made required; in a result, always present is no harm.
    let required = OBJECT.replace("required: [id]", "required: [id, note]");
    assert_eq!(
        only(&param(OBJECT, true), &param(&required, true)),
        (
            K::PropertyNowRequired,
            C,
            "tool `a`: parameter `p.note` is now required".into()
        )
    );
    assert_eq!(only(&returns(OBJECT), &returns(&required)).1, OK);
    // The top-level parameter itself.
    assert_eq!(
        only(
            &param("{ type: string }", false),
            &param("{ type: string }", true)
        )
        .2,
        "tool `a`: parameter `p` is now required"
    );
}

#[test]
fn property_now_optional() {
    let optional = OBJECT.replace("required: [id]", "required: []");
    assert_eq!(
        only(&param(OBJECT, true), &param(&optional, true)),
        (
            K::PropertyNowOptional,
            OK,
            "tool `a`: parameter `p.id` is no longer required".into()
        )
    );
    assert_eq!(
        only(&returns(OBJECT), &returns(&optional)),
        (
            K::PropertyNowOptional,
            C,
            "tool `a`: result field `id` is no longer required".into()
        )
    );
}

#[test]
fn extra_properties_refused() {
    let closed = OBJECT.replace(
        "required: [id]",
        "required: [id], additionalProperties: false",
    );
    assert_eq!(
        only(&param(OBJECT, true), &param(&closed, true)),
        (
            K::ExtraPropertiesRefused,
            C,
            "tool `a`: parameter `p` no longer takes properties beyond the ones it declares".into()
        )
    );
    assert_eq!(only(&returns(OBJECT), &returns(&closed)).1, OK);
}

#[test]
fn extra_properties_allowed() {
    let closed = OBJECT.replace(
        "required: [id]",
        "required: [id], additionalProperties: false",
    );
    assert_eq!(
        only(&param(&closed, true), &param(OBJECT, true)),
        (
            K::ExtraPropertiesAllowed,
            OK,
            "tool `a`: parameter `p` now takes properties beyond the ones it declares".into()
        )
    );
    // A map whose values got narrower is a change of its values.
    assert_eq!(
        only(
            &param(
                "{ type: object, additionalProperties: { type: string, maxLength: 5 } }",
                true
            ),
            &param(
                "{ type: object, additionalProperties: { type: string, maxLength: 3 } }",
                true
            )
        ),
        (
            K::BoundTightened,
            C,
            "tool `a`: parameter `p.*` now has the `maxLength` 3 (it was 5)".into()
        )
    );
}

const UNION: &str = "{ anyOf: [{ type: string, maxLength: 10 }, { type: integer }] }";

#[test]
fn variant_removed() {
    assert_eq!(
        only(
            &param(UNION, true),
            &param("{ anyOf: [{ type: integer }] }", true)
        ),
        (
            K::VariantRemoved,
            C,
            "tool `a`: parameter `p<anyOf/0>` was removed from the union".into()
        )
    );
    // A union that became one of its branches lost the others.
    assert_eq!(
        only(&param(UNION, true), &param("{ type: integer }", true)).0,
        K::VariantRemoved
    );
    assert_eq!(only(&returns(UNION), &returns("{ type: integer }")).1, OK);
}

#[test]
fn variant_added() {
    let more = "{ anyOf: [{ type: string, maxLength: 10 }, { type: integer }, { type: boolean }] }";
    assert_eq!(
        only(&param(UNION, true), &param(more, true)),
        (
            K::VariantAdded,
            OK,
            "tool `a`: parameter `p<anyOf/2>` was added to the union".into()
        )
    );
    assert_eq!(only(&returns(UNION), &returns(more)).1, C);
    // A branch that changed is compared with its old self, not called new.
    let changed = "{ anyOf: [{ type: integer }, { type: string, maxLength: 5 }] }";
    assert_eq!(
        only(&param(UNION, true), &param(changed, true)),
        (
            K::BoundTightened,
            C,
            "tool `a`: parameter `p<anyOf/1>` now has the `maxLength` 5 (it was 10)".into()
        )
    );
}

#[test]
fn default_changed() {
    assert_eq!(
        only(
            &param("{ type: integer, default: 20 }", false),
            &param("{ type: integer, default: 10 }", false)
        ),
        (
            K::DefaultChanged,
            C,
            "tool `a`: parameter `p` now defaults to `10` (it defaulted to `20`)".into()
        )
    );
    assert_eq!(
        only(
            &param("{ type: integer }", false),
            &param("{ type: integer, default: 10 }", false)
        )
        .2,
        "tool `a`: parameter `p` now defaults to `10`"
    );
}

#[test]
fn deprecated() {
    assert_eq!(
        only(&tool(""), &tool("        deprecated: true\n")),
        (K::Deprecated, OK, "tool `a` is now deprecated".into())
    );
    assert_eq!(
        only(
            &param("{ type: string }", true),
            &param("{ type: string, deprecated: true }", true)
        ),
        (
            K::Deprecated,
            OK,
            "tool `a`: parameter `p` is now deprecated".into()
        )
    );
}

#[test]
fn description_changed() {
    let other = tool("").replace("Does a.", "Does a, better.");
    assert_eq!(
        only(&tool(""), &other),
        (
            K::DescriptionChanged,
            M,
            "tool `a` has a new description".into()
        )
    );
    assert_eq!(
        only(
            &param("{ type: string, description: The id. }", true),
            &param("{ type: string, description: The ticket's id. }", true)
        ),
        (
            K::DescriptionChanged,
            M,
            "tool `a`: parameter `p` has a new description".into()
        )
    );
}

#[test]
fn title_changed() {
    assert_eq!(
        only(
            &tool("        title: Do A\n"),
            &tool("        title: Do it\n")
        ),
        (K::TitleChanged, M, "tool `a` has a new title".into())
    );
}

#[test]
fn manual_changed() {
    let with = |manual: &str| {
        format!(
            "version: 1\ntoolboxes:\n  t:\n    description: Tools.\n    tools:\n      a: {{ description: Does a. }}\ncapabilities:\n  c: {{ description: C., toolbox: t, manual: {{ text: \"{manual}\" }} }}\n"
        )
    };
    assert_eq!(
        only(&with("Call a first."), &with("Call a last.")),
        (
            K::ManualChanged,
            M,
            "the agent gives the model new instructions (its capabilities' manuals changed)".into()
        )
    );
    // Located at the manual, in both versions.
    let all = crate::diff::diff(
        &toolset(&with("Call a first.")),
        &toolset(&with("Call a last.")),
        &DiffOptions::default(),
    );
    assert!(all[0].old.is_some() && all[0].new.is_some(), "{all:#?}");
}

#[test]
fn tool_count_over_limit() {
    let tools = |n: usize| {
        let mut s =
            String::from("version: 1\ntoolboxes:\n  t:\n    description: Tools.\n    tools:\n");
        for i in 0..n {
            s.push_str(&format!("      t{i}: {{ description: Tool {i}. }}\n"));
        }
        s
    };
    let options = DiffOptions {
        dialects: vec![Dialect::OpenAiStrict, Dialect::Gemini, Dialect::Anthropic],
    };
    let found = changes_with(&tools(128), &tools(129), &options);
    assert_eq!(
        found[0],
        (
            K::ToolCountOverLimit,
            M,
            "the agent has 129 tools and plays, more than the 128 `openai-strict` takes in one request (it had 128)".into()
        )
    );
    assert_eq!(
        found[1..],
        [(K::ToolAdded, OK, "tool `t128` was added".into())]
    );
    // Already over it, or with no dialect that has a limit: nothing new.
    assert!(
        changes_with(&tools(129), &tools(130), &options)
            .iter()
            .all(|(k, _, _)| *k != K::ToolCountOverLimit)
    );
}

// ------------------------------------------------------------ by meaning

#[test]
fn the_order_of_required_and_properties_does_not_matter() {
    let a = "{ type: object, properties: { x: { type: string }, y: { type: integer } }, required: [x, y] }";
    let b = "{ type: object, properties: { y: { type: integer }, x: { type: string } }, required: [y, x] }";
    assert_eq!(changes(&param(a, true), &param(b, true)), []);
}

#[test]
fn a_ref_to_an_unchanged_type_is_unchanged_whatever_its_name() {
    let inline = tool(
        "        parameters:\n          type: object\n          properties:\n            s: { type: string, enum: [open, closed] }\n",
    );
    let named = format!(
        "{}types:\n  State: {{ type: string, enum: [open, closed] }}\n",
        tool(
            "        parameters:\n          type: object\n          properties:\n            s: { $ref: \"#/types/State\" }\n"
        )
    );
    assert_eq!(changes(&inline, &named), []);
    assert_eq!(changes(&named, &named.replace("State", "Status")), []);
    // A change inside the type is found through the reference.
    assert_eq!(
        only(&named, &named.replace("[open, closed]", "[open]")).2,
        "tool `a`: parameter `s` no longer allows `closed`"
    );
}

#[test]
fn recursive_types_are_compared_once_per_pair() {
    let tree = |leaf: &str| {
        format!(
            "{}types:\n  Tree:\n    type: object\n    properties:\n      label: {leaf}\n      children: {{ type: array, items: {{ $ref: \"#/types/Tree\" }} }}\n",
            returns("{ $ref: \"#/types/Tree\" }")
        )
    };
    assert_eq!(
        changes(&tree("{ type: string }"), &tree("{ type: string }")),
        []
    );
    let found = changes(
        &tree("{ type: string }"),
        &tree("{ type: [string, \"null\"] }"),
    );
    assert_eq!(
        found,
        [(
            K::TypeWidened,
            C,
            "tool `a`: result field `label` took string, now takes string or null".into()
        )]
    );
}

#[test]
fn union_branches_are_paired_by_meaning_not_position() {
    let swapped = "{ anyOf: [{ type: integer }, { type: string, maxLength: 10 }] }";
    assert_eq!(changes(&param(UNION, true), &param(swapped, true)), []);
}

#[test]
fn tuples_are_compared_position_by_position() {
    let pair = |second: &str| {
        format!(
            "{{ type: array, prefixItems: [{{ type: string }}, {second}], items: false, minItems: 2 }}"
        )
    };
    let old = pair("{ type: integer, maximum: 10 }");
    assert_eq!(
        only(&param(&old, true), &param(&pair("{ type: string }"), true)),
        (
            K::TypeChanged,
            C,
            "tool `a`: parameter `p[1]` took integer, now takes string".into()
        )
    );
    assert_eq!(
        only(
            &param(&old, true),
            &param(&pair("{ type: integer, maximum: 5 }"), true)
        ),
        (
            K::BoundTightened,
            C,
            "tool `a`: parameter `p[1]` now has the upper bound <= 5 (it was <= 10)".into()
        )
    );
    // The draft-07 spelling of the same tuple means the same.
    let draft07 = "{ type: array, items: [{ type: string }, { type: integer, maximum: 10 }], minItems: 2, maxItems: 2 }";
    assert_eq!(changes(&param(&old, true), &param(draft07, true)), []);
    // A position only one side reaches is the change of how many items it takes.
    let three = "{ type: array, prefixItems: [{ type: string }, { type: integer, maximum: 10 }, { type: boolean }], items: false, minItems: 3 }";
    let found: Vec<(ChangeKind, Class)> = changes(&param(three, true), &param(&old, true))
        .into_iter()
        .map(|(k, c, _)| (k, c))
        .collect();
    assert_eq!(found, [(K::BoundLoosened, OK), (K::BoundTightened, C)]);
}

#[test]
fn property_names_are_compared_as_values() {
    let map = |names: &str| {
        format!(
            "{{ type: object, propertyNames: {names}, additionalProperties: {{ type: integer }} }}"
        )
    };
    let old = map("{ enum: [a, b, c] }");
    assert_eq!(
        only(&param(&old, true), &param(&map("{ enum: [a, b] }"), true)),
        (
            K::EnumNarrowed,
            C,
            "tool `a`: parameter `p<propertyNames>` no longer allows `c`".into()
        )
    );
    // In a result, fewer keys are no surprise.
    assert_eq!(
        only(&returns(&old), &returns(&map("{ enum: [a, b] }"))).1,
        OK
    );
    // Names are strings: writing their type changes nothing.
    assert_eq!(
        changes(
            &param(&old, true),
            &param(&map("{ type: string, enum: [a, b, c] }"), true)
        ),
        []
    );
    // Names limited where they were free.
    let open = "{ type: object, additionalProperties: { type: integer } }";
    assert_eq!(
        only(&param(open, true), &param(&map("{ maxLength: 3 }"), true)).0,
        K::BoundTightened
    );
}

#[test]
fn a_schemas_own_definitions_are_followed() {
    let defs = |unit: &str| {
        tool(&format!(
            "        parameters:\n          type: object\n          $defs:\n            Unit: {unit}\n          properties:\n            u: {{ $ref: \"#/$defs/Unit\" }}\n"
        ))
    };
    let old = defs("{ type: string, enum: [m, km, mi] }");
    assert_eq!(
        only(&old, &defs("{ type: string, enum: [m, km] }")),
        (
            K::EnumNarrowed,
            C,
            "tool `a`: parameter `u` no longer allows `mi`".into()
        )
    );
    // Inlined, the same schema is unchanged.
    let inline = tool(
        "        parameters:\n          type: object\n          properties:\n            u: { type: string, enum: [m, km, mi] }\n",
    );
    assert_eq!(changes(&old, &inline), []);
}

#[test]
fn pointers_lead_to_the_value_through_references() {
    let named = format!(
        "{}types:\n  Page: {{ type: object, properties: {{ size: {{ type: integer, maximum: 100 }} }} }}\n",
        param("{ type: array, items: { $ref: \"#/types/Page\" } }", true)
    );
    let all = crate::diff::diff(
        &toolset(&named),
        &toolset(&named.replace("maximum: 100", "maximum: 10")),
        &DiffOptions::default(),
    );
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(
        all[0].pointer.as_deref(),
        Some("/properties/p/items/properties/size")
    );
    assert_eq!(all[0].tool.as_deref(), Some("a"));
    assert_eq!(all[0].role, Some(crate::Role::Parameters));
    assert_eq!(all[0].agent, "desk");
}

// ------------------------------------------------------------ the table and its docs

#[test]
fn every_kind_is_tested_and_documented() {
    let this = include_str!("diff.rs");
    let docs = std::fs::read_to_string(repo().join("docs/diff.md")).expect("docs/diff.md");
    let class_text = |c: Class| format!("`{}`", c.as_str());
    let mut documented = Vec::new();
    let mut problems = Vec::new();
    for line in docs.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let id = cells[0].trim_matches('`');
        let Some(kind) = ChangeKind::parse(id) else {
            if Class::parse(id).is_none() {
                problems.push(format!(
                    "docs/diff.md lists `{id}`, which is no change kind"
                ));
            }
            continue;
        };
        documented.push(kind);
        let (params, result) = kind.classes();
        if cells.get(1) != Some(&class_text(params).as_str())
            || cells.get(2) != Some(&class_text(result).as_str())
        {
            problems.push(format!(
                "docs/diff.md gives `{id}` other classes than toolc: {line}"
            ));
        }
    }
    if documented != ChangeKind::ALL {
        problems.push("docs/diff.md does not list the kinds of `ChangeKind::ALL` in order".into());
    }
    for k in ChangeKind::ALL {
        if !this.contains(&format!("fn {}() {{", k.as_str().replace('-', "_"))) {
            problems.push(format!("`{}` has no test in src/tests/diff.rs", k.as_str()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The repository's toolsets: each against itself has no change (no false positives), and
/// every pair compares without a panic, each change placed in the version it names.
#[test]
fn the_repository_toolsets_compare_cleanly() {
    let sets: Vec<crate::Checked> = [
        "manifests",
        "tests/fixtures/codegen/constructs.yaml",
        "tests/fixtures/codegen/defaults.yaml",
        "tests/fixtures/codegen/formats.yaml",
        "tests/fixtures/codegen/hostile.yaml",
    ]
    .iter()
    .map(|p| {
        let checked = crate::check(&[repo().join(p)], &ResolveOptions::default());
        assert!(!checked.diagnostics.has_errors(), "{p}");
        checked
    })
    .collect();
    for a in &sets {
        assert_eq!(
            crate::diff::diff(&a.toolset, &a.toolset, &DiffOptions::default()),
            []
        );
        for b in &sets {
            for c in crate::diff::diff(&a.toolset, &b.toolset, &DiffOptions::default()) {
                let in_range = |span: Option<crate::Span>, sources: &crate::SourceMap| {
                    span.is_none_or(|s| {
                        (s.file.0 as usize) < sources.files().count()
                            && s.end <= sources.file(s.file).text.len()
                    })
                };
                assert!(in_range(c.old, &a.sources), "{c:#?}");
                assert!(in_range(c.new, &b.sources), "{c:#?}");
                assert!(!c.message.is_empty());
            }
        }
    }
}

// ------------------------------------------------------------ delegates

/// `front` with the delegate `ask_back` (its other keys `body`), handing tasks to `back`.
fn delegating(body: &str) -> String {
    format!(
        "{TWO_AGENTS}    delegates:\n      ask_back:\n        agent: back\n        description: Ask the back office.\n{body}"
    )
    .replace(
        "  front: { description: Front desk., capabilities: [c] }\n  back: { description: Back office., capabilities: [c] }\n    delegates:",
        "  back: { description: Back office., capabilities: [c] }\n  front:\n    description: Front desk.\n    capabilities: [c]\n    delegates:",
    )
}

#[test]
fn delegates_are_compared_as_tools() {
    let plain = delegating("").replace(
        "    delegates:\n      ask_back:\n        agent: back\n        description: Ask the back office.\n",
        "",
    );
    let with = delegating("");
    assert_eq!(
        only(&plain, &with),
        (K::ToolAdded, OK, "tool `ask_back` was added".into())
    );
    assert_eq!(
        only(&with, &plain),
        (K::ToolRemoved, C, "tool `ask_back` was removed".into())
    );
    // The default `{task}` parameters narrowed by a declared schema, and a policy added.
    let declared = delegating(
        "        auth: user\n        parameters:\n          type: object\n          properties:\n            task: { type: string, maxLength: 200 }\n          required: [task]\n          additionalProperties: false\n",
    );
    let kinds: Vec<ChangeKind> = changes(&with, &declared).into_iter().map(|c| c.0).collect();
    assert!(kinds.contains(&K::PolicyTightened), "{kinds:?}");
    assert!(kinds.contains(&K::BoundTightened), "{kinds:?}");
}
