//! An OpenAPI 3.0 or 3.1 document (JSON or YAML) as tools: one per operation.
//!
//! - **Name**: the `operationId`, its characters outside `A-Z a-z 0-9 _ -` made `_`, a leading
//!   non-letter prefixed with `op_`, cut to 64 characters (the names every provider takes); an
//!   operation without one is named after its method and path (`get_pets_petId`).
//! - **Description**: the `description`, else the `summary`, else the method and path; with
//!   both, the `summary` is the tool's `title`.
//! - **Parameters**: one object: the path's and the operation's parameters (`path`, `query`,
//!   `header`, `cookie`; the operation's win), each a property under its own name with its
//!   schema, `description`, `deprecated` and examples, required as the parameter is; then the
//!   JSON request body's properties when its schema is an object with properties, else one
//!   property `body` holding the body. A name taken already is given its place as a prefix
//!   (`query_id`, `body_id`); OpenAPI's ignored header parameters (`Accept`, `Content-Type`,
//!   `Authorization`) are left out.
//! - **Returns**: the JSON schema of the first success response with one, in the order `200`,
//!   `201`, the other `2xx` codes in order, `2XX`, `default`.
//! - **Annotations**: `read_only` for the safe methods (GET, HEAD, OPTIONS, TRACE),
//!   `idempotent` for PUT and DELETE, `destructive` for DELETE (RFC 9110, 9.2.1 and 9.2.2).
//! - `deprecated` is kept; `components.schemas` become named types ([`schema`]).
//!
//! How each operation is called (method, server, path template, where each property goes, the
//! credentials of its security scheme) is kept in its [`HttpBinding`], and written as the
//! tool's `http` backend ([`backend`]).

pub(crate) mod backend;
pub(crate) mod schema;

use super::{Failure, Import, Kind, Note, Tool};
use schema::{Schemas, escape, nothing_at};
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The HTTP methods of a path item, in OpenAPI's order.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Header parameters OpenAPI says to ignore (3.0.3 and 3.1.0, "Parameter Object").
const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

/// How an imported operation is called over HTTP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpBinding {
    /// `GET`, `POST`, …
    pub method: String,
    /// The server's URL, its variables filled with their defaults (may be relative, `/v1`).
    pub server: String,
    /// The path template, `/pets/{petId}`.
    pub path: String,
    /// Where each parameter property goes.
    pub parameters: Vec<BoundParameter>,
    /// The request body, if the operation takes one.
    pub body: Option<BoundBody>,
    /// The credentials its security scheme sends, each read from the environment.
    pub secrets: Vec<Secret>,
}

/// A credential of the operation's security scheme: where it is sent, and the environment
/// variable it is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// A header or a query parameter.
    pub location: Location,
    /// The header's or the query parameter's name.
    pub name: String,
    /// The environment variable.
    pub env: String,
    /// Written before the value (`Bearer `).
    pub prefix: String,
}

/// One parameter: the tool's property and where its value is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundParameter {
    /// The property of the tool's parameters.
    pub property: String,
    /// The parameter's own name (the query key, the header, …).
    pub name: String,
    pub location: Location,
    /// OpenAPI's `style` and `explode`, when given.
    pub style: Option<String>,
    pub explode: Option<bool>,
}

/// Where a parameter is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
    Header,
    Cookie,
}

impl Location {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "path" => Some(Location::Path),
            "query" => Some(Location::Query),
            "header" => Some(Location::Header),
            "cookie" => Some(Location::Cookie),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

/// The request body and how the tool's properties make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundBody {
    /// The media type sent, `application/json`.
    pub media_type: String,
    pub shape: BodyShape,
}

/// How a body is made of the tool's properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyShape {
    /// An object of these properties: (the tool's property, the body's key).
    Properties(Vec<(String, String)>),
    /// The value of this property, whole.
    Whole(String),
}

/// Reads an OpenAPI document: JSON when it starts with `{`, YAML otherwise.
pub fn parse(text: &str) -> Result<Value, String> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| e.to_string());
    }
    let text = text.to_string();
    // serde-saphyr recurses once per level with large frames: parse on a stack that holds
    // the levels it allows, as the manifest loader does.
    let parsed = std::thread::Builder::new()
        .name("toolc-openapi".into())
        .stack_size(64 * 1024 * 1024)
        .spawn(move || {
            let mut options = serde_saphyr::Options::default();
            options.strict_booleans = true;
            options.with_snippet = false;
            let mut budget = serde_saphyr::Budget::default();
            budget.max_depth = 128;
            budget.max_nodes = 20_000_000;
            budget.max_events = 40_000_000;
            options.budget = Some(budget);
            serde_saphyr::from_str_with_options::<Value>(&text, options).map_err(|e| e.to_string())
        })
        .map_err(|e| e.to_string())?;
    parsed
        .join()
        .unwrap_or_else(|_| Err("the YAML reader failed".to_string()))
}

/// The operations of `doc`, read from `file`, as an [`Import`].
pub fn import(doc: &Value, file: &str) -> Result<Import, Failure> {
    let version = match (doc.get("openapi"), doc.get("swagger")) {
        (Some(Value::String(v)), _) if v.starts_with("3.0") || v.starts_with("3.1") => v.clone(),
        (Some(other), _) => {
            return Err(Failure::source(
                format!("OpenAPI {other} is not a version toolc imports"),
                "toolc imports OpenAPI 3.0 and 3.1 documents",
            ));
        }
        (None, Some(_)) => {
            return Err(Failure::source(
                "this is a Swagger 2.0 document, which toolc does not import",
                "convert it to OpenAPI 3 first (for example with the `swagger2openapi` package), then import that",
            ));
        }
        (None, None) => {
            return Err(Failure::source(
                "this is not an OpenAPI document: it has no `openapi` version",
                "give an OpenAPI 3.0 or 3.1 document, JSON or YAML",
            ));
        }
    };
    let Some(Value::Object(paths)) = doc.get("paths") else {
        return Err(Failure::source(
            "the document has no `paths`, so no operation to import",
            "toolc imports each operation under `paths` as a tool",
        ));
    };
    let title = doc.pointer("/info/title").and_then(Value::as_str);
    let mut out = Import {
        source: format!("the OpenAPI {version} document {file}"),
        source_name: title.map(str::to_string),
        kind: Kind::OpenApi,
        ..Import::default()
    };
    let mut schemas = Schemas::new(doc);
    let mut names = HashSet::new();
    for (path, item) in paths {
        let at_path = format!("/paths/{}", escape(path));
        let item = follow(doc, item, &at_path)?;
        let Value::Object(item) = item else { continue };
        for (method, operation) in item.iter().filter(|(k, _)| METHODS.contains(&k.as_str())) {
            let at = format!("{at_path}/{method}");
            let Value::Object(operation) = operation else {
                return Err(Failure::source(
                    format!("the operation at `{at}` is not an object"),
                    "an operation is an Operation Object",
                ));
            };
            let op = Operation {
                doc,
                path,
                method,
                item,
                operation,
                at,
            };
            let before = out.notes.len();
            let tool = op.tool(&mut schemas, &mut names, &mut out.notes)?;
            out.notes.append(&mut schemas.notes);
            // A tool's notes say where from its operation.
            let prefix = format!("{}/", op.at);
            for note in &mut out.notes[before..] {
                if note.tool.as_deref() != Some(tool.name.as_str()) {
                    continue;
                }
                if note.at == op.at {
                    note.at.clear();
                } else if let Some(rest) = note.at.strip_prefix(&prefix) {
                    note.at = rest.to_string();
                }
            }
            out.tools.push(tool);
        }
    }
    if out.tools.is_empty() {
        return Err(Failure::source(
            "the document has no operations under `paths`",
            "toolc imports each operation under `paths` as a tool",
        ));
    }
    out.types = schema::named_types(&mut schemas)?;
    let components = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map_or(0, Map::len);
    let unused = components - out.types.len();
    out.notes.append(&mut schemas.notes);
    if unused > 0 {
        out.notes.push(Note::new(
            None,
            "/components/schemas",
            format!(
                "{unused} of its {components} schemas are left out: no operation refers to them"
            ),
        ));
    }
    Ok(out)
}

/// A path item or component that may be a local `$ref`, followed.
fn follow<'v>(doc: &'v Value, value: &'v Value, at: &str) -> Result<&'v Value, Failure> {
    let mut value = value;
    let mut hops = 0;
    while let Some(Value::String(reference)) = value.get("$ref") {
        if !reference.starts_with('#') {
            return Err(Failure::source(
                format!("`$ref: {reference}` at `{at}` points into another document"),
                "bundle the document into one file first (for example with `redocly bundle` or `swagger-cli bundle`), then import that",
            ));
        }
        hops += 1;
        value = match schema::resolve(doc, reference) {
            Some(v) if hops < 32 => v,
            Some(_) => {
                return Err(Failure::source(
                    format!("`$ref: {reference}` at `{at}` leads to itself"),
                    "make the reference point at the object itself",
                ));
            }
            None => return Err(nothing_at(reference, at)),
        };
    }
    Ok(value)
}

/// A parameter object and its JSON pointer.
type Parameter<'a> = (&'a Map<String, Value>, String);

/// One operation being imported.
struct Operation<'a> {
    doc: &'a Value,
    path: &'a str,
    method: &'a str,
    item: &'a Map<String, Value>,
    operation: &'a Map<String, Value>,
    /// Its JSON pointer, `/paths/~1pets/get`.
    at: String,
}

/// The properties of a tool's parameters being put together.
#[derive(Default)]
struct Properties {
    properties: Map<String, Value>,
    required: Vec<String>,
    /// The Rust field names of the properties (two names with one field would not build).
    idents: HashSet<String>,
}

impl Properties {
    /// `name`, or `{prefix}_{name}` (then numbered) when it or its Rust field is taken.
    fn free_name(&self, name: &str, prefix: &str) -> String {
        let taken = |n: &str| {
            self.properties.contains_key(n)
                || self
                    .idents
                    .contains(crate::model::names::snake_ident(n).word())
        };
        if !taken(name) {
            return name.to_string();
        }
        let base = format!("{prefix}_{name}");
        let mut candidate = base.clone();
        let mut n = 2;
        while taken(&candidate) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        candidate
    }

    fn add(&mut self, name: String, schema: Value, required: bool) {
        self.idents
            .insert(crate::model::names::snake_ident(&name).word().to_string());
        if required {
            self.required.push(name.clone());
        }
        self.properties.insert(name, schema);
    }
}

impl Operation<'_> {
    fn tool(
        &self,
        schemas: &mut Schemas,
        names: &mut HashSet<String>,
        notes: &mut Vec<Note>,
    ) -> Result<Tool, Failure> {
        let name = self.name(names, notes);
        let text = |key: &str| {
            self.operation
                .get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let (summary, description) = (text("summary"), text("description"));
        let mut tool = Tool {
            name: name.clone(),
            ..Tool::default()
        };
        tool.description = match (&summary, &description) {
            (Some(s), Some(d)) => {
                tool.title = Some(s.clone());
                d.clone()
            }
            (Some(only), None) | (None, Some(only)) => only.clone(),
            (None, None) => {
                let stand_in = format!("{} {}", self.method.to_uppercase(), self.path);
                notes.push(Note::new(
                    Some(&name),
                    &self.at,
                    format!("the operation has no summary or description; its description is \"{stand_in}\""),
                ));
                stand_in
            }
        };
        let mut binding = HttpBinding {
            method: self.method.to_uppercase(),
            server: self.server(),
            path: self.path.to_string(),
            parameters: Vec::new(),
            body: None,
            secrets: Vec::new(),
        };
        let mut properties = Properties::default();
        for (parameter, at) in self.parameters(notes, &name)? {
            self.parameter(
                parameter,
                &at,
                &name,
                schemas,
                &mut properties,
                &mut binding,
                notes,
            )?;
        }
        binding.body = self.body(&name, schemas, &mut properties, notes)?;
        let mut parameters = Map::new();
        parameters.insert("type".into(), "object".into());
        parameters.insert("properties".into(), Value::Object(properties.properties));
        if !properties.required.is_empty() {
            parameters.insert(
                "required".into(),
                properties.required.into_iter().map(Value::from).collect(),
            );
        }
        tool.parameters = Value::Object(parameters);
        tool.returns = self.returns(&name, schemas, notes)?;
        match self.method {
            "get" | "head" | "options" | "trace" => {
                tool.annotations.insert("read_only".into(), true.into());
            }
            "put" => {
                tool.annotations.insert("idempotent".into(), true.into());
            }
            "delete" => {
                tool.annotations.insert("destructive".into(), true.into());
                tool.annotations.insert("idempotent".into(), true.into());
            }
            _ => {}
        }
        tool.deprecated = self.operation.get("deprecated") == Some(&Value::Bool(true));
        binding.secrets = self.secrets(notes);
        tool.backend = backend::http(&binding, &name, &self.at, notes);
        Ok(tool)
    }

    /// The credentials of the operation's security requirement (its own, else the
    /// document's; the first of alternatives), each sent from an environment variable named
    /// after its scheme. A scheme the backend cannot send is named in a note.
    fn secrets(&self, notes: &mut Vec<Note>) -> Vec<Secret> {
        let requirement = self
            .operation
            .get("security")
            .or_else(|| self.doc.get("security"))
            .and_then(Value::as_array)
            .and_then(|alternatives| alternatives.first())
            .and_then(Value::as_object);
        let Some(requirement) = requirement else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for name in requirement.keys() {
            let at = format!("/components/securitySchemes/{}", escape(name));
            let Some(scheme) = self
                .doc
                .pointer(&at)
                .and_then(|s| follow(self.doc, s, &at).ok())
            else {
                backend::note_once(
                    notes,
                    Note::new(
                        None,
                        &at,
                        format!(
                            "the security scheme `{name}` is not defined: the backends send no credential for it"
                        ),
                    ),
                );
                continue;
            };
            match backend::secret(name, scheme) {
                Ok(secret) => {
                    backend::note_once(
                        notes,
                        Note::new(
                            None,
                            &at,
                            format!(
                                "the security scheme `{name}` is sent as the {} `{}`{}, read from the environment variable `{}`",
                                match secret.location {
                                    Location::Query => "query parameter",
                                    _ => "header",
                                },
                                secret.name,
                                if secret.prefix.is_empty() {
                                    String::new()
                                } else {
                                    format!(" (`{}` before it)", secret.prefix.trim_end())
                                },
                                secret.env
                            ),
                        ),
                    );
                    out.push(secret);
                }
                Err(why) => backend::note_once(
                    notes,
                    Note::new(
                        None,
                        &at,
                        format!("the security scheme `{name}` is not sent by the backends: {why}"),
                    ),
                ),
            }
        }
        out
    }

    /// The tool's name: the `operationId` made a name every provider takes, else the method
    /// and path; numbered when taken.
    fn name(&self, names: &mut HashSet<String>, notes: &mut Vec<Note>) -> String {
        let id = self.operation.get("operationId").and_then(Value::as_str);
        let (base, why) = match id {
            Some(id) if !id.trim().is_empty() => {
                let name = tool_name(id);
                let why = (name != id).then(|| {
                    format!("the operationId `{id}` is the tool `{name}`: tool names are ASCII letters, digits, `_` and `-`, start with a letter, and are at most 64 characters long, as every provider takes them")
                });
                (name, why)
            }
            _ => {
                let raw = std::iter::once(self.method.to_string())
                    .chain(
                        self.path
                            .split('/')
                            .map(|s| s.trim_matches(['{', '}']).to_string())
                            .filter(|s| !s.is_empty()),
                    )
                    .collect::<Vec<_>>()
                    .join("_");
                let name = tool_name(&raw);
                let why = Some(format!(
                    "the operation has no operationId; the tool is named `{name}` after its method and path"
                ));
                (name, why)
            }
        };
        let mut name = base.clone();
        let mut n = 2;
        while names.contains(&name) {
            let suffix = format!("_{n}");
            let keep = base.len().min(64 - suffix.len());
            name = format!("{}{suffix}", &base[..keep]);
            n += 1;
        }
        let why = if name != base {
            Some(format!(
                "{}the tool is named `{name}`, since `{base}` is another operation's",
                why.map(|w| format!("{w}; ")).unwrap_or_default()
            ))
        } else {
            why
        };
        if let Some(why) = why {
            notes.push(Note::new(
                Some(&name),
                format!("{}/operationId", self.at),
                why,
            ));
        }
        names.insert(name.clone());
        name
    }

    /// The server the operation is sent to: its own, its path's, the document's, else `/`,
    /// with each variable's default filled in.
    fn server(&self) -> String {
        let first =
            |servers: Option<&Value>| -> Option<Value> { servers?.as_array()?.first().cloned() };
        let server = first(self.operation.get("servers"))
            .or_else(|| first(self.item.get("servers")))
            .or_else(|| first(self.doc.get("servers")));
        let Some(server) = server else {
            return "/".to_string();
        };
        let mut url = server
            .get("url")
            .and_then(Value::as_str)
            .unwrap_or("/")
            .to_string();
        if let Some(Value::Object(variables)) = server.get("variables") {
            for (name, variable) in variables {
                if let Some(default) = variable.get("default").and_then(Value::as_str) {
                    url = url.replace(&format!("{{{name}}}"), default);
                }
            }
        }
        url
    }

    /// The parameters of the path and the operation, `$ref`s followed, the operation's
    /// replacing the path's of the same name and place; each with its pointer.
    fn parameters(&self, notes: &mut Vec<Note>, tool: &str) -> Result<Vec<Parameter<'_>>, Failure> {
        let mut out: Vec<Parameter<'_>> = Vec::new();
        let lists = [
            (
                self.item.get("parameters"),
                self.at.rsplit_once('/').map_or("", |(p, _)| p).to_string(),
            ),
            (self.operation.get("parameters"), self.at.clone()),
        ];
        for (list, base) in lists {
            let Some(list) = list else { continue };
            let Value::Array(list) = list else {
                return Err(Failure::source(
                    format!("`parameters` at `{base}` is not a list"),
                    "`parameters` is a list of Parameter Objects",
                ));
            };
            for (i, p) in list.iter().enumerate() {
                let at = format!("{base}/parameters/{i}");
                let Value::Object(p) = follow(self.doc, p, &at)? else {
                    return Err(Failure::source(
                        format!("the parameter at `{at}` is not an object"),
                        "a parameter is an object with `name` and `in`",
                    ));
                };
                let (Some(name), Some(place)) = (
                    p.get("name").and_then(Value::as_str),
                    p.get("in").and_then(Value::as_str),
                ) else {
                    return Err(Failure::source(
                        format!("the parameter at `{at}` has no `name` or no `in`"),
                        "a parameter names itself (`name`) and its place (`in`: path, query, header or cookie)",
                    ));
                };
                if place == "header"
                    && IGNORED_HEADERS.contains(&name.to_ascii_lowercase().as_str())
                {
                    notes.push(Note::new(
                        Some(tool),
                        at,
                        format!("the header parameter `{name}` is left out: OpenAPI says to ignore it (the body's media type and the security schemes set it)"),
                    ));
                    continue;
                }
                let same = |q: &&Map<String, Value>| {
                    q.get("name").and_then(Value::as_str) == Some(name)
                        && q.get("in").and_then(Value::as_str) == Some(place)
                };
                match out.iter().position(|(q, _)| same(q)) {
                    Some(i) => out[i] = (p, at),
                    None => out.push((p, at)),
                }
            }
        }
        Ok(out)
    }

    /// One parameter as a property of the tool's parameters.
    #[allow(clippy::too_many_arguments)]
    fn parameter(
        &self,
        p: &Map<String, Value>,
        at: &str,
        tool: &str,
        schemas: &mut Schemas,
        properties: &mut Properties,
        binding: &mut HttpBinding,
        notes: &mut Vec<Note>,
    ) -> Result<(), Failure> {
        let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
        let place = p.get("in").and_then(Value::as_str).unwrap_or_default();
        let Some(location) = Location::parse(place) else {
            return Err(Failure::source(
                format!("the parameter `{name}` at `{at}` is `in: {place}`"),
                "a parameter is in `path`, `query`, `header` or `cookie`",
            ));
        };
        // The schema, or that of the one media type of `content`.
        let (source, schema_at) = match (p.get("schema"), p.get("content")) {
            (Some(s), _) => (Some(s), format!("{at}/schema")),
            (None, Some(Value::Object(content))) => match content.iter().next() {
                Some((media, m)) => (
                    m.get("schema"),
                    format!("{at}/content/{}/schema", escape(media)),
                ),
                None => (None, String::new()),
            },
            _ => (None, String::new()),
        };
        let mut schema = match source {
            Some(s) => schemas.convert(s, &schema_at, Some(tool))?,
            None => Value::Object(Map::new()),
        };
        if let Value::Object(s) = &mut schema {
            if let Some(d) = p.get("description").filter(|d| d.is_string())
                && !s.contains_key("description")
            {
                s.insert("description".into(), d.clone());
            }
            if p.get("deprecated") == Some(&Value::Bool(true)) {
                s.insert("deprecated".into(), true.into());
            }
            let mut examples: Vec<Value> = Vec::new();
            if let Some(e) = p.get("example") {
                examples.push(e.clone());
            }
            if let Some(Value::Object(named)) = p.get("examples") {
                examples.extend(named.values().filter_map(|e| e.get("value")).cloned());
            }
            if !examples.is_empty() && !s.contains_key("examples") {
                s.insert("examples".into(), Value::Array(examples));
            }
        }
        let property = properties.free_name(name, location.as_str());
        if property != name {
            notes.push(Note::new(
                Some(tool),
                at,
                format!("the {place} parameter `{name}` is the property `{property}`: another parameter has the name `{name}` or the same Rust field"),
            ));
        }
        let required = location == Location::Path || p.get("required") == Some(&Value::Bool(true));
        properties.add(property.clone(), schema, required);
        binding.parameters.push(BoundParameter {
            property,
            name: name.to_string(),
            location,
            style: p.get("style").and_then(Value::as_str).map(str::to_string),
            explode: p.get("explode").and_then(Value::as_bool),
        });
        Ok(())
    }

    /// The request body, merged into the properties; how it is made of them.
    fn body(
        &self,
        tool: &str,
        schemas: &mut Schemas,
        properties: &mut Properties,
        notes: &mut Vec<Note>,
    ) -> Result<Option<BoundBody>, Failure> {
        let Some(body) = self.operation.get("requestBody") else {
            return Ok(None);
        };
        let at = format!("{}/requestBody", self.at);
        let body = follow(self.doc, body, &at)?;
        let required = body.get("required") == Some(&Value::Bool(true));
        let Some(Value::Object(content)) = body.get("content") else {
            return Ok(None);
        };
        let Some((media_type, media)) = pick_media(content, true) else {
            return Ok(None);
        };
        let media_at = format!("{at}/content/{}", escape(media_type));
        if !is_json(media_type) && !is_form(media_type) {
            notes.push(Note::new(
                Some(tool),
                &media_at,
                format!("the body is sent as `{media_type}`, the first of the operation's media types; none is JSON"),
            ));
        }
        let schema_at = format!("{media_at}/schema");
        let source = media
            .get("schema")
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        // The schema the body's properties are read from: the one given, or the component it
        // refers to.
        let target = follow(self.doc, &source, &schema_at)?;
        if let Some(object) = mergeable(target) {
            let body_required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if !required && !body_required.is_empty() {
                notes.push(Note::new(
                    Some(tool),
                    &at,
                    "the request body is optional, but the properties it requires are required parameters: one object of parameters cannot require them only when a body is sent",
                ));
            }
            let mut keys = Vec::new();
            let Some(Value::Object(props)) = object.get("properties") else {
                return Ok(None);
            };
            for (key, schema) in props {
                let converted = schemas.convert(
                    schema,
                    &format!("{schema_at}/properties/{}", escape(key)),
                    Some(tool),
                )?;
                let property = properties.free_name(key, "body");
                if &property != key {
                    notes.push(Note::new(
                        Some(tool),
                        format!("{schema_at}/properties/{}", escape(key)),
                        format!("the body's property `{key}` is the parameter `{property}`: a parameter has the name `{key}` or the same Rust field"),
                    ));
                }
                properties.add(
                    property.clone(),
                    converted,
                    body_required.contains(&key.as_str()),
                );
                keys.push((property, key.clone()));
            }
            if object
                .get("additionalProperties")
                .is_some_and(|a| a != &Value::Bool(false))
            {
                notes.push(Note::new(
                    Some(tool),
                    &schema_at,
                    "the body's other properties (`additionalProperties`) cannot be sent: its named properties are merged with the parameters",
                ));
            }
            return Ok(Some(BoundBody {
                media_type: media_type.clone(),
                shape: BodyShape::Properties(keys),
            }));
        }
        let converted = schemas.convert(&source, &schema_at, Some(tool))?;
        let property = properties.free_name("body", "request");
        properties.add(property.clone(), converted, required);
        Ok(Some(BoundBody {
            media_type: media_type.clone(),
            shape: BodyShape::Whole(property),
        }))
    }

    /// The JSON schema of the first success response that has one.
    fn returns(
        &self,
        tool: &str,
        schemas: &mut Schemas,
        notes: &mut Vec<Note>,
    ) -> Result<Option<Value>, Failure> {
        let Some(Value::Object(responses)) = self.operation.get("responses") else {
            return Ok(None);
        };
        let mut codes: Vec<&String> = responses
            .keys()
            .filter(|c| {
                (c.len() == 3 && c.starts_with('2') && c[1..].chars().all(|d| d.is_ascii_digit()))
                    || c.eq_ignore_ascii_case("2XX")
                    || *c == "default"
            })
            .collect();
        codes.sort_by_key(|c| match c.as_str() {
            "200" => (0, String::new()),
            "201" => (1, String::new()),
            "default" => (4, String::new()),
            c if c.eq_ignore_ascii_case("2XX") => (3, String::new()),
            c => (2, c.to_string()),
        });
        for code in codes {
            let at = format!("{}/responses/{}", self.at, escape(code));
            let response = follow(self.doc, &responses[code.as_str()], &at)?;
            let Some(Value::Object(content)) = response.get("content") else {
                continue;
            };
            let Some((media_type, media)) = pick_media(content, false) else {
                if !content.is_empty() {
                    notes.push(Note::new(
                        Some(tool),
                        &at,
                        "no `returns`: the response is not JSON, so the tool's result is left free",
                    ));
                }
                continue;
            };
            let Some(schema) = media.get("schema") else {
                continue;
            };
            let schema_at = format!("{at}/content/{}/schema", escape(media_type));
            return schemas.convert(schema, &schema_at, Some(tool)).map(Some);
        }
        Ok(None)
    }
}

/// The media type of a body or response to use: JSON first (`application/json`, then a
/// `+json` type, then `*/*`); for a request body, a form next, and then the first listed.
fn pick_media(content: &Map<String, Value>, request: bool) -> Option<(&String, &Value)> {
    let find = |wanted: &dyn Fn(&str) -> bool| content.iter().find(|(m, _)| wanted(m));
    find(&|m| media(m) == "application/json")
        .or_else(|| find(&|m| media(m).ends_with("+json")))
        .or_else(|| find(&|m| media(m) == "*/*"))
        .or_else(|| request.then(|| find(&|m| is_form(m))).flatten())
        .or_else(|| request.then(|| content.iter().next()).flatten())
}

/// A media type without its parameters, in lower case.
fn media(m: &str) -> String {
    m.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn is_json(m: &str) -> bool {
    let m = media(m);
    m == "application/json" || m.ends_with("+json") || m == "*/*"
}

fn is_form(m: &str) -> bool {
    let m = media(m);
    m == "application/x-www-form-urlencoded" || m == "multipart/form-data"
}

/// The schema's object, if its properties can be merged with the parameters: an object with
/// `properties` and nothing at its root that says more about the whole (`oneOf`, `allOf`, …).
fn mergeable(schema: &Value) -> Option<&Map<String, Value>> {
    let Value::Object(s) = schema else {
        return None;
    };
    let object_type = match s.get("type") {
        None => true,
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
    };
    let composed = [
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "$ref",
        "discriminator",
    ]
    .iter()
    .any(|k| s.contains_key(*k));
    let has_properties = s
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    (object_type && !composed && has_properties && s.get("nullable") != Some(&Value::Bool(true)))
        .then_some(s)
}

/// A tool name of `raw`: its characters outside `A-Z a-z 0-9 _ -` made `_`, `op_` before a
/// first character that is not a letter, at most 64 characters.
pub fn tool_name(raw: &str) -> String {
    let mut name: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "op_");
    }
    name.truncate(crate::model::names::MAX_NAME_LEN);
    name
}
