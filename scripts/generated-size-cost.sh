#!/usr/bin/env bash
# Size and debug compile time of the generated module for the benches' synthetic
# toolset (examples/synthetic_toolset.rs, 1,000 tools), as written by two toolc
# binaries: each file is compiled as a library crate with toolc-runtime as a path
# dependency, alternately, after the dependencies are built once.
#
#   scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]    (RUNS: default 3)
#
# BEFORE_TOOLC is e.g. a release toolc built from main; AFTER_TOOLC this checkout's
# (cargo build --bin toolc: the output does not depend on the profile). Needs /usr/bin/time.
set -euo pipefail
before=${1:?usage: scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]}
after=${2:?usage: scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]}
runs=${3:-3}
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo run -q --example synthetic-toolset -- "$work/set" 1000 >&2
printf '[lint]\nallow = ["tool-count"]\n' > "$work/set/toolc.toml"
for variant in before after; do
  bin=$before; [ "$variant" = after ] && bin=$after
  "$bin" build "$work/set" --out "$work/out-$variant" --format plain >/dev/null 2>&1
  mkdir -p "$work/$variant/src"
  cat > "$work/$variant/Cargo.toml" <<TOML
[package]
name = "generated_$variant"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
toolc-runtime = { path = "$repo/runtime" }
TOML
  cp "$work/out-$variant/rust/toolset.rs" "$work/$variant/src/toolset.rs"
  printf '//! The generated module.\npub mod toolset {\n    include!("toolset.rs");\n}\n' > "$work/$variant/src/lib.rs"
done
printf '[workspace]\nmembers = ["before", "after"]\nresolver = "3"\n' > "$work/Cargo.toml"
cp "$repo/Cargo.lock" "$work/Cargo.lock"
export CARGO_TARGET_DIR="$work/target"
cargo build -q --manifest-path "$work/Cargo.toml" --workspace

wc -c -l "$work/before/src/toolset.rs" "$work/after/src/toolset.rs" | sed -n 1,2p
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A walls cpus
for i in $(seq 1 "$runs"); do
  for variant in before after; do
    touch "$work/$variant/src/lib.rs"
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
      cargo build -q --manifest-path "$work/Cargo.toml" -p "generated_$variant"
    read -r wall user sys < "$work/time"
    cpu=$(awk "BEGIN { printf \"%.2f\", $user + $sys }")
    walls[$variant]="${walls[$variant]:-} $wall"
    cpus[$variant]="${cpus[$variant]:-} $cpu"
    echo "run $i, $variant: $wall s wall, $cpu s CPU"
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for variant in before after; do
  echo "median, $variant: $(echo "${walls[$variant]}" | median) s wall, $(echo "${cpus[$variant]}" | median) s CPU (debug build of the generated module, dependencies built)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
