//! Source files and byte spans into them.

use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file, in its [`SourceMap`].
    pub file: FileId,
    /// The first byte.
    pub start: usize,
    /// The byte after the last.
    pub end: usize,
}

impl Span {
    /// Bytes `start..end` of `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span {
            file,
            start,
            end: end.max(start),
        }
    }
}

/// One file that was read, with the offsets where its lines start.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user gave it (relative paths stay relative).
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    fn new(path: PathBuf, text: String) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and column (column counted in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// Byte offset of a 1-based line and character column, clamped to the text.
    pub fn offset_of(&self, line: usize, col: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let rest = &self.text[start..];
        let line_end = rest.find('\n').unwrap_or(rest.len());
        rest[..line_end]
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(start + line_end, |(i, _)| start + i)
    }
}

/// Every file read during one compile.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// No files yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file read from `path`, and returns its id.
    pub fn add(&mut self, path: impl Into<PathBuf>, text: String) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(path.into(), text));
        id
    }

    /// The file `id`.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// Each file with its id, in the order added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// The path of file `id`.
    pub fn path(&self, id: FileId) -> &Path {
        &self.file(id).path
    }

    /// 1-based line and column of the start of a span.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        self.file(span.file).line_col(span.start)
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        self.file(span.file)
            .text
            .get(span.start..span.end)
            .unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let mut map = SourceMap::new();
        let id = map.add("a.yaml", "ab\né: x\n".to_string());
        let f = map.file(id);
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // 'é' is two bytes; the ':' after it is column 2.
        assert_eq!(f.line_col(5), (2, 2));
        assert_eq!(f.offset_of(2, 2), 5);
        assert_eq!(f.offset_of(9, 1), f.text.len());
    }
}
