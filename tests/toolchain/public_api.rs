//! toolc-mcp serves agents through toolc-runtime's public API only, as a host outside this
//! repository would: its sources name nothing the runtime hides from its documentation (the
//! `codegen` and `__private` modules that generated code calls, the `__toolc_*` macros, and every
//! item or method marked `#[doc(hidden)]`), so a change to what generated code calls cannot
//! break the server, and the server never depends on the runtime's version being its own.
//!
//! The sources are read as tokens (comments and docs left out), so a hidden name is found in
//! `use` trees, in code, and in the arguments of macro calls alike.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use super::repo;

/// What the runtime hides: modules, items and methods.
#[derive(Default, Debug)]
struct Hidden {
    modules: BTreeSet<String>,
    items: BTreeSet<String>,
    methods: BTreeSet<String>,
    /// Hidden methods by the type of their `impl` block: only those of types not hidden
    /// themselves are methods a host could call by mistake.
    methods_of: Vec<(String, String)>,
}

fn doc_hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "hidden")
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

impl Hidden {
    fn read(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Mod(m) => {
                    if doc_hidden(&m.attrs) {
                        self.modules.insert(m.ident.to_string());
                    }
                    if let Some((_, inner)) = &m.content {
                        self.read(inner);
                    }
                }
                syn::Item::Impl(block) => {
                    let of = match &*block.self_ty {
                        syn::Type::Path(p) => p
                            .path
                            .segments
                            .last()
                            .map(|s| s.ident.to_string())
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    for member in &block.items {
                        if let syn::ImplItem::Fn(f) = member
                            && doc_hidden(&f.attrs)
                        {
                            self.methods_of.push((of.clone(), f.sig.ident.to_string()));
                        }
                    }
                }
                syn::Item::Macro(m) => {
                    if let Some(name) = &m.ident
                        && (doc_hidden(&m.attrs) || name.to_string().starts_with("__"))
                    {
                        self.items.insert(name.to_string());
                    }
                    // Macros that write items (the stand-ins of features that are off) are
                    // read through their expansion's attributes, below.
                    self.read_tokens(m.mac.tokens.clone());
                }
                other => {
                    let named = match other {
                        syn::Item::Const(i) => Some((&i.ident, &i.attrs)),
                        syn::Item::Enum(i) => Some((&i.ident, &i.attrs)),
                        syn::Item::Fn(i) => Some((&i.sig.ident, &i.attrs)),
                        syn::Item::Static(i) => Some((&i.ident, &i.attrs)),
                        syn::Item::Struct(i) => Some((&i.ident, &i.attrs)),
                        syn::Item::Trait(i) => Some((&i.ident, &i.attrs)),
                        syn::Item::Type(i) => Some((&i.ident, &i.attrs)),
                        _ => None,
                    };
                    if let Some((ident, attrs)) = named
                        && doc_hidden(attrs)
                    {
                        self.items.insert(ident.to_string());
                    }
                }
            }
        }
    }

    /// Methods a macro body defines with `#[doc(hidden)]` (`formats.rs` writes its format types'
    /// methods from one macro).
    fn read_tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            if let TokenTree::Group(g) = t {
                let hidden_attr = g.delimiter() == Delimiter::Bracket
                    && g.stream().to_string().replace(' ', "") == "doc(hidden)";
                if hidden_attr {
                    // `#[doc(hidden)] pub fn name`: the name after a `fn` that follows at once.
                    let name = tokens[i + 1..tokens.len().min(i + 5)]
                        .windows(2)
                        .find(|w| matches!(&w[0], TokenTree::Ident(f) if f == "fn"))
                        .and_then(|w| match &w[1] {
                            TokenTree::Ident(n) => Some(n.to_string()),
                            _ => None,
                        });
                    if let Some(name) = name {
                        self.methods.insert(name);
                    }
                }
                self.read_tokens(g.stream());
            }
        }
    }

    /// Everything toolc-runtime hides.
    fn of_runtime() -> Hidden {
        let mut files = Vec::new();
        rust_files(&repo().join("runtime/src"), &mut files);
        let mut hidden = Hidden::default();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let parsed =
                syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            hidden.read(&parsed.items);
        }
        for (of, method) in std::mem::take(&mut hidden.methods_of) {
            if !hidden.items.contains(&of) {
                hidden.methods.insert(method);
            }
        }
        hidden
    }
}

/// Where `text` names something `hidden` (one line per finding), and how many paths into
/// `toolc_runtime` it holds.
fn findings(text: &str, hidden: &Hidden) -> (Vec<String>, usize) {
    let tokens = TokenStream::from_str(text).expect("Rust tokens");
    let mut out = Vec::new();
    let mut runtime_paths = 0;
    scan(tokens, hidden, &mut out, &mut runtime_paths);
    (out, runtime_paths)
}

fn scan(tokens: TokenStream, hidden: &Hidden, out: &mut Vec<String>, runtime_paths: &mut usize) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let punct =
        |i: usize, c: char| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
    let colons_after = |i: usize| punct(i + 1, ':') && punct(i + 2, ':');
    let colons_before = |i: usize| i >= 2 && punct(i - 1, ':') && punct(i - 2, ':');
    for (i, t) in tokens.iter().enumerate() {
        let name = match t {
            TokenTree::Group(g) => {
                scan(g.stream(), hidden, out, runtime_paths);
                continue;
            }
            TokenTree::Ident(name) => name.to_string(),
            _ => continue,
        };
        let in_path = colons_after(i) || colons_before(i);
        if in_path && hidden.modules.contains(&name) {
            out.push(format!("the hidden module `{name}`"));
        }
        if name.starts_with("__toolc") {
            out.push(format!("the hidden macro `{name}`"));
        }
        if hidden.methods.contains(&name) && (colons_before(i) || (i >= 1 && punct(i - 1, '.'))) {
            out.push(format!("the hidden method `{name}`"));
        }
        if name == "toolc_runtime" {
            if matches!(tokens.get(i + 1), Some(TokenTree::Ident(a)) if a == "as") {
                out.push("`toolc_runtime` under another name (this test reads its paths)".into());
            }
            if !colons_after(i) {
                continue;
            }
            *runtime_paths += 1;
            // The rest of the path: `::a::b`, or `::{a, b::c}`.
            let mut names = Vec::new();
            let mut j = i + 3;
            loop {
                match tokens.get(j) {
                    Some(TokenTree::Ident(next)) => {
                        names.push(next.to_string());
                        if !colons_after(j) {
                            break;
                        }
                        j += 3;
                    }
                    Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                        names.extend(idents(g.stream()));
                        break;
                    }
                    _ => break,
                }
            }
            for n in names {
                if hidden.items.contains(&n) || hidden.modules.contains(&n) {
                    out.push(format!("the hidden item `toolc_runtime::…::{n}`"));
                }
            }
        }
    }
}

fn idents(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => out.extend(idents(g.stream())),
            _ => {}
        }
    }
    out
}

#[test]
fn toolc_mcp_names_nothing_the_runtime_hides() {
    let hidden = Hidden::of_runtime();
    let mut files = Vec::new();
    rust_files(&repo().join("mcp/src"), &mut files);
    let mut failures = Vec::new();
    let mut runtime_paths = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let (found, paths) = findings(&text, &hidden);
        runtime_paths += paths;
        let name = file.strip_prefix(repo()).unwrap_or(file).display();
        failures.extend(found.into_iter().map(|f| format!("{name}: {f}")));
    }
    // Not a vacuous pass: the server names the runtime throughout.
    assert!(files.len() >= 10, "{files:?}");
    assert!(
        runtime_paths >= 10,
        "only {runtime_paths} paths into toolc_runtime"
    );
    assert!(
        failures.is_empty(),
        "toolc-mcp uses what toolc-runtime hides; make it public API of the runtime (documented, \
         for any host) or do it in toolc-mcp:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_reader_knows_what_the_runtime_hides_and_finds_it() {
    let hidden = Hidden::of_runtime();
    for module in ["codegen", "__private"] {
        assert!(hidden.modules.contains(module), "{hidden:?}");
    }
    for item in [
        "__toolc_require_api",
        "run_tool_refined",
        "Bound",
        "NameIndex",
    ] {
        assert!(hidden.items.contains(item), "{item}: {hidden:?}");
    }
    for method in [
        "with_search_index",
        "search_index_parts",
        "__checked_default",
    ] {
        assert!(hidden.methods.contains(method), "{method}: {hidden:?}");
    }
    let uses = r#"
        use toolc_runtime::codegen::Guard;
        use toolc_runtime::{Agent, codegen::schema::Schema};
        use toolc_runtime::{Agent as A, NameIndex};
        fn f(agent: toolc_runtime::Agent) -> toolc_runtime::Agent {
            // toolc_runtime::codegen in a comment is no use of it
            toolc_runtime::__toolc_require_api!(12, "0.1.0");
            let n = format!("{:?}", agent.search_index_parts());
            agent.with_search_index(&INDEX)
        }
    "#;
    let (found, paths) = findings(uses, &hidden);
    assert_eq!(paths, 6, "{found:?}");
    assert_eq!(
        found,
        [
            "the hidden item `toolc_runtime::…::codegen`",
            "the hidden module `codegen`",
            "the hidden item `toolc_runtime::…::codegen`",
            "the hidden module `codegen`",
            "the hidden item `toolc_runtime::…::NameIndex`",
            "the hidden item `toolc_runtime::…::__toolc_require_api`",
            "the hidden macro `__toolc_require_api`",
            "the hidden method `search_index_parts`",
            "the hidden method `with_search_index`",
        ]
    );
    let clean =
        "use toolc_runtime::{Agent, CallContext};\nfn f(a: &toolc_runtime::Agent) { a.tools(); }";
    assert_eq!(findings(clean, &hidden).0, Vec::<String>::new());
}
