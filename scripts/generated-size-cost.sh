#!/usr/bin/env bash
# Size and debug compile time of the generated module for the benches' synthetic
# toolset (examples/synthetic_toolset.rs, 1,000 tools), as written by two toolc
# binaries, beside typify's types for the same schemas (peers/typify): each file is
# compiled as a library crate (toolc's with toolc-runtime as a path dependency,
# typify's with serde and serde_json, as typify's users do), alternately, after the
# dependencies are built once.
#
#   scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]    (RUNS: default 3)
#
# BEFORE_TOOLC is e.g. a release toolc built from main; AFTER_TOOLC this checkout's
# (cargo build --bin toolc: the output does not depend on the profile). Needs /usr/bin/time.
# NO_TYPIFY=1 leaves typify out. BEFORE_RUNTIME: the toolc-runtime folder of BEFORE_TOOLC's
# commit when its runtime API differs (e.g. `git archive 7c6a214 | tar -x -C /tmp/before`, then
# BEFORE_RUNTIME=/tmp/before/runtime); each crate is a workspace of its own, so the two runtimes
# never meet.
set -euo pipefail
before=${1:?usage: scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]}
after=${2:?usage: scripts/generated-size-cost.sh BEFORE_TOOLC AFTER_TOOLC [RUNS]}
runs=${3:-3}
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The crates timed: toolc's of AFTER_TOOLC and typify's; BEFORE_TOOLC's too with TIME_BEFORE=1
# (its size is given either way).
variants="after"
[ -z "${TIME_BEFORE:-}" ] || variants="before after"
[ -n "${NO_TYPIFY:-}" ] || variants="$variants typify"

cargo run -q --example synthetic-toolset -- "$work/set" 1000 >&2
printf '[lint]\nallow = ["tool-count"]\n' > "$work/set/toolc.toml"
# A crate named generated_$1 whose lib.rs includes src/toolset.rs, with the dependencies $2: a
# workspace of its own, with this checkout's lockfile.
crate() {
  mkdir -p "$work/$1/src"
  printf '[package]\nname = "generated_%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' \
    "$1" "$2" > "$work/$1/Cargo.toml"
  cp "$repo/Cargo.lock" "$work/$1/Cargo.lock"
  printf '//! The generated module.\npub mod toolset {\n    include!("toolset.rs");\n}\n' > "$work/$1/src/lib.rs"
}
for variant in before after; do
  bin=$before; [ "$variant" = after ] && bin=$after
  "$bin" build "$work/set" --out "$work/out-$variant" --format plain >/dev/null 2>&1
  runtime=$repo/runtime
  [ "$variant" = after ] || runtime=${BEFORE_RUNTIME:-$repo/runtime}
  crate "$variant" "toolc-runtime = { path = \"$runtime\" }"
  cp "$work/out-$variant/rust/toolset.rs" "$work/$variant/src/toolset.rs"
done
if [ -n "${NO_TYPIFY:-}" ]; then :; else
  CARGO_TARGET_DIR="$repo/target/peer-typify" cargo build --quiet --release \
    --manifest-path peers/typify/Cargo.toml
  "$repo/target/peer-typify/release/toolc-peer-typify" "$work/set" "$work/types.rs" >&2
  crate typify "serde = { version = \"1\", features = [\"derive\"] }
serde_json = \"1\""
  # typify's output is a file of items, as toolc's is; its crate-level attributes cannot
  # stand in a module, so they are dropped.
  grep -v '^#!\[' "$work/types.rs" > "$work/typify/src/toolset.rs"
fi
export CARGO_TARGET_DIR="$work/target"
# Every timed build compiles the crate whole: no incremental cache from the run before.
export CARGO_INCREMENTAL=0
# The dependencies, built once: each crate with an empty module first.
for v in $variants; do
  mv "$work/$v/src/toolset.rs" "$work/$v/toolset.rs"
  : > "$work/$v/src/toolset.rs"
  cargo build -q --manifest-path "$work/$v/Cargo.toml"
  mv "$work/$v/toolset.rs" "$work/$v/src/toolset.rs"
done

for v in before after; do wc -c -l "$work/out-$v/rust/toolset.rs" | sed "s|$work/out-||"; done
[ -n "${NO_TYPIFY:-}" ] || wc -c -l "$work/typify/src/toolset.rs" | sed "s|$work/||"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A walls cpus
for i in $(seq 1 "$runs"); do
  for variant in $variants; do
    touch "$work/$variant/src/lib.rs"
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
      cargo build -q --manifest-path "$work/$variant/Cargo.toml"
    read -r wall user sys < "$work/time"
    cpu=$(awk "BEGIN { printf \"%.2f\", $user + $sys }")
    walls[$variant]="${walls[$variant]:-} $wall"
    cpus[$variant]="${cpus[$variant]:-} $cpu"
    echo "run $i, $variant: $wall s wall, $cpu s CPU (load average $(cut -d' ' -f1 /proc/loadavg))"
  done
done
mean() { tr ' ' '\n' | grep . | awk '{ s += $1 } END { printf "%.1f", s / NR }'; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for variant in $variants; do
  echo "$variant: wall mean $(echo "${walls[$variant]}" | mean) s, median $(echo "${walls[$variant]}" | median) s; CPU mean $(echo "${cpus[$variant]}" | mean) s, median $(echo "${cpus[$variant]}" | median) s (debug build of the module, dependencies built)"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
