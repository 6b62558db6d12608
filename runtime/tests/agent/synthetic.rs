//! The synthetic agent of `tests/data/search_purposes.json`, shared by the search quality test
//! and `benches/search.rs`.

use serde_json::{Value, json};

/// The tools as (name, description, parameters schema): every action on every entity, once
/// with no namespaces, or once per namespace (`{ns}_{action}_{entity}`, "In the {ns}
/// service." added to the description) to grow the agent tenfold and more.
pub fn synthetic_tools(data: &Value, namespaces: &[&str]) -> Vec<(String, String, Value)> {
    let entities = data["entities"].as_array().expect("entities");
    let actions = data["actions"].as_array().expect("actions");
    let spaces: Vec<Option<&str>> = if namespaces.is_empty() {
        vec![None]
    } else {
        namespaces.iter().copied().map(Some).collect()
    };
    let mut tools = Vec::new();
    for ns in spaces {
        for e in entities {
            let (id, words, gloss) = (
                e[0].as_str().expect("id"),
                e[1].as_str().expect("words"),
                e[2].as_str().expect("gloss"),
            );
            for a in actions {
                let verb = a[0].as_str().expect("verb");
                let fill = |s: &str| s.replace("{e}", words).replace("{id}", id);
                let article = if words.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "An"
                } else {
                    "A"
                };
                let mut description = format!(
                    "{} {article} {words} is {gloss}.",
                    fill(a[1].as_str().expect("sentence"))
                );
                let mut name = format!("{verb}_{id}");
                if let Some(ns) = ns {
                    description.push_str(&format!(" In the {ns} service."));
                    name = format!("{ns}_{name}");
                }
                let mut properties = serde_json::Map::new();
                for p in a[2].as_array().expect("params") {
                    properties.insert(
                        fill(p[0].as_str().expect("param")),
                        json!({"type": "string", "description": fill(p[1].as_str().expect("doc"))}),
                    );
                }
                tools.push((
                    name,
                    description,
                    json!({"type": "object", "properties": properties}),
                ));
            }
        }
    }
    tools
}
