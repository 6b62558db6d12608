//! An imported operation's [`HttpBinding`] as the manifest's `http` backend: the server and
//! path as the URL (path parameters as placeholders of their properties), query, header and
//! cookie parameters as placeholders, the security scheme's credentials read from the
//! environment, and the body. What the backend sends otherwise than the document describes is
//! named in a note.

use super::{BodyShape, HttpBinding, Location, Secret};
use crate::import::Note;
use serde_json::{Map, Value, json};

/// The `backend` of a tool imported from an operation at `at`; `None` (with a note) when its
/// URL cannot be made.
pub fn http(binding: &HttpBinding, tool: &str, at: &str, notes: &mut Vec<Note>) -> Option<Value> {
    let mut request = Map::new();
    request.insert("method".into(), binding.method.clone().into());
    let server = binding.server.trim_end_matches('/');
    let absolute = ["http://", "https://"]
        .iter()
        .any(|s| server.to_ascii_lowercase().starts_with(s));
    let base = if absolute {
        server.to_string()
    } else {
        note_once(
            notes,
            Note::new(
                None,
                "/servers",
                format!(
                    "the server `{}` is not an absolute URL: the backends call `http://localhost{server}`; write the API's address into their `url`",
                    if binding.server.is_empty() {
                        "/"
                    } else {
                        &binding.server
                    }
                ),
            ),
        );
        format!("http://localhost{server}")
    };
    if base.contains('{') {
        notes.push(Note::new(
            Some(tool),
            at,
            format!(
                "no backend is written: the server URL `{base}` has a variable without a default"
            ),
        ));
        return None;
    }
    let mut path = binding.path.clone();
    for p in binding
        .parameters
        .iter()
        .filter(|p| p.location == Location::Path)
    {
        path = path.replace(&format!("{{{}}}", p.name), &format!("{{{}}}", p.property));
    }
    request.insert("url".into(), format!("{base}{path}").into());

    let mut query = Map::new();
    let mut headers = Map::new();
    let mut cookies = Vec::new();
    for p in &binding.parameters {
        let placeholder = format!("{{{}}}", p.property);
        match p.location {
            Location::Path => {}
            Location::Query => {
                query.insert(p.name.clone(), placeholder.into());
                let style = p.style.as_deref().unwrap_or("form");
                if style != "form" || p.explode == Some(false) {
                    notes.push(Note::new(
                        Some(tool),
                        at,
                        format!("the query parameter `{}` is sent in the form style, each item of a list as its own `{}=`, not as `style: {style}`{}", p.name, p.name, if p.explode == Some(false) { ", `explode: false`" } else { "" }),
                    ));
                }
            }
            Location::Header => {
                headers.insert(p.name.clone(), placeholder.into());
            }
            Location::Cookie => cookies.push(format!("{}={placeholder}", p.name)),
        }
    }
    if !cookies.is_empty() {
        if cookies.len() > 1 {
            notes.push(Note::new(
                Some(tool),
                at,
                "its cookie parameters are sent in one `Cookie` header, left out when one of them is not given",
            ));
        }
        headers.insert("Cookie".into(), cookies.join("; ").into());
    }
    for secret in &binding.secrets {
        let mut source = Map::new();
        source.insert("env".into(), secret.env.clone().into());
        if !secret.prefix.is_empty() {
            source.insert("prefix".into(), secret.prefix.clone().into());
        }
        let place = match secret.location {
            Location::Query => &mut query,
            _ => &mut headers,
        };
        place.insert(secret.name.clone(), Value::Object(source));
    }
    if !query.is_empty() {
        request.insert("query".into(), Value::Object(query));
    }
    if !headers.is_empty() {
        request.insert("headers".into(), Value::Object(headers));
    }
    if let Some(body) = &binding.body {
        if !body.media_type.to_ascii_lowercase().contains("json") {
            notes.push(Note::new(
                Some(tool),
                at,
                format!(
                    "the backend sends its body as JSON, where the operation takes `{}`",
                    body.media_type
                ),
            ));
        }
        let has_body = matches!(binding.method.as_str(), "POST" | "PUT" | "PATCH");
        match &body.shape {
            BodyShape::Whole(p) => {
                request.insert("body".into(), format!("{{{p}}}").into());
            }
            // The arguments no placeholder names are the body of a POST, PUT or PATCH.
            BodyShape::Properties(keys) if has_body && keys.iter().all(|(p, k)| p == k) => {}
            BodyShape::Properties(keys) => {
                let fields: Map<String, Value> = keys
                    .iter()
                    .map(|(p, k)| (k.clone(), format!("{{{p}}}").into()))
                    .collect();
                request.insert("body".into(), Value::Object(fields));
            }
        }
    }
    Some(json!({ "http": request }))
}

/// Adds `note` unless the same one is there already (a note about the whole document, met
/// once per operation).
pub fn note_once(notes: &mut Vec<Note>, note: Note) {
    if !notes.contains(&note) {
        notes.push(note);
    }
}

/// The environment variable a security scheme's credential is read from: its name in upper
/// snake case (`api_key` → `API_KEY`, `bearerAuth` → `BEARER_AUTH`).
pub fn env_name(scheme: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in scheme.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let out = out.trim_end_matches('_').to_string();
    match out.chars().next() {
        None => "API_TOKEN".to_string(),
        Some(c) if c.is_ascii_digit() => format!("API_{out}"),
        Some(_) => out,
    }
}

/// A scheme's credential as a secret of the request, or why it is not sent.
pub fn secret(name: &str, scheme: &Value) -> Result<Secret, String> {
    let kind = scheme
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let env = env_name(name);
    let header = |prefix: &str| Secret {
        location: Location::Header,
        name: "Authorization".into(),
        env: env.clone(),
        prefix: prefix.into(),
    };
    match kind {
        "apiKey" => {
            let key = scheme
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let location = match scheme.get("in").and_then(Value::as_str) {
                Some("header") => Location::Header,
                Some("query") => Location::Query,
                other => {
                    return Err(format!(
                        "its API key is sent in `{}`, where the backend sends none",
                        other.unwrap_or("nowhere")
                    ));
                }
            };
            if key.is_empty() {
                return Err("its API key has no `name`".into());
            }
            Ok(Secret {
                location,
                name: key.into(),
                env,
                prefix: String::new(),
            })
        }
        "http" => match scheme
            .get("scheme")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("bearer") => Ok(header("Bearer ")),
            Some("basic") => Ok(header("Basic ")),
            other => Err(format!(
                "its HTTP scheme `{}` is not one the backend sends",
                other.unwrap_or_default()
            )),
        },
        "oauth2" | "openIdConnect" => Ok(header("Bearer ")),
        other => Err(format!("its type `{other}` is not one the backend sends")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_names_become_variable_names() {
        assert_eq!(env_name("api_key"), "API_KEY");
        assert_eq!(env_name("bearerAuth"), "BEARER_AUTH");
        assert_eq!(env_name("petstore-auth"), "PETSTORE_AUTH");
        assert_eq!(env_name("2fa"), "API_2FA");
        assert_eq!(env_name("--"), "API_TOKEN");
    }
}
