//! Which way each generated type crosses serde, so it derives only that.
//!
//! The dispatcher reads parameters (`Deserialize`) and writes results
//! (`Serialize`), nothing else: a type only a tool's parameters reach derives
//! `Deserialize`, one only its returns reach derives `Serialize`. Both are
//! derived where a type is reached both ways, for the tools and plays a
//! delegate can call (its method may pass a generated parameters struct to
//! `Delegation::call` and read the result with `Delegation::call_as`), for
//! scope types (the host makes those, perhaps from a token's claims), and for
//! named types no operation reaches. `serde_both_ways` (the builder's
//! `.serde_both_ways(true)`) derives both on every type, for crates that
//! also write parameters or read results themselves.

use crate::model::Toolset;
use crate::model::rust::{GroupPlan, Item, Module, Ty};
use std::collections::{BTreeSet, HashMap};

/// The serde traits a type derives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Directions {
    pub serialize: bool,
    pub deserialize: bool,
}

impl Directions {
    pub const BOTH: Directions = Directions {
        serialize: true,
        deserialize: true,
    };
    const READ: Directions = Directions {
        serialize: false,
        deserialize: true,
    };
    const WRITE: Directions = Directions {
        serialize: true,
        deserialize: false,
    };

    fn union(self, other: Directions) -> Directions {
        Directions {
            serialize: self.serialize || other.serialize,
            deserialize: self.deserialize || other.deserialize,
        }
    }
}

/// A module of generated types: the named types, or a group's module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Types,
    Toolbox(usize),
    Playbook(usize),
    Delegates(usize),
}

/// The directions of every generated type, by module and name.
pub struct Needs {
    by_item: HashMap<(Scope, String), Directions>,
}

impl Needs {
    /// The directions of the toolset's types; every type both ways with
    /// `both`.
    pub fn of(set: &Toolset, both: bool) -> Needs {
        if both {
            return Needs {
                by_item: HashMap::new(),
            };
        }
        let delegated = delegated_groups(set);
        let mut walk = Walk {
            set,
            by_item: HashMap::new(),
        };
        let groups = set
            .rust
            .toolboxes
            .iter()
            .enumerate()
            .map(|(i, g)| (Scope::Toolbox(i), g))
            .chain(
                set.rust
                    .playbooks
                    .iter()
                    .enumerate()
                    .map(|(i, g)| (Scope::Playbook(i), g)),
            )
            .chain(
                set.rust
                    .delegates
                    .iter()
                    .enumerate()
                    .map(|(i, g)| (Scope::Delegates(i), g)),
            );
        for (scope, plan) in groups {
            let both = delegated.contains(&scope);
            for sig in &plan.ops {
                let read = if both {
                    Directions::BOTH
                } else {
                    Directions::READ
                };
                let write = if both {
                    Directions::BOTH
                } else {
                    Directions::WRITE
                };
                if let Some(p) = &sig.params {
                    walk.ty(scope, p, read);
                }
                walk.ty(scope, &sig.returns, write);
            }
        }
        for tb in &set.toolboxes {
            if let Some(s) = &tb.scope {
                walk.ty(Scope::Types, &Ty::Shared(s.clone()), Directions::BOTH);
            }
        }
        for a in &set.agents {
            if let Some(s) = &a.scope {
                walk.ty(Scope::Types, &Ty::Shared(s.clone()), Directions::BOTH);
            }
        }
        // A type no operation reaches derives both ways, and so must every type it holds.
        let scopes = std::iter::once(Scope::Types)
            .chain((0..set.rust.toolboxes.len()).map(Scope::Toolbox))
            .chain((0..set.rust.playbooks.len()).map(Scope::Playbook))
            .chain((0..set.rust.delegates.len()).map(Scope::Delegates));
        for scope in scopes {
            let names: Vec<String> = walk
                .module(scope)
                .map(|m| m.items.iter().map(|i| i.name().to_string()).collect())
                .unwrap_or_default();
            for name in names {
                if !walk.by_item.contains_key(&(scope, name.clone())) {
                    walk.item(scope, &name, Directions::BOTH);
                }
            }
        }
        Needs {
            by_item: walk.by_item,
        }
    }

    /// What the item `name` of module `scope` derives: both ways when no
    /// operation reaches it.
    pub fn get(&self, scope: Scope, name: &str) -> Directions {
        self.by_item
            .get(&(scope, name.to_string()))
            .copied()
            .unwrap_or(Directions::BOTH)
    }
}

struct Walk<'a> {
    set: &'a Toolset,
    by_item: HashMap<(Scope, String), Directions>,
}

impl Walk<'_> {
    fn module(&self, scope: Scope) -> Option<&Module> {
        let plan: Option<&GroupPlan> = match scope {
            Scope::Types => return Some(&self.set.rust.types),
            Scope::Toolbox(i) => self.set.rust.toolboxes.get(i),
            Scope::Playbook(i) => self.set.rust.playbooks.get(i),
            Scope::Delegates(i) => self.set.rust.delegates.get(i),
        };
        plan.map(|p| &p.module)
    }

    fn ty(&mut self, scope: Scope, ty: &Ty, dirs: Directions) {
        match ty {
            Ty::Vec(t) | Ty::Map(t) | Ty::Option(t) | Ty::Box(t) => self.ty(scope, t, dirs),
            Ty::EnumMap(k, v) => {
                self.ty(scope, k, dirs);
                self.ty(scope, v, dirs);
            }
            Ty::Tuple(items) => {
                for t in items {
                    self.ty(scope, t, dirs);
                }
            }
            Ty::Shared(n) => self.item(Scope::Types, n, dirs),
            Ty::Local(n) => self.item(scope, n, dirs),
            Ty::String
            | Ty::Bool
            | Ty::I32
            | Ty::I64
            | Ty::U32
            | Ty::U64
            | Ty::F64
            | Ty::Unit
            | Ty::Json
            | Ty::Format(_) => {}
        }
    }

    fn item(&mut self, scope: Scope, name: &str, dirs: Directions) {
        let key = (scope, name.to_string());
        let had = self.by_item.get(&key).copied().unwrap_or_default();
        let now = had.union(dirs);
        if now == had {
            return;
        }
        self.by_item.insert(key, now);
        let Some(item) = self
            .module(scope)
            .and_then(|m| m.items.iter().find(|i| i.name() == name))
            .cloned()
        else {
            return;
        };
        for t in item_tys(&item) {
            self.ty(scope, t, now);
        }
    }
}

/// The types an item's fields and variants hold.
fn item_tys(item: &Item) -> Vec<&Ty> {
    match item {
        Item::Struct { fields, extra, .. } => {
            fields.iter().map(|f| &f.ty).chain(extra.as_ref()).collect()
        }
        Item::Enum { .. } => Vec::new(),
        Item::Tagged { variants, .. } => variants
            .iter()
            .flat_map(|(_, _, fs)| fs.iter().map(|f| &f.ty))
            .collect(),
        Item::Untagged { variants, .. } => variants.iter().map(|(_, t)| t).collect(),
        Item::Tuple { items, rest, .. } => items.iter().map(|f| &f.ty).chain(rest).collect(),
        Item::Newtype { ty, .. } => vec![ty],
    }
}

/// The toolboxes, playbooks and delegate modules whose operations a
/// delegate can call.
fn delegated_groups(set: &Toolset) -> BTreeSet<Scope> {
    use crate::model::DelegateTarget;
    let mut out = BTreeSet::new();
    let capability = |out: &mut BTreeSet<Scope>, c: usize| {
        if let Some(cap) = set.capabilities.get(c) {
            out.extend(cap.toolbox.map(Scope::Toolbox));
            out.extend(cap.playbook.map(Scope::Playbook));
        }
    };
    for a in &set.agents {
        for d in &a.delegates {
            match d.target {
                DelegateTarget::Capability(c) => capability(&mut out, c),
                DelegateTarget::Agent(j) => {
                    if let Some(target) = set.agents.get(j) {
                        for &c in &target.capabilities {
                            capability(&mut out, c);
                        }
                        if !target.delegates.is_empty() {
                            out.insert(Scope::Delegates(j));
                        }
                    }
                }
            }
        }
    }
    out
}
