//! Stage 5, write: put outputs on disk byte for byte, only when they changed,
//! or say which checked-in outputs are stale.

use std::io;
use std::path::Path;
#[cfg(feature = "cli")]
use std::path::PathBuf;

/// One output file, its path relative to the output folder.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub path: PathBuf,
    pub contents: String,
}

/// Why a checked-in output does not match what would be written.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    Missing(PathBuf),
    Differs(PathBuf),
    /// A file in a folder toolc owns that no output produces any more.
    Extra(PathBuf),
}

#[cfg(feature = "cli")]
impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Missing(p) => write!(f, "{} is missing", p.display()),
            Stale::Differs(p) => write!(f, "{} is out of date", p.display()),
            Stale::Extra(p) => write!(f, "{} is no longer generated", p.display()),
        }
    }
}

/// Whether the file at `path` holds exactly `contents`: `None` when there is no such file;
/// any other failure is an error, so an unreadable output is never taken for a missing one.
/// The file is compared a block at a time, not read whole: a generated file can be tens of
/// megabytes, and holding a second copy of it would raise the build's peak memory by as much.
fn holds(path: &Path, contents: &[u8]) -> io::Result<Option<bool>> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(with_path(e, path)),
    };
    let meta = file.metadata().map_err(|e| with_path(e, path))?;
    if meta.is_dir() {
        let e = io::Error::new(io::ErrorKind::IsADirectory, "a folder where a file belongs");
        return Err(with_path(e, path));
    }
    if meta.len() != contents.len() as u64 {
        return Ok(Some(false));
    }
    let mut block = vec![0; 64 * 1024];
    let mut rest = contents;
    loop {
        let n = match io::Read::read(&mut file, &mut block) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(with_path(e, path)),
        };
        if n == 0 {
            // The file may have changed since its length was read.
            return Ok(Some(rest.is_empty()));
        }
        match rest.split_at_checked(n) {
            Some((head, tail)) if head == &block[..n] => rest = tail,
            _ => return Ok(Some(false)),
        }
    }
}

/// The error with the path it is about, which `std::io` messages lack.
fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Writes `contents` to `path` unless it already holds exactly those bytes.
/// Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &str) -> io::Result<bool> {
    if holds(path, contents.as_bytes())? == Some(true) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| with_path(e, parent))?;
    }
    // Write beside, then rename: a reader never sees half a file.
    let tmp = path.with_extension("toolc-tmp");
    std::fs::write(&tmp, contents).map_err(|e| with_path(e, &tmp))?;
    std::fs::rename(&tmp, path).map_err(|e| with_path(e, path))?;
    Ok(true)
}

/// What [`write_all`] changed on disk.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Outputs written because they were missing or their bytes changed.
    pub written: Vec<PathBuf>,
    /// Files in an owned folder that no output produces any more, removed.
    pub removed: Vec<PathBuf>,
}

/// Writes every output under `out_dir`, then removes the files in the folders
/// listed in `owned` (toolc's alone) that no output produces, and the folders
/// that leaves empty.
#[cfg(feature = "cli")]
pub fn write_all(out_dir: &Path, outputs: &[Output], owned: &[PathBuf]) -> io::Result<Written> {
    let mut done = Written::default();
    for o in outputs {
        let path = out_dir.join(&o.path);
        if write_if_changed(&path, &o.contents)? {
            done.written.push(path);
        }
    }
    for path in orphans(out_dir, outputs, owned)? {
        std::fs::remove_file(&path).map_err(|e| with_path(e, &path))?;
        done.removed.push(path);
    }
    for dir in owned {
        remove_empty_dirs(&out_dir.join(dir))?;
    }
    Ok(done)
}

/// Compares outputs with what is on disk under `out_dir`. Folders listed in
/// `owned` are toolc's alone: files there that no output produces are stale.
/// A file that exists but cannot be read is an error, not a missing output.
#[cfg(feature = "cli")]
pub fn check_all(out_dir: &Path, outputs: &[Output], owned: &[PathBuf]) -> io::Result<Vec<Stale>> {
    let mut stale = Vec::new();
    for o in outputs {
        let path = out_dir.join(&o.path);
        match holds(&path, o.contents.as_bytes())? {
            Some(true) => {}
            Some(false) => stale.push(Stale::Differs(path)),
            None => stale.push(Stale::Missing(path)),
        }
    }
    stale.extend(
        orphans(out_dir, outputs, owned)?
            .into_iter()
            .map(Stale::Extra),
    );
    Ok(stale)
}

/// The files in the owned folders that no output produces, sorted.
#[cfg(feature = "cli")]
fn orphans(out_dir: &Path, outputs: &[Output], owned: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let produced: std::collections::HashSet<PathBuf> =
        outputs.iter().map(|o| out_dir.join(&o.path)).collect();
    let mut found = Vec::new();
    for dir in owned {
        list_files(&out_dir.join(dir), &mut found)?;
    }
    found.retain(|f| !produced.contains(f));
    Ok(found)
}

/// The entries of `dir`, sorted; none when it does not exist.
#[cfg(feature = "cli")]
fn entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(with_path(e, dir)),
    };
    let mut paths = Vec::new();
    for entry in read {
        paths.push(entry.map_err(|e| with_path(e, dir))?.path());
    }
    paths.sort();
    Ok(paths)
}

#[cfg(feature = "cli")]
fn list_files(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for p in entries(dir)? {
        if p.is_dir() {
            list_files(&p, out)?;
        } else {
            out.push(p);
        }
    }
    Ok(())
}

/// Removes the empty folders at and below `dir`, deepest first.
#[cfg(feature = "cli")]
fn remove_empty_dirs(dir: &Path) -> io::Result<()> {
    if !dir.is_dir() {
        return Ok(());
    }
    for p in entries(dir)? {
        if p.is_dir() {
            remove_empty_dirs(&p)?;
        }
    }
    if entries(dir)?.is_empty() {
        std::fs::remove_dir(dir).map_err(|e| with_path(e, dir))?;
    }
    Ok(())
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;

    #[test]
    fn writes_only_when_changed_and_checks() {
        let dir = tempfile::tempdir().unwrap();
        let outputs = vec![Output {
            path: "a/b.txt".into(),
            contents: "one".into(),
        }];
        let owned: Vec<PathBuf> = vec!["a".into()];
        assert_eq!(
            check_all(dir.path(), &outputs, &[]).unwrap(),
            vec![Stale::Missing(dir.path().join("a/b.txt"))]
        );
        assert_eq!(
            write_all(dir.path(), &outputs, &owned)
                .unwrap()
                .written
                .len(),
            1
        );
        assert_eq!(
            write_all(dir.path(), &outputs, &owned).unwrap(),
            Written::default()
        );
        assert!(check_all(dir.path(), &outputs, &owned).unwrap().is_empty());
        std::fs::create_dir_all(dir.path().join("a/gone")).unwrap();
        std::fs::write(dir.path().join("a/gone/old.txt"), "x").unwrap();
        std::fs::write(dir.path().join("a/b.txt"), "two").unwrap();
        std::fs::write(dir.path().join("kept.txt"), "not owned").unwrap();
        assert_eq!(
            check_all(dir.path(), &outputs, &owned).unwrap(),
            vec![
                Stale::Differs(dir.path().join("a/b.txt")),
                Stale::Extra(dir.path().join("a/gone/old.txt"))
            ]
        );
        // What --check names, a build puts right: the stale file rewritten, the
        // orphan and the folder it leaves empty removed, files outside owned
        // folders untouched.
        assert_eq!(
            write_all(dir.path(), &outputs, &owned).unwrap(),
            Written {
                written: vec![dir.path().join("a/b.txt")],
                removed: vec![dir.path().join("a/gone/old.txt")],
            }
        );
        assert!(!dir.path().join("a/gone").exists());
        assert!(dir.path().join("kept.txt").exists());
        assert!(check_all(dir.path(), &outputs, &owned).unwrap().is_empty());
    }

    #[test]
    fn large_files_are_compared_block_by_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.rs");
        // Over two blocks, so that a difference in the last one is found there.
        let text: String = (0..50_000).map(|i| format!("{i}\n")).collect();
        assert!(text.len() > 128 * 1024);
        assert_eq!(holds(&path, text.as_bytes()).unwrap(), None);
        assert!(write_if_changed(&path, &text).unwrap());
        assert_eq!(holds(&path, text.as_bytes()).unwrap(), Some(true));
        assert!(!write_if_changed(&path, &text).unwrap());
        let mut last = text.clone().into_bytes();
        let end = last.len() - 2;
        last[end] = b'x';
        assert_eq!(holds(&path, &last).unwrap(), Some(false));
        assert_eq!(holds(&path, &text.as_bytes()[1..]).unwrap(), Some(false));
        assert_eq!(holds(&path, b"").unwrap(), Some(false));
    }

    #[test]
    fn an_output_that_cannot_be_read_is_an_error_not_missing() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where a file is expected cannot be read as one.
        std::fs::create_dir_all(dir.path().join("a/b.txt")).unwrap();
        let outputs = vec![Output {
            path: "a/b.txt".into(),
            contents: "one".into(),
        }];
        let e = check_all(dir.path(), &outputs, &[]).unwrap_err();
        assert!(e.to_string().contains("b.txt"), "{e}");
        assert!(write_all(dir.path(), &outputs, &[]).is_err());
    }
}
