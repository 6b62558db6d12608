//! Stage 5, write: put outputs on disk byte for byte, only when they changed,
//! or say which checked-in outputs are stale.

use std::io;
use std::path::{Path, PathBuf};

/// One output file, its path relative to the output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: PathBuf,
    pub contents: String,
}

/// Why a checked-in output does not match what would be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    Missing(PathBuf),
    Differs(PathBuf),
    /// A file in a folder toolc owns that no output produces any more.
    Extra(PathBuf),
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Missing(p) => write!(f, "{} is missing", p.display()),
            Stale::Differs(p) => write!(f, "{} is out of date", p.display()),
            Stale::Extra(p) => write!(f, "{} is no longer generated", p.display()),
        }
    }
}

/// Writes `contents` to `path` unless it already holds exactly those bytes.
/// Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &str) -> io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == contents.as_bytes()) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    // Write beside, then rename: a reader never sees half a file.
    let tmp = path.with_extension("toolc-tmp");
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}

/// Writes every output under `out_dir`; returns the paths written.
pub fn write_all(out_dir: &Path, outputs: &[Output]) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for o in outputs {
        let path = out_dir.join(&o.path);
        if write_if_changed(&path, &o.contents)? {
            written.push(path);
        }
    }
    Ok(written)
}

/// Compares outputs with what is on disk under `out_dir`. Folders listed in
/// `owned` are toolc's alone: files there that no output produces are stale.
pub fn check_all(out_dir: &Path, outputs: &[Output], owned: &[PathBuf]) -> Vec<Stale> {
    let mut stale = Vec::new();
    for o in outputs {
        let path = out_dir.join(&o.path);
        match std::fs::read(&path) {
            Ok(old) if old == o.contents.as_bytes() => {}
            Ok(_) => stale.push(Stale::Differs(path)),
            Err(_) => stale.push(Stale::Missing(path)),
        }
    }
    for dir in owned {
        let mut found = Vec::new();
        list_files(&out_dir.join(dir), &mut found);
        for f in found {
            if !outputs.iter().any(|o| out_dir.join(&o.path) == f) {
                stale.push(Stale::Extra(f));
            }
        }
    }
    stale
}

fn list_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            list_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_when_changed_and_checks() {
        let dir = tempfile::tempdir().unwrap();
        let outputs = vec![Output {
            path: "a/b.txt".into(),
            contents: "one".into(),
        }];
        assert_eq!(
            check_all(dir.path(), &outputs, &[]),
            vec![Stale::Missing(dir.path().join("a/b.txt"))]
        );
        assert_eq!(write_all(dir.path(), &outputs).unwrap().len(), 1);
        assert!(write_all(dir.path(), &outputs).unwrap().is_empty());
        assert!(check_all(dir.path(), &outputs, &["a".into()]).is_empty());
        std::fs::write(dir.path().join("a/old.txt"), "x").unwrap();
        std::fs::write(dir.path().join("a/b.txt"), "two").unwrap();
        assert_eq!(
            check_all(dir.path(), &outputs, &["a".into()]),
            vec![
                Stale::Differs(dir.path().join("a/b.txt")),
                Stale::Extra(dir.path().join("a/old.txt"))
            ]
        );
    }
}
