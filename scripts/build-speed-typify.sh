#!/usr/bin/env bash
# `toolc build` (the default dialects linted, every output written) against typify
# (peers/typify: the same schemas into formatted Rust types, types alone) on the
# benches' synthetic toolsets of 1,000 and 10,000 tools, alternately in one run, so
# both see the same machine load. Prints the median wall time and peak memory of each,
# typify's own time inside its process (schemas to formatted text, the YAML read
# apart), and the growth from 1,000 to 10,000 tools.
#
#   scripts/build-speed-typify.sh [RUNS] [TOOLC_BINARY]   (RUNS: default 5; needs /usr/bin/time)
#
# TOOLC_BINARY: a toolc to time instead of this checkout's release build.
set -euo pipefail

runs=${1:-5}
root=$(git rev-parse --show-toplevel)
cd "$root"
[ -x /usr/bin/time ] || { echo "error: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building toolc and the typify peer (release)..." >&2
if [ -n "${2:-}" ]; then
    cp "$2" "$work/toolc"
else
    cargo build --quiet --release --bin toolc
    cp "$root/target/release/toolc" "$work/toolc"
fi
CARGO_TARGET_DIR="$root/target/peer-typify" cargo build --quiet --release \
    --manifest-path peers/typify/Cargo.toml
cp "$root/target/peer-typify/release/toolc-peer-typify" "$work/typify"

for n in 1000 10000; do
    cargo run --quiet --release --example synthetic-toolset -- "$work/set-$n" "$n" >&2
    # One agent of every tool: more than a request of OpenAI or Gemini takes, which is
    # not what this measures.
    printf '[lint]\nallow = ["tool-count"]\n' > "$work/set-$n/toolc.toml"
done

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One timed run of each, appending "<seconds> <peak KiB>" (and typify's own seconds).
measure() {
    local n=$1
    rm -rf "$work/out"
    /usr/bin/time -f "%e %M" -o "$work/time" "$work/toolc" build "$work/set-$n" --out "$work/out" \
        > /dev/null 2>&1 || { echo "error: toolc build of $n tools failed" >&2; exit 1; }
    cat "$work/time" >> "$work/toolc-$n.t"
    /usr/bin/time -f "%e %M" -o "$work/time" "$work/typify" "$work/set-$n" "$work/types.rs" \
        > "$work/typify.out" 2> /dev/null || { echo "error: typify of $n tools failed" >&2; exit 1; }
    cat "$work/time" >> "$work/typify-$n.t"
    sed -E 's/.*typify \+ prettyplease ([0-9.]+) s.*/\1/' "$work/typify.out" >> "$work/typify-own-$n.t"
}

for n in 1000 10000; do
    : > "$work/toolc-$n.t"; : > "$work/typify-$n.t"; : > "$work/typify-own-$n.t"
    for _ in $(seq "$runs"); do measure "$n"; done
done

printf '| tools | typify: types alone, s | typify process: s | peak MiB | toolc build: s | peak MiB | toolc / typify alone |\n'
printf '|---|---|---|---|---|---|---|\n'
for n in 1000 10000; do
    yo=$(median < "$work/typify-own-$n.t")
    yt=$(cut -d' ' -f1 "$work/typify-$n.t" | median); ym=$(cut -d' ' -f2 "$work/typify-$n.t" | median)
    tt=$(cut -d' ' -f1 "$work/toolc-$n.t" | median); tm=$(cut -d' ' -f2 "$work/toolc-$n.t" | median)
    echo "$n $yo $tt $tm" >> "$work/rows"
    awk -v n="$n" -v yo="$yo" -v yt="$yt" -v ym="$ym" -v tt="$tt" -v tm="$tm" 'BEGIN {
        printf "| %d | %.2f | %.2f | %.0f | %.2f | %.0f | %.2f× |\n", n, yo, yt, ym / 1024, tt, tm / 1024, tt / yo }'
done
awk '{ t[NR] = $2; c[NR] = $3; m[NR] = $4 } END {
    printf "\ngrowth 1,000 → 10,000 tools: typify %.1f×, toolc build %.1f× (peak memory %.1f×)\n",
        t[2] / t[1], c[2] / c[1], m[2] / m[1] }' "$work/rows"
