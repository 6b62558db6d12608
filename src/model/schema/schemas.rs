//! The arena of every schema node of a toolset ([`Schemas`]), with the named types' roots, and
//! the walks over it: a node's path and pointer, the named types a schema reaches, the
//! sensitive nodes, the reference cycles.

use super::keyword::Keyword;
use super::node::{SchemaId, SchemaNode, Step, TypeRef};
use std::collections::{BTreeMap, BTreeSet};

/// How a schema refers to a named type: `$ref: "#/types/Name"`.
pub const TYPE_REF_PREFIX: &str = "#/types/";

/// How deep a schema may nest (schema levels, `$ref`s followed included)
/// before a walk stops. The loader's own depth limit keeps manifests far
/// below it; it bounds walks that follow references.
pub const MAX_DEPTH: usize = 256;

/// The type name a `$ref` target names, if it is of the `#/types/X` form.
pub fn ref_type_name(target: &str) -> Option<&str> {
    target.strip_prefix(TYPE_REF_PREFIX)
}

/// The arena of every schema node of a toolset, and the named types' roots.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schemas {
    nodes: Vec<SchemaNode>,
    /// Definition → its root node: the manifest's named types and the
    /// schemas' own definitions that joined them.
    named: BTreeMap<String, SchemaId>,
    /// The definitions that came from a schema's `$defs`, with what makes
    /// one the same as another.
    local_keys: BTreeMap<String, String>,
}

impl Schemas {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a node; its children must already be in the arena.
    pub fn push(&mut self, node: SchemaNode) -> SchemaId {
        let id = SchemaId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        self.nodes.push(node);
        id
    }

    /// Fills in a node reserved earlier.
    pub(crate) fn set(&mut self, id: SchemaId, node: Box<SchemaNode>) {
        self.nodes[id.index()] = *node;
    }

    pub fn get(&self, id: SchemaId) -> &SchemaNode {
        &self.nodes[id.index()]
    }

    pub(crate) fn get_mut(&mut self, id: SchemaId) -> &mut SchemaNode {
        &mut self.nodes[id.index()]
    }

    /// How many nodes the arena holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Registers `root` as the named type `name`.
    pub(crate) fn name(&mut self, name: &str, root: SchemaId) {
        self.named.insert(name.to_string(), root);
    }

    /// Registers a schema's own definition as `name`, with its identity key.
    pub(crate) fn name_local(&mut self, name: &str, root: SchemaId, key: String) {
        self.named.insert(name.to_string(), root);
        self.local_keys.insert(name.to_string(), key);
    }

    /// The identity key of a definition that came from a schema's `$defs`.
    pub(crate) fn local_key(&self, name: &str) -> Option<&str> {
        self.local_keys.get(name).map(String::as_str)
    }

    /// Whether the definition `name` came from a schema's own `$defs`.
    pub fn is_local(&self, name: &str) -> bool {
        self.local_keys.contains_key(name)
    }

    /// The root of the named type `name`.
    pub fn named(&self, name: &str) -> Option<SchemaId> {
        self.named.get(name).copied()
    }

    /// The named types, by name.
    pub fn named_types(&self) -> impl Iterator<Item = (&str, SchemaId)> {
        self.named.iter().map(|(n, id)| (n.as_str(), *id))
    }

    /// The name of the named type whose root is `id`.
    pub fn type_name_of_root(&self, id: SchemaId) -> Option<&str> {
        self.named
            .iter()
            .find(|(_, r)| **r == id)
            .map(|(n, _)| n.as_str())
    }

    /// The node `id` stands for: a node that is only a `$ref` (annotations
    /// aside) is replaced by its target, as often as that holds.
    pub fn deref(&self, mut id: SchemaId) -> SchemaId {
        for _ in 0..MAX_DEPTH {
            let n = self.get(id);
            match n.reference.as_deref() {
                Some(TypeRef {
                    target: Some(t), ..
                }) if n.only_with_annotations(Keyword::Ref) => id = *t,
                _ => break,
            }
        }
        id
    }

    /// The node after [`Schemas::deref`].
    pub fn resolved(&self, id: SchemaId) -> &SchemaNode {
        self.get(self.deref(id))
    }

    /// The root of the tree `id` belongs to, and the steps from it down to `id`.
    pub fn path(&self, mut id: SchemaId) -> (SchemaId, Vec<&Step>) {
        let mut steps = Vec::new();
        while let Some((parent, step)) = &self.get(id).parent {
            steps.push(step);
            id = *parent;
        }
        steps.reverse();
        (id, steps)
    }

    /// The JSON pointer of `id` within its tree, named types under
    /// `/$defs/Name` (the pointer into a bundled schema).
    pub fn pointer(&self, id: SchemaId) -> String {
        let (root, steps) = self.path(id);
        let mut out = match self.type_name_of_root(root) {
            Some(name) => format!(
                "/$defs/{}",
                crate::manifest::node::escape_pointer_token(name)
            ),
            None => String::new(),
        };
        for s in steps {
            out.push_str(&s.pointer());
        }
        out
    }

    /// The span of what `pointer` names in the bundled form of the schema
    /// `root` (named types under `/$defs/Name`): a node, a keyword of it (its
    /// key), or the nearest node above when the pointer goes into data.
    pub fn span_at_pointer(&self, root: SchemaId, pointer: &str) -> crate::diag::Span {
        let tokens: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        let mut id = root;
        let mut rest = tokens.as_slice();
        if let [defs, name, tail @ ..] = rest
            && defs == "$defs"
            && let Some(t) = self.named(name)
        {
            id = t;
            rest = tail;
        }
        loop {
            let n = self.get(id);
            let [key, tail @ ..] = rest else {
                return n.span;
            };
            let Some(k) = Keyword::parse(key) else {
                return n.span;
            };
            let entry = |tail: &[String]| -> Option<SchemaId> {
                let first = tail.first()?;
                match k {
                    Keyword::Properties => n.property(first).map(|p| p.schema),
                    Keyword::DependentSchemas => n
                        .dependent_schemas
                        .iter()
                        .find(|p| p.name == *first)
                        .map(|p| p.schema),
                    Keyword::AnyOf | Keyword::OneOf | Keyword::AllOf => {
                        let list = match k {
                            Keyword::AnyOf => &n.any_of,
                            Keyword::OneOf => &n.one_of,
                            _ => &n.all_of,
                        };
                        list.as_ref()?.get(first.parse::<usize>().ok()?).copied()
                    }
                    _ => None,
                }
            };
            let (next, tail) = match k {
                Keyword::Items => (n.items, tail),
                Keyword::AdditionalProperties => (n.additional_properties, tail),
                Keyword::Not => (n.not, tail),
                Keyword::Properties
                | Keyword::DependentSchemas
                | Keyword::AnyOf
                | Keyword::OneOf
                | Keyword::AllOf => (entry(tail), tail.get(1..).unwrap_or(&[])),
                Keyword::Required if !tail.is_empty() => {
                    let i = tail[0].parse::<usize>().ok();
                    return i
                        .and_then(|i| n.required.get(i))
                        .map_or(n.value_span(k), |r| r.span);
                }
                _ => return n.value_span(k),
            };
            match next {
                Some(c) => {
                    id = c;
                    rest = tail;
                }
                None => return n.value_span(k),
            }
        }
    }

    /// Calls `f` on `root` and every node under it, parents first, with the
    /// depth; `$ref`s are not followed (a named type is its own tree).
    pub fn walk(&self, root: SchemaId, f: &mut dyn FnMut(SchemaId, usize)) {
        let mut stack = vec![(root, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            f(id, depth);
            if depth >= MAX_DEPTH {
                continue;
            }
            let children = self.get(id).children();
            for (_, c) in children.into_iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }

    /// The nodes that say `sensitive: true` in the value `root` describes:
    /// its tree and the named types it reaches through `$ref`s
    /// (transitively, each once), but not a schema's own `$defs` except
    /// through a reference. Each comes with the span of the first `$ref` it
    /// was reached through, or `None` in `root`'s own tree.
    pub fn sensitive_nodes(&self, root: SchemaId) -> Vec<(SchemaId, Option<crate::diag::Span>)> {
        let mut out = Vec::new();
        let mut entered: BTreeSet<&str> = BTreeSet::new();
        let mut stack = vec![(root, None, 0usize)];
        while let Some((id, via, depth)) = stack.pop() {
            let n = self.get(id);
            if n.is_sensitive() {
                out.push((id, via));
            }
            if depth >= MAX_DEPTH {
                continue;
            }
            if let Some(TypeRef {
                name,
                target: Some(t),
                span,
                ..
            }) = n.reference.as_deref()
                && entered.insert(name.as_str())
            {
                stack.push((*t, via.or(Some(*span)), depth + 1));
            }
            let children = n.children();
            for (step, c) in children.into_iter().rev() {
                if !matches!(step.keyword, Keyword::Defs | Keyword::Definitions) {
                    stack.push((c, via, depth + 1));
                }
            }
        }
        out
    }

    /// Whether any part of the value `root` describes is sensitive
    /// ([`Schemas::sensitive_nodes`] finds one).
    pub fn reaches_sensitive(&self, root: SchemaId) -> bool {
        !self.sensitive_nodes(root).is_empty()
    }

    /// The named types reachable from `root` through `$ref`s, transitively,
    /// by name.
    pub fn reachable_types(&self, root: SchemaId) -> BTreeSet<&str> {
        let mut out: BTreeSet<&str> = BTreeSet::new();
        let mut pending = vec![root];
        while let Some(r) = pending.pop() {
            self.walk(r, &mut |id, _| {
                if let Some(TypeRef {
                    name,
                    target: Some(t),
                    ..
                }) = self.get(id).reference.as_deref()
                    && out.insert(name.as_str())
                {
                    pending.push(*t);
                }
            });
        }
        out
    }

    /// Named types that lie on a reference cycle, each with the members of
    /// its cycle.
    pub fn cycles(&self) -> BTreeMap<&str, BTreeSet<&str>> {
        let direct: BTreeMap<&str, BTreeSet<&str>> = self
            .named
            .iter()
            .map(|(name, root)| {
                let mut refs = BTreeSet::new();
                self.walk(*root, &mut |id, _| {
                    if let Some(r) = &self.get(id).reference
                        && r.target.is_some()
                    {
                        refs.insert(r.name.as_str());
                    }
                });
                (name.as_str(), refs)
            })
            .collect();
        let reach = |start: &str| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<&str> = direct
                .get(start)
                .map(|s| s.iter().copied().collect())
                .unwrap_or_default();
            while let Some(n) = stack.pop() {
                if seen.insert(n)
                    && let Some(next) = direct.get(n)
                {
                    stack.extend(next.iter().copied());
                }
            }
            seen
        };
        let reached: BTreeMap<&str, BTreeSet<&str>> =
            direct.keys().map(|n| (*n, reach(n))).collect();
        reached
            .iter()
            .filter(|(name, r)| r.contains(*name))
            .map(|(name, r)| {
                let members = r
                    .iter()
                    .copied()
                    .filter(|m| m == name || reached.get(m).is_some_and(|x| x.contains(name)))
                    .collect();
                (*name, members)
            })
            .collect()
    }
}

impl SchemaNode {
    /// Whether `additionalProperties` is `false`, given the node it points at.
    pub fn closed(&self, schemas: &Schemas) -> bool {
        self.additional_properties
            .is_some_and(|a| schemas.get(a).is_nothing())
    }
}
