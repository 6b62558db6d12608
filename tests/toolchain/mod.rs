//! The toolchain around the compiler, from the outside: the options every
//! command shares, `toolc schema` and the editor schema, `toolc init`,
//! `toolc diff`, packaging. The config page is tested in the library
//! (`src/tests/config_doc.rs`).

mod cli;
mod diff;
mod imports;
mod init;
mod package;
mod public_api;
mod schema;

use std::path::Path;
use std::process::{Command, Output};

/// Runs the real `toolc` with `args` in `dir`.
pub fn toolc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolc"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("toolc runs")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
