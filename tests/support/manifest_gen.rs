//! A structured generator of valid manifests: any bytes, read through `arbitrary`'s
//! `Unstructured`, become a YAML manifest that `toolc check` accepts without an error, so
//! that what is fed to the pipeline reaches lower, lint and emit rather than stopping at the
//! parser. The property test (tests/generated_toolsets.rs) draws the bytes at random; the
//! fuzz target `pipeline` (fuzz/) lets libFuzzer steer them. The fuzz crate includes this
//! file by its path, so both drive one generator.
//!
//! What it writes: named types (objects and string enums), one to three toolboxes of tools
//! whose parameters and returns use scalar types with their bounds, formats, enums, arrays,
//! nested objects, optional properties and references to the named types; policies (auth,
//! roles, rate limits, timeouts, approval); annotations; playbooks of plays; capabilities;
//! and either the implicit agent or agents over the capabilities, some with delegates.

use arbitrary::{Result, Unstructured};
use std::fmt::Write as _;

const WORDS: &[&str] = &[
    "order", "ticket", "customer", "invoice", "refund", "note", "meeting", "room", "city",
    "report", "status", "account", "search", "weather", "schedule",
];
const VERBS: &[&str] = &[
    "Look up", "List", "Create", "Update", "Cancel", "Find", "Book",
];
const FORMATS: &[&str] = &["date-time", "date", "email", "uuid"];

/// A word of the list, picked by `u`.
fn word(u: &mut Unstructured<'_>) -> Result<&'static str> {
    u.choose(WORDS).copied()
}

/// A sentence describing something, never empty.
fn sentence(u: &mut Unstructured<'_>) -> Result<String> {
    let verb = u.choose(VERBS)?;
    let a = word(u)?;
    let b = word(u)?;
    Ok(format!("{verb} the {a} of a {b}."))
}

/// What the generator keeps while it writes: the named types it has made.
struct Gen {
    types: Vec<String>,
}

impl Gen {
    /// A schema in flow style, `depth` levels of objects and arrays at most.
    fn schema(&self, u: &mut Unstructured<'_>, depth: u32) -> Result<String> {
        let description = sentence(u)?;
        let kind = u.int_in_range(0..=if depth == 0 { 5 } else { 8 })?;
        Ok(match kind {
            0 => {
                let mut s = format!("{{ type: string, description: \"{description}\"");
                if u.ratio(1, 3)? {
                    let min = u.int_in_range(0..=4)?;
                    let _ = write!(
                        s,
                        ", minLength: {min}, maxLength: {}",
                        min + u.int_in_range(1..=40)?
                    );
                }
                if u.ratio(1, 4)? {
                    let _ = write!(s, ", format: {}", u.choose(FORMATS)?);
                } else if u.ratio(1, 5)? {
                    s.push_str(", pattern: \"^[A-Z]-[0-9]+$\"");
                }
                s.push_str(" }");
                s
            }
            1 => {
                let min = u.int_in_range(-100i64..=100)?;
                let max = min + i64::from(u.int_in_range(0u16..=1000)?);
                format!(
                    "{{ type: integer, minimum: {min}, maximum: {max}, description: \"{description}\" }}"
                )
            }
            2 => format!("{{ type: number, description: \"{description}\" }}"),
            3 => format!("{{ type: boolean, description: \"{description}\" }}"),
            4 => {
                let n = u.int_in_range(1..=4)?;
                let mut values: Vec<String> = Vec::new();
                for i in 0..n {
                    values.push(format!("{}_{i}", word(u)?));
                }
                format!(
                    "{{ type: string, enum: [{}], description: \"{description}\" }}",
                    values.join(", ")
                )
            }
            5 if !self.types.is_empty() => {
                let t = u.choose(&self.types)?;
                format!("{{ $ref: \"#/types/{t}\" }}")
            }
            5 => format!("{{ type: string, description: \"{description}\" }}"),
            6 | 7 => {
                let items = self.schema(u, depth - 1)?;
                let max = u.int_in_range(1..=20)?;
                format!(
                    "{{ type: array, items: {items}, maxItems: {max}, description: \"{description}\" }}"
                )
            }
            _ => self.object(u, depth - 1, &description)?,
        })
    }

    /// An object schema of up to four properties, some optional.
    fn object(&self, u: &mut Unstructured<'_>, depth: u32, description: &str) -> Result<String> {
        let n = u.int_in_range(0..=4)?;
        let mut props = Vec::new();
        let mut required = Vec::new();
        for i in 0..n {
            let name = format!("{}_{i}", word(u)?);
            props.push(format!("{name}: {}", self.schema(u, depth)?));
            if u.ratio(2, 3)? {
                required.push(name);
            }
        }
        Ok(format!(
            "{{ type: object, description: \"{description}\", properties: {{ {} }}, required: [{}], additionalProperties: false }}",
            props.join(", "),
            required.join(", ")
        ))
    }
}

/// A valid manifest, in YAML.
pub fn manifest(u: &mut Unstructured<'_>) -> Result<String> {
    let mut g = Gen { types: Vec::new() };
    let mut out = String::from("version: 1\n");
    let n_types = u.int_in_range(0..=3)?;
    if n_types > 0 {
        out.push_str("types:\n");
        for i in 0..n_types {
            let name = format!("{}{i}", heck_pascal(word(u)?));
            let description = sentence(u)?;
            // Named types refer only to those made before them: no cycles to think about.
            let body = g.object(u, 1, &description)?;
            let _ = writeln!(out, "  {name}: {body}");
            g.types.push(name);
        }
    }
    let n_boxes = u.int_in_range(1..=3)?;
    let mut tool_no = 0;
    let mut capabilities = Vec::new();
    out.push_str("toolboxes:\n");
    for b in 0..n_boxes {
        let _ = writeln!(
            out,
            "  box{b}:\n    description: \"{}\"\n    tools:",
            sentence(u)?
        );
        for _ in 0..u.int_in_range(1..=4)? {
            let name = format!("{}_{tool_no}", word(u)?);
            tool_no += 1;
            let _ = writeln!(
                out,
                "      {name}:\n        description: \"{}\"",
                sentence(u)?
            );
            if u.ratio(3, 4)? {
                let params = g.object(u, 2, "The arguments.")?;
                let _ = writeln!(out, "        parameters: {params}");
            }
            if u.ratio(1, 2)? {
                let returns = g.object(u, 2, "The result.")?;
                let _ = writeln!(out, "        returns: {returns}");
            }
            if u.ratio(1, 4)? {
                let _ = writeln!(
                    out,
                    "        auth: {}",
                    u.choose(&["none", "user", "admin"])?
                );
            }
            if u.ratio(1, 6)? {
                let _ = writeln!(out, "        roles: [{}]", word(u)?);
            }
            if u.ratio(1, 5)? {
                let _ = writeln!(
                    out,
                    "        rate_limit: {}/{}",
                    u.int_in_range(1..=100)?,
                    u.choose(&["s", "min", "h"])?
                );
            }
            if u.ratio(1, 5)? {
                let _ = writeln!(out, "        timeout_ms: {}", u.int_in_range(1..=60_000)?);
            }
            if u.ratio(1, 6)? {
                out.push_str("        approval: required\n");
            }
            if u.ratio(1, 4)? {
                let _ = writeln!(
                    out,
                    "        annotations: {{ read_only: {}, destructive: {} }}",
                    u.arbitrary::<bool>()?,
                    u.arbitrary::<bool>()?
                );
            }
        }
        capabilities.push((format!("cap{b}"), format!("toolbox: box{b}")));
    }
    if u.ratio(1, 3)? {
        let _ = writeln!(
            out,
            "playbooks:\n  plays0:\n    description: \"{}\"\n    plays:",
            sentence(u)?
        );
        for _ in 0..u.int_in_range(1..=2)? {
            let name = format!("{}_{tool_no}", word(u)?);
            tool_no += 1;
            let returns = g.object(u, 1, "What the play found.")?;
            let _ = writeln!(
                out,
                "      {name}:\n        description: \"{}\"\n        returns: {returns}",
                sentence(u)?
            );
        }
        capabilities.push(("plays".to_owned(), "playbook: plays0".to_owned()));
    }
    out.push_str("capabilities:\n");
    for (name, binds) in &capabilities {
        let _ = writeln!(
            out,
            "  {name}: {{ description: \"{}\", {binds} }}",
            sentence(u)?
        );
    }
    // The implicit agent, or agents over disjoint capabilities (no tool reached twice),
    // each after the first delegating to the one before it now and then.
    if u.ratio(1, 2)? {
        out.push_str("agents:\n");
        let n_agents = u.int_in_range(1..=capabilities.len())?;
        for a in 0..n_agents {
            let mine: Vec<&str> = capabilities
                .iter()
                .enumerate()
                .filter(|(i, _)| i % n_agents == a)
                .map(|(_, (n, _))| n.as_str())
                .collect();
            let _ = writeln!(
                out,
                "  agent{a}:\n    description: \"{}\"\n    capabilities: [{}]",
                sentence(u)?,
                mine.join(", ")
            );
            if a > 0 && u.ratio(1, 2)? {
                let _ = writeln!(
                    out,
                    "    delegates:\n      ask_agent{}: {{ agent: agent{}, description: \"{}\" }}",
                    a - 1,
                    a - 1,
                    sentence(u)?
                );
            }
        }
    }
    Ok(out)
}

/// `word` with its first letter upper-cased: a PascalCase type name.
fn heck_pascal(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}
