//! Writes the benches' synthetic toolset (`benches/common`) of N tools into a
//! folder, for timing the `toolc` binary on it (`scripts/build-speed-vs.sh`).
//!
//! ```sh
//! cargo run --release --example synthetic-toolset -- DIR N
//! ```

#[path = "../benches/common/mod.rs"]
mod common;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: synthetic-toolset DIR N   (N: the number of tools, a whole number)");
        return ExitCode::from(2);
    };
    let dir = std::path::Path::new(dir);
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let files = common::write_toolset(dir, n);
    println!(
        "wrote {n} tools in {} files to {}",
        files.len(),
        dir.display()
    );
    ExitCode::SUCCESS
}
