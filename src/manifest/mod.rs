//! Stage 1, load: find the manifest files, read YAML and TOML into spanned
//! trees, and decode them into raw structs.

pub mod decode;
pub mod node;
pub(crate) mod parse_toml;
pub(crate) mod parse_yaml;
pub mod raw;

use crate::diag::{Code, Diagnostic, Diagnostics, FileId, SourceMap, Span};
use raw::RawFile;
use std::path::{Path, PathBuf};

pub use node::MAX_FILE_BYTES;

/// The name of the optional config file, which is not a manifest.
pub const CONFIG_FILE: &str = "toolc.toml";

/// What loading produced: every file read, the raw structs of those that
/// decoded, and the problems found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub sources: SourceMap,
    pub files: Vec<RawFile>,
    /// The manifest root of each file read (the folder given on the command
    /// line, or the file's own folder), indexed by [`FileId`].
    pub roots: Vec<PathBuf>,
    pub diagnostics: Diagnostics,
}

impl Loaded {
    pub fn root_of(&self, file: FileId) -> &Path {
        &self.roots[file.0 as usize]
    }
}

/// The manifest formats, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Toml,
}

impl Format {
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "yaml" | "yml" => Some(Format::Yaml),
            "toml" if path.file_name().is_some_and(|n| n != CONFIG_FILE) => Some(Format::Toml),
            _ => None,
        }
    }
}

/// Lists the manifest files under `path`, sorted, skipping hidden entries
/// and symlinked folders (so a link loop cannot trap the walk).
fn discover(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(path)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'))
        {
            continue;
        }
        let meta = std::fs::symlink_metadata(&p)?;
        if meta.is_dir() {
            discover(&p, out)?;
        } else if Format::of(&p).is_some() {
            out.push(p);
        }
    }
    Ok(())
}

/// Loads every manifest found under `paths` (files or folders).
pub fn load(paths: &[PathBuf]) -> Loaded {
    let mut loaded = Loaded::default();
    let mut seen = std::collections::BTreeSet::new();
    // The files read, to be parsed once all are.
    let mut read = Vec::new();
    for path in paths {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                loaded.diagnostics.push(
                    Diagnostic::new(Code::Io, format!("cannot read `{}`: {e}", path.display()))
                        .path(path)
                        .help("pass existing manifest files or folders"),
                );
                continue;
            }
        };
        let (root, files) = if meta.is_dir() {
            let mut files = Vec::new();
            if let Err(e) = discover(path, &mut files) {
                loaded.diagnostics.push(
                    Diagnostic::new(Code::Io, format!("cannot list `{}`: {e}", path.display()))
                        .path(path),
                );
                continue;
            }
            (path.clone(), files)
        } else {
            // `a.yaml` has the parent `""`: its root is the current folder.
            let root = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."));
            (root, vec![path.clone()])
        };
        for file in files {
            let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if seen.insert(key) {
                read.extend(read_file(&mut loaded, &root, &file));
            }
        }
    }
    parse_all(&mut loaded, &read);
    loaded
}

/// Parses and decodes the files read, several at a time on a machine with several cores (each
/// file's tree and raw structs are its own), and keeps the results in the files' order.
fn parse_all(loaded: &mut Loaded, read: &[(FileId, Format)]) {
    let sources = &loaded.sources;
    let one = |&(id, format): &(FileId, Format)| parse_one(sources.file(id), id, format);
    // Each helper has the stack a YAML parse is given (`parse_yaml::parse` runs the parse on a
    // thread of that size, and on its caller's stack when it cannot start one).
    let parsed =
        crate::parallel::map_ordered(read, "toolc-load", parse_yaml::PARSE_STACK_BYTES, one);
    for p in parsed {
        keep(loaded, p);
    }
}

/// Loads one manifest from text; `path` names it in diagnostics. Text over
/// [`MAX_FILE_BYTES`] is refused, as a file of that size would be.
pub fn load_str(loaded: &mut Loaded, root: &Path, path: &Path, text: String) {
    let format = Format::of(path).unwrap_or(Format::Yaml);
    if text.len() as u64 > MAX_FILE_BYTES {
        loaded.diagnostics.push(too_large(path, text.len() as u64));
        return;
    }
    let id = loaded.sources.add(path, text);
    loaded.roots.push(root.to_path_buf());
    parse_and_decode(loaded, id, format);
}

fn too_large(path: &Path, len: u64) -> Diagnostic {
    Diagnostic::new(
        Code::TooLarge,
        format!(
            "`{}` is {len} bytes; manifests are limited to {MAX_FILE_BYTES} bytes",
            path.display()
        ),
    )
    .path(path)
    .help("split the toolset into several manifest files")
}

/// Reads one manifest into the source map; the file's id and format when it is to be parsed.
fn read_file(loaded: &mut Loaded, root: &Path, path: &Path) -> Option<(FileId, Format)> {
    let format = Format::of(path).unwrap_or(Format::Yaml);
    let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if len > MAX_FILE_BYTES {
        loaded.diagnostics.push(too_large(path, len));
        return None;
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            loaded.diagnostics.push(
                Diagnostic::new(Code::Io, format!("cannot read `{}`: {e}", path.display()))
                    .path(path),
            );
            return None;
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => {
            let id = loaded.sources.add(path, text);
            loaded.roots.push(root.to_path_buf());
            Some((id, format))
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            // Point at the first bad byte: in the lossy text it is the
            // replacement character at the same offset.
            let id = loaded.sources.add(path, text);
            loaded.roots.push(root.to_path_buf());
            loaded.diagnostics.push(
                Diagnostic::new(Code::NotUtf8, "the file is not valid UTF-8")
                    .at(Span::new(id, at, at + '\u{FFFD}'.len_utf8()))
                    .label("invalid byte here")
                    .help("save the manifest as UTF-8"),
            );
            None
        }
    }
}

fn parse_and_decode(loaded: &mut Loaded, id: FileId, format: Format) {
    let parsed = parse_one(loaded.sources.file(id), id, format);
    keep(loaded, parsed);
}

/// Keeps what parsing a file gave: its raw structs, and the problems found.
fn keep(loaded: &mut Loaded, (file, diags): Parsed) {
    loaded.files.extend(file);
    for d in diags {
        loaded.diagnostics.push(d);
    }
}

/// One file's raw structs (when it parses) and the problems found in it.
type Parsed = (Option<RawFile>, Vec<Diagnostic>);

fn parse_one(file: &crate::diag::SourceFile, id: FileId, format: Format) -> Parsed {
    let parsed = match format {
        Format::Yaml => parse_yaml::parse(file, id),
        Format::Toml => parse_toml::parse(file, id),
    };
    match parsed {
        Ok(root) => {
            let mut diags = Vec::new();
            let raw = decode::decode(id, &root, &mut diags);
            (Some(raw), diags)
        }
        Err(diags) => (None, diags),
    }
}
