//! One test per diagnostic code: a minimal manifest that triggers it, and
//! the code, line, column and message it gets. `every_code_is_tested_and_documented`
//! fails when a code of `Code::ALL` has no test here or no entry in
//! docs/diagnostics.md, and `documented_examples_trigger_their_code` runs the
//! examples of docs/diagnostics.md.

use crate::ResolveOptions;
use crate::manifest::{self, Loaded};
use crate::model;
use crate::{Code, Diagnostic, SourceMap};
use std::path::{Path, PathBuf};

/// A diagnostic as the user sees it: code, file, line, column, message.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    code: Code,
    /// `None` for diagnostics with no place in a file.
    at: Option<(String, usize, usize)>,
    message: String,
    help: Option<String>,
    related: Vec<(String, usize, usize, String)>,
}

fn seen(sources: &SourceMap, d: &Diagnostic) -> Seen {
    let place = |span| {
        let (line, col) = sources.line_col(span);
        (sources.path(span.file).display().to_string(), line, col)
    };
    Seen {
        code: d.code,
        at: d.span.map(place),
        message: d.message.clone(),
        help: d.help.clone(),
        related: d
            .secondary
            .iter()
            .map(|l| {
                let (f, line, col) = place(l.span);
                (f, line, col, l.message.clone())
            })
            .collect(),
    }
}

/// Loads manifests from text (`name`, `text`; the root is `manifests/`)
/// and resolves them.
fn check_texts(files: &[(&str, &str)]) -> Vec<Seen> {
    let mut loaded = Loaded::default();
    let root = Path::new("manifests");
    for (name, text) in files {
        manifest::load_str(&mut loaded, root, &root.join(name), text.to_string());
    }
    model::resolve(
        &mut loaded,
        &ResolveOptions {
            name: Some("support".into()),
            ..Default::default()
        },
    );
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    diags.sort();
    diags.iter().map(|d| seen(&loaded.sources, d)).collect()
}

/// Checks real paths, as `toolc check` does.
fn check_paths(paths: &[PathBuf]) -> Vec<Seen> {
    let checked = crate::check(paths, &ResolveOptions::default());
    checked
        .diagnostics
        .iter()
        .map(|d| seen(&checked.sources, d))
        .collect()
}

/// Asserts that exactly one diagnostic was found, with this code, place and
/// message, and returns it for further checks.
#[track_caller]
fn only(found: Vec<Seen>, code: Code, at: (&str, usize, usize), message: &str) -> Seen {
    assert_eq!(
        found.len(),
        1,
        "expected one {} diagnostic, found {found:#?}",
        code.as_str()
    );
    let d = found.into_iter().next().unwrap();
    assert_eq!(d.code, code, "{d:#?}");
    let (file, line, col) = at;
    assert_eq!(
        d.at,
        Some((format!("manifests/{file}"), line, col)),
        "place of {d:#?}"
    );
    assert_eq!(d.message, message);
    d
}

/// `only` for a single YAML manifest named `t.yaml`.
#[track_caller]
fn only_yaml(text: &str, code: Code, line: usize, col: usize, message: &str) -> Seen {
    only(
        check_texts(&[("t.yaml", text)]),
        code,
        ("t.yaml", line, col),
        message,
    )
}

// ---------------------------------------------------------------- load

#[test]
fn io() {
    let found = check_paths(&[PathBuf::from("tests/no-such-manifest.yaml")]);
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = &found[0];
    assert_eq!(d.code, Code::Io);
    assert_eq!(d.at, None, "an unreadable path has no line or column");
    assert!(
        d.message
            .starts_with("cannot read `tests/no-such-manifest.yaml`: "),
        "{}",
        d.message
    );
}

#[test]
fn not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, b"version: 1\ntoolboxes:\n  t\xff\xfe: {}\n").unwrap();
    let found = check_paths(std::slice::from_ref(&path));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, Code::NotUtf8);
    assert_eq!(
        found[0].at,
        Some((path.display().to_string(), 3, 4)),
        "points at the first bad byte"
    );
    assert_eq!(found[0].message, "the file is not valid UTF-8");
}

#[test]
fn syntax() {
    only_yaml(
        "version: 1\ntoolboxes: {a: [\n",
        Code::Syntax,
        2,
        16,
        "invalid YAML: unclosed bracket '['",
    );
}

#[test]
fn syntax_toml() {
    only(
        check_texts(&[("t.toml", "version = 1\n[toolboxes.a\n")]),
        Code::Syntax,
        ("t.toml", 2, 13),
        "invalid TOML: unclosed table, expected `]`",
    );
}

#[test]
fn syntax_multiple_documents() {
    only_yaml(
        "version: 1\n---\nversion: 1\n",
        Code::Syntax,
        3,
        1,
        "invalid YAML: a manifest file holds one YAML document, and a second one starts here",
    );
}

#[test]
fn syntax_unknown_anchor() {
    // Not a size problem: an alias with no anchor is plain bad YAML.
    only_yaml(
        "version: 1\nx-a: *nope\n",
        Code::Syntax,
        2,
        6,
        "invalid YAML: alias references unknown anchor",
    );
}

#[test]
fn duplicate_key() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  a: {}\n  a: {}\n",
        Code::DuplicateKey,
        4,
        3,
        "duplicate key `a`",
    );
    assert_eq!(
        d.related,
        vec![(
            "manifests/t.yaml".to_string(),
            3,
            3,
            "first defined here".to_string()
        )]
    );
}

/// In a mapping of more keys than are compared one by one, a duplicate is found through the
/// keys' texts, with the place of the first, whether the first came before or after the switch.
#[test]
fn duplicate_key_in_a_long_mapping() {
    for first in [2, 25] {
        let mut text = String::from("version: 1\nx-many:\n");
        for i in 0..30 {
            text.push_str(&format!("  k{i}: 1\n"));
        }
        text.push_str(&format!("  k{first}: 2\n"));
        let d = only_yaml(
            &text,
            Code::DuplicateKey,
            33,
            3,
            &format!("duplicate key `k{first}`"),
        );
        assert_eq!(
            d.related,
            vec![(
                "manifests/t.yaml".to_string(),
                3 + first,
                3,
                "first defined here".to_string()
            )]
        );
    }
}

#[test]
fn duplicate_key_toml() {
    only(
        check_texts(&[("t.toml", "version = 1\nversion = 1\n")]),
        Code::DuplicateKey,
        ("t.toml", 2, 1),
        "invalid TOML: duplicate key `version`",
    );
}

#[test]
fn too_large() {
    let text = format!(
        "version: 1\ntypes:\n  A: {}{}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    only_yaml(
        &text,
        Code::TooLarge,
        3,
        132,
        "the manifest nests deeper than 128 levels",
    );
}

#[test]
fn too_large_toml() {
    let text = format!(
        "version = 1\ntypes.A = {}{}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    only(
        check_texts(&[("t.toml", &text)]),
        Code::TooLarge,
        ("t.toml", 2, 139),
        "the manifest nests deeper than 128 levels",
    );
}

#[test]
fn too_large_alias_bomb() {
    let mut text =
        String::from("version: 1\nx-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (prev, name) in ["a", "b", "c", "d", "e"]
        .iter()
        .zip(["b", "c", "d", "e", "f"])
    {
        let refs = vec![format!("*{prev}"); 10].join(", ");
        text.push_str(&format!("x-{name}: &{name} [{refs}]\n"));
    }
    let found = check_texts(&[("t.yaml", &text)]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, Code::TooLarge);
    assert_eq!(
        found[0].message,
        "the manifest has more than 250000 nodes (keys, values, lists and mappings, each alias expansion counted again)"
    );
    assert_eq!(found[0].at.as_ref().map(|a| a.1), Some(7));
}

#[test]
fn too_large_file() {
    // Text over 8 MiB is refused before it is parsed, whatever it holds.
    let text = format!("version: 1\n#{}\n", "x".repeat(8 * 1024 * 1024));
    let found = check_texts(&[("t.yaml", &text)]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, Code::TooLarge);
    assert_eq!(found[0].at, None);
    assert_eq!(
        found[0].message,
        "`manifests/t.yaml` is 8388621 bytes; manifests are limited to 8388608 bytes"
    );
}

#[test]
fn unknown_key() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A, titel: Add }\n",
        Code::UnknownKey,
        6,
        28,
        "unknown key `titel` in tool `a`",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `title`?"));
}

#[test]
fn unknown_key_allows_extensions() {
    assert_eq!(
        check_texts(&[("t.yaml", "version: 1\nx-owner: ops\n")]),
        vec![]
    );
}

#[test]
fn wrong_type() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        roles: admin\n",
        Code::WrongType,
        8,
        16,
        "`roles` of tool `a` must be a list of strings, found a string",
    );
}

#[test]
fn wrong_type_annotation_hint() {
    // The MCP hints are booleans.
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        annotations: { read_only: \"yes\" }\n",
        Code::WrongType,
        8,
        35,
        "`read_only` of the annotations of tool `a` must be true or false, found a string",
    );
}

#[test]
fn unknown_key_mcp_hint_spelling() {
    // One spelling per hint: MCP's name is refused with toolc's.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        annotations: { readOnlyHint: true, read_only: false }\n",
        Code::UnknownKey,
        8,
        24,
        "unknown key `readOnlyHint` in the annotations of tool `a`: it is MCP's name for the hint toolc spells `read_only`",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean `read_only`? toolc sends it to MCP clients as `readOnlyHint`")
    );
    // A key close to one toolc reads is refused too, naming that key; others pass to MCP.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        annotations: { destructve: true, category: navigation }\n",
        Code::UnknownKey,
        8,
        24,
        "unknown key `destructve` in the annotations of tool `a`",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "did you mean `destructive`? A key of your own is passed to MCP clients as written, but not one this close to a key toolc reads"
        )
    );
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        annotations: { titel: A tool }\n",
        Code::UnknownKey,
        8,
        24,
        "unknown key `titel` in the annotations of tool `a`",
    );
    // Another case or spelling of a key is a near-miss however far by the distance.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        annotations: { OPEN-WORLD-HINT: false }\n",
        Code::UnknownKey,
        8,
        24,
        "unknown key `OPEN-WORLD-HINT` in the annotations of tool `a`",
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.starts_with("did you mean `open_world`?")),
        "{:?}",
        d.help
    );
}

#[test]
fn missing_key() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    tools: { a: { description: A } }\n",
        Code::MissingKey,
        3,
        3,
        "toolbox `t` is missing `description`",
    );
}

#[test]
fn unsupported_version() {
    let d = only_yaml(
        "version: 2\n",
        Code::UnsupportedVersion,
        1,
        10,
        "unsupported manifest version 2",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "this toolc reads manifest version 1: write `version: 1` (YAML) or `version = 1` (TOML)"
        )
    );
}

#[test]
fn invalid_name() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      list/tickets: { description: A }\n",
        Code::InvalidName,
        6,
        7,
        "tool: name `list/tickets` is not ASCII letters, digits, `_`, `-` and `.` with a letter or digit among them",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "tool and play names are ASCII letters, digits, `_`, `-` and `.`, such as `list_tickets`"
        )
    );
    // Other sections keep snake_case or kebab-case.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  Tickets:\n    description: Tools\n    tools:\n      ListTickets: { description: A }\n",
        Code::InvalidName,
        3,
        3,
        "toolbox: name `Tickets` is not snake_case or kebab-case ASCII",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("names match `^[a-z][a-z0-9_-]*$`, such as `tickets`")
    );
}

#[test]
fn invalid_name_empty() {
    // The seeds' wording for an empty or blank name.
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      \" \": { description: A }\n",
        Code::InvalidName,
        6,
        7,
        "tool: 'name' is required",
    );
}

#[test]
fn invalid_type_name() {
    let d = only_yaml(
        "version: 1\ntypes:\n  ticket_status: { type: string }\n",
        Code::InvalidTypeName,
        3,
        3,
        "type name `ticket_status` is not PascalCase",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("type names match `^[A-Z][A-Za-z0-9]*$`, such as `TicketStatus`")
    );
    // No suggestion that would itself be refused.
    let d = only_yaml(
        "version: 1\ntypes:\n  \"1\": { type: string }\n",
        Code::InvalidTypeName,
        3,
        3,
        "type name `1` is not PascalCase",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("type names match `^[A-Z][A-Za-z0-9]*$`")
    );
}

#[test]
fn duplicate_name() {
    let tb = "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\n";
    let tb_toml =
        "version = 1\n[toolboxes.t]\ndescription = \"Again\"\ntools.b.description = \"B\"\n";
    let d = only(
        check_texts(&[("a.yaml", tb), ("b.toml", tb_toml)]),
        Code::DuplicateName,
        ("b.toml", 2, 12),
        "toolbox `t` is defined twice",
    );
    assert_eq!(
        d.related,
        vec![(
            "manifests/a.yaml".to_string(),
            3,
            3,
            "first defined here".to_string()
        )]
    );
}

/// Files are parsed several at a time: what each says, and the order of what they define,
/// are the files' order all the same.
#[test]
fn files_parsed_together_keep_their_order() {
    let dir = tempfile::tempdir().unwrap();
    let toolbox = |i: usize| {
        format!(
            "version: 1\ntoolboxes:\n  t{i}:\n    description: Tools\n    tools: {{ a{i}: {{ description: A }} }}\n"
        )
    };
    for i in 0..12 {
        let text = match i {
            5 => "version: 1\ntoolboxes: [\n".to_string(),
            // Defines again the toolbox of the first file.
            11 => toolbox(0),
            _ => toolbox(i),
        };
        std::fs::write(dir.path().join(format!("m{i:02}.yaml")), text).unwrap();
    }
    let checked = crate::check(&[dir.path().to_path_buf()], &ResolveOptions::default());
    let found: Vec<Seen> = checked
        .diagnostics
        .iter()
        .map(|d| seen(&checked.sources, d))
        .collect();
    let path = |i: usize| {
        dir.path()
            .join(format!("m{i:02}.yaml"))
            .display()
            .to_string()
    };
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].code, Code::Syntax, "{found:#?}");
    assert_eq!(found[0].at.as_ref().map(|a| &a.0), Some(&path(5)));
    assert_eq!(found[1].code, Code::DuplicateName, "{found:#?}");
    assert_eq!(found[1].at.as_ref().map(|a| &a.0), Some(&path(11)));
    assert_eq!(found[1].related[0].0, path(0));
    let names: Vec<&str> = checked
        .toolset
        .toolboxes
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["t0", "t1", "t2", "t3", "t4", "t6", "t7", "t8", "t9", "t10"]
    );
}

#[test]
fn ident_collision() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      list-tickets: { description: A }\n      list_tickets: { description: B }\n",
        Code::IdentCollision,
        7,
        7,
        "tools `list-tickets` and `list_tickets` both become the Rust identifier `list_tickets`",
    );
    assert_eq!(d.related[0].1, 6);
}

#[test]
fn ident_collision_in_pascal_case() {
    // `a_1` and `a1` differ in snake case but are both `A1` as a type name.
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a_1: { description: A }\n      a1: { description: B }\n",
        Code::IdentCollision,
        7,
        7,
        "tools `a_1` and `a1` both become the Rust identifier `A1`",
    );
}

#[test]
fn ident_collision_with_a_refinement_method() {
    // `book` takes parameters, so the trait has `refine_book`: a tool of that name collides.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      book:\n        description: A\n        parameters: { type: object, properties: { a: { type: string } } }\n      refine-book: { description: B }\n      refine_ping: { description: C }\n      ping: { description: D }\n",
        Code::IdentCollision,
        9,
        7,
        "tool `refine-book` becomes the Rust method `refine_book`, which the generated trait already has: it refines the arguments of tool `book`",
    );
    assert_eq!(d.related[0].1, 6);
    assert_eq!(d.help.as_deref(), Some("rename `refine-book`"));
}

#[test]
fn unknown_reference() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  tickets:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  support:\n    description: Support\n    toolbox: ticket\n",
        Code::UnknownReference,
        9,
        14,
        "there is no toolbox named `ticket`",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `tickets`?"));
}

#[test]
fn agent_name_collision() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { recap: { description: A } }\nplaybooks:\n  p:\n    description: Plays\n    plays: { recap: { description: B, returns: {} } }\ncapabilities:\n  c: { description: C, toolbox: t, playbook: p }\n",
        Code::AgentNameCollision,
        9,
        14,
        "agent `support` reaches two tools named `recap`: tool `recap` of toolbox `t` and play `recap` of playbook `p`",
    );
    assert_eq!(d.related[0].1, 5);
}

#[test]
fn agent_name_collision_same_toolbox_twice() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c1: { description: C, toolbox: t }\n  c2: { description: C, toolbox: t }\nagents:\n  bot: { description: Bot, capabilities: [c1, c2] }\n",
        Code::AgentNameCollision,
        10,
        3,
        "agent `bot` reaches toolbox `t` twice, through capabilities `c1` and `c2`, so it would see each of its tools twice",
    );
    assert_eq!(d.related.len(), 2);
}

#[test]
fn scope_mismatch() {
    let d = only_yaml(
        "version: 1\ntypes:\n  Operator: { type: object }\n  Customer: { type: object }\ntoolboxes:\n  t:\n    description: Tools\n    scope: Operator\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot: { description: Bot, capabilities: [c], scope: Customer }\n",
        Code::ScopeMismatch,
        8,
        12,
        "toolbox `t` reads scope `Operator`, but agent `bot` binds scope `Customer`",
    );
    assert_eq!(d.related[0].1, 13);
}

#[test]
fn delegation_cycle() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { agent: bot, description: Ask }\n",
        Code::DelegationCycle,
        13,
        21,
        "delegate `ask` of agent `bot` delegates to agent `bot` itself",
    );
    assert_eq!(d.related[0].1, 13);
    // Two agents that delegate to each other: one error, at the delegate that closes it.
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { agent: other, description: Ask }\n  other:\n    description: Other\n    capabilities: [c]\n    delegates:\n      back: { agent: bot, description: Back }\n",
        Code::DelegationCycle,
        18,
        22,
        "delegate `back` of agent `other` closes a cycle of delegation: `bot` → `other` → `bot`",
    );
    assert_eq!(d.related.len(), 2);
}

#[test]
fn delegate_unknown_target() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { agent: bots, description: Ask }\n",
        Code::UnknownReference,
        13,
        21,
        "there is no agent named `bots`",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `bot`?"));
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { capability: d, description: Ask }\n",
        Code::UnknownReference,
        13,
        26,
        "there is no capability named `d`",
    );
}

#[test]
fn delegate_needs_one_target() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { description: Ask }\n",
        Code::MissingKey,
        13,
        7,
        "delegate `ask` needs exactly one of `agent` and `capability`",
    );
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      ask: { agent: bot, capability: c, description: Ask }\n",
        Code::MissingKey,
        13,
        7,
        "delegate `ask` needs exactly one of `agent` and `capability`",
    );
}

#[test]
fn delegate_name_collision() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    delegates:\n      a: { capability: c, description: Ask }\n",
        Code::AgentNameCollision,
        13,
        7,
        "agent `bot` reaches two tools named `a`: tool `a` of toolbox `t` and delegate `a` of agent `bot`",
    );
    assert_eq!(d.related[0].1, 5);
}

#[test]
fn delegate_scope_mismatch() {
    let d = only_yaml(
        "version: 1\ntypes:\n  Operator: { type: object }\ntoolboxes:\n  t:\n    description: Tools\n    scope: Operator\n    tools: { a: { description: A } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n  bot:\n    description: Bot\n    capabilities: [c]\n    scope: Operator\n  front:\n    description: Front\n    capabilities: []\n    delegates:\n      ask: { agent: bot, description: Ask }\n",
        Code::ScopeMismatch,
        20,
        21,
        "delegate `ask` hands its task to agent `bot`, whose tools read scope `Operator`, but agent `front` binds no scope",
    );
    assert_eq!(d.related[0].1, 16);
}

/// A manifest of `agents` agents, each delegating to the next (`a0` → `a1` → …), and a
/// last one, `side`, that `a0` delegates to as well.
fn delegation_chain(agents: usize) -> String {
    let mut text = "version: 1\ntoolboxes:\n  t: { description: Tools, tools: { a: { description: A } } }\ncapabilities:\n  c: { description: C, toolbox: t }\nagents:\n".to_string();
    for i in 0..agents {
        let delegates = if i + 1 < agents {
            format!(
                ", delegates: {{ ask: {{ agent: a{}, description: Ask }} }}",
                i + 1
            )
        } else {
            String::new()
        };
        text.push_str(&format!(
            "  a{i}: {{ description: Agent, capabilities: [c]{delegates} }}\n"
        ));
    }
    text
}

#[test]
fn delegation_too_deep() {
    // 8 delegates, agent to agent, are allowed.
    assert_eq!(check_texts(&[("t.yaml", &delegation_chain(9))]), Vec::new());
    let d = only_yaml(
        &delegation_chain(10),
        Code::DelegationTooDeep,
        7,
        75,
        "delegate `ask` of agent `a0` starts a chain of 9 delegates (`a0` → `a1` → `a2` → `a3` → `a4` → `a5` → `a6` → `a7` → `a8` → `a9`), over the limit of 8",
    );
    assert_eq!(d.related[0].1, 7);
    // A long chain: one diagnostic, at its top, the agents between elided.
    let d = only_yaml(
        &delegation_chain(40),
        Code::DelegationTooDeep,
        7,
        75,
        "delegate `ask` of agent `a0` starts a chain of 39 delegates (`a0` → `a1` → `a2` → `a3` → `a4` → `a5` → `a6` → `a7` → `a8` → `a9` → … 29 more → `a39`), over the limit of 8",
    );
    assert!(d.help.is_some());
}

#[test]
fn invalid_auth() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A, auth: root }\n",
        Code::InvalidAuth,
        6,
        34,
        "auth must be one of admin, none, user, got \"root\"",
    );
}

#[test]
fn invalid_approval() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A, approval: always }\n",
        Code::InvalidApproval,
        6,
        38,
        "approval must be one of required, none, got \"always\"",
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "write `approval: required` to hold every call for a person's approval, or `approval: none`"
        )
    );
}

#[test]
fn invalid_rate_limit() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A, rate_limit: 10/week }\n",
        Code::InvalidRateLimit,
        6,
        40,
        "rate_limit must look like `10/min` (N/unit, unit one of s, sec, second, min, minute, h, hour, d, day), got \"10/week\": unknown unit",
    );
}

#[test]
fn invalid_timeout() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A, timeout_ms: -5 }\n",
        Code::InvalidTimeout,
        6,
        40,
        "timeout_ms must be positive, got -5",
    );
}

#[test]
fn empty_description() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: \"  \" }\n",
        Code::EmptyDescription,
        6,
        25,
        "the description of tool `a` is empty",
    );
}

#[test]
fn empty_section() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: {}\n",
        Code::EmptySection,
        3,
        3,
        "toolbox `t` has no tools",
    );
}

#[test]
fn empty_section_capability() {
    only_yaml(
        "version: 1\ncapabilities:\n  c: { description: C }\n",
        Code::EmptySection,
        3,
        3,
        "capability `c` has neither a `toolbox` nor a `playbook`",
    );
}

#[test]
fn play_missing_returns() {
    only_yaml(
        "version: 1\nplaybooks:\n  p:\n    description: Plays\n    plays:\n      recap: { description: R }\n",
        Code::PlayMissingReturns,
        6,
        7,
        "play `recap` has no `returns` schema",
    );
}

#[test]
fn tool_only_key() {
    only_yaml(
        "version: 1\nplaybooks:\n  p:\n    description: Plays\n    plays:\n      recap:\n        description: R\n        returns: {}\n        timeout_ms: 100\n",
        Code::ToolOnlyKey,
        9,
        9,
        "plays take no `timeout_ms`: play `recap` is a play",
    );
}

#[test]
fn parameters_not_object() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        parameters: { type: string }\n",
        Code::ParametersNotObject,
        8,
        29,
        "the parameters of tool `a` must be an object schema, found `type: string`",
    );
}

#[test]
fn invalid_schema() {
    only_yaml(
        "version: 1\ntypes:\n  Count: { type: integer, minimum: low }\n",
        Code::InvalidSchema,
        3,
        36,
        "`minimum` must be a number, found a string",
    );
}

#[test]
fn unknown_schema_keyword() {
    let d = only_yaml(
        "version: 1
types:
  Issue:
    type: object
    properties:
      number: { type: integer, minimun: 1 }
    required: [number]
",
        Code::UnknownSchemaKeyword,
        6,
        32,
        "`minimun` is not a schema keyword toolc knows",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `minimum`?"));
    // `x-` keys are extensions, not typos.
    let found = check_texts(&[(
        "t.yaml",
        "version: 1\ntypes:\n  Issue: { type: string, x-owner: triage }\n",
    )]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn undeclared_required() {
    let d = only_yaml(
        "version: 1
toolboxes:
  t:
    description: Tools
    tools:
      close:
        description: Close an issue.
        parameters:
          type: object
          properties:
            number: { type: integer }
            reason: { type: string }
          required: [number, reason, comment]
",
        Code::UndeclaredRequired,
        13,
        38,
        "`required` names `comment`, which this object does not declare under `properties`",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("declare `comment` under `properties`, or remove it from `required`")
    );
}

#[test]
fn invalid_default() {
    let d = only_yaml(
        "version: 1
types:
  Page:
    type: object
    properties:
      limit: { type: integer, maximum: 100, default: 500 }
",
        Code::InvalidDefault,
        6,
        54,
        "the default `500` does not match its schema: must be <= 100, got 500",
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.contains("fix the default"))
    );
}

#[test]
fn unresolved_ref() {
    let d = only_yaml(
        "version: 1\ntypes:\n  Ticket: { type: object }\n  Tickets: { type: array, items: { $ref: \"#/types/Tiket\" } }\n",
        Code::UnresolvedRef,
        4,
        42,
        "type `Tickets` refers to type `Tiket`, which is not defined",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `#/types/Ticket`?"));
}

#[test]
fn unsupported_pattern() {
    let d = only_yaml(
        "version: 1\ntypes:\n  Code: { type: string, pattern: \"^(a)\\\\1$\" }\n",
        Code::UnsupportedPattern,
        3,
        34,
        "`pattern` has a back-reference, which the generated validators cannot run",
    );
    assert!(d.help.as_deref().is_some_and(|h| h.contains("look-around")));
}

#[test]
fn legacy_keyword() {
    let found = check_texts(&[(
        "t.yaml",
        "version: 1\ntypes:\n  Range:\n    type: array\n    items: [{ type: integer }, { type: integer }]\n    minItems: 2\n    maxItems: 2\n",
    )]);
    only(
        found,
        Code::LegacyKeyword,
        ("t.yaml", 5, 5),
        "`items` as a list is the draft-07 spelling of a tuple: read as `prefixItems` (and `additionalItems` as `items`)",
    );
}

#[test]
fn sensitive_parameter() {
    // A sensitive named type two tools take: one warning, at the keyword, naming both.
    let d = only_yaml(
        "version: 1\ntypes:\n  ApiKey: { type: string, sensitive: true }\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        parameters:\n          type: object\n          properties: { key: { $ref: \"#/types/ApiKey\" } }\n      b:\n        description: B\n        parameters:\n          type: object\n          properties: { key: { $ref: \"#/types/ApiKey\" } }\n",
        Code::SensitiveParameter,
        3,
        27,
        "this value is marked `sensitive` but is part of the parameters of tool `a` and tool `b`: the model writes its value, so the model sees it",
    );
    assert_eq!(
        d.related,
        [(
            "manifests/t.yaml".to_string(),
            12,
            38,
            "the parameters refer to it here".to_string()
        )]
    );
    assert!(d.help.unwrap().contains("`scope`"));
    // In `returns` and in a scope type the model never writes the value: nothing to say.
    let found = check_texts(&[(
        "t.yaml",
        "version: 1\ntypes:\n  Session: { type: object, properties: { token: { type: string, sensitive: true } } }\ntoolboxes:\n  t:\n    description: Tools\n    scope: Session\n    tools:\n      a:\n        description: A\n        returns:\n          type: object\n          properties: { token: { type: string, sensitive: true } }\n",
    )]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn invalid_example() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        parameters:\n          type: object\n          properties: { limit: { type: integer } }\n        examples:\n          - arguments: { limit: many }\n",
        Code::InvalidExample,
        12,
        33,
        "example 1 of tool `a`: the arguments do not match the parameters schema at `/limit`: expected integer, got string",
    );
}

#[test]
fn invalid_mcp_field() {
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        icons: [{ src: \"http://x.example/a.png\" }]\n",
        Code::InvalidMcpField,
        8,
        24,
        "the icon source `http://x.example/a.png` of tool `a` is neither an `https:` URL nor a `data:` URI",
    );
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        icons: [{ src: \"https://x.example/a.svg\", sizes: [big] }]\n",
        Code::InvalidMcpField,
        8,
        59,
        "the icon size `big` of tool `a` is not `WxH` or `any`",
    );
    only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        meta: { dev.mcp/owner: me }\n",
        Code::InvalidMcpField,
        8,
        17,
        "the `meta` key `dev.mcp/owner` of tool `a` has a prefix reserved for the protocol",
    );
    // What MCP allows passes.
    assert_eq!(
        check_texts(&[(
            "t.yaml",
            "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a:\n        description: A\n        icons: [{ src: \"data:image/png;base64,iVBORw0KGgo=\", mime_type: image/png, sizes: [48x48, any], theme: dark }]\n        meta: { com.example/owner: me, plain: 1 }\n"
        )]),
        vec![]
    );
}

/// A tool named `forecast` taking a required `city`, with `backend` as given (YAML at the
/// indentation of a tool's keys).
fn with_backend(backend: &str) -> String {
    format!(
        "version: 1\ntoolboxes:\n  weather:\n    description: Weather tools\n    tools:\n      forecast:\n        description: The forecast\n        parameters:\n          type: object\n          properties:\n            city: {{ type: string }}\n            days: {{ type: integer }}\n          required: [city]\n{backend}"
    )
}

#[test]
fn unknown_backend() {
    let d = only_yaml(
        &with_backend("        backend: mok\n"),
        Code::UnknownBackend,
        14,
        18,
        "the backend of tool `forecast` is `mok`, which is not a kind of backend",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `mock`?"));
    only_yaml(
        &with_backend("        backend: { grpc: {} }\n"),
        Code::UnknownBackend,
        14,
        20,
        "the backend of tool `forecast` is `grpc`, which is not a kind of backend",
    );
}

#[test]
fn invalid_backend() {
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "        backend: http\n",
            14,
            18,
            "the backend of tool `forecast` is `http` without its settings",
        ),
        (
            "        backend: { mock: , command: [x] }\n",
            14,
            28,
            "the backend of tool `forecast` names two backends, `mock` and `command`",
        ),
        (
            "        backend: { command: [] }\n",
            14,
            29,
            "`command` of the backend of tool `forecast` names no program",
        ),
        (
            "        backend: { http: { method: FETCH, url: \"https://a.example/{city}\" } }\n",
            14,
            36,
            "the `http` backend of tool `forecast` has the method `FETCH`",
        ),
        (
            "        backend: { http: { method: GET, url: \"ftp://a.example/x\" } }\n",
            14,
            46,
            "the URL `ftp://a.example/x` of the `http` backend of tool `forecast` is not an `http://` or `https://` URL",
        ),
        (
            "        backend: { http: { method: GET, url: \"https://{city}.example/x\" } }\n",
            14,
            46,
            "the host of the URL `https://{city}.example/x` of the `http` backend of tool `forecast` comes from a placeholder",
        ),
        (
            "        backend: { http: { method: GET, url: \"https://me:pw@a.example/x\" } }\n",
            14,
            46,
            "the URL `https://me:pw@a.example/x` of the `http` backend of tool `forecast` holds credentials",
        ),
        (
            "        backend: { http: { method: GET, url: \"https://a.example/{city\" } }\n",
            14,
            46,
            "the URL of the `http` backend of tool `forecast` has a `{` that opens no placeholder, at byte 18",
        ),
        (
            "        backend: { http: { method: GET, url: \"https://a.example/\", query: { key: { env: \"sk-live 42\" } } } }\n",
            14,
            89,
            "`sk-live 42` (the query parameter `key` of the `http` backend of tool `forecast`) is not an environment variable name",
        ),
        (
            "        backend: { http: { method: GET, url: \"https://a.example/\", headers: { \"Bad Header\": \"{city}\" } } }\n",
            14,
            79,
            "`Bad Header` of the `http` backend of tool `forecast` is not a header name",
        ),
        (
            "        backend: { http: { method: POST, url: \"https://a.example/\", body: \"x{city}\" } }\n",
            14,
            75,
            "the body of the `http` backend of tool `forecast` is not one placeholder",
        ),
        (
            "        backend:\n          http:\n            method: GET\n            url: https://a.example/\n            query: { city: {city} }\n",
            18,
            28,
            "`city` in `query` of the `http` request of tool `forecast` is the mapping `{city: null}`: YAML reads `{city}` without quotes as a mapping",
        ),
    ];
    for (backend, line, col, message) in cases {
        only_yaml(
            &with_backend(backend),
            Code::InvalidBackend,
            *line,
            *col,
            message,
        );
    }
}

#[test]
fn backend_placeholder() {
    let d = only_yaml(
        &with_backend(
            "        backend: { http: { method: GET, url: \"https://a.example/{cty}\" } }\n",
        ),
        Code::BackendPlaceholder,
        14,
        46,
        "the placeholder `{cty}` in the URL of the `http` backend of tool `forecast` names no parameter",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `{city}`?"));
    let d = only_yaml(
        &with_backend(
            "        backend: { http: { method: GET, url: \"https://a.example/{days}\" } }\n",
        ),
        Code::BackendPlaceholder,
        14,
        46,
        "the placeholder `{days}` in the URL of the `http` backend of tool `forecast` names a parameter that is not required",
    );
    assert!(
        d.help
            .unwrap()
            .contains("add `days` to the parameters' `required`")
    );
    only_yaml(
        &with_backend(
            "        backend: { http: { method: POST, url: \"https://a.example/\", body: { n: \"{nights}\" } } }\n",
        ),
        Code::BackendPlaceholder,
        14,
        80,
        "the placeholder `{nights}` in the body's `n` of the `http` backend of tool `forecast` names no parameter",
    );
    // Every form that names parameters rightly passes.
    let good = with_backend(
        "        backend:\n          http:\n            method: get\n            url: \"https://a.example/v1/{city}?units=metric\"\n            query: { d: \"{days}\", key: { env: API_KEY } }\n            headers: { Authorization: { env: API_TOKEN, prefix: \"Bearer \" }, X-City: \"city-{city}\" }\n            body: { where: \"{city}\" }\n",
    );
    assert_eq!(check_texts(&[("t.yaml", &good)]), vec![]);
}

#[test]
fn inline_header() {
    let d = only_yaml(
        &with_backend(
            "        backend: { http: { method: GET, url: \"https://a.example/\", headers: { Authorization: Bearer sk-live-4242 } } }\n",
        ),
        Code::InlineHeader,
        14,
        94,
        "the header `Authorization` of the `http` backend of tool `forecast` is written in the manifest",
    );
    // The value is never repeated in the message or the help.
    assert!(!d.message.contains("sk-live") && !d.help.unwrap().contains("sk-live"));
}

#[test]
fn manual_path() {
    only_yaml(
        "version: 1\nmanuals:\n  m: { file: ../secrets.md }\n",
        Code::ManualPath,
        3,
        14,
        "manual file `../secrets.md` is outside the manifest root `manifests`",
    );
}

#[test]
fn manual_path_absolute() {
    only_yaml(
        "version: 1\nmanuals:\n  m: { file: /etc/passwd }\n",
        Code::ManualPath,
        3,
        14,
        "manual file `/etc/passwd` is an absolute path",
    );
}

#[test]
fn manual_path_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("manifests");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(dir.path().join("secret.md"), "outside").unwrap();
    std::os::unix::fs::symlink("../secret.md", root.join("manual.md")).unwrap();
    std::fs::write(
        root.join("a.yaml"),
        "version: 1\nmanuals:\n  m: { file: manual.md }\n",
    )
    .unwrap();
    let found = check_paths(std::slice::from_ref(&root));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].code, Code::ManualPath);
    assert_eq!(
        found[0].at,
        Some((root.join("a.yaml").display().to_string(), 3, 14))
    );
    assert_eq!(
        found[0].message,
        format!(
            "manual file `manual.md` leads outside the manifest root `{}` through a symlink",
            root.display()
        )
    );
}

#[test]
fn manual_unreadable() {
    let d = only_yaml(
        "version: 1\nmanuals:\n  m: { file: missing.md }\n",
        Code::ManualUnreadable,
        3,
        14,
        "cannot read manual file `manifests/missing.md`: No such file or directory (os error 2)",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("check the path: it is relative to the manifest file")
    );
}

#[test]
fn manual_template() {
    only_yaml(
        "version: 1\nmanuals:\n  m:\n    text: \"Call {{ tools('a') }} first.\"\n",
        Code::ManualTemplate,
        4,
        17,
        "`{{ tools('a') }}` is not a manual reference",
    );
}

#[test]
fn manual_reference() {
    let d = only_yaml(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { list_meetings: { description: A } }\nmanuals:\n  m:\n    text: Use {{ tool(\"list_meeting\") }} first.\ncapabilities:\n  c: { description: C, toolbox: t, manual: m }\n",
        Code::ManualReference,
        8,
        15,
        "the manual names tool `list_meeting`, which capability `c` does not reach",
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `list_meetings`?"));
    assert_eq!(d.related[0].1, 10);
}

#[test]
fn capability_manual_string_is_a_name_or_inline_text() {
    // A string matching the name pattern is a reference; anything else is
    // the manual's text.
    let found = check_texts(&[(
        "t.yaml",
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools: { a: { description: A } }\n  u:\n    description: Tools\n    tools: { b: { description: B } }\ncapabilities:\n  c1: { description: C, toolbox: t, manual: nomanual }\n  c2:\n    description: C\n    toolbox: u\n    manual: Call {{ tool(\"a\") }} first.\n",
    )]);
    let codes: Vec<Code> = found.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::UnknownReference, Code::ManualReference],
        "{found:#?}"
    );
    assert_eq!(found[0].message, "there is no manual named `nomanual`");
    // The inline text was scanned: `a` is not a tool of `u`.
    assert_eq!(found[1].at, Some(("manifests/t.yaml".into(), 14, 18)));
}

// -------------------------------------- codes of later stages

/// Loads and resolves one YAML manifest that must be clean.
fn resolve_clean(text: &str) -> (Loaded, crate::model::Toolset) {
    let mut loaded = Loaded::default();
    manifest::load_str(
        &mut loaded,
        Path::new("manifests"),
        Path::new("manifests/t.yaml"),
        text.to_string(),
    );
    let toolset = model::resolve(&mut loaded, &ResolveOptions::default());
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    (loaded, toolset)
}

#[test]
fn unsupported_schema() {
    // Found by `toolc check`, not only when Rust is generated.
    only_yaml(
        "version: 1\ntypes:\n  Ticket:\n    type: object\n    properties:\n      id: { type: string }\n    if: { required: [id] }\n",
        Code::UnsupportedSchema,
        7,
        5,
        "`if` (a condition) is not supported in toolc schemas",
    );
    only_yaml(
        "version: 1\ntypes:\n  Both: { allOf: [{ type: string }, { minLength: 1 }] }\n",
        Code::UnsupportedSchema,
        3,
        18,
        "`allOf` of schemas that are not all objects has no Rust type",
    );
}

#[test]
fn lint() {
    let (loaded, toolset) = resolve_clean(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      tag:\n        description: Tag\n        parameters:\n          type: object\n          properties:\n            tags: { type: array, items: { type: string }, uniqueItems: true }\n          required: [tags]\n",
    );
    let strict = crate::Dialect::parse("openai-strict").unwrap();
    let settings = crate::lint::LintSettings::for_dialects(&[strict]);
    let lowered = crate::lower::lower(&toolset, &[strict], Default::default());
    let diags =
        crate::lint::to_diagnostics(&crate::lint::lint_toolset(&toolset, &lowered, &settings));
    let found: Vec<Seen> = diags.iter().map(|d| seen(&loaded.sources, d)).collect();
    only(
        found,
        Code::Lint,
        ("t.yaml", 11, 72),
        "openai-strict: `uniqueItems` is not permitted in strict mode",
    );
    // Printed under its rule id, not `lint`.
    assert_eq!(diags[0].id(), "strict-unsupported-keyword");
}

/// Parses a `toolc.toml` and returns its diagnostics.
fn config_diagnostics(text: &str) -> Vec<Seen> {
    let mut sources = SourceMap::new();
    let (_, diags) =
        crate::config::parse_str(&mut sources, Path::new("manifests/toolc.toml"), text);
    diags.iter().map(|d| seen(&sources, d)).collect()
}

#[test]
fn unknown_rule() {
    let d = only(
        config_diagnostics("[lint]\ndeny = [\"optional-without-nulable\"]\n"),
        Code::UnknownRule,
        ("toolc.toml", 2, 9),
        "there is no lint rule named `optional-without-nulable`",
    );
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean `optional-without-nullable`?")
    );
}

#[test]
fn unknown_dialect() {
    only(
        config_diagnostics("[lint]\ndialects = [\"openai-strct\"]\n"),
        Code::UnknownDialect,
        ("toolc.toml", 2, 13),
        "there is no dialect named `openai-strct`",
    );
}

#[test]
fn openai_not_strict() {
    only(
        config_diagnostics("[lint]\ndialects = [\"gemini\", \"openai\"]\n"),
        Code::OpenaiNotStrict,
        ("toolc.toml", 2, 23),
        "`openai` is OpenAI's tool calling without strict mode: its rules let optional properties, open objects and any keyword through",
    );
    // With `openai-strict` beside it, both forms are linted on purpose: nothing to say.
    assert!(config_diagnostics("[lint]\ndialects = [\"openai\", \"openai-strict\"]\n").is_empty());
    assert!(config_diagnostics("[lint]\ndialects = [\"openai-strict\"]\n").is_empty());
}

/// `toolc diff`'s changes are diagnostics under the code `change`, printed
/// under the id of their kind; src/tests/diff.rs tests each kind.
#[test]
fn change() {
    let (old_loaded, old) = resolve_clean(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A }\n      b: { description: B }\n",
    );
    let (new_loaded, new) = resolve_clean(
        "version: 1\ntoolboxes:\n  t:\n    description: Tools\n    tools:\n      a: { description: A }\n",
    );
    let changes = crate::diff::diff(&old, &new, &Default::default());
    // The old files are shown under a name of their own.
    let joined = crate::diff::Joined::new(&new_loaded.sources, &old_loaded.sources, &|_| {
        PathBuf::from("manifests/old.yaml")
    });
    let diags: Vec<Diagnostic> = changes
        .iter()
        .map(|c| c.to_diagnostic(&joined, false))
        .collect();
    let found: Vec<Seen> = diags.iter().map(|d| seen(&joined.sources, d)).collect();
    only(
        found,
        Code::Change,
        ("old.yaml", 7, 7),
        "manifests: tool `b` was removed (breaking for callers)",
    );
    assert_eq!(diags[0].id(), "tool-removed");
    // Allowed, it is a warning; a compatible change is a note.
    assert_eq!(
        changes[0].to_diagnostic(&joined, true).severity,
        crate::Severity::Warning
    );
    let added = crate::diff::diff(&new, &old, &Default::default());
    assert_eq!(
        added[0].to_diagnostic(&joined, false).severity,
        crate::Severity::Note
    );
}

/// A source `toolc import` cannot import: here an OpenAPI document whose `$ref` points at
/// nothing; src/tests/import.rs and tests/import.rs test the others.
#[test]
fn import_source() {
    let doc = serde_json::json!({
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1"},
        "paths": {"/pets": {"get": {"operationId": "list_pets", "responses": {"200": {
            "description": "The pets",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
        }}}}},
    });
    let failure = crate::import::openapi::import(&doc, "pets.json").unwrap_err();
    assert!(!failure.io, "the source was read: exit 1, not 2");
    let d = failure.diagnostic;
    assert_eq!(d.code, Code::ImportSource);
    assert_eq!(
        d.message,
        "`$ref: #/components/schemas/Pet` at `/paths/~1pets/get/responses/200/content/application~1json/schema` points at nothing in the document"
    );
    assert_eq!(
        d.help.as_deref(),
        Some("fix the reference, or define what it names (under `components`)")
    );
}

/// A change `toolc import` made to what the source sent: a note naming the tool, the key and
/// why.
#[test]
fn import_change() {
    let tools = serde_json::json!([{
        "name": "echo",
        "description": "Echoes its text.",
        "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "optional"},
    }]);
    let import =
        crate::import::tools_list::import(tools.as_array().unwrap(), "tools.json".into()).unwrap();
    let [note] = &import.notes[..] else {
        panic!("one note: {:?}", import.notes);
    };
    let d = note.to_diagnostic(Some(Path::new("tools.json")));
    assert_eq!(d.code, Code::ImportChange);
    assert_eq!(d.severity, crate::Severity::Note);
    assert_eq!(
        d.message,
        "tool `echo`: `execution`: left out: the manifest has no key for a tool's `execution` yet, so toolc will not list it"
    );
}

// ------------------------------------------------------------ serve

/// What `toolc serve` says building the agent of `text` (one manifest, one agent), without
/// `--mock` unless `mock`: the errors that stop it, or its warnings.
fn serve_problems(text: &str, mock: bool) -> Vec<Seen> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("weather.yaml");
    std::fs::write(&path, text).unwrap();
    let analyzed = crate::pipeline::analyze(
        std::slice::from_ref(&path),
        &ResolveOptions::default(),
        &Default::default(),
        &Default::default(),
    );
    assert!(!analyzed.has_errors(), "{:#?}", analyzed.all_diagnostics());
    let agent = crate::serve::find_agent(&analyzed.toolset, None).unwrap();
    let options = crate::serve::Options { mock, seed: 0 };
    let found = match crate::serve::build(&analyzed, agent, options) {
        Ok(built) => built.warnings,
        Err(problems) => problems,
    };
    found
        .iter()
        .map(|d| {
            let mut seen = seen(&analyzed.sources, d);
            // The temporary folder's name is no part of what is asserted.
            if let Some((file, _, _)) = &mut seen.at {
                *file = Path::new(file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
            }
            seen
        })
        .collect()
}

const SERVED: &str = "version: 1\ntoolboxes:\n  weather:\n    description: Weather tools\n    tools:\n      forecast:\n        description: The forecast\n        backend: { http: { method: GET, url: \"https://a.example/\", headers: { Authorization: { env: TOOLC_TEST_NEVER_SET_7F3 } } } }\n      alerts:\n        description: Alerts\n        returns: { type: integer, minimum: 7, maximum: 6 }\ncapabilities:\n  weather: { description: Weather, toolbox: weather }\n";

#[test]
fn no_backend() {
    let found = serve_problems(SERVED, false);
    let d = found
        .iter()
        .find(|d| d.code == Code::NoBackend)
        .expect("no-backend");
    assert_eq!(d.at, Some(("weather.yaml".into(), 9, 7)));
    assert_eq!(
        d.message,
        "tool `alerts` has no backend to answer its calls"
    );
    // With --mock every tool has one.
    assert!(
        serve_problems(SERVED, true)
            .iter()
            .all(|d| d.code != Code::NoBackend)
    );
}

#[test]
fn no_mock_value() {
    let found = serve_problems(SERVED, true);
    let [d] = &found[..] else {
        panic!("one warning: {found:#?}");
    };
    assert_eq!(d.code, Code::NoMockValue);
    assert_eq!(d.at, Some(("weather.yaml".into(), 9, 7)));
    assert_eq!(
        d.message,
        "the mock of tool `alerts` finds no value its returns schema admits: no integer lies within its bounds"
    );
}

#[test]
fn unset_env() {
    let found = serve_problems(SERVED, false);
    let d = found
        .iter()
        .find(|d| d.code == Code::UnsetEnv)
        .expect("unset-env");
    assert_eq!(d.at, Some(("weather.yaml".into(), 6, 7)));
    assert_eq!(
        d.message,
        "the environment variable `TOOLC_TEST_NEVER_SET_7F3`, which the backend of tool `forecast` reads, is not set"
    );
}

// ------------------------------------------------------------ coverage

/// The name of the test function for a code: `unknown-key` → `unknown_key`.
fn test_name(code: Code) -> String {
    code.as_str().replace('-', "_")
}

const THIS_FILE: &str = include_str!("diagnostics.rs");
const DOCS: &str = include_str!("../../docs/diagnostics.md");

/// The `## \`code\`` sections of docs/diagnostics.md, with their text.
fn doc_sections() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in DOCS.lines() {
        if let Some(rest) = line.strip_prefix("## `") {
            let code = rest.trim_end().trim_end_matches('`').to_string();
            out.push((code, String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

#[test]
fn every_code_is_tested_and_documented() {
    let sections = doc_sections();
    let documented: Vec<&str> = sections.iter().map(|(c, _)| c.as_str()).collect();
    let mut problems = Vec::new();
    for &code in Code::ALL {
        if !THIS_FILE.contains(&format!("fn {}() {{", test_name(code))) {
            problems.push(format!(
                "`{}` has no test `fn {}()` in src/tests/diagnostics.rs",
                code.as_str(),
                test_name(code)
            ));
        }
        if !documented.contains(&code.as_str()) {
            problems.push(format!(
                "`{}` has no section in docs/diagnostics.md",
                code.as_str()
            ));
        }
    }
    for doc in &documented {
        if !Code::ALL.iter().any(|c| c.as_str() == *doc) {
            problems.push(format!(
                "docs/diagnostics.md documents `{doc}`, which is not a code"
            ));
        }
    }
    let order: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    if problems.is_empty() && documented != order {
        problems.push("docs/diagnostics.md does not list the codes in `Code::ALL` order".into());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The example of a docs section: its manifest files (the YAML and TOML
/// blocks before the output; a first line `# name.yaml` names one, else it
/// is `toolset.yaml` or `toolset.toml`) and the output block.
struct DocExample {
    files: Vec<(String, String)>,
    output: Option<String>,
}

fn doc_example(body: &str) -> DocExample {
    let mut example = DocExample {
        files: Vec::new(),
        output: None,
    };
    let mut rest = body;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let Some((lang, after)) = after.split_once('\n') else {
            break;
        };
        let Some(end) = after.find("```") else { break };
        let block = &after[..end];
        rest = &after[end + 3..];
        match lang.trim() {
            ext @ ("yaml" | "toml") => {
                let name = block
                    .lines()
                    .next()
                    .and_then(|l| l.strip_prefix("# "))
                    .filter(|n| n.ends_with(&format!(".{ext}")))
                    .map_or(format!("toolset.{ext}"), str::to_string);
                example.files.push((name, block.to_string()));
            }
            "text" => {
                example.output = Some(block.to_string());
                break;
            }
            _ => {}
        }
    }
    example
}

/// What `toolc check --format human --color never` prints for manifests in
/// the current folder, without the summary line.
fn render_in_place(files: &[(String, String)]) -> (Vec<Code>, String) {
    let mut loaded = Loaded::default();
    for (name, text) in files {
        manifest::load_str(&mut loaded, Path::new("."), Path::new(name), text.clone());
    }
    model::resolve(
        &mut loaded,
        &ResolveOptions {
            name: Some("support".into()),
            ..Default::default()
        },
    );
    let mut diags = std::mem::take(&mut loaded.diagnostics);
    diags.sort();
    let codes = diags.iter().map(|d| d.code).collect();
    let text: Vec<String> = diags
        .iter()
        .map(|d| crate::render_human(&loaded.sources, d, false))
        .collect();
    (codes, text.join("\n\n"))
}

#[test]
fn documented_examples_print_what_the_docs_show() {
    let mut problems = Vec::new();
    for (code, body) in doc_sections() {
        let example = doc_example(&body);
        let Some(output) = example.output else {
            problems.push(format!("`{code}` has no ```text block showing the output"));
            continue;
        };
        if example.files.is_empty() {
            // Shown as a shell session: an unreadable path, bytes that are
            // not UTF-8, or a stage after resolve. The title must still name
            // the code (lint findings are printed under their rule id).
            let shown = ["error", "warning", "note"]
                .iter()
                .any(|s| output.contains(&format!("{s}[{code}]: ")));
            if !shown && code != "lint" && code != "change" {
                problems.push(format!(
                    "`{code}`: the output does not show `error[{code}]: `, `warning[{code}]: ` or `note[{code}]: `"
                ));
            }
            continue;
        }
        let (codes, rendered) = render_in_place(&example.files);
        if !codes.iter().any(|c| c.as_str() == code) {
            problems.push(format!("the example of `{code}` gets {codes:?}"));
        } else if rendered.trim_end() != output.trim_end() {
            problems.push(format!(
                "the output shown for `{code}` differs; toolc prints:\n{rendered}\n"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
