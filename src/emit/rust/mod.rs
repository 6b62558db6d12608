//! Rust emission: the toolset IR → one formatted Rust file with the named
//! types, one module per toolbox and playbook (types, trait, dispatcher,
//! descriptors), one constructor per agent, and the validation tables.
//!
//! Tokens are built with `quote`, parsed with `syn` and printed with
//! `prettyplease`, so the output is always valid, formatted Rust.

mod arrays;
mod attrs;
mod conforms;
mod deserialize;
mod directions;
mod docs;
mod idents;
mod items;
mod print;
mod search;
mod texts;
mod tuples;
mod type_items;
mod validate;

use crate::diag::{Code, Diagnostic};
use crate::lower::{DEFAULT_INPUT_SCHEMA, Dialect, Lowered, McpTexts};
use crate::model::rust::{GroupPlan, Signature, Ty};
use crate::model::{AuthLevel, Tool, Toolset};
use idents::ident;
use items::{Paths, ty_tokens};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use validate::Tables;

pub use attrs::AttrRule;
use attrs::Attrs;

/// Options of the Rust emitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustOptions {
    /// Require handler futures (and implementations) to be `Send`. Without
    /// it the traits and types are generated, but no dispatchers or agents,
    /// since the runtime serves `Send` futures.
    pub send: bool,
    pub attributes: Vec<AttrRule>,
    /// Derive both `Serialize` and `Deserialize` on every generated type,
    /// rather than only the way the dispatcher moves it (see
    /// `directions.rs`).
    pub serde_both_ways: bool,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            send: true,
            attributes: Vec::new(),
            serde_both_ways: false,
        }
    }
}

fn error(message: String, help: &str) -> Diagnostic {
    Diagnostic::new(Code::UnsupportedSchema, message).help(help.to_string())
}

/// The generated-code API of `toolc-runtime` that generated files are written for. Each file
/// checks it first (`toolc_runtime::__toolc_require_api!`), so a runtime that does not
/// serve it fails the build with a message naming what to upgrade. Keep it equal to the
/// runtime's `codegen::API`.
pub const RUNTIME_API: u32 = 15;

/// Generates the Rust source of a toolset.
pub fn generate(
    set: &Toolset,
    lowered: &Lowered,
    options: &RustOptions,
) -> Result<String, Vec<Diagnostic>> {
    generate_beside(set, lowered, options, || (), true).1
}

/// Generates the Rust source of a toolset, and runs `beside` meanwhile: with `threads` (and a
/// second core), `beside` runs on a second thread, which then prints the type items of the
/// file's modules (`type_items.rs`) while this one prints the rest with a gap for each; the
/// thread done first takes the type items left.
pub fn generate_beside<T: Send>(
    set: &Toolset,
    lowered: &Lowered,
    options: &RustOptions,
    beside: impl Fn() -> T + Sync,
    threads: bool,
) -> (T, Result<String, Vec<Diagnostic>>) {
    let needs = directions::Needs::of(set, options.serde_both_ways);
    let delegates = Delegates::of(set);
    let groups = Groups {
        toolboxes: toolbox_groups(set),
        playbooks: playbook_groups(set),
        delegates: delegates.groups(set),
    };
    let mut modules = Vec::new();
    if !set.rust.types.items.is_empty() {
        modules.push(type_items::TypeModule {
            module: &set.rust.types,
            scope: directions::Scope::Types,
            name: "types",
            depth: 1,
        });
    }
    for g in groups.all() {
        modules.push(type_items::TypeModule {
            module: &g.plan.module,
            scope: g.scope_key,
            name: g.name,
            depth: 2,
        });
    }
    let queue = type_items::Queue::new(modules, checks_of(set, options));
    // The rules as this thread parses them, with their errors; the second thread parses its
    // own, the same rules in the same order, and gives back which matched.
    let (attrs, mut diags) = Attrs::new(&options.attributes);
    let second = || {
        let t = beside();
        let (theirs, _) = Attrs::new(&options.attributes);
        let used = queue
            .work(&theirs, &needs)
            .map(|()| theirs.used.into_inner());
        (t, used)
    };
    let rest = || {
        let rest = print_file(set, lowered, options, &groups);
        (rest, queue.work(&attrs, &needs))
    };
    let one_core = std::thread::available_parallelism().is_ok_and(|n| n.get() == 1);
    let ((t, their_types), (rest, my_types)) = if one_core || !threads {
        (second(), rest())
    } else {
        std::thread::scope(|scope| {
            let helper = std::thread::Builder::new()
                .name("toolc-beside".into())
                .stack_size(crate::parallel::SCHEMA_STACK_BYTES)
                .spawn_scoped(scope, second);
            let rest = rest();
            let second = match helper {
                Ok(helper) => helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => second(),
            };
            (second, rest)
        })
    };
    let code = (|| {
        let (out, gaps) = rest?;
        my_types?;
        let (mine, theirs) = (attrs.used.borrow(), their_types?);
        for (i, (rule, _)) in attrs.rules.iter().enumerate() {
            let matched = |used: &[bool]| used.get(i).copied().unwrap_or(false);
            if !(matched(&mine) || matched(&theirs)) {
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
        let texts = queue
            .texts()
            .ok_or_else(|| print::internal("a module's type items were not printed"))?;
        type_items::fill(out, &gaps, texts)
            .ok_or_else(|| print::internal("type items put where they do not fit"))
    })();
    (t, code)
}

/// The toolset's groups, in the file's order.
struct Groups<'s> {
    toolboxes: Vec<Group<'s>>,
    playbooks: Vec<Group<'s>>,
    delegates: Vec<Group<'s>>,
}

impl Groups<'_> {
    fn all(&self) -> impl Iterator<Item = &Group<'_>> {
        self.toolboxes
            .iter()
            .chain(&self.playbooks)
            .chain(&self.delegates)
    }
}

fn toolbox_groups(set: &Toolset) -> Vec<Group<'_>> {
    set.toolboxes
        .iter()
        .zip(&set.rust.toolboxes)
        .enumerate()
        .map(|(i, (tb, plan))| Group {
            plan,
            first_op: set.operation_index(false, i, 0),
            kind: Kind::Toolbox,
            name: &tb.name,
            idents: &tb.idents,
            description: &tb.description,
            scope: Some(tb.scope.as_deref()),
            ops: &tb.tools,
            targets: None,
            target_names: Vec::new(),
            scope_key: directions::Scope::Toolbox(i),
            paths: Paths::of(&plan.module, true),
        })
        .collect()
}

fn playbook_groups(set: &Toolset) -> Vec<Group<'_>> {
    set.playbooks
        .iter()
        .zip(&set.rust.playbooks)
        .enumerate()
        .map(|(i, (pb, plan))| Group {
            plan,
            first_op: set.operation_index(true, i, 0),
            kind: Kind::Playbook,
            name: &pb.name,
            idents: &pb.idents,
            description: &pb.description,
            scope: None,
            ops: &pb.plays,
            targets: None,
            target_names: Vec::new(),
            scope_key: directions::Scope::Playbook(i),
            paths: Paths::of(&plan.module, true),
        })
        .collect()
}

/// What each agent's delegates module is made of, besides the agent.
struct Delegates {
    tools: Vec<Vec<Tool>>,
    idents: Vec<crate::model::Idents>,
    descriptions: Vec<String>,
}

impl Delegates {
    fn of(set: &Toolset) -> Delegates {
        Delegates {
            tools: set
                .agents
                .iter()
                .map(|a| a.delegates.iter().map(|d| d.tool.clone()).collect())
                .collect(),
            idents: set
                .agents
                .iter()
                .map(|a| crate::model::Idents {
                    snake: a.idents.snake.clone(),
                    pascal: format!("{}Delegates", a.idents.pascal),
                })
                .collect(),
            descriptions: set
                .agents
                .iter()
                .map(|a| {
                    format!(
                        "The delegates of agent `{}`: other agents and capabilities exposed to its model as one tool each.",
                        a.name
                    )
                })
                .collect(),
        }
    }

    /// A group per agent with delegates.
    fn groups<'s>(&'s self, set: &'s Toolset) -> Vec<Group<'s>> {
        set.agents
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.delegates.is_empty())
            .map(|(i, a)| {
                let (of, targets) = delegate_targets(a);
                Group {
                    plan: &set.rust.delegates[i],
                    first_op: set.delegate_offset(i),
                    kind: Kind::Delegates,
                    name: &a.name,
                    idents: &self.idents[i],
                    description: &self.descriptions[i],
                    scope: Some(a.scope.as_deref()),
                    ops: &self.tools[i],
                    target_names: targets.iter().map(|&t| (t, target_name(set, t))).collect(),
                    targets: Some((of, targets)),
                    scope_key: directions::Scope::Delegates(i),
                    paths: Paths::of(&set.rust.delegates[i].module, true),
                }
            })
            .collect()
    }
}

/// The file but for its type items: its text, and the offset of each module's gap for them (in
/// the order of the modules of `generate_beside`'s queue).
// Over 80 lines: one step per section of the generated file, in the order the file has
// them; each step is a call into the functions below.
fn print_file(
    set: &Toolset,
    lowered: &Lowered,
    options: &RustOptions,
    groups: &Groups<'_>,
) -> Result<(String, Vec<usize>), Vec<Diagnostic>> {
    let mut tables = Tables::new(set);
    // Each operation's MCP texts, made once: counted here, written into its descriptor.
    let mcp_texts: Vec<McpTexts> = set
        .operations()
        .enumerate()
        .map(|(i, tool)| {
            if let Some(policy) = policy_value(tool) {
                tables.count_policy(&policy);
            }
            let entry = lowered
                .form(i, Dialect::Mcp)
                .and_then(|f| f.mcp_entry(tool));
            let texts = entry.as_ref().map(McpTexts::of).unwrap_or_default();
            tables.count_text(
                &texts.input_schema,
                entry.as_ref().and_then(|e| e.input_schema),
            );
            if let Some(o) = &texts.output_schema {
                tables.count_text(o, entry.as_ref().and_then(|e| e.output_schema));
            }
            texts
        })
        .collect();

    // Each item is printed as soon as it is made (see `print.rs`), in the file's order.
    let mut printer = print::Printer::default();
    printer.out = header(set);
    // Room for the whole file at once, so that it is never copied into a buffer twice its
    // size as it grows (at 10,000 tools, 60 MB into 64 MB after 32 MB): about 6 KiB of
    // Rust per operation in toolsets of realistic tools; pages reserved and never written
    // cost no memory.
    printer.out.reserve(8 * 1024 * set.operations().count());
    let api = proc_macro2::Literal::u32_unsuffixed(RUNTIME_API);
    let toolc = env!("CARGO_PKG_VERSION");
    printer.item(
        &[],
        quote!(::toolc_runtime::__toolc_require_api!(#api, #toolc);),
    )?;
    for feature in required_features(set) {
        printer.item(&[], feature)?;
    }

    // Named types, printed in the gap.
    let mut gaps = Vec::new();
    let types_head = quote! {
        /// The toolset's named types.
        #[allow(dead_code)]
        pub mod types
    };
    if set.rust.types.items.is_empty() {
        printer.item(&[], quote!(#types_head {}))?;
    } else {
        gaps.push(printer.module_with_gap(&[], &types_head, std::iter::empty::<TokenStream>())?);
    }

    let mut emitter = GroupEmitter {
        mcp_texts: &mcp_texts,
        tables: &mut tables,
        checks: checks_of(set, options),
        send: options.send,
    };
    let toolboxes_head = quote! {
        /// One module per toolbox: parameter and return types, the trait to
        /// implement, and its dispatcher.
        #[allow(dead_code)]
        pub mod toolboxes
    };
    emitter.groups(&mut printer, &toolboxes_head, &groups.toolboxes, &mut gaps)?;
    let playbooks_head = quote! {
        /// One module per playbook: parameter and return types, the trait to
        /// implement, and its dispatcher.
        #[allow(dead_code)]
        pub mod playbooks
    };
    emitter.groups(&mut printer, &playbooks_head, &groups.playbooks, &mut gaps)?;
    if !groups.delegates.is_empty() {
        let delegates_head = quote! {
            /// One module per agent with `delegates`: their parameter and
            /// return types, the trait to implement, and its dispatcher.
            #[allow(dead_code)]
            pub mod delegates
        };
        emitter.groups(&mut printer, &delegates_head, &groups.delegates, &mut gaps)?;
    }
    let mut arrays = arrays::Arrays::default();
    let (agents, search_statics): (Vec<TokenStream>, Vec<TokenStream>) = if options.send {
        let taken: std::collections::BTreeSet<String> =
            set.agents.iter().map(|a| a.idents.pascal.clone()).collect();
        let indexed: Vec<bool> = (0..set.agents.len())
            .map(|i| lowered.search.get(i).is_some())
            .collect();
        set.agents
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let index = lowered.search.get(i);
                (
                    agent(set, i, &taken, &indexed),
                    index
                        .map(|x| search::index_static(a, x, &mut arrays))
                        .unwrap_or_default(),
                )
            })
            .unzip()
    } else {
        (Vec::new(), Vec::new())
    };
    let search_module = search::module(&search_statics);
    let agents_head = quote! {
        /// One wiring struct per agent: name the implementation of each
        /// toolbox and playbook, then `build` the agent.
        #[allow(dead_code)]
        pub mod agents
    };
    printer.module(&[], &agents_head, agents)?;
    printer.item(&[], tables.module())?;
    printer.item_with_arrays(&[], search_module, arrays)?;
    Ok((printer.out, gaps))
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
            quote!(::toolc_runtime::codegen::require_feature!(#feature, #why);)
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

/// A tool's descriptor. Its schemas and annotations are the texts of the MCP form the
/// lower stage made (`texts`), which the runtime's MCP server lists as it is. Only the
/// fields that differ from `ToolDescriptor::new`'s are written.
fn descriptor(
    t: &Tool,
    texts: Option<&McpTexts>,
    is_play: bool,
    tables: &mut Tables<'_>,
) -> TokenStream {
    let (name, description) = (&t.name, &t.description);
    let none = McpTexts::default();
    let texts = texts.unwrap_or(&none);
    let tool = validate::shout(name);
    let mut fields = Vec::new();
    if let Some(title) = &t.title {
        fields.push(quote!(title: ::std::option::Option::Some(#title)));
    }
    if texts.input_schema != DEFAULT_INPUT_SCHEMA {
        let input = tables.text(&texts.input_schema, &format!("{tool}_INPUT_SCHEMA"));
        fields.push(quote!(input_schema: #input));
    }
    if let Some(o) = &texts.output_schema {
        let o = tables.text(o, &format!("{tool}_OUTPUT_SCHEMA"));
        fields.push(quote!(output_schema: ::std::option::Option::Some(#o)));
    }
    let params = tables.add(t.parameters);
    if let Some(r) = t.returns {
        let p = tables.add(r);
        fields.push(quote!(returns: ::std::option::Option::Some(&super::super::#p)));
    }
    for (field, on) in [
        (quote!(validate_returns: false), !t.validate_returns),
        (quote!(terminal: true), t.terminal),
        (quote!(deprecated: true), t.deprecated.is_some()),
    ] {
        if on {
            fields.push(field);
        }
    }
    if let Some(policy) = policy_value(t) {
        let policy = tables.policy(policy, &format!("{tool}_POLICY"));
        fields.push(quote!(policy: #policy));
    }
    if texts.annotations != "{}" {
        let annotations = &texts.annotations;
        fields.push(quote!(annotations: #annotations));
    }
    for (field, text) in [(quote!(icons), &texts.icons), (quote!(meta), &texts.meta)] {
        if let Some(text) = text {
            fields.push(quote!(#field: ::std::option::Option::Some(#text)));
        }
    }
    let kind = if is_play {
        quote!(::toolc_runtime::OperationKind::Play)
    } else {
        quote!(::toolc_runtime::OperationKind::Tool)
    };
    let new = quote!(::toolc_runtime::ToolDescriptor::new(#name, #kind, #description, &super::super::#params));
    if fields.is_empty() {
        return new;
    }
    quote!(::toolc_runtime::ToolDescriptor { #(#fields,)* ..#new })
}

/// A descriptor's policy, its fields that differ from `Policy::NONE` written;
/// `None` when all are as there.
fn policy_value(t: &Tool) -> Option<TokenStream> {
    let p = &t.policy;
    let mut fields = Vec::new();
    if p.auth != AuthLevel::None {
        let auth = auth_tokens(p.auth);
        fields.push(quote!(auth: #auth));
    }
    if !p.roles.is_empty() {
        let roles = &p.roles;
        fields.push(quote!(roles: &[#(#roles),*]));
    }
    if let Some(r) = p.rate_limit {
        let (count, period) = (r.count, r.period_secs);
        fields.push(quote!(rate_limit: ::std::option::Option::Some(::toolc_runtime::RateLimit::new(#count, #period))));
    }
    if let Some(ms) = p.timeout_ms {
        fields.push(quote!(timeout_ms: ::std::option::Option::Some(#ms)));
    }
    if p.approval {
        fields.push(quote!(approval: true));
    }
    if fields.is_empty() {
        return None;
    }
    Some(quote!(::toolc_runtime::Policy { #(#fields,)* ..::toolc_runtime::Policy::NONE }))
}

fn method_doc(t: &Tool) -> TokenStream {
    let mut text = t.description.clone();
    if t.sends_verbatim() {
        text.push_str(
            "\n\nIts result is sent as it is written, never validated against its schema (`validate_returns: false`): return the typed value with `.into()`, add keys the schema does not declare with `Verbatim::with_key`, or send any JSON with `Verbatim::raw`.",
        );
    }
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
    /// For an agent's delegates: each op's target, as an index into
    /// `targets`, and the targets (agents and capabilities), each once.
    targets: Option<(Vec<usize>, Vec<crate::model::DelegateTarget>)>,
    /// Each delegate target's name, for docs.
    target_names: Vec<(crate::model::DelegateTarget, String)>,
    /// The group's module, for the directions its types derive.
    scope_key: directions::Scope,
    /// How its module names types.
    paths: Paths<'g>,
}

impl Group<'_> {
    /// How a delegate's target is named in docs: `agent x` or `capability y`.
    fn target_name(&self, target: crate::model::DelegateTarget) -> String {
        self.target_names
            .iter()
            .find(|(t, _)| *t == target)
            .map(|(_, n)| n.clone())
            .unwrap_or_default()
    }
}

/// What emitting a group needs from the rest of the emitter.
struct GroupEmitter<'e, 'a> {
    /// Each operation's MCP texts, for its descriptor.
    mcp_texts: &'e [McpTexts],
    tables: &'e mut Tables<'a>,
    /// What the checks of results read (`conforms.rs`).
    checks: conforms::Inputs<'e>,
    send: bool,
}

/// What the checks of results read (`conforms.rs`), among them whether some attribute rule
/// puts on types attributes that may change what they write.
fn checks_of<'s>(set: &'s Toolset, options: &RustOptions) -> conforms::Inputs<'s> {
    conforms::Inputs {
        schemas: &set.schemas,
        types: &set.rust.types,
        rewriting_rules: options.attributes.iter().any(|r| {
            r.attribute
                .parse::<TokenStream>()
                .map_or(true, |t| conforms::may_change_writing(&t))
        }),
    }
}

impl GroupEmitter<'_, '_> {
    /// The module `head` (`toolboxes`, `playbooks` or `delegates`) with the module of each
    /// of `groups`, each printed as it is made.
    /// Each group's module is printed with a gap for its type items, whose offset is pushed on
    /// `gaps`.
    fn groups(
        &mut self,
        printer: &mut print::Printer,
        head: &TokenStream,
        groups: &[Group<'_>],
        gaps: &mut Vec<usize>,
    ) -> Result<(), Vec<Diagnostic>> {
        if groups.is_empty() {
            return printer.item(&[], quote!(#head {}));
        }
        printer.open(&[], head)?;
        for g in groups {
            let (module, items) = self.group(g);
            gaps.push(printer.module_with_gap(std::slice::from_ref(head), &module, items)?);
        }
        printer.close(&[], head)
    }

    /// The module of one toolbox or playbook: its head (docs and `pub mod name`) and its
    /// items but for its parameter and return types (`type_items.rs`): the trait to
    /// implement, the dispatcher and the descriptors.
    // Over 80 lines: the items of one group's module in the order the module has them; the
    // trait and dispatcher templates are kept whole so they read as the generated code will.
    // The items are made as the printer reaches them (a boxed iterator of lazily made items),
    // so that what is held at once is one item's tokens, not the whole module's.
    fn group<'s>(
        &'s mut self,
        g: &'s Group<'_>,
    ) -> (TokenStream, Box<dyn Iterator<Item = print::Piece<'s>> + 's>) {
        let paths = &g.paths;
        let (kind_name, suffix) = match g.kind {
            Kind::Toolbox => ("Toolbox", "Toolbox"),
            Kind::Playbook => ("Playbook", "Playbook"),
            Kind::Delegates => ("Delegates", "Toolbox"),
        };
        let module_id = ident(&g.idents.snake);
        let trait_name = g.idents.pascal.clone();
        let server_name = format!("{trait_name}{suffix}");
        let sigs: &[Signature] = &g.plan.ops;
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
        // One lifetime for the receiver and every borrowed argument: the future a method returns
        // captures each lifetime of its signature, and rustc checks every such future against
        // every method of the trait, at a cost that grows with the lifetimes captured (a trait of
        // 1,000 tools took 11.6 s with three, BENCHMARKS.md). Implementations still write
        // `&ToolContext<'_, Scope>`: a method more general than the trait's implements it.
        let ctx_param = has_ctx.then(|| quote!(ctx: &'a ::toolc_runtime::ToolContext<'a, Scope>));
        let target_param = (g.kind == Kind::Delegates)
            .then(|| quote!(target: &'a ::toolc_runtime::Delegation<'a>));
        let one_lifetime = has_ctx || g.kind == Kind::Delegates;
        let send = self.send;
        let methods = g.ops.iter().zip(sigs).enumerate().map(move |(i, (t, s))| {
            let m = ident(&t.idents.snake);
            let doc = match &g.targets {
                Some((of, targets)) => {
                    let target = of
                        .get(i)
                        .and_then(|&j| targets.get(j))
                        .map(|&t| g.target_name(t))
                        .unwrap_or_default();
                    let target = match target.split_once(' ') {
                        Some((kind, name)) => format!("{kind} `{name}`"),
                        None => target,
                    };
                    let mut with = t.clone();
                    with.description.push_str(&format!(
                        "\n\nHands its task to {target}: call its tools through `target`, which runs \
                         each through its own contract with this call's caller, scope and policy \
                         store. How the task becomes calls is up to the implementation."
                    ));
                    method_doc(&with)
                }
                None => method_doc(t),
            };
            let dep = deprecated_attr(t);
            let returns = ty_tokens(&s.returns, paths);
            let returns = if s.verbatim {
                quote!(::toolc_runtime::Verbatim<#returns>)
            } else {
                returns
            };
            let ret = future(returns, send);
            let params = s.params.as_ref().map(|p| {
                let p = ty_tokens(p, paths);
                quote!(params: #p)
            });
            let args = params
                .into_iter()
                .chain(target_param.clone())
                .chain(ctx_param.clone());
            let refine = s
                .params
                .as_ref()
                .map(|p| refine_method(t, &ty_tokens(p, paths), g.kind));
            let sig = if one_lifetime {
                quote!(fn #m<'a>(&'a self, #(#args),*) -> #ret;)
            } else {
                quote!(fn #m(&self, #(#args),*) -> #ret;)
            };
            quote! {
                #doc
                #dep
                #sig

                #refine
            }
        });
        let (mcp_texts, tables) = (self.mcp_texts, &mut *self.tables);
        let n = g.ops.len();
        let trait_id = format_ident!("{trait_name}");
        let server_id = format_ident!("{server_name}");
        let trait_id_ = trait_id.clone();
        let checks = self.checks;
        let server = move || {
            if send {
                server(g, sigs, &trait_id_, &server_id, (paths, checks))
            } else {
                Vec::new()
            }
        };
        let trait_doc = if sigs.iter().any(|s| s.params.is_some()) {
            docs::doc_attrs(&format!("{}\n\n{}", g.description, refinements_doc(g.kind)))
        } else {
            docs::doc_attrs(g.description)
        };
        let module_doc = match g.kind {
            Kind::Delegates => docs::doc_attrs(g.description),
            _ => docs::doc_attrs(&format!("{kind_name} `{}`: {}", g.name, g.description)),
        };
        let bounds = if send {
            quote!(: ::std::marker::Send + ::std::marker::Sync + 'static)
        } else {
            quote!()
        };
        let what = match g.kind {
            Kind::Toolbox => " Descriptors of this toolbox's tools, in manifest order.",
            Kind::Playbook => " Descriptors of this playbook's plays, in manifest order.",
            Kind::Delegates => " Descriptors of the agent's delegates, in manifest order.",
        };
        // Printed a few methods at a time (`print.rs`): the trait of a toolbox of 1,000 tools was
        // the largest item printed, and the time to parse and print it grew with the memory it
        // held.
        let trait_item = move || print::Piece::Block {
            head: quote! {
                #trait_doc
                pub trait #trait_id #bounds
            },
            members: Box::new(methods),
            at_once: print::AT_ONCE,
        };
        // Printed a few descriptors at a time (`print.rs`), as the trait is a few methods.
        let descriptors_item = move || {
            // Moved into the lazily made descriptors, which intern their tables in order.
            let tables = tables;
            let descriptors = g.ops.iter().enumerate().map(move |(i, t)| {
                let texts = mcp_texts.get(g.first_op + i);
                descriptor(t, texts, g.kind == Kind::Playbook, tables)
            });
            let head = quote! {
                #[doc = #what]
                // Policies name every field a runtime of this API has, over `Policy::NONE`
                // for the ones later runtimes add.
                #[allow(clippy::needless_update)]
                pub static DESCRIPTORS: [::toolc_runtime::ToolDescriptor; #n] =
            };
            let names = quote! {
                /// Where the dispatcher and `check_arguments` find the operation a name calls
                /// in `DESCRIPTORS`: the names sorted once, on the first call.
                pub static NAMES: ::toolc_runtime::codegen::NameIndex = ::toolc_runtime::codegen::NameIndex::new();
            };
            [
                print::Piece::array(head, descriptors, quote!(;)),
                names.into(),
            ]
        };
        let module = std::iter::once(scope_alias)
            .map(print::Piece::from)
            .chain(std::iter::once_with(trait_item))
            .chain(std::iter::once_with(server).flatten())
            .chain(std::iter::once_with(move || {
                check_arguments(g, sigs, paths).into()
            }))
            .chain(std::iter::once_with(descriptors_item).flatten());
        (
            quote! {
                #module_doc
                pub mod #module_id
            },
            Box::new(module),
        )
    }
}

/// What the trait's docs say of its `refine_<tool>` methods, once for all.
fn refinements_doc(kind: Kind) -> String {
    let (one, server) = match kind {
        Kind::Toolbox => ("tool", "toolbox"),
        Kind::Playbook => ("play", "playbook"),
        Kind::Delegates => ("delegate", "toolbox"),
    };
    format!(
        "Each `refine_<{one}>` method checks the arguments of its {one} beyond its schema (a \
         field that must come after another, say). It runs on the typed parameters once they \
         pass the schema, before the handler, in every call and in the {server}'s \
         `check_arguments`; each violation (a JSON pointer into the arguments and a message) \
         fails the call with `arguments_invalid`, as a schema violation does. Messages reach the \
         model and the logs: never quote a sensitive value in one."
    )
}

/// The trait's `refine_<tool>` method, with its default that accepts
/// everything.
fn refine_method(t: &Tool, params: &TokenStream, kind: Kind) -> TokenStream {
    let m = format_ident!("{}", t.refine_method());
    let one = match kind {
        Kind::Toolbox => "tool",
        Kind::Playbook => "play",
        Kind::Delegates => "delegate",
    };
    let doc = format!(
        " Checks the arguments of the {one} `{name}` beyond its schema; accepts all unless \
         implemented (see the trait's docs).",
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
        Kind::Delegates => ("delegate", "delegates"),
    };
    let arms: Vec<TokenStream> = sigs
        .iter()
        .take(g.ops.len())
        .enumerate()
        .map(|(i, s)| {
            let p = match &s.params {
                Some(p) => ty_tokens(p, paths),
                None => quote!(::toolc_runtime::codegen::NoParams),
            };
            quote!(#i => check::<#p>(&DESCRIPTORS[#i], arguments),)
        })
        .collect();
    let doc = format!(
        " Checks arguments for one of these {noun} as a call would, without running it: parsed, \
         read as the schema means them (a strict-mode `null` for an absent optional, `5.0` for an \
         integer), validated and read into the parameters type. Returns the arguments as read, or \
         the `arguments_invalid` error the call would fail with (`unknown_tool` for a name that is \
         no {one} here). It knows no implementation, so it does not run the trait's \
         `refine_<{one}>` methods; the `check_arguments` method of the server that wraps an \
         implementation does."
    );
    let unknown = quote!(::toolc_runtime::ToolError::unknown_tool(name));
    // The runtime's function under a short name: an arm a line.
    let body = if arms.is_empty() {
        quote! {
            let _ = arguments;
            ::std::result::Result::Err(#unknown)
        }
    } else {
        quote! {
            use ::toolc_runtime::codegen::check_arguments as check;
            let i = NAMES.find(&DESCRIPTORS, name).ok_or_else(|| #unknown)?;
            match i {
                #(#arms)*
                _ => ::std::result::Result::Err(#unknown),
            }
        }
    };
    // `#[inline]`: compiled in the crates that call it, as a generic function would be, and not
    // in every crate that includes the module. Its arms read each parameters type with
    // serde_json, a third of a debug build of the module of 1,000 tools (BENCHMARKS.md), for a
    // function most crates never call.
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn check_arguments(
            name: &str,
            arguments: &str,
        ) -> ::std::result::Result<::toolc_runtime::codegen::serde_json::Value, ::toolc_runtime::ToolError> {
            #body
        }
    }
}

/// The arms of a dispatcher's `bind` per function: rustc type-checks a function with a
/// closure and an async block per arm in time that grows faster than its arms (3.0 s for one
/// `bind` of 1,000 tools, 0.85 s for the same arms in functions of 64; BENCHMARKS.md).
const BIND_ARMS: usize = 64;

/// A dispatcher's `bind` (the operation named `name`, bound to the implementation for one call)
/// and, for a group of more than [`BIND_ARMS`] operations, the functions it hands each range of
/// them to. `arms` match an operation's index in `DESCRIPTORS`.
fn bind_fns(is_toolbox: bool, arms: Vec<TokenStream>) -> Vec<TokenStream> {
    let (ctx_param, ctx_arg, lifetime, bound) = if is_toolbox {
        (
            quote!(ctx: &'a ::toolc_runtime::CallContext,),
            quote!(ctx),
            quote!(<'a>),
            quote!(::toolc_runtime::codegen::Bound<'a>),
        )
    } else {
        (
            quote!(),
            quote!(),
            quote!(),
            quote!(::toolc_runtime::codegen::Bound<'_>),
        )
    };
    let receiver = if is_toolbox {
        quote!(&'a self)
    } else {
        quote!(&self)
    };
    let doc = if is_toolbox {
        quote! {
            /// The tool named `name` bound to this implementation for one call in `ctx`, or
            /// `None` when no tool here has that name.
        }
    } else {
        quote! {
            /// The play named `name` bound to this implementation for one call, or `None` when
            /// no play here has that name.
        }
    };
    if arms.is_empty() {
        let unused = if is_toolbox {
            quote!(let _ = (name, ctx);)
        } else {
            quote!(let _ = name;)
        };
        return vec![quote! {
            #doc
            fn bind #lifetime(#receiver, name: &str, #ctx_param) -> ::std::option::Option<#bound> {
                #unused
                ::std::option::Option::None
            }
        }];
    }
    let cx = if is_toolbox {
        quote!(let cx = ::toolc_runtime::ToolContext::<Scope>::new(ctx);)
    } else {
        quote!()
    };
    let matching = |arms: &[TokenStream]| {
        quote! {
            #cx
            ::std::option::Option::Some(match i {
                #(#arms)*
                _ => return ::std::option::Option::None,
            })
        }
    };
    // The names sorted once, on the first call, and halved to (comparing them in turn cost
    // hundreds of comparisons a call in a group of a thousand).
    let find = quote!(let i = NAMES.find(&DESCRIPTORS, name)?;);
    if arms.len() <= BIND_ARMS {
        let body = matching(&arms);
        return vec![quote! {
            #doc
            #[allow(deprecated)]
            fn bind #lifetime(#receiver, name: &str, #ctx_param) -> ::std::option::Option<#bound> {
                #find
                #body
            }
        }];
    }
    // Each range of arms gets a function `bind_<k>`, which the `match i / BIND_ARMS` of `bind`
    // calls.
    let (calls, fns): (Vec<_>, Vec<_>) = arms
        .chunks(BIND_ARMS)
        .enumerate()
        .map(|(k, arms)| {
            let f = format_ident!("bind_{k}");
            let (first, last) = (k * BIND_ARMS, k * BIND_ARMS + arms.len() - 1);
            let doc = format!(" [`Self::bind`] for the operations {first} to {last}, by index.");
            let body = matching(arms);
            let function = quote! {
                #[doc = #doc]
                #[allow(deprecated)]
                fn #f #lifetime(#receiver, i: usize, #ctx_param) -> ::std::option::Option<#bound> {
                    #body
                }
            };
            (quote!(#k => self.#f(i, #ctx_arg),), function)
        })
        .unzip();
    let bind = quote! {
        #doc
        fn bind #lifetime(#receiver, name: &str, #ctx_param) -> ::std::option::Option<#bound> {
            #find
            match i / #BIND_ARMS {
                #(#calls)*
                _ => ::std::option::Option::None,
            }
        }
    };
    std::iter::once(bind).chain(fns).collect()
}

/// The dispatcher of a group: a wrapper implementing the runtime's
/// object-safe `Toolbox` or `Playbook` trait by matching on the name.
// Over 80 lines: one `quote!` template of the dispatcher, kept whole so that it reads
// top to bottom as the generated code will.
fn server(
    g: &Group<'_>,
    sigs: &[Signature],
    trait_id: &proc_macro2::Ident,
    server_id: &proc_macro2::Ident,
    (paths, checks): (&Paths, conforms::Inputs<'_>),
) -> Vec<print::Piece<'static>> {
    let name = g.name;
    let is_toolbox = g.kind != Kind::Playbook;
    let conformance = checks.of(&g.plan.module, paths);
    let arms = g.ops.iter().zip(sigs).enumerate().map(|(i, (t, s))| {
        let m = ident(&t.idents.snake);
        // A result sent as it is written is not validated, so nothing vouches for it.
        let vouch = if s.verbatim {
            quote!(::toolc_runtime::codegen::unvouched)
        } else {
            conformance.result_check(&s.returns, t.returns)
        };
        let admit = s.params.as_ref().map_or_else(
            || quote!(::std::option::Option::None),
            |p| conformance.arguments_check(p, t.parameters),
        );
        let refine_m = format_ident!("{}", t.refine_method());
        let (refine, bind, arg) = match &s.params {
            Some(p) => {
                let p = ty_tokens(p, paths);
                (
                    quote!(|params: &#p| self.inner.#refine_m(params)),
                    quote!(params: #p),
                    quote!(params,),
                )
            }
            None => (
                quote!(|_: &::toolc_runtime::codegen::NoParams| ::std::result::Result::Ok(())),
                quote!(_: ::toolc_runtime::codegen::NoParams),
                quote!(),
            ),
        };
        if let Some((of, _)) = &g.targets {
            let j = of.get(i).copied().unwrap_or_default();
            return quote! {
                #i => {
                    let target = ::toolc_runtime::codegen::delegation(&DESCRIPTORS[#i], &self.targets[#j], ctx);
                    ::toolc_runtime::codegen::bind(
                        &DESCRIPTORS[#i],
                        #admit,
                        #refine,
                        move |#bind| async move { self.inner.#m(#arg &target, &cx).await },
                        #vouch,
                    )
                }
            };
        }
        let call = if is_toolbox {
            quote!(self.inner.#m(#arg &cx))
        } else {
            quote!(self.inner.#m(#arg))
        };
        quote! {
            #i => ::toolc_runtime::codegen::bind(
                &DESCRIPTORS[#i],
                #admit,
                #refine,
                move |#bind| async move { #call.await },
                #vouch,
            ),
        }
    });
    let (one, noun, unknown) = if is_toolbox {
        (
            "tool",
            "tools",
            quote!(::toolc_runtime::ToolError::unknown_tool(name)),
        )
    } else {
        (
            "play",
            "plays",
            quote!(::toolc_runtime::codegen::unknown_play(name)),
        )
    };
    // The operation bound as a call would bind it, in a context of its own: what binding
    // reads of a call's context (the caller's scope) a check does not use.
    let bind_one = if is_toolbox {
        quote! {
            let ctx = ::toolc_runtime::CallContext::new("");
            let bound = self.bind(name, &ctx);
        }
    } else {
        quote!(let bound = self.bind(name);)
    };
    let check_body = quote! {
        #bind_one
        match bound {
            ::std::option::Option::Some(bound) => bound.check(arguments),
            ::std::option::Option::None => ::std::result::Result::Err(#unknown),
        }
    };
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
    let bind_fn = bind_fns(is_toolbox, arms.collect());
    let (doc, guard_field, guard_init, runtime_impl) = if is_toolbox {
        (
            format!(" Serves a [`{trait_name}`] implementation through the execution contract."),
            quote!(guard: ::toolc_runtime::codegen::Guard,),
            quote!(guard: ::toolc_runtime::codegen::Guard::new(),),
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
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::toolc_runtime::codegen::serde_json::Value, ::toolc_runtime::ToolError>> {
                        ::toolc_runtime::codegen::call_tool(self.bind(tool, ctx), tool, arguments, ctx, &self.guard)
                    }

                    fn call_json<'a>(
                        &'a self,
                        tool: &'a str,
                        arguments: &'a str,
                        ctx: &'a ::toolc_runtime::CallContext,
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::std::boxed::Box<::toolc_runtime::RawValue>, ::toolc_runtime::ToolError>> {
                        ::toolc_runtime::codegen::call_tool(self.bind(tool, ctx), tool, arguments, ctx, &self.guard)
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
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::toolc_runtime::codegen::serde_json::Value, ::toolc_runtime::ToolError>> {
                        ::toolc_runtime::codegen::call_play(self.bind(play), play, arguments)
                    }

                    fn call_json<'a>(
                        &'a self,
                        play: &'a str,
                        arguments: &'a str,
                    ) -> ::toolc_runtime::BoxFuture<'a, ::std::result::Result<::std::boxed::Box<::toolc_runtime::RawValue>, ::toolc_runtime::ToolError>> {
                        ::toolc_runtime::codegen::call_play(self.bind(play), play, arguments)
                    }
                }
            },
        )
    };
    let (targets_field, targets_param, targets_init, targets_doc, targets_static) = match &g.targets
    {
        Some((_, targets)) => {
            let k = targets.len();
            let names: Vec<String> = targets.iter().map(|t| g.target_name(*t)).collect();
            let list = names.join(", ");
            let doc = format!(
                " Wraps an implementation, with the agents its delegates hand their tasks to, in \
                 the order of [`TARGETS`] ({list}); a capability is an agent of that capability \
                 alone. The agent's wiring struct in `agents` builds them."
            );
            (
                quote!(targets: [::std::sync::Arc<::toolc_runtime::Agent>; #k],),
                quote!(, targets: [::std::sync::Arc<::toolc_runtime::Agent>; #k]),
                quote!(targets,),
                doc,
                quote! {
                    /// What the delegates hand their tasks to, in the order `new` takes them.
                    pub static TARGETS: [&str; #k] = [#(#names),*];
                },
            )
        }
        None => (
            quote!(),
            quote!(),
            quote!(),
            " Wraps an implementation.".to_string(),
            quote!(),
        ),
    };
    let struct_item = quote! {
        #[doc = #doc]
        pub struct #server_id<#t> {
            inner: #t,
            #guard_field
            #targets_field
        }

        #targets_static
    };
    let new_fns = quote! {
        #[doc = #targets_doc]
        pub fn new(inner: #t #targets_param) -> Self {
            Self { inner, #guard_init #targets_init }
        }

        /// The wrapped implementation.
        pub fn inner(&self) -> &#t {
            &self.inner
        }
    };
    let check_fn = quote! {
        #[doc = #check_doc]
        pub fn check_arguments(
            &self,
            name: &str,
            arguments: &str,
        ) -> ::std::result::Result<::toolc_runtime::codegen::serde_json::Value, ::toolc_runtime::ToolError> {
            #check_body
        }
    };
    // The inherent impl is printed a function at a time (`print.rs`): each `bind_<k>` holds the
    // arms of 64 operations, as big as an item.
    let members = [new_fns, check_fn].into_iter().chain(bind_fn);
    vec![
        struct_item.into(),
        print::Piece::Block {
            head: quote!(impl<#t: #trait_id> #server_id<#t>),
            members: Box::new(members),
            at_once: 1,
        },
        quote! {
            #[allow(deprecated)]
            #runtime_impl
        }
        .into(),
    ]
}

/// What an agent binds: a toolbox, a playbook, or its delegates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Toolbox,
    Playbook,
    Delegates,
}

/// A delegate target as docs name it: `agent x` or `capability y`.
fn target_name(set: &Toolset, target: crate::model::DelegateTarget) -> String {
    match target {
        crate::model::DelegateTarget::Agent(j) => format!("agent {}", set.agents[j].name),
        crate::model::DelegateTarget::Capability(c) => {
            format!("capability {}", set.capabilities[c].name)
        }
    }
}

/// One implementation an agent needs: a toolbox or a playbook of its
/// capabilities (or of what its delegates call), or the delegates of an
/// agent, with the wiring struct's field and type parameter for it.
struct Part<'s> {
    kind: Kind,
    /// The toolbox or playbook index, or the agent's for its delegates.
    index: usize,
    name: &'s str,
    description: &'s str,
    /// The module (snake) and trait (Pascal) of the implementation.
    idents: crate::model::Idents,
    /// The field (a snake_case identifier, raw where it is a keyword).
    field: crate::model::names::RustIdent,
    /// The type parameter (PascalCase).
    param: String,
}

/// The distinct targets of an agent's delegates, in order of first use, and
/// each delegate's index among them.
fn delegate_targets(a: &crate::model::Agent) -> (Vec<usize>, Vec<crate::model::DelegateTarget>) {
    let mut targets = Vec::new();
    let of = a
        .delegates
        .iter()
        .map(|d| match targets.iter().position(|t| *t == d.target) {
            Some(j) => j,
            None => {
                targets.push(d.target);
                targets.len() - 1
            }
        })
        .collect();
    (of, targets)
}

/// The capabilities delegates of the agents `agents` hand their tasks to,
/// each once, in order.
fn delegated_capabilities(set: &Toolset, agents: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    for &x in agents {
        for d in &set.agents[x].delegates {
            if let crate::model::DelegateTarget::Capability(c) = d.target
                && !out.contains(&c)
            {
                out.push(c);
            }
        }
    }
    out
}

/// The agent `a` and every agent its delegates reach: `a` first, then the
/// others innermost first.
fn agent_closure(set: &Toolset, a: usize) -> Vec<usize> {
    let mut out = vec![a];
    for j in set.delegated_agents(&set.agents[a]) {
        if !out.contains(&j) {
            out.push(j);
        }
    }
    out
}

/// The implementations an agent's wiring struct takes, each once, with
/// unique field and type-parameter names: the toolboxes and playbooks of its
/// capabilities in capability order; then those of the capabilities and
/// agents its delegates reach; then the delegates of the agent and of every
/// agent its delegates reach. `taken` holds the names of the `agents`
/// module's items, which the type parameters must not shadow.
// Over 80 lines: three passes (capabilities, what delegates reach, delegates), each the
// same bookkeeping of unique names; split, that bookkeeping would be passed around.
fn parts<'s>(
    set: &'s Toolset,
    a: usize,
    taken: &std::collections::BTreeSet<String>,
) -> Vec<Part<'s>> {
    let closure = agent_closure(set, a);
    let mut caps: Vec<usize> = Vec::new();
    for &x in &closure {
        for &c in &set.agents[x].capabilities {
            if !caps.contains(&c) {
                caps.push(c);
            }
        }
        if x == a {
            for c in delegated_capabilities(set, &closure) {
                if !caps.contains(&c) {
                    caps.push(c);
                }
            }
        }
    }
    let mut found: Vec<(Kind, usize, &'s str, &'s str, crate::model::Idents)> = Vec::new();
    for c in caps {
        let cap = &set.capabilities[c];
        if let Some(t) = cap.toolbox {
            let tb = &set.toolboxes[t];
            found.push((
                Kind::Toolbox,
                t,
                &tb.name,
                &tb.description,
                tb.idents.clone(),
            ));
        }
        if let Some(p) = cap.playbook {
            let pb = &set.playbooks[p];
            found.push((
                Kind::Playbook,
                p,
                &pb.name,
                &pb.description,
                pb.idents.clone(),
            ));
        }
    }
    for &x in &closure {
        let ag = &set.agents[x];
        if !ag.delegates.is_empty() {
            let idents = crate::model::Idents {
                snake: ag.idents.snake.clone(),
                pascal: format!("{}Delegates", ag.idents.pascal),
            };
            found.push((Kind::Delegates, x, &ag.name, &ag.description, idents));
        }
    }
    let mut out: Vec<Part<'s>> = Vec::new();
    for (kind, index, name, description, idents) in found {
        if out.iter().any(|p| p.kind == kind && p.index == index) {
            continue;
        }
        // A toolbox and a playbook may share a name: the playbook's
        // field then says so.
        let base = match kind {
            Kind::Delegates if index == a => "delegates".to_string(),
            Kind::Delegates => format!("{}_delegates", idents.snake.word()),
            _ => idents.snake.word().to_string(),
        };
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
    out
}

/// An agent's wiring struct: one named field per toolbox and playbook (and
/// delegates), each its own type parameter bound by the trait it implements,
/// and `build`. A field left out of the struct literal is a compile error
/// that names it. `indexed[i]`: agent `i` has a search index in `__search`,
/// which `build` hands to the runtime.
// Over 80 lines: one `quote!` template of the wiring struct and its `build`, kept whole so
// that it reads as the generated code will.
fn agent(
    set: &Toolset,
    ai: usize,
    taken: &std::collections::BTreeSet<String>,
    indexed: &[bool],
) -> TokenStream {
    let a = &set.agents[ai];
    let struct_id = format_ident!("{}", a.idents.pascal);
    let parts = parts(set, ai, taken);
    let params: Vec<proc_macro2::Ident> =
        parts.iter().map(|p| format_ident!("{}", p.param)).collect();
    let bounds: Vec<TokenStream> = parts
        .iter()
        .zip(&params)
        .map(|(p, param)| {
            let namespace = match p.kind {
                Kind::Toolbox => quote!(toolboxes),
                Kind::Playbook => quote!(playbooks),
                Kind::Delegates => quote!(delegates),
            };
            let m = ident(&p.idents.snake);
            let tr = format_ident!("{}", p.idents.pascal);
            quote!(#param: super::#namespace::#m::#tr)
        })
        .collect();
    let fields = parts.iter().zip(&params).map(|(p, param)| {
        let f = ident(&p.field);
        let text = match p.kind {
            Kind::Toolbox => format!(
                "The implementation of the `{}` toolbox: {}",
                p.name, p.description
            ),
            Kind::Playbook => format!(
                "The implementation of the `{}` playbook: {}",
                p.name, p.description
            ),
            Kind::Delegates => format!(
                "The implementation of the delegates of agent `{}` (trait `{}`)",
                p.name, p.idents.pascal
            ),
        };
        let doc = docs::doc_attrs(&text);
        quote! {
            #doc
            pub #f: #param
        }
    });
    let mut used: std::collections::BTreeSet<String> = parts
        .iter()
        .map(|p| format!("__{}", p.field.word()))
        .collect();
    let mut fresh = |base: String| {
        let mut v = base;
        while used.contains(&v) {
            v.push('_');
        }
        used.insert(v.clone());
        format_ident!("{v}")
    };
    let setup = parts.iter().filter(|p| p.kind != Kind::Delegates).map(|p| {
        let f = ident(&p.field);
        let v = format_ident!("__{}", p.field.word());
        let (namespace, suffix, runtime_trait) = match p.kind {
            Kind::Playbook => (
                quote!(playbooks),
                "Playbook",
                quote!(::toolc_runtime::Playbook),
            ),
            _ => (
                quote!(toolboxes),
                "Toolbox",
                quote!(::toolc_runtime::Toolbox),
            ),
        };
        let m = ident(&p.idents.snake);
        let server = format_ident!("{}{suffix}", p.idents.pascal);
        quote! {
            let #v: ::std::sync::Arc<dyn #runtime_trait> =
                ::std::sync::Arc::new(super::#namespace::#m::#server::new(self.#f));
        }
    });
    let setup: Vec<TokenStream> = setup.collect();
    let var = |kind: Kind, index: usize| {
        parts
            .iter()
            .find(|p| p.kind == kind && p.index == index)
            .map(|p| format_ident!("__{}", p.field.word()))
    };
    let cap_expr = |c: usize| {
        let cap = &set.capabilities[c];
        let name = &cap.name;
        let description = &cap.description;
        let manual = cap
            .manual
            .map(|m| set.manuals[m].text.as_str())
            .map(|m| quote!(.with_manual(#m)));
        let tb = cap
            .toolbox
            .and_then(|t| var(Kind::Toolbox, t))
            .map(|v| quote!(.with_toolbox(::std::sync::Arc::clone(&#v))));
        let pb = cap
            .playbook
            .and_then(|p| var(Kind::Playbook, p))
            .map(|v| quote!(.with_playbook(::std::sync::Arc::clone(&#v))));
        quote! {
            ::toolc_runtime::Capability::new(#name, #description) #manual #tb #pb
        }
    };
    // The agents delegates reach, built before the agents that call them:
    // capabilities first (an agent of the capability alone), then agents
    // innermost first.
    let closure = agent_closure(set, ai);
    let mut target_vars: Vec<(crate::model::DelegateTarget, proc_macro2::Ident)> = Vec::new();
    let mut inner = Vec::new();
    for c in delegated_capabilities(set, &closure) {
        let v = fresh(format!(
            "__capability_{}",
            set.capabilities[c].idents.snake.word()
        ));
        let cap = &set.capabilities[c];
        let (name, description) = (&cap.name, &cap.description);
        let expr = cap_expr(c);
        inner.push(quote! {
            let #v = ::std::sync::Arc::new(
                ::toolc_runtime::Agent::new(#name, #description, ::std::vec::Vec::from([#expr]))
                    .expect("one capability's tool and play names are unique"),
            );
        });
        target_vars.push((crate::model::DelegateTarget::Capability(c), v));
    }
    // Agent `x`'s constructor, its delegates (if any) served by `delegates`.
    let agent_expr = |x: usize, delegates: Option<&proc_macro2::Ident>| {
        let ag = &set.agents[x];
        let mut caps: Vec<TokenStream> = ag.capabilities.iter().map(|&c| cap_expr(c)).collect();
        if let Some(v) = delegates {
            let description = format!("The delegates of agent `{}`.", ag.name);
            caps.push(quote! {
                ::toolc_runtime::Capability::new("delegates", #description)
                    .with_toolbox(::std::sync::Arc::clone(&#v))
            });
        }
        let name = &ag.name;
        let description = &ag.description;
        let with_index = if indexed.get(x).copied().unwrap_or(false) {
            let index = search::static_ident(ag);
            quote!(.with_search_index(&super::__search::#index))
        } else {
            TokenStream::new()
        };
        quote! {
            ::toolc_runtime::Agent::new(#name, #description, ::std::vec::Vec::from([#(#caps),*]))
                .expect("toolc checked that the agent's tool and play names are unique")
                #with_index
        }
    };
    // Agent `x`'s delegates toolbox, made from its field and its targets.
    let delegates_toolbox =
        |x: usize,
         v: &proc_macro2::Ident,
         target_vars: &[(crate::model::DelegateTarget, proc_macro2::Ident)]| {
            let ag = &set.agents[x];
            let part = parts
                .iter()
                .find(|p| p.kind == Kind::Delegates && p.index == x)?;
            let f = ident(&part.field);
            let m = ident(&ag.idents.snake);
            let server = format_ident!("{}DelegatesToolbox", ag.idents.pascal);
            let (_, targets) = delegate_targets(ag);
            let args = targets.iter().filter_map(|t| {
                target_vars
                    .iter()
                    .find(|(k, _)| k == t)
                    .map(|(_, tv)| quote!(::std::sync::Arc::clone(&#tv)))
            });
            Some(quote! {
                let #v: ::std::sync::Arc<dyn ::toolc_runtime::Toolbox> = ::std::sync::Arc::new(
                    super::delegates::#m::#server::new(self.#f, [#(#args),*]),
                );
            })
        };
    for &x in closure.iter().skip(1) {
        let ag = &set.agents[x];
        let dv = (!ag.delegates.is_empty())
            .then(|| fresh(format!("__delegates_of_{}", ag.idents.snake.word())));
        if let Some(v) = &dv
            && let Some(t) = delegates_toolbox(x, v, &target_vars)
        {
            inner.push(t);
        }
        let av = fresh(format!("__agent_{}", ag.idents.snake.word()));
        let expr = agent_expr(x, dv.as_ref());
        inner.push(quote!(let #av = ::std::sync::Arc::new(#expr);));
        target_vars.push((crate::model::DelegateTarget::Agent(x), av));
    }
    let own = (!a.delegates.is_empty()).then(|| fresh("__delegates_of_agent".to_string()));
    if let Some(v) = &own
        && let Some(t) = delegates_toolbox(ai, v, &target_vars)
    {
        inner.push(t);
    }
    let outer = agent_expr(ai, own.as_ref());
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
    if !a.delegates.is_empty() {
        doc_text.push_str(
            "\n\nIts delegates hand their tasks to other agents and capabilities, whose \
             implementations are fields here too (each implemented once, and shared with this \
             agent's own tools where they are the same).",
        );
    }
    if let Some(s) = &a.scope {
        doc_text.push_str(&format!(
            "\n\nIts tools read the scope `types::{s}`: bind it per call with `CallContext::with_scope`."
        ));
    }
    let doc = docs::doc_attrs(&doc_text);
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
                #(#inner)*
                #outer
            }
        }

        impl<#(#bounds),*> ::std::convert::From<#struct_id<#(#params),*>> for ::toolc_runtime::Agent {
            fn from(wiring: #struct_id<#(#params),*>) -> Self {
                wiring.build()
            }
        }
    }
}
