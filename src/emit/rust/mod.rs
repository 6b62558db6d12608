//! Rust emission: the toolset IR → one formatted Rust file with the named
//! types, one module per toolbox and playbook (types, trait, dispatcher,
//! descriptors), one constructor per agent, and the validation tables.
//!
//! Tokens are built with `quote`, parsed with `syn` and printed with
//! `prettyplease`, so the output is always valid, formatted Rust.

mod docs;
mod items;
mod search;
mod validate;

pub use docs::sanitize as sanitize_doc;

use crate::diag::{Code, Diagnostic};
use crate::lower::{Dialect, Lowered};
use crate::model::rust::{GroupPlan, Signature, Ty};
use crate::model::{AuthLevel, Tool, Toolset};
use items::{ExtraAttrs, Paths, ident, item_tokens, ty_tokens};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use validate::Tables;

/// Which generated types an extra attribute goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrRule {
    /// `*` (every type), `Name` (a type of that name in any module) or
    /// `module::Name` (`types`, or a toolbox or playbook name).
    pub selector: String,
    /// One attribute, such as `#[derive(Hash)]`.
    pub attribute: String,
}

/// Options of the Rust emitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustOptions {
    /// Require handler futures (and implementations) to be `Send`. Without
    /// it the traits and types are generated, but no dispatchers or agents,
    /// since the runtime serves `Send` futures.
    pub send: bool,
    pub attributes: Vec<AttrRule>,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            send: true,
            attributes: Vec::new(),
        }
    }
}

/// Parsed extra attributes with a record of which rules matched.
struct Attrs {
    rules: Vec<(AttrRule, TokenStream)>,
    used: std::cell::RefCell<Vec<bool>>,
    module: std::cell::RefCell<String>,
}

impl ExtraAttrs for Attrs {
    fn attrs_for(&self, name: &str) -> TokenStream {
        let module = self.module.borrow();
        let mut out = TokenStream::new();
        for (i, (rule, tokens)) in self.rules.iter().enumerate() {
            let hit = match rule.selector.split_once("::") {
                Some((m, n)) => m == module.as_str() && n == name,
                None => rule.selector == "*" || rule.selector == name,
            };
            if hit {
                self.used.borrow_mut()[i] = true;
                out.extend(tokens.clone());
            }
        }
        out
    }
}

fn error(message: String, help: &str) -> Diagnostic {
    Diagnostic::new(Code::UnsupportedSchema, message).help(help.to_string())
}

/// The generated-code API of `toolc-runtime` that generated files are written for. Each file
/// checks it first (`toolc_runtime::__private::require_api!`), so a runtime that does not
/// serve it fails the build with a message naming what to upgrade.
pub const RUNTIME_API: u32 = 2;

/// Generates the Rust source of a toolset.
pub fn generate(
    set: &Toolset,
    lowered: &Lowered,
    options: &RustOptions,
) -> Result<String, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut rules = Vec::new();
    for rule in &options.attributes {
        match syn::parse_str::<syn::File>(&format!("{} struct S;", rule.attribute)) {
            Ok(f) if matches!(f.items.as_slice(), [syn::Item::Struct(s)] if s.attrs.len() == 1) => {
                rules.push((
                    rule.clone(),
                    rule.attribute.parse::<TokenStream>().unwrap_or_default(),
                ));
            }
            _ => diags.push(error(
                format!("`{}` is not one Rust attribute", rule.attribute),
                "write it as it would stand on a type, such as `#[derive(Hash)]`",
            )),
        }
    }
    let attrs = Attrs {
        used: std::cell::RefCell::new(vec![false; rules.len()]),
        rules,
        module: std::cell::RefCell::new(String::new()),
    };
    let mut tables = Tables::new(set);

    // Named types.
    let types_module = &set.rust.types;
    *attrs.module.borrow_mut() = "types".to_string();
    let type_paths = Paths {
        types: quote!(self),
    };
    let type_items: Vec<TokenStream> = types_module
        .items
        .iter()
        .map(|i| {
            let sensitive = types_module.sensitive.contains(i.name());
            item_tokens(i, &type_paths, &attrs, sensitive)
        })
        .collect();

    let nested = Paths {
        types: quote!(super::super::types),
    };
    let mut emitter = GroupEmitter {
        lowered,
        tables: &mut tables,
        paths: &nested,
        attrs: &attrs,
        send: options.send,
    };
    let toolbox_modules: Vec<TokenStream> = set
        .toolboxes
        .iter()
        .zip(&set.rust.toolboxes)
        .enumerate()
        .map(|(i, (tb, plan))| {
            emitter.group(&Group {
                plan,
                first_op: set.operation_index(false, i, 0),
                kind: Kind::Toolbox,
                name: &tb.name,
                idents: &tb.idents,
                description: &tb.description,
                scope: Some(tb.scope.as_deref()),
                ops: &tb.tools,
            })
        })
        .collect();
    let playbook_modules: Vec<TokenStream> = set
        .playbooks
        .iter()
        .zip(&set.rust.playbooks)
        .enumerate()
        .map(|(i, (pb, plan))| {
            emitter.group(&Group {
                plan,
                first_op: set.operation_index(true, i, 0),
                kind: Kind::Playbook,
                name: &pb.name,
                idents: &pb.idents,
                description: &pb.description,
                scope: None,
                ops: &pb.plays,
            })
        })
        .collect();
    let (agents, search_statics): (Vec<TokenStream>, Vec<TokenStream>) = if options.send {
        let taken: std::collections::BTreeSet<String> =
            set.agents.iter().map(|a| a.idents.pascal.clone()).collect();
        set.agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let index = lowered.search.get(i);
                (
                    agent(set, a, &taken, index.is_some()),
                    index
                        .map(|x| search::index_static(a, x))
                        .unwrap_or_default(),
                )
            })
            .unzip()
    } else {
        (Vec::new(), Vec::new())
    };
    let search_module = search::module(&search_statics);
    for ((rule, _), used) in attrs.rules.iter().zip(attrs.used.borrow().iter()) {
        if !used {
            diags.push(error(
                format!(
                    "the attribute selector `{}` matches no generated type",
                    rule.selector
                ),
                "use `*`, a generated type's name, or `module::Name`",
            ));
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    let schemas = tables.module();
    let api = proc_macro2::Literal::u32_unsuffixed(RUNTIME_API);
    let toolc = env!("CARGO_PKG_VERSION");
    let features = required_features(set);
    let file = quote! {
        ::toolc_runtime::__private::require_api!(#api, #toolc);
        #(#features)*
        /// The toolset's named types.
        #[allow(dead_code)]
        pub mod types {
            #(#type_items)*
        }
        /// One module per toolbox: parameter and return types, the trait to
        /// implement, and its dispatcher.
        #[allow(dead_code)]
        pub mod toolboxes {
            #(#toolbox_modules)*
        }
        /// One module per playbook: parameter and return types, the trait to
        /// implement, and its dispatcher.
        #[allow(dead_code)]
        pub mod playbooks {
            #(#playbook_modules)*
        }
        /// One wiring struct per agent: name the implementation of each
        /// toolbox and playbook, then `build` the agent.
        #[allow(dead_code)]
        pub mod agents {
            #(#agents)*
        }
        #schemas
        #search_module
    };
    let parsed: syn::File = syn::parse2(file).map_err(|e| {
        vec![error(
            format!("internal error: generated code does not parse: {e}"),
            "please report this with the manifest that caused it",
        )]
    })?;
    let body = prettyplease::unparse(&parsed);
    Ok(format!("{}{body}", header(set)))
}

/// One `require_feature!` per runtime feature the typed formats in use
/// need, naming the formats that need it.
fn required_features(set: &Toolset) -> Vec<TokenStream> {
    let mut by_feature: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for f in set.rust.typed_formats() {
        if let Some(feature) = f.runtime_feature() {
            by_feature.entry(feature).or_default().push(f.as_str());
        }
    }
    by_feature
        .into_iter()
        .map(|(feature, formats)| {
            let feature = format_ident!("{feature}");
            let what: Vec<String> = formats.iter().map(|f| format!("`format: {f}`")).collect();
            let why = what.join(" and ");
            quote!(::toolc_runtime::__private::require_feature!(#feature, #why);)
        })
        .collect()
}

fn header(set: &Toolset) -> String {
    let sources: Vec<String> = set
        .inputs
        .iter()
        .map(|p| {
            if p.is_absolute() {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            } else {
                p.to_string_lossy().replace('\\', "/")
            }
        })
        .collect();
    let mut out = format!(
        "// @generated by toolc {} from the toolset `{}`. Do not edit.\n// Sources:\n",
        env!("CARGO_PKG_VERSION"),
        set.name
    );
    for s in sources {
        out.push_str(&format!("//   {s}\n"));
    }
    out.push('\n');
    out
}

fn auth_tokens(a: AuthLevel) -> TokenStream {
    match a {
        AuthLevel::None => quote!(::toolc_runtime::AuthLevel::None),
        AuthLevel::User => quote!(::toolc_runtime::AuthLevel::User),
        AuthLevel::Admin => quote!(::toolc_runtime::AuthLevel::Admin),
    }
}

fn opt_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::std::option::Option::Some(#s)),
        None => quote!(::std::option::Option::None),
    }
}

/// The MCP fields a tool's descriptor carries, as the JSON texts written into
/// it: taken from the tool's MCP entry, which the lower stage made, so that
/// the runtime's MCP server lists what `toolc dump --dialect mcp` prints.
///
/// Public only for toolc's own tests: the agreement harness
/// (`tests/agreement/build.rs`) builds descriptors of the real-world corpus
/// from it without compiling their Rust. It is not meant for other callers
/// and changes with the descriptor it fills.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpTexts {
    /// `inputSchema` (`{"type":"object"}` without an entry).
    pub input_schema: String,
    /// `outputSchema`, when the entry lists one.
    pub output_schema: Option<String>,
    /// `annotations` (`{}` when none).
    pub annotations: String,
    /// `icons`, when the entry lists them.
    pub icons: Option<String>,
    /// `_meta`, when the entry has one.
    pub meta: Option<String>,
}

impl McpTexts {
    /// The texts of a tool's MCP entry.
    pub fn of(entry: Option<&serde_json::Value>) -> McpTexts {
        let field = |k: &str| entry.and_then(|e| e.get(k)).map(|v| v.to_string());
        McpTexts {
            input_schema: field("inputSchema").unwrap_or_else(|| "{\"type\":\"object\"}".into()),
            output_schema: field("outputSchema"),
            annotations: field("annotations").unwrap_or_else(|| "{}".into()),
            icons: field("icons"),
            meta: field("_meta"),
        }
    }
}

/// A tool's descriptor. Its schemas and annotations are the MCP form the
/// lower stage made (`mcp`), which the runtime's MCP server lists as it is.
fn descriptor(
    t: &Tool,
    mcp: Option<&crate::lower::ToolForm>,
    is_play: bool,
    tables: &mut Tables<'_>,
) -> TokenStream {
    let name = &t.name;
    let description = &t.description;
    let title = opt_str(t.title.as_deref());
    let texts = McpTexts::of(mcp.map(|f| &f.entry));
    let input = &texts.input_schema;
    let output = opt_str(texts.output_schema.as_deref());
    let params = tables.add(t.parameters);
    let returns = match t.returns {
        Some(r) => {
            let p = tables.add(r);
            quote!(::std::option::Option::Some(&super::super::#p))
        }
        None => quote!(::std::option::Option::None),
    };
    let kind = if is_play {
        quote!(::toolc_runtime::OperationKind::Play)
    } else {
        quote!(::toolc_runtime::OperationKind::Tool)
    };
    let validate = t.validate_returns;
    let terminal = t.terminal;
    let deprecated = t.deprecated.is_some();
    let auth = auth_tokens(t.policy.auth);
    let roles = &t.policy.roles;
    let rate = match t.policy.rate_limit {
        Some(r) => {
            let (count, period) = (r.count, r.period_secs);
            quote!(::std::option::Option::Some(::toolc_runtime::RateLimit { count: #count, period_secs: #period }))
        }
        None => quote!(::std::option::Option::None),
    };
    let timeout = match t.policy.timeout_ms {
        Some(ms) => quote!(::std::option::Option::Some(#ms)),
        None => quote!(::std::option::Option::None),
    };
    let approval = t.policy.approval;
    let annotations = &texts.annotations;
    let icons = opt_str(texts.icons.as_deref());
    let meta = opt_str(texts.meta.as_deref());
    quote! {
        ::toolc_runtime::ToolDescriptor {
            name: #name,
            kind: #kind,
            title: #title,
            description: #description,
            input_schema: #input,
            output_schema: #output,
            parameters: &super::super::#params,
            returns: #returns,
            validate_returns: #validate,
            terminal: #terminal,
            deprecated: #deprecated,
            policy: ::toolc_runtime::Policy {
                auth: #auth,
                roles: &[#(#roles),*],
                rate_limit: #rate,
                timeout_ms: #timeout,
                approval: #approval,
            },
            annotations: #annotations,
            icons: #icons,
            meta: #meta,
        }
    }
}

fn method_doc(t: &Tool) -> TokenStream {
    let mut text = t.description.clone();
    if t.policy.approval {
        text.push_str(
            "\n\nRuns only once a person approved the call: until then the call is held and answers `approval_required` with a token (see `toolc_runtime::approval`).",
        );
    }
    if let Some(d) = &t.deprecated {
        text.push_str("\n\n**Deprecated.**");
        if let Some(n) = &d.note {
            text.push(' ');
            text.push_str(n);
        }
    }
    docs::doc_attrs(&text)
}

fn deprecated_attr(t: &Tool) -> TokenStream {
    match t.deprecated.as_ref().and_then(|d| d.note.as_deref()) {
        Some(note) => {
            let note = docs::sanitize(note);
            quote!(#[deprecated(note = #note)])
        }
        None if t.deprecated.is_some() => quote!(#[deprecated]),
        None => quote!(),
    }
}

fn future(ret: TokenStream, send: bool) -> TokenStream {
    let send = if send {
        quote!(+ ::std::marker::Send)
    } else {
        quote!()
    };
    quote!(impl ::std::future::Future<Output = ::std::result::Result<#ret, ::toolc_runtime::HandlerError>> #send)
}

/// A toolbox or a playbook, as the emitter sees it.
struct Group<'g> {
    plan: &'g GroupPlan,
    /// The index of its first tool or play among the toolset's operations.
    first_op: usize,
    kind: Kind,
    name: &'g str,
    idents: &'g crate::model::Idents,
    description: &'g str,
    /// `Some(scope type)` for a toolbox (whose tools get a context), `None`
    /// for a playbook (whose plays never see one).
    scope: Option<Option<&'g str>>,
    ops: &'g [Tool],
}

/// What emitting a group needs from the rest of the emitter.
struct GroupEmitter<'e, 'a> {
    lowered: &'a Lowered,
    tables: &'e mut Tables<'a>,
    paths: &'e Paths,
    attrs: &'e Attrs,
    send: bool,
}

impl GroupEmitter<'_, '_> {
    /// The module of one toolbox or playbook: its parameter and return
    /// types, the trait to implement, the dispatcher and the descriptors.
    fn group(&mut self, g: &Group<'_>) -> TokenStream {
        *self.attrs.module.borrow_mut() = g.name.to_string();
        let paths = self.paths;
        let (kind_name, suffix) = match g.kind {
            Kind::Toolbox => ("Toolbox", "Toolbox"),
            Kind::Playbook => ("Playbook", "Playbook"),
        };
        let module_id = ident(&g.idents.snake);
        let trait_name = g.idents.pascal.clone();
        let server_name = format!("{trait_name}{suffix}");
        let sigs: &[Signature] = &g.plan.ops;
        let items: Vec<TokenStream> = g
            .plan
            .module
            .items
            .iter()
            .map(|i| {
                let sensitive = g.plan.module.sensitive.contains(i.name());
                item_tokens(i, paths, self.attrs, sensitive)
            })
            .collect();
        let has_ctx = g.scope.is_some();
        let scope_alias = match g.scope {
            Some(scope) => {
                let (ty, doc) = match scope {
                    Some(s) => (
                        ty_tokens(&Ty::Shared(s.to_string()), paths),
                        format!(" The session scope this toolbox's tools read: `{s}`."),
                    ),
                    None => (
                        quote!(()),
                        " This toolbox reads no session scope.".to_string(),
                    ),
                };
                quote! {
                    #[doc = #doc]
                    pub type Scope = #ty;
                }
            }
            None => quote!(),
        };
        let ctx_param = has_ctx.then(|| quote!(ctx: &::toolc_runtime::ToolContext<'_, Scope>));
        let methods = g.ops.iter().zip(sigs).map(|(t, s)| {
            let m = ident(&t.idents.snake);
            let doc = method_doc(t);
            let dep = deprecated_attr(t);
            let ret = future(ty_tokens(&s.returns, paths), self.send);
            let params = s.params.as_ref().map(|p| {
                let p = ty_tokens(p, paths);
                quote!(params: #p)
            });
            let args = params.into_iter().chain(ctx_param.clone());
            let refine = s
                .params
                .as_ref()
                .map(|p| refine_method(t, &ty_tokens(p, paths), g.kind));
            quote! {
                #doc
                #dep
                fn #m(&self, #(#args),*) -> #ret;

                #refine
            }
        });
        let descriptors: Vec<TokenStream> = g
            .ops
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mcp = self.lowered.form(g.first_op + i, Dialect::Mcp);
                descriptor(t, mcp, g.kind == Kind::Playbook, self.tables)
            })
            .collect();
        let n = descriptors.len();
        let trait_id = format_ident!("{trait_name}");
        let server = if self.send {
            server(g, sigs, &trait_id, &format_ident!("{server_name}"), paths)
        } else {
            quote!()
        };
        let trait_doc = docs::doc_attrs(g.description);
        let module_doc = docs::doc_attrs(&format!("{kind_name} `{}`: {}", g.name, g.description));
        let bounds = if self.send {
            quote!(: ::std::marker::Send + ::std::marker::Sync + 'static)
        } else {
            quote!()
        };
        let what = match g.kind {
            Kind::Toolbox => " Descriptors of this toolbox's tools, in manifest order.",
            Kind::Playbook => " Descriptors of this playbook's plays, in manifest order.",
        };
        let check = check_arguments(g, sigs, paths);
        quote! {
            #module_doc
            pub mod #module_id {
                #(#items)*

                #scope_alias

                #trait_doc
                pub trait #trait_id #bounds {
                    #(#methods)*
                }

                #server

                #check

                #[doc = #what]
                pub static DESCRIPTORS: [::toolc_runtime::ToolDescriptor; #n] = [#(#descriptors),*];
            }
        }
    }
}

/// The trait's `refine_<tool>` method, with its default that accepts
/// everything.
fn refine_method(t: &Tool, params: &TokenStream, kind: Kind) -> TokenStream {
    let m = format_ident!("{}", t.refine_method());
    let (one, server) = match kind {
        Kind::Toolbox => ("tool", "toolbox"),
        Kind::Playbook => ("play", "playbook"),
    };
    let doc = format!(
        " Checks the arguments of the {one} `{name}` beyond its schema (a field that must come \
         after another, say). Runs on the typed parameters once they pass the schema, before the \
         handler, in every call and in the {server}'s `check_arguments`; each violation (a JSON \
         pointer into the arguments and a message) fails the call with `arguments_invalid`, as a \
         schema violation does. Accepts everything unless implemented. Messages reach the model \
         and the logs: never quote a sensitive value in one.",
        name = t.name
    );
    quote! {
        #[doc = #doc]
        fn #m(&self, params: &#params) -> ::std::result::Result<(), ::toolc_runtime::Violations> {
            let _ = params;
            ::std::result::Result::Ok(())
        }
    }
}

/// `check_arguments`: a call's handling of the arguments, without the call.
fn check_arguments(g: &Group<'_>, sigs: &[Signature], paths: &Paths) -> TokenStream {
    let (one, noun) = match g.kind {
        Kind::Toolbox => ("tool", "tools"),
        Kind::Playbook => ("play", "plays"),
    };
    let arms = g.ops.iter().zip(sigs).enumerate().map(|(i, (t, s))| {
        let op = &t.name;
        let p = match &s.params {
            Some(p) => ty_tokens(p, paths),
            None => quote!(::toolc_runtime::NoParams),
        };
        quote!(#op => ::toolc_runtime::check_arguments::<#p>(&DESCRIPTORS[#i], arguments),)
    });
    let doc = format!(
        " Checks arguments for one of these {noun} as a call would, without running it: parsed, \
         read as the schema means them (a strict-mode `null` for an absent optional, `5.0` for an \
         integer), validated and read into the parameters type. Returns the arguments as read, or \
         the `arguments_invalid` error the call would fail with (`unknown_tool` for a name that is \
         no {one} here). It knows no implementation, so it does not run the trait's \
         `refine_<{one}>` methods; the `check_arguments` method of the server that wraps an \
         implementation does."
    );
    quote! {
        #[doc = #doc]
        pub fn check_arguments(
            name: &str,
            arguments: &str,
        ) -> ::std::result::Result<::toolc_runtime::__private::serde_json::Value, ::toolc_runtime::ToolError> {
            match name {
                #(#arms)*
                _ => ::std::result::Result::Err(::toolc_runtime::ToolError::unknown_tool(name)),
            }
        }
    }
}

/// The dispatcher of a group: a wrapper implementing the runtime's
/// object-safe `Toolbox` or `Playbook` trait by matching on the name.
fn server(
    g: &Group<'_>,
    sigs: &[Signature],
    trait_id: &proc_macro2::Ident,
    server_id: &proc_macro2::Ident,
    paths: &Paths,
) -> TokenStream {
    let name = g.name;
    let is_toolbox = g.kind == Kind::Toolbox;
    let arms = g.ops.iter().zip(sigs).enumerate().map(|(i, (t, s))| {
        let op = &t.name;
        let m = ident(&t.idents.snake);
        let refine = format_ident!("{}", t.refine_method());
        match (&s.params, is_toolbox) {
            (Some(p), true) => {
                let p = ty_tokens(p, paths);
                quote! {
                    #op => {
                        let cx = ::toolc_runtime::ToolContext::<Scope>::new(ctx);
                        ::toolc_runtime::__private::run_tool_refined(
                            &DESCRIPTORS[#i],
                            &self.guard,
                            ctx,
                            arguments,
                            |params: &#p| self.inner.#refine(params),
                            move |params: #p| async move { self.inner.#m(params, &cx).await },
                        )
                        .await
                    }
                }
            }
            (None, true) => quote! {
                #op => {
                    let cx = ::toolc_runtime::ToolContext::<Scope>::new(ctx);
                    ::toolc_runtime::run_tool(&DESCRIPTORS[#i], &self.guard, ctx, arguments, move |_: ::toolc_runtime::NoParams| async move { self.inner.#m(&cx).await }).await
                }
            },
            (Some(p), false) => {
                let p = ty_tokens(p, paths);
                quote! {
                    #op => ::toolc_runtime::__private::run_play_refined(
                        &DESCRIPTORS[#i],
                        arguments,
                        |params: &#p| self.inner.#refine(params),
                        move |params: #p| async move { self.inner.#m(params).await },
                    )
                    .await,
                }
            }
            (None, false) => quote! {
                #op => ::toolc_runtime::run_play(&DESCRIPTORS[#i], arguments, move |_: ::toolc_runtime::NoParams| async move { self.inner.#m().await }).await,
            },
        }
    });
    let (one, noun, unknown) = if is_toolbox {
        (
            "tool",
            "tools",
            quote!(::toolc_runtime::ToolError::unknown_tool(name)),
        )
    } else {
        ("play", "plays", quote!(::toolc_runtime::unknown_play(name)))
    };
    let check_arms = g.ops.iter().zip(sigs).enumerate().map(|(i, (t, s))| {
        let op = &t.name;
        let refine = format_ident!("{}", t.refine_method());
        match &s.params {
            Some(p) => {
                let p = ty_tokens(p, paths);
                quote! {
                    #op => ::toolc_runtime::__private::check_arguments_refined::<#p, _>(
                        &DESCRIPTORS[#i],
                        arguments,
                        |params: &#p| self.inner.#refine(params),
                    ),
                }
            }
            None => quote! {
                #op => ::toolc_runtime::check_arguments::<::toolc_runtime::NoParams>(&DESCRIPTORS[#i], arguments),
            },
        }
    });
    let check_doc = format!(
        " Checks arguments for one of these {noun} as a call through this server would, without \
         running it or its policies: what the module's `check_arguments` does, then the \
         implementation's `refine_<{one}>` method. Returns the arguments as read, or the error \
         the call would fail with: `arguments_invalid`, `panicked` when the refinement panics, \
         or `unknown_tool` for a name that is no {one} here."
    );
    let trait_name = trait_id.to_string();
    // The wrapped implementation's type parameter, which must not shadow the
    // trait (a toolbox named `t` has the trait `T`).
    let t = if trait_name == "T" {
        format_ident!("Inner")
    } else {
        format_ident!("T")
    };
    let (doc, guard_field, guard_init, runtime_impl) = if is_toolbox {
        (
            format!(" Serves a [`{trait_name}`] implementation through the execution contract."),
            quote!(guard: ::toolc_runtime::Guard,),
            quote!(guard: ::toolc_runtime::Guard::new(),),
            quote! {
                impl<#t: #trait_id> ::toolc_runtime::Toolbox for #server_id<#t> {
                    fn name(&self) -> &'static str {
                        #name
                    }

                    fn descriptors(&self) -> &'static [::toolc_runtime::ToolDescriptor] {
                        &DESCRIPTORS
                    }

                    fn call<'a>(
                        &'a self,
                        tool: &'a str,
                        arguments: &'a str,
                        ctx: &'a ::toolc_runtime::CallContext,
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::toolc_runtime::__private::serde_json::Value, ::toolc_runtime::ToolError>> {
                        ::std::boxed::Box::pin(async move {
                            match tool {
                                #(#arms)*
                                _ => ::std::result::Result::Err(::toolc_runtime::ToolError::unknown_tool(tool)),
                            }
                        })
                    }
                }
            },
        )
    } else {
        (
            format!(
                " Serves a [`{trait_name}`] implementation: every failure comes back as a value, never a panic."
            ),
            quote!(),
            quote!(),
            quote! {
                impl<#t: #trait_id> ::toolc_runtime::Playbook for #server_id<#t> {
                    fn name(&self) -> &'static str {
                        #name
                    }

                    fn descriptors(&self) -> &'static [::toolc_runtime::ToolDescriptor] {
                        &DESCRIPTORS
                    }

                    fn call<'a>(
                        &'a self,
                        play: &'a str,
                        arguments: &'a str,
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::toolc_runtime::__private::serde_json::Value, ::toolc_runtime::ToolError>> {
                        ::std::boxed::Box::pin(async move {
                            match play {
                                #(#arms)*
                                _ => ::std::result::Result::Err(::toolc_runtime::unknown_play(play)),
                            }
                        })
                    }
                }
            },
        )
    };
    quote! {
        #[doc = #doc]
        pub struct #server_id<#t> {
            inner: #t,
            #guard_field
        }

        impl<#t: #trait_id> #server_id<#t> {
            /// Wraps an implementation.
            pub fn new(inner: #t) -> Self {
                Self { inner, #guard_init }
            }

            /// The wrapped implementation.
            pub fn inner(&self) -> &#t {
                &self.inner
            }

            #[doc = #check_doc]
            pub fn check_arguments(
                &self,
                name: &str,
                arguments: &str,
            ) -> ::std::result::Result<::toolc_runtime::__private::serde_json::Value, ::toolc_runtime::ToolError> {
                match name {
                    #(#check_arms)*
                    _ => ::std::result::Result::Err(#unknown),
                }
            }
        }

        #[allow(deprecated)]
        #runtime_impl
    }
}

/// What an agent binds: a toolbox or a playbook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Toolbox,
    Playbook,
}

/// One implementation an agent needs: a toolbox or a playbook of its
/// capabilities, with the wiring struct's field and type parameter for it.
struct Part<'s> {
    kind: Kind,
    index: usize,
    name: &'s str,
    description: &'s str,
    idents: &'s crate::model::Idents,
    /// The field (a snake_case identifier, raw where it is a keyword).
    field: crate::model::names::RustIdent,
    /// The type parameter (PascalCase).
    param: String,
}

/// The toolboxes and playbooks an agent's capabilities bind, each once, in
/// capability order, with unique field and type-parameter names. `taken`
/// holds the names of the `agents` module's items, which the type
/// parameters must not shadow.
fn parts<'s>(
    set: &'s Toolset,
    a: &crate::model::Agent,
    taken: &std::collections::BTreeSet<String>,
) -> Vec<Part<'s>> {
    let mut out: Vec<Part<'s>> = Vec::new();
    for &c in &a.capabilities {
        let cap = &set.capabilities[c];
        let found = [
            cap.toolbox.map(|t| {
                let tb = &set.toolboxes[t];
                (
                    Kind::Toolbox,
                    t,
                    tb.name.as_str(),
                    tb.description.as_str(),
                    &tb.idents,
                )
            }),
            cap.playbook.map(|p| {
                let pb = &set.playbooks[p];
                (
                    Kind::Playbook,
                    p,
                    pb.name.as_str(),
                    pb.description.as_str(),
                    &pb.idents,
                )
            }),
        ];
        for (kind, index, name, description, idents) in found.into_iter().flatten() {
            if out.iter().any(|p| p.kind == kind && p.index == index) {
                continue;
            }
            // A toolbox and a playbook may share a name: the playbook's
            // field then says so.
            let base = idents.snake.word().to_string();
            let mut field = base.clone();
            let mut n = 1;
            while out.iter().any(|p| p.field.word() == field) {
                field = match (kind, n) {
                    (Kind::Playbook, 1) => format!("{base}_playbook"),
                    (Kind::Toolbox, 1) => format!("{base}_toolbox"),
                    _ => format!("{base}_{n}"),
                };
                n += 1;
            }
            let field = crate::model::names::snake_ident(&field);
            let mut param = crate::model::names::pascal_ident(field.word());
            while taken.contains(&param) || out.iter().any(|p| p.param == param) {
                param.push_str("Impl");
            }
            out.push(Part {
                kind,
                index,
                name,
                description,
                idents,
                field,
                param,
            });
        }
    }
    out
}

/// An agent's wiring struct: one named field per toolbox and playbook, each
/// its own type parameter bound by the trait it implements, and `build`.
/// A field left out of the struct literal is a compile error that names it.
/// `indexed`: the agent has a search index in `__search`, which `build` hands
/// to the runtime.
fn agent(
    set: &Toolset,
    a: &crate::model::Agent,
    taken: &std::collections::BTreeSet<String>,
    indexed: bool,
) -> TokenStream {
    let struct_id = format_ident!("{}", a.idents.pascal);
    let parts = parts(set, a, taken);
    let params: Vec<proc_macro2::Ident> =
        parts.iter().map(|p| format_ident!("{}", p.param)).collect();
    let bounds: Vec<TokenStream> = parts
        .iter()
        .zip(&params)
        .map(|(p, param)| {
            let namespace = match p.kind {
                Kind::Toolbox => quote!(toolboxes),
                Kind::Playbook => quote!(playbooks),
            };
            let m = ident(&p.idents.snake);
            let tr = format_ident!("{}", p.idents.pascal);
            quote!(#param: super::#namespace::#m::#tr)
        })
        .collect();
    let fields = parts.iter().zip(&params).map(|(p, param)| {
        let f = ident(&p.field);
        let what = match p.kind {
            Kind::Toolbox => "toolbox",
            Kind::Playbook => "playbook",
        };
        let doc = docs::doc_attrs(&format!(
            "The implementation of the `{}` {what}: {}",
            p.name, p.description
        ));
        quote! {
            #doc
            pub #f: #param
        }
    });
    let setup = parts.iter().map(|p| {
        let f = ident(&p.field);
        let v = format_ident!("__{}", p.field.word());
        let (namespace, suffix, runtime_trait) = match p.kind {
            Kind::Toolbox => (
                quote!(toolboxes),
                "Toolbox",
                quote!(::toolc_runtime::Toolbox),
            ),
            Kind::Playbook => (
                quote!(playbooks),
                "Playbook",
                quote!(::toolc_runtime::Playbook),
            ),
        };
        let m = ident(&p.idents.snake);
        let server = format_ident!("{}{suffix}", p.idents.pascal);
        quote! {
            let #v: ::std::sync::Arc<dyn #runtime_trait> =
                ::std::sync::Arc::new(super::#namespace::#m::#server::new(self.#f));
        }
    });
    let var = |kind: Kind, index: usize| {
        parts
            .iter()
            .find(|p| p.kind == kind && p.index == index)
            .map(|p| format_ident!("__{}", p.field.word()))
    };
    let caps = a.capabilities.iter().map(|&c| {
        let cap = &set.capabilities[c];
        let name = &cap.name;
        let description = &cap.description;
        let manual = opt_str(cap.manual.map(|m| set.manuals[m].text.as_str()));
        let tb = match cap.toolbox.and_then(|t| var(Kind::Toolbox, t)) {
            Some(v) => quote!(::std::option::Option::Some(::std::sync::Arc::clone(&#v))),
            None => quote!(::std::option::Option::None),
        };
        let pb = match cap.playbook.and_then(|p| var(Kind::Playbook, p)) {
            Some(v) => quote!(::std::option::Option::Some(::std::sync::Arc::clone(&#v))),
            None => quote!(::std::option::Option::None),
        };
        quote! {
            ::toolc_runtime::Capability {
                name: #name,
                description: #description,
                manual: #manual,
                toolbox: #tb,
                playbook: #pb,
            }
        }
    });
    let name = &a.name;
    let description = &a.description;
    let example_fields: Vec<String> = parts
        .iter()
        .map(|p| format!("{}: My{}", p.field, p.param))
        .collect();
    let mut doc_text = format!(
        "Agent `{}`: {}\n\nThe implementations that serve it, one per toolbox and playbook, by name; \
         `build` makes the agent:\n\n```text\nlet agent = agents::{} {{ {} }}.build();\n```\n\n\
         A field left out is a compile error naming it.",
        a.name,
        a.description,
        struct_id,
        example_fields.join(", ")
    );
    if let Some(s) = &a.scope {
        doc_text.push_str(&format!(
            "\n\nIts tools read the scope `types::{s}`: bind it per call with `CallContext::with_scope`."
        ));
    }
    let doc = docs::doc_attrs(&doc_text);
    let with_index = if indexed {
        let index = search::static_ident(a);
        quote!(.with_search_index(&super::__search::#index))
    } else {
        TokenStream::new()
    };
    let build_doc = format!(
        " The agent `{}`, its tools and plays served by these implementations through the execution contract.",
        a.name
    );
    quote! {
        #doc
        pub struct #struct_id<#(#bounds),*> {
            #(#fields,)*
        }

        impl<#(#bounds),*> #struct_id<#(#params),*> {
            #[doc = #build_doc]
            pub fn build(self) -> ::toolc_runtime::Agent {
                #(#setup)*
                ::toolc_runtime::Agent::new(#name, #description, ::std::vec![#(#caps),*])
                    .expect("toolc checked that the agent's tool and play names are unique")
                    #with_index
            }
        }

        impl<#(#bounds),*> ::std::convert::From<#struct_id<#(#params),*>> for ::toolc_runtime::Agent {
            fn from(wiring: #struct_id<#(#params),*>) -> Self {
                wiring.build()
            }
        }
    }
}
