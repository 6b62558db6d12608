#!/usr/bin/env bash
# What toolc costs a user's build: clean debug builds, each in its own fresh
# target folder, of a bare crate with serde, serde_json and tokio (the
# baseline); the smallest real user (build.rs codegen with toolc,
# toolc-runtime, the generated code); and the example crate (which also
# builds its MCP server). Prints seconds and crate counts.
#
#   scripts/build-cost.sh            # one run of each
#   RUNS=3 scripts/build-cost.sh     # several, to see the spread
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
runs=${RUNS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The bare crate: serde (derive), serde_json and tokio as the example uses
# them, and a little code so it is not empty.
mkdir -p "$work/bare/src"
cat > "$work/bare/Cargo.toml" <<TOML
[package]
name = "bare"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
tokio = { version = "1", features = ["time", "rt", "macros"] }

[workspace]
TOML
cat > "$work/bare/src/lib.rs" <<'RS'
//! A crate with the example's serde and tokio dependencies and no toolc.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Params {
    pub day: String,
}
pub async fn call(text: &str) -> serde_json::Result<String> {
    let p: Params = serde_json::from_str(text)?;
    tokio::time::sleep(std::time::Duration::from_millis(0)).await;
    serde_json::to_string(&p)
}
RS
cp "$repo/Cargo.lock" "$work/bare/Cargo.lock"

# The smallest real user: build.rs codegen from manifests/ with toolc, the
# runtime without its MCP server, the generated code included.
mkdir -p "$work/user/src"
cat > "$work/user/Cargo.toml" <<TOML
[package]
name = "user"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolc-runtime = { path = "$repo/runtime" }

[build-dependencies]
toolc = { path = "$repo", default-features = false }

[workspace]
TOML
cat > "$work/user/build.rs" <<RS
fn main() -> Result<(), toolc::Error> {
    toolc::compile("$repo/manifests")?;
    Ok(())
}
RS
cat > "$work/user/src/lib.rs" <<'RS'
//! The generated toolset, nothing else.
pub mod toolset {
    toolc_runtime::include_toolset!();
}
RS
cp "$repo/Cargo.lock" "$work/user/Cargo.lock"

measure() { # name, manifest path, package
  local name=$1 manifest=$2 package=$3
  for i in $(seq 1 "$runs"); do
    local target="$work/target-$name-$i"
    local start end
    start=$(date +%s.%N)
    cargo build --quiet --manifest-path "$manifest" -p "$package" --target-dir "$target"
    end=$(date +%s.%N)
    local crates
    crates=$(cargo tree --manifest-path "$manifest" -p "$package" -e normal,build --prefix none --no-dedupe 2>/dev/null \
      | sed 's/ (\*)//' | awk '{print $1" "$2}' | sort -u | wc -l)
    printf '%-10s run %d: %6.1f s, %3d crates (normal + build dependencies, itself included)\n' \
      "$name" "$i" "$(awk "BEGIN { print $end - $start }")" "$crates"
  done
}

measure bare "$work/bare/Cargo.toml" bare
measure user "$work/user/Cargo.toml" user
measure example "$repo/Cargo.toml" toolc-example
