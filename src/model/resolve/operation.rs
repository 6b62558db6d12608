//! One tool or play: its name, description, schemas, policies and examples.

use super::ctx::*;

pub(super) fn tool(ctx: &mut Ctx<'_>, t: &Named<RawTool>, is_play: bool) -> Option<Tool> {
    tool_named(ctx, t, if is_play { "play" } else { "tool" })
}

/// A tool, play or delegate; `kind` (`tool`, `play` or `delegate`) names it.
pub(super) fn tool_named(ctx: &mut Ctx<'_>, t: &Named<RawTool>, kind: &str) -> Option<Tool> {
    if !tool_name_ok(ctx, &t.name, kind) {
        return None;
    }
    let what = format!("{kind} `{}`", t.name.value);
    let raw = &t.body;
    let description = ctx.required_text(&raw.description, &what);
    let parameters = parameters(ctx, raw, &what, t.name.span);
    let returns = raw
        .returns
        .as_ref()
        .map(|node| ctx.schema(node, &format!("the returns of {what}")));
    let policy = policy(ctx, raw, &what);
    let annotations = crate::model::mcp::Annotations::from_raw(&raw.annotations);
    let icons = crate::model::mcp::icons(&raw.icons, &what, &mut ctx.diags);
    let meta = raw
        .meta
        .as_ref()
        .and_then(|m| crate::model::mcp::meta(m, &what, &mut ctx.diags));
    let examples = examples(ctx, raw, &what, parameters, returns);
    let backend = raw
        .backend
        .as_ref()
        .and_then(|b| backend(ctx, b, &what, parameters));
    Some(Tool {
        name: t.name.value.clone(),
        idents: Idents::of(&t.name.value),
        description,
        title: raw.title.as_ref().map(|s| s.value.clone()),
        parameters: parameters.id,
        has_parameters: raw.parameters.is_some(),
        returns: returns.map(|r| r.id),
        validate_returns: raw.validate_returns.as_ref().is_none_or(|v| v.value),
        terminal: raw.terminal.as_ref().is_some_and(|v| v.value),
        policy,
        annotations,
        icons,
        meta,
        deprecated: raw.deprecated.as_ref().and_then(|d| match &d.value {
            RawDeprecated::Flag(false) => None,
            RawDeprecated::Flag(true) => Some(Deprecation { note: None }),
            RawDeprecated::Note(n) => Some(Deprecation {
                note: Some(n.clone()),
            }),
        }),
        examples,
        backend,
        span: t.name.span,
    })
}

/// The backend of a tool or play (`what`), its placeholders checked against the parameters
/// when they are sound.
fn backend(
    ctx: &mut Ctx<'_>,
    raw: &Sp<RawBackend>,
    what: &str,
    parameters: ReadSchema,
) -> Option<crate::model::backend::Backend> {
    let mut params = crate::model::backend::Parameters {
        names: Vec::new(),
        required: Default::default(),
    };
    if parameters.sound {
        // The root's properties, and those of the objects an `allOf` at the root joins.
        let root = ctx.schemas.resolved(parameters.id);
        let mut nodes = vec![root];
        nodes.extend(
            root.all_of
                .iter()
                .flatten()
                .map(|&id| ctx.schemas.resolved(id)),
        );
        for node in nodes {
            for p in node.properties.iter().flatten() {
                if !params.names.contains(&p.name) {
                    params.names.push(p.name.clone());
                }
            }
            params
                .required
                .extend(node.required.iter().map(|r| r.name.clone()));
        }
    }
    let file = raw.span.file;
    let dir = ctx
        .loaded
        .sources
        .path(file)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let before = ctx.diags.len();
    let resolved = crate::model::backend::resolve(raw, what, &params, dir, &mut ctx.diags);
    // Placeholders cannot be checked against parameters that did not read: the backend is
    // left out, and the parameters' own errors say why.
    if !parameters.sound {
        let kept: Vec<Diagnostic> = ctx
            .diags
            .drain(before..)
            .filter(|d| d.code != Code::BackendPlaceholder)
            .collect();
        ctx.diags.extend(kept);
        return None;
    }
    resolved
}

/// The parameters schema of a tool or play (`what`): as written, which must
/// be an object schema, or one with no properties when it declares none.
fn parameters(ctx: &mut Ctx<'_>, raw: &RawTool, what: &str, at: Span) -> ReadSchema {
    let Some(node) = &raw.parameters else {
        return ReadSchema {
            id: no_parameters(&mut ctx.schemas, at),
            sound: true,
        };
    };
    let mut read = ctx.schema(node, &format!("the parameters of {what}"));
    if !read.sound {
        return read;
    }
    let root = ctx.schemas.resolved(read.id);
    let is_object = root.types == [schema::JsonType::Object]
        || (root.types.is_empty() && root.properties.is_some());
    if !is_object {
        read.sound = false;
        let found = match root.types.as_slice() {
            [] => "no `type`".to_string(),
            [t] => format!("`type: {}`", t.as_str()),
            ts => format!(
                "`type: [{}]`",
                ts.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
            ),
        };
        let at = root.value_span(schema::Keyword::Type);
        ctx.push(
            Diagnostic::new(
                Code::ParametersNotObject,
                format!("the parameters of {what} must be an object schema, found {found}"),
            )
            .at(at)
            .help("tool arguments are a JSON object: write `type: object` with `properties:`"),
        );
    }
    read
}

/// The policies a tool or play (`what`) declares; each one that does not
/// parse is reported and left at its default.
fn policy(ctx: &mut Ctx<'_>, raw: &RawTool, what: &str) -> Policy {
    let mut policy = Policy::default();
    if let Some(a) = &raw.auth {
        match AuthLevel::parse(&a.value) {
            Ok(level) => policy.auth = level,
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidAuth, msg)
                    .at(a.span)
                    .help("use `auth: none`, `auth: user` or `auth: admin`"),
            ),
        }
    }
    for r in &raw.roles {
        if r.value.trim().is_empty() {
            ctx.push(
                Diagnostic::new(Code::InvalidName, format!("{what} has an empty role"))
                    .at(r.span)
                    .help("remove it, or name the role"),
            );
        } else {
            policy.roles.push(r.value.clone());
        }
    }
    if let Some(rl) = &raw.rate_limit {
        match RateLimit::parse(&rl.value) {
            Ok(r) => policy.rate_limit = Some(r),
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidRateLimit, msg)
                    .at(rl.span)
                    .help("write the limit as calls per unit, such as `10/min` or `1/s`"),
            ),
        }
    }
    if let Some(to) = &raw.timeout_ms {
        match parse_timeout(to.value) {
            Ok(ms) => policy.timeout_ms = Some(ms),
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidTimeout, msg)
                    .at(to.span)
                    .help("give the timeout in milliseconds, such as `timeout_ms: 5000`"),
            ),
        }
    }
    if let Some(ap) = &raw.approval {
        match Approval::parse(&ap.value) {
            Ok(a) => {
                policy.approval = a == Approval::Required;
                policy.approval_written = Some(a);
            }
            Err(msg) => ctx.push(
                Diagnostic::new(Code::InvalidApproval, msg)
                    .at(ap.span)
                    .help("write `approval: required` to hold every call for a person's approval, or `approval: none`"),
            ),
        }
    }
    policy
}

/// The examples of a tool or play (`what`), their arguments and result each
/// checked against its schema when that schema is sound.
fn examples(
    ctx: &mut Ctx<'_>,
    raw: &RawTool,
    what: &str,
    parameters: ReadSchema,
    returns: Option<ReadSchema>,
) -> Vec<Example> {
    if raw.examples.is_empty() {
        return Vec::new();
    }
    let params_validator = validator(ctx, parameters);
    let returns_validator = returns.and_then(|r| validator(ctx, r));
    let mut examples = Vec::new();
    for (i, ex) in raw.examples.iter().enumerate() {
        let n = i + 1;
        let arguments = ex.arguments.as_ref().map(|a| {
            if let Some(v) = params_validator {
                check_example(
                    ctx,
                    v,
                    a,
                    &format!("example {n} of {what}: the arguments"),
                    Judged::Arguments,
                );
            }
            a.to_json("", &mut Default::default())
        });
        let result = ex.result.as_ref().map(|r| {
            if let Some(v) = returns_validator {
                check_example(
                    ctx,
                    v,
                    r,
                    &format!("example {n} of {what}: the result"),
                    Judged::Result,
                );
            }
            r.to_json("", &mut Default::default())
        });
        if let Some(arguments) = arguments {
            examples.push(Example {
                arguments,
                result,
                description: ex.description.as_ref().map(|d| d.value.clone()),
                span: ex.span,
            });
        }
    }
    examples
}

/// The validator of the schema `read` when it is sound. A schema that is a `$ref` to a named type
/// (annotations aside) is validated as that type is: its validator is looked up once, and tools
/// that take or return the type share it.
fn validator(ctx: &mut Ctx<'_>, read: ReadSchema) -> Option<Validator> {
    if !read.sound {
        return None;
    }
    let target = ctx.schemas.deref(read.id);
    if target == read.id {
        return ctx.schemas.validator(target);
    }
    if let Some(v) = ctx.validators.get(&target) {
        return *v;
    }
    let v = ctx.schemas.validator(target);
    ctx.validators.insert(target, v);
    v
}

/// Which part of a call an example gives, and so how the dispatcher would read it.
#[derive(Clone, Copy)]
enum Judged {
    /// The arguments: read as the schema means them (`5.0` for an integer, `null` for an absent
    /// optional) before they are validated.
    Arguments,
    /// The result: validated as written.
    Result,
}

fn check_example(ctx: &mut Ctx<'_>, validator: Validator, node: &Node, what: &str, judged: Judged) {
    let mut spans = crate::manifest::node::PointerSpans::new();
    let instance = node.to_json("", &mut spans);
    let (violations, against) = match judged {
        Judged::Arguments => (validator.argument_violations(&instance), "parameters"),
        Judged::Result => (validator.violations(&instance), "returns"),
    };
    for v in violations {
        let at = if v.pointer.is_empty() {
            String::new()
        } else {
            format!(" at `{}`", v.pointer)
        };
        ctx.diags.push(
            Diagnostic::new(
                Code::InvalidExample,
                format!(
                    "{what} do not match the {against} schema{at}: {}",
                    v.message
                ),
            )
            .at(span_at(&spans, &v.pointer, node.span))
            .help(format!(
                "fix the example, or the {against} schema if the example is right"
            )),
        );
    }
}

/// The span of the node at `pointer`, or of its nearest written parent.
pub(super) fn span_at(
    spans: &crate::manifest::node::PointerSpans,
    pointer: &str,
    whole: Span,
) -> Span {
    let mut p = pointer;
    loop {
        if let Some(s) = spans.get(p) {
            return *s;
        }
        match p.rfind('/') {
            Some(i) => p = &p[..i],
            None => return whole,
        }
    }
}

/// The parameters of a tool that declares none: an object with no
/// properties and no others allowed, advertised and enforced alike.
pub(super) fn no_parameters(schemas: &mut Schemas, at: Span) -> SchemaId {
    let (id, _) = schema::read::from_json(
        schemas,
        &serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false}),
        at,
    );
    id
}
