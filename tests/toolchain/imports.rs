//! The import graph of every crate of the workspace: a file imports another when it names an
//! item that file defines (through `use`, or a path in its code), re-exports followed to the file
//! that defines the item, or when it calls a method of a type it names that another file's
//! inherent `impl` block defines. No circle of imports may hold more than two files: a module and
//! one other may lean on each other, but a longer circle (or a parent that its children import
//! and that imports them) means the crate's modules cannot be read, tested or split in any order.
//!
//! Names are resolved with the parts of Rust's rules that crates here use: `crate::`, `self::`,
//! `super::` and `Self`-free paths, `pub use` re-exports (single and glob), `use` items inside
//! functions, paths in the arguments of macro calls (`format!`, `tracing::warn!`; not in `quote!`,
//! whose tokens are the code it writes), inline modules
//! and `#[path]` attributes. A method call `x.m()` is an arrow to the file of an inherent
//! `impl T { fn m }` when the calling file names `T` (the receiver's type is not known to this
//! reader, so a call on a value of a type the file never names is no arrow, and one on another
//! type's method of the same name is). A name this reader cannot place is not an arrow (an
//! external crate, a name from the prelude, a local binding), and neither is a path in a
//! `macro_rules!` body (it is resolved where the macro expands, through `$crate`). Test modules
//! (`#[cfg(test)]`, `src/tests/`) are not read: tests may import anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::visit::Visit;

use super::repo;

/// A module: its path from the crate root, and the file it lives in.
struct Module {
    file: PathBuf,
    /// Items defined here, by name.
    items: BTreeSet<String>,
    /// `pub use` re-exports: the name they give and the absolute path they name.
    reexports: Vec<(String, Vec<String>)>,
    /// `pub use path::*`: the absolute paths of the modules re-exported whole.
    globs: Vec<Vec<String>>,
    /// Names a `use` of this crate's items brings in (public or not), with the absolute path.
    imports: BTreeMap<String, Vec<String>>,
}

/// The modules of one crate, by absolute path (`[]` is the crate root).
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    /// Every path named in each file, absolute, with the module it was named in.
    named: BTreeMap<PathBuf, Vec<Vec<String>>>,
    /// The methods each file calls (`x.m()`), by name.
    calls: BTreeMap<PathBuf, BTreeSet<String>>,
    /// Inherent methods: the absolute path of the type its `impl` block names, the method, and
    /// the file of the block.
    methods: Vec<(Vec<String>, String, PathBuf)>,
}

/// What a path names: a module (its file), an item (its file and name), or a member of an item
/// (an enum's variant, an associated function).
enum Target<'a> {
    Module(&'a Path),
    Item(&'a Path, &'a str),
    Member(&'a Path, &'a str, String),
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// An item's name (if it defines one) and its attributes.
fn ident_and_attrs(item: &syn::Item) -> (Option<&syn::Ident>, &[syn::Attribute]) {
    match item {
        syn::Item::Const(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Enum(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Fn(i) => (Some(&i.sig.ident), &i.attrs),
        syn::Item::Macro(i) => (i.ident.as_ref(), &i.attrs),
        syn::Item::Static(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Struct(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Trait(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Type(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Union(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Impl(i) => (None, &i.attrs),
        syn::Item::Mod(i) => (Some(&i.ident), &i.attrs),
        syn::Item::Use(i) => (None, &i.attrs),
        syn::Item::ExternCrate(i) => (None, &i.attrs),
        syn::Item::ForeignMod(i) => (None, &i.attrs),
        syn::Item::TraitAlias(i) => (Some(&i.ident), &i.attrs),
        _ => (None, &[]),
    }
}

/// `path` named in module `at`, made absolute: `crate::` from the root, `self::` and `super::`
/// from `at`; `None` for a path that starts anywhere else (an external crate, a local name).
fn absolute(at: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut out: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            out = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            out = at.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            out = at.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                out.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

/// The paths a `use` tree names (its leaves), each with the name it is known by and whether it
/// is a glob.
fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, String, bool)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut path = prefix.clone();
            if name != "self" {
                path.push(name.clone());
            }
            let known = if name == "self" {
                prefix.last().cloned().unwrap_or_default()
            } else {
                name
            };
            out.push((path, known, false));
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, r.rename.to_string(), false));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), String::new(), true)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// The paths (of more than one segment, as written) and the method calls in a file's code;
/// which paths name this crate is decided where the module's children are known.
#[derive(Default)]
struct Paths {
    paths: Vec<Vec<String>>,
    methods: BTreeSet<String>,
}

impl Paths {
    /// The paths and method calls in a macro call's tokens, which syn leaves unparsed:
    /// `a::b::c` sequences (not after `::` or `$`), and `.m(` calls.
    fn scan(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: usize, c: char| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(g) => {
                    self.scan(g.stream());
                    i += 1;
                }
                TokenTree::Ident(first) => {
                    let after_colons = i >= 2 && punct(i - 1, ':') && punct(i - 2, ':');
                    let after_dollar = i >= 1 && punct(i - 1, '$');
                    if i >= 1
                        && punct(i - 1, '.')
                        && matches!(tokens.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                    {
                        self.methods.insert(first.to_string());
                    }
                    let mut segments = vec![first.to_string()];
                    let mut j = i + 1;
                    while punct(j, ':') && punct(j + 1, ':') {
                        match tokens.get(j + 2) {
                            Some(TokenTree::Ident(next)) => {
                                segments.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    if segments.len() > 1 && !after_colons && !after_dollar {
                        self.paths.push(segments);
                    }
                    i = j;
                }
                _ => i += 1,
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 && p.leading_colon.is_none() {
            self.paths.push(segments);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.methods.insert(m.method.to_string());
        syn::visit::visit_expr_method_call(self, m);
    }

    // A `use` inside a function or block: its leaves are paths of that code.
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        self.paths
            .extend(leaves.into_iter().map(|(path, _, _)| path));
    }

    // A `quote!` writes code that is named where it lands (generated files), not here.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        syn::visit::visit_macro(self, m);
        let quoting = m.path.segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "quote" | "quote_spanned" | "parse_quote"
            )
        });
        if !quoting {
            self.scan(m.tokens.clone());
        }
    }

    // A `macro_rules!` body names paths where it expands, not here.
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        if m.ident.is_none() {
            syn::visit::visit_item_macro(self, m);
        }
    }

    // Test modules and test items are not read.
    fn visit_item(&mut self, i: &'ast syn::Item) {
        if !is_test(ident_and_attrs(i).1) {
            syn::visit::visit_item(self, i);
        }
    }
}

impl Crate {
    /// Reads the module at `path` from `items` (a file's, or an inline module's), in `file`,
    /// whose directory for child modules is `dir`.
    fn read(&mut self, path: Vec<String>, items: &[syn::Item], file: &Path, dir: &Path) {
        let mut module = Module {
            file: file.to_path_buf(),
            items: BTreeSet::new(),
            reexports: Vec::new(),
            globs: Vec::new(),
            imports: BTreeMap::new(),
        };
        let mut named = Vec::new();
        // A path may start at a child module's name (`use d::Shared;`), so the children are
        // known before any path is read.
        let children: BTreeSet<String> = items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Mod(m) if !is_test(&m.attrs) => Some(m.ident.to_string()),
                _ => None,
            })
            .collect();
        let locate = |p: &[String]| -> Option<Vec<String>> {
            match p.first() {
                Some(first) if children.contains(first) => {
                    let mut abs = path.clone();
                    abs.extend(p.iter().cloned());
                    Some(abs)
                }
                _ => absolute(&path, p),
            }
        };
        for item in items {
            let (ident, attrs) = ident_and_attrs(item);
            if is_test(attrs) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut child = path.clone();
                    child.push(name.clone());
                    match &m.content {
                        Some((_, inner)) => self.read(child, inner, file, &dir.join(&name)),
                        None => {
                            let target = match path_attr(&m.attrs) {
                                // Relative to the folder of the file that declares the module.
                                Some(p) => file.parent().expect("a folder").join(p),
                                None if dir.join(format!("{name}.rs")).is_file() => {
                                    dir.join(format!("{name}.rs"))
                                }
                                None => dir.join(&name).join("mod.rs"),
                            };
                            self.read_file(child, &target, &dir.join(&name));
                        }
                    }
                }
                syn::Item::Use(u) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    let public = !matches!(u.vis, syn::Visibility::Inherited);
                    for (leaf, known, glob) in leaves {
                        let Some(abs) = locate(&leaf) else {
                            continue;
                        };
                        named.push(abs.clone());
                        if glob {
                            if public {
                                module.globs.push(abs);
                            }
                        } else {
                            if public {
                                module.reexports.push((known.clone(), abs.clone()));
                            }
                            module.imports.insert(known, abs);
                        }
                    }
                }
                _ => {
                    if let Some(ident) = ident {
                        module.items.insert(ident.to_string());
                    }
                }
            }
        }
        // Inherent methods, once every name of the module is known.
        for item in items {
            let syn::Item::Impl(block) = item else {
                continue;
            };
            if block.trait_.is_some() || is_test(&block.attrs) {
                continue;
            }
            let syn::Type::Path(ty) = &*block.self_ty else {
                continue;
            };
            let segments: Vec<String> = ty
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let of = match segments.as_slice() {
                [name] if module.items.contains(name) => {
                    let mut abs = path.clone();
                    abs.push(name.clone());
                    Some(abs)
                }
                [name] => module.imports.get(name).cloned(),
                _ => locate(&segments),
            };
            let Some(of) = of else {
                continue;
            };
            for member in &block.items {
                if let syn::ImplItem::Fn(f) = member {
                    self.methods
                        .push((of.clone(), f.sig.ident.to_string(), file.to_path_buf()));
                }
            }
        }
        let mut paths = Paths::default();
        for item in items {
            if !matches!(item, syn::Item::Mod(_) | syn::Item::Use(_)) {
                paths.visit_item(item);
            }
        }
        // A path in code may also start at a name the module imports or defines.
        named.extend(paths.paths.iter().filter_map(|p| {
            let first = p.first()?;
            if let Some(imported) = module.imports.get(first) {
                let mut abs = imported.clone();
                abs.extend(p[1..].iter().cloned());
                return Some(abs);
            }
            if module.items.contains(first) {
                let mut abs = path.clone();
                abs.extend(p.iter().cloned());
                return Some(abs);
            }
            locate(p)
        }));
        self.named
            .entry(file.to_path_buf())
            .or_default()
            .extend(named);
        self.calls
            .entry(file.to_path_buf())
            .or_default()
            .extend(paths.methods);
        self.modules.insert(path, module);
    }

    fn read_file(&mut self, path: Vec<String>, file: &Path, dir: &Path) {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        self.read(path, &parsed.items, file, dir);
    }

    /// What `path` names: a module, or the item that defines it (re-exports followed), or a
    /// member of that item.
    fn locate(&self, path: &[String], hops: usize) -> Option<Target<'_>> {
        if hops > 16 {
            return None;
        }
        if let Some(m) = self.modules.get(path) {
            return Some(Target::Module(&m.file));
        }
        let (name, parent) = path.split_last()?;
        if let Some(owner) = self.modules.get(parent) {
            if let Some(item) = owner.items.get(name) {
                return Some(Target::Item(&owner.file, item));
            }
            if let Some((_, target)) = owner.reexports.iter().find(|(n, _)| n == name) {
                return self.locate(target, hops + 1);
            }
            for glob in &owner.globs {
                let mut via = glob.clone();
                via.push(name.clone());
                if let Some(found) = self.locate(&via, hops + 1) {
                    return Some(found);
                }
            }
            // A name the module neither defines nor re-exports from this crate (an external
            // crate's item re-exported, say): the module's file.
            return Some(Target::Module(&owner.file));
        }
        // A path into an item: an enum's variant, an associated function or constant.
        match self.locate(parent, hops + 1)? {
            Target::Item(file, item) => Some(Target::Member(file, item, name.clone())),
            other => Some(other),
        }
    }

    /// The files of the inherent `impl` blocks of `item` (defined in `file`) that define
    /// `method`.
    fn method_files<'a>(
        defined: &BTreeMap<(&'a Path, &'a str), Vec<(&'a str, &'a Path)>>,
        file: &'a Path,
        item: &'a str,
        method: &str,
    ) -> Vec<&'a Path> {
        defined
            .get(&(file, item))
            .into_iter()
            .flatten()
            .filter(|(m, _)| *m == method)
            .map(|(_, f)| *f)
            .collect()
    }

    /// Arrows between files: a file names an item another file defines, or calls a method of a
    /// type it names that another file's inherent `impl` defines.
    fn arrows(&self) -> BTreeMap<&Path, BTreeSet<&Path>> {
        // Inherent methods by the file and name of their type.
        let mut defined: BTreeMap<(&Path, &str), Vec<(&str, &Path)>> = BTreeMap::new();
        for (ty, method, file) in &self.methods {
            if let Some(Target::Item(at, item)) = self.locate(ty, 0) {
                defined
                    .entry((at, item))
                    .or_default()
                    .push((method.as_str(), file.as_path()));
            }
        }
        let mut out: BTreeMap<&Path, BTreeSet<&Path>> = BTreeMap::new();
        for (file, paths) in &self.named {
            let calls = self.calls.get(file);
            let mut to: BTreeSet<&Path> = BTreeSet::new();
            for p in paths {
                match self.locate(p, 0) {
                    Some(Target::Module(target)) => {
                        to.insert(target);
                    }
                    Some(Target::Item(target, item)) => {
                        to.insert(target);
                        for method in calls.into_iter().flatten() {
                            to.extend(Crate::method_files(&defined, target, item, method));
                        }
                    }
                    // `Type::function`: the type's file, and the file of the `impl` that
                    // defines the function.
                    Some(Target::Member(target, item, member)) => {
                        to.insert(target);
                        to.extend(Crate::method_files(&defined, target, item, &member));
                        for method in calls.into_iter().flatten() {
                            to.extend(Crate::method_files(&defined, target, item, method));
                        }
                    }
                    None => {}
                }
            }
            to.remove(file.as_path());
            out.entry(file.as_path()).or_default().extend(to);
        }
        out
    }
}

/// The strongly connected components of `graph` (Tarjan's algorithm, iteratively deep enough
/// for a crate's files).
fn circles<'a>(graph: &BTreeMap<&'a Path, BTreeSet<&'a Path>>) -> Vec<Vec<&'a Path>> {
    struct Walk<'g, 'a> {
        graph: &'g BTreeMap<&'a Path, BTreeSet<&'a Path>>,
        index: BTreeMap<&'a Path, usize>,
        low: BTreeMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on: BTreeSet<&'a Path>,
        out: Vec<Vec<&'a Path>>,
    }
    impl<'a> Walk<'_, 'a> {
        fn visit(&mut self, v: &'a Path) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on.insert(v);
            for &w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort();
                self.out.push(component);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out
}

/// The crate whose root is `root` (`src/lib.rs`), without its test folder `src/tests/`.
fn read_crate(root: &Path) -> Crate {
    let mut krate = Crate::default();
    let dir = root.parent().expect("a folder");
    let text = std::fs::read_to_string(root).expect("the crate root");
    let mut parsed = syn::parse_file(&text).expect("it parses");
    parsed
        .items
        .retain(|i| !matches!(i, syn::Item::Mod(m) if m.ident == "tests" && m.content.is_none()));
    krate.read(Vec::new(), &parsed.items, root, dir);
    krate
}

/// The crates of the workspace that ship besides the compiler: what generated code links and
/// what serves it.
const LIBRARY_ROOTS: [&str; 4] = [
    "schema/src/lib.rs",
    "runtime/src/lib.rs",
    "mcp/src/lib.rs",
    "search/src/lib.rs",
];

/// The compiler's crate.
const COMPILER_ROOT: &str = "src/lib.rs";

/// The circles of more than two files in the crates at `roots`, and how many arrows were read.
fn long_circles(roots: &[&str]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut arrows_read = 0;
    for root in roots {
        let krate = read_crate(&repo().join(root));
        let graph = krate.arrows();
        arrows_read += graph.values().map(BTreeSet::len).sum::<usize>();
        for circle in circles(&graph) {
            if circle.len() > 2 {
                let name = |p: &Path| p.strip_prefix(repo()).unwrap_or(p).display().to_string();
                let names: Vec<String> = circle.iter().map(|p| name(p)).collect();
                // The arrows inside the circle, so the failure says which import to move.
                let mut arrows = Vec::new();
                for from in &circle {
                    for to in graph.get(from).into_iter().flatten() {
                        if circle.contains(to) {
                            arrows.push(format!("  {} -> {}", name(from), name(to)));
                        }
                    }
                }
                failures.push(format!(
                    "{} files: {}\n{}",
                    names.len(),
                    names.join(", "),
                    arrows.join("\n")
                ));
            }
        }
    }
    (failures, arrows_read)
}

#[test]
fn no_import_circle_holds_more_than_two_files_in_the_library_crates() {
    let (failures, arrows_read) = long_circles(&LIBRARY_ROOTS);
    // Not a vacuous pass: the crates hold hundreds of arrows.
    assert!(arrows_read > 150, "only {arrows_read} arrows read");
    assert!(
        failures.is_empty(),
        "import circles of more than two files:\n{}",
        failures.join("\n")
    );
}

#[test]
fn no_import_circle_holds_more_than_two_files_in_the_compiler() {
    let (failures, arrows_read) = long_circles(&[COMPILER_ROOT]);
    assert!(arrows_read > 200, "only {arrows_read} arrows read");
    assert!(
        failures.is_empty(),
        "import circles of more than two files:\n{}",
        failures.join("\n")
    );
}

/// Writes `files` (path, text) into a fresh folder and reads the crate whose root is `lib.rs`
/// there: its arrows, by file name.
fn arrows_of(files: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
    let dir = tempfile::tempdir().expect("a folder");
    for (p, text) in files {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, text).expect("written");
    }
    let krate = read_crate(&dir.path().join("lib.rs"));
    let name = |p: &Path| {
        p.strip_prefix(dir.path())
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let graph = krate.arrows();
    graph
        .into_iter()
        .map(|(from, to)| (name(from), to.into_iter().map(name).collect()))
        .collect()
}

#[test]
fn the_reader_finds_a_circle_and_follows_re_exports() {
    let dir = tempfile::tempdir().expect("a folder");
    let write = |p: &str, text: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, text).expect("written");
    };
    write(
        "lib.rs",
        "mod a;\nmod b;\nmod c;\nmod d;\npub use d::Shared;\n",
    );
    write("a.rs", "use crate::b::B;\npub struct A(B);\n");
    write("b.rs", "pub struct B(crate::c::C);\n");
    // `c` reaches `a` through the root's re-export of... nothing: it names `a` directly.
    write(
        "c.rs",
        "pub struct C(Box<crate::a::A>);\npub fn f(_: crate::Shared) {}\n",
    );
    write("d.rs", "pub struct Shared;\n");
    let krate = read_crate(&dir.path().join("lib.rs"));
    let graph = krate.arrows();
    let circles: Vec<usize> = circles(&graph).iter().map(Vec::len).collect();
    assert!(circles.contains(&3), "{circles:?}");
    // The re-export is followed to the file that defines the item.
    let c = dir.path().join("c.rs");
    let d = dir.path().join("d.rs");
    assert!(graph[c.as_path()].contains(d.as_path()));
    assert!(!graph[c.as_path()].contains(dir.path().join("lib.rs").as_path()));
}

#[test]
fn the_reader_sees_macro_arguments_nested_uses_paths_into_items_and_methods() {
    let arrows = arrows_of(&[
        (
            "lib.rs",
            "mod kinds;\nmod text;\nmod check;\nmod late;\nmod user;\nmod variant;\nmod member;\nmod generator;\n",
        ),
        ("kinds.rs", "pub enum Kind { A }\npub struct Tree;\n"),
        ("text.rs", "pub struct Cut<'a>(pub &'a str);\n"),
        // A type's behaviour in an `impl` block of another file.
        (
            "check.rs",
            "use crate::kinds::Tree;\nimpl Tree {\n    pub fn check(&self) -> bool { true }\n}\n",
        ),
        (
            "late.rs",
            "pub fn f(k: &str) -> String { format!(\"{}\", crate::text::Cut(k).0) }\n",
        ),
        (
            "user.rs",
            "pub fn g() { use crate::late::f; f(\"x\"); }\n\
             pub fn h(t: &crate::kinds::Tree) -> bool { t.check() }\n",
        ),
        (
            "variant.rs",
            "pub fn v() { let _ = crate::kinds::Kind::A; }\n",
        ),
        (
            "member.rs",
            "use crate::kinds::Tree;\npub fn p(t: &Tree) -> bool { Tree::check(t) }\n",
        ),
        (
            "generator.rs",
            "#[macro_export]\nmacro_rules! m { () => { $crate::user::g() }; }\n",
        ),
    ]);
    let to = |from: &str, target: &str| arrows[from].contains(target);
    assert!(to("late.rs", "text.rs"), "a path in a macro's arguments");
    assert!(to("user.rs", "late.rs"), "a `use` in a function");
    assert!(to("user.rs", "check.rs"), "a method of a type it names");
    assert!(to("variant.rs", "kinds.rs"), "a path into an enum");
    assert!(to("member.rs", "check.rs"), "an associated function");
    assert!(to("member.rs", "kinds.rs"));
    assert!(!to("check.rs", "user.rs"));
    assert!(arrows["generator.rs"].is_empty(), "a macro_rules! body");
}
