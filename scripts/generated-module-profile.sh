#!/usr/bin/env bash
# Where a debug build of the generated module of the benches' 1,000 synthetic tools spends
# its time: rustc's self-profiler (nightly) on a library crate that includes the module, as in
# scripts/generated-size-cost.sh, summed by what each query worked on (scripts/self-profile).
#
#   scripts/generated-module-profile.sh TOOLC          # toolc's module, written by TOOLC
#   PEER=typify scripts/generated-module-profile.sh    # typify's types for the same schemas
#
# Needs a nightly toolchain (`rustup toolchain install nightly`). The profiler's own cost is
# left out of the sums, but it slows every query a little: compare shares, not seconds with
# scripts/generated-size-cost.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo run -q --example synthetic-toolset -- "$work/set" 1000 >&2
printf '[lint]\nallow = ["tool-count"]\n' > "$work/set/toolc.toml"
mkdir -p "$work/crate/src"
if [ "${PEER:-}" = typify ]; then
  deps='serde = { version = "1", features = ["derive"] }
serde_json = "1"'
  CARGO_TARGET_DIR="$repo/target/peer-typify" cargo build --quiet --release \
    --manifest-path peers/typify/Cargo.toml
  "$repo/target/peer-typify/release/toolc-peer-typify" "$work/set" "$work/types.rs" >&2
  grep -v '^#!\[' "$work/types.rs" > "$work/module.rs"
else
  toolc=${1:?usage: scripts/generated-module-profile.sh TOOLC (or PEER=typify)}
  deps="toolc-runtime = { path = \"$repo/runtime\" }"
  "$toolc" build "$work/set" --out "$work/out" --format plain >/dev/null 2>&1
  cp "$work/out/rust/toolset.rs" "$work/module.rs"
fi
printf '[package]\nname = "generated"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' \
  "$deps" > "$work/crate/Cargo.toml"
cp "$repo/Cargo.lock" "$work/crate/Cargo.lock"
printf '//! The generated module.\npub mod toolset {\n    include!("toolset.rs");\n}\n' > "$work/crate/src/lib.rs"
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
# The dependencies first, with an empty module, so that only the module is profiled.
: > "$work/crate/src/toolset.rs"
cargo +nightly build -q --manifest-path "$work/crate/Cargo.toml"
cp "$work/module.rs" "$work/crate/src/toolset.rs"
touch "$work/crate/src/lib.rs"
cargo +nightly rustc -q --lib --manifest-path "$work/crate/Cargo.toml" -- \
  -Zself-profile="$work/profile" -Zself-profile-events=default,query-keys
cargo build -q --release --manifest-path scripts/self-profile/Cargo.toml \
  --target-dir "$repo/target/self-profile"
recording=$(ls "$work/profile"/*.mm_profdata)
"$repo/target/self-profile/release/toolc-self-profile" "${recording%.mm_profdata}"
