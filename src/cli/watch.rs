//! `toolc serve --watch`: notices when a file the served toolset was read from changes, by
//! comparing each file's size and modification time with the last look (see
//! docs/architecture.md, "`toolc serve --watch` polls").

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How often the files are looked at.
pub const INTERVAL: std::time::Duration = std::time::Duration::from_millis(250);

/// A file as last seen: its size and modification time, or `None` when it was missing.
type Stamp = Option<(u64, Option<SystemTime>)>;

/// The files a toolset is read from, as last seen: every file under the paths given on the
/// command line (a folder's files at any depth, hidden ones left out), the config file, and
/// every other file the last good toolset read (manuals outside the folders).
pub struct Watched {
    roots: Vec<PathBuf>,
    inputs: BTreeSet<PathBuf>,
    seen: BTreeMap<PathBuf, Stamp>,
}

impl Watched {
    /// Watches `roots` and `inputs` from how they are now.
    pub fn new(roots: Vec<PathBuf>, inputs: impl IntoIterator<Item = PathBuf>) -> Watched {
        let mut w = Watched {
            roots,
            inputs: inputs.into_iter().collect(),
            seen: BTreeMap::new(),
        };
        w.seen = w.look();
        w
    }

    /// The files the last good toolset read, watched from now on beside the roots.
    pub fn set_inputs(&mut self, inputs: impl IntoIterator<Item = PathBuf>) {
        self.inputs = inputs.into_iter().collect();
        self.seen = self.look();
    }

    /// Whether a file was added, removed or changed since the last look.
    pub fn changed(&mut self) -> bool {
        let now = self.look();
        let changed = now != self.seen;
        self.seen = now;
        changed
    }

    fn look(&self) -> BTreeMap<PathBuf, Stamp> {
        let mut out = BTreeMap::new();
        for root in &self.roots {
            walk(root, &mut out);
        }
        for input in &self.inputs {
            out.entry(input.clone()).or_insert_with(|| stamp(input));
        }
        out
    }
}

fn stamp(path: &Path) -> Stamp {
    std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.modified().ok()))
}

/// `path` and, for a folder, every file under it that is not hidden.
fn walk(path: &Path, out: &mut BTreeMap<PathBuf, Stamp>) {
    // An explicit stack, not recursion: a deep tree cannot overflow.
    let mut stack = vec![path.to_path_buf()];
    while let Some(p) = stack.pop() {
        match std::fs::read_dir(&p) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    let hidden = entry.file_name().to_string_lossy().starts_with('.');
                    if !hidden {
                        stack.push(entry.path());
                    }
                }
            }
            Err(_) => {
                out.insert(p.clone(), stamp(&p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_an_added_file_and_a_removed_one_are_each_noticed_once() {
        let dir = tempfile::tempdir().expect("a folder");
        let a = dir.path().join("a.yaml");
        std::fs::write(&a, "one").expect("write");
        let elsewhere = tempfile::tempdir().expect("a folder");
        let manual = elsewhere.path().join("manual.md");
        let mut w = Watched::new(vec![dir.path().to_path_buf()], []);
        assert!(!w.changed(), "nothing changed yet");
        std::fs::write(&a, "one, longer").expect("write");
        assert!(w.changed());
        assert!(!w.changed(), "noticed once");
        std::fs::write(dir.path().join("b.yaml"), "two").expect("write");
        assert!(w.changed());
        std::fs::write(dir.path().join(".swap"), "editor's").expect("write");
        assert!(!w.changed(), "hidden files are not watched");
        std::fs::remove_file(&a).expect("remove");
        assert!(w.changed());
        w.set_inputs([manual.clone()]);
        assert!(!w.changed());
        std::fs::write(&manual, "a manual").expect("write");
        assert!(w.changed(), "an input outside the folder is watched");
    }
}
