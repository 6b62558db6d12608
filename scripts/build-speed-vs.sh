#!/usr/bin/env bash
# `toolc build` of the benches' synthetic toolsets (1,000 and 10,000 tools: bounds,
# defaults, enums, a named return type, policies, an example each), timed with the
# toolc of this checkout and with the toolc of an earlier commit, alternately, so both
# see the same machine load. Prints the median wall time and peak memory of each.
#
#   scripts/build-speed-vs.sh BASE_COMMIT [RUNS]      (RUNS: default 5; needs /usr/bin/time)
#
# Both binaries are release builds; BASE_COMMIT is built in a temporary worktree with
# its own target folder under target/build-speed-vs/ (kept, so a second run is quick).
set -euo pipefail

base=${1:?usage: scripts/build-speed-vs.sh BASE_COMMIT [RUNS]}
runs=${2:-5}
root=$(git rev-parse --show-toplevel)
cd "$root"
[ -x /usr/bin/time ] || { echo "error: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
base_tree="$work/base"
git worktree add --quiet --detach "$base_tree" "$base"
trap 'git worktree remove --force "$base_tree"; rm -rf "$work"' EXIT

echo "building toolc at $base and at HEAD (release)..." >&2
CARGO_TARGET_DIR="$root/target/build-speed-vs" cargo build --quiet --release --bin toolc \
    --manifest-path "$base_tree/Cargo.toml"
cp "$root/target/build-speed-vs/release/toolc" "$work/toolc-base"
cargo build --quiet --release --bin toolc
cp "$root/target/release/toolc" "$work/toolc-head"

for n in 1000 10000; do
    cargo run --quiet --release --example synthetic-toolset -- "$work/set-$n" "$n" >&2
    # One agent of every tool: more than a request of OpenAI or Gemini takes, which is
    # not what this measures.
    printf '[lint]\nallow = ["tool-count"]\n' > "$work/set-$n/toolc.toml"
done

# One timed build: "<seconds> <peak KiB>".
measure() {
    local bin=$1 set=$2 out=$3
    rm -rf "$out"
    /usr/bin/time -f "%e %M" -o "$work/time" "$bin" build "$set" --out "$out" \
        > /dev/null 2>&1 || { echo "error: $bin build $set failed" >&2; exit 1; }
    cat "$work/time"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '| tools | %s: median s | peak MiB | HEAD: median s | peak MiB | ratio |\n' "$base"
printf '|---|---|---|---|---|---|\n'
for n in 1000 10000; do
    : > "$work/base.t"; : > "$work/head.t"
    for _ in $(seq "$runs"); do
        measure "$work/toolc-base" "$work/set-$n" "$work/out" >> "$work/base.t"
        measure "$work/toolc-head" "$work/set-$n" "$work/out" >> "$work/head.t"
    done
    bt=$(cut -d' ' -f1 "$work/base.t" | median); bm=$(cut -d' ' -f2 "$work/base.t" | median)
    ht=$(cut -d' ' -f1 "$work/head.t" | median); hm=$(cut -d' ' -f2 "$work/head.t" | median)
    awk -v n="$n" -v bt="$bt" -v bm="$bm" -v ht="$ht" -v hm="$hm" 'BEGIN {
        printf "| %d | %.2f | %.0f | %.2f | %.0f | %.2f× |\n", n, bt, bm / 1024, ht, hm / 1024, ht / bt }'
done
