#!/usr/bin/env bash
# `toolc build` (the default dialects linted, every output written) against typify
# (peers/typify: the same schemas into formatted Rust types, types alone) on the
# benches' synthetic toolsets of 1,000 and 10,000 tools, alternately in one run, so
# both see the same machine load. Prints the median wall time and peak memory of each,
# typify's own time inside its process (schemas to formatted text, the YAML read
# apart), and the growth from 1,000 to 10,000 tools. CPU time (user + system) is given
# beside wall time: on a shared machine it moves less with the load.
#
#   scripts/build-speed-typify.sh [RUNS] [BASE_TOOLC]   (RUNS: default 5; needs /usr/bin/time)
#   SIZES=1000 scripts/build-speed-typify.sh 21 [BASE_TOOLC]   (the 1,000-tool set alone)
#
# BASE_TOOLC: a toolc binary of another commit, timed in the same alternation (its own
# table follows), for a before/after beside typify.
set -euo pipefail

runs=${1:-5}
sizes=${SIZES:-1000 10000}
root=$(git rev-parse --show-toplevel)
cd "$root"
[ -x /usr/bin/time ] || { echo "error: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building toolc and the typify peer (release)..." >&2
cargo build --quiet --release --bin toolc
cp "$root/target/release/toolc" "$work/toolc"
base=${2:-}
[ -z "$base" ] || cp "$base" "$work/toolc-base"
CARGO_TARGET_DIR="$root/target/peer-typify" cargo build --quiet --release \
    --manifest-path peers/typify/Cargo.toml
cp "$root/target/peer-typify/release/toolc-peer-typify" "$work/typify"

for n in $sizes; do
    cargo run --quiet --release --example synthetic-toolset -- "$work/set-$n" "$n" >&2
    # One agent of every tool: more than a request of OpenAI or Gemini takes, which is
    # not what this measures.
    printf '[lint]\nallow = ["tool-count"]\n' > "$work/set-$n/toolc.toml"
done

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# One timed run of each, appending "<wall s> <cpu s> <peak KiB>" (and typify's own seconds).
timed() {
    local into=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" > "$work/stdout" 2> /dev/null \
        || { echo "error: $* failed" >&2; exit 1; }
    awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/time" >> "$into"
}
measure() {
    local n=$1
    rm -rf "$work/out"
    timed "$work/toolc-$n.t" "$work/toolc" build "$work/set-$n" --out "$work/out"
    timed "$work/typify-$n.t" "$work/typify" "$work/set-$n" "$work/types.rs"
    sed -E 's/.*typify \+ prettyplease ([0-9.]+) s.*/\1/' "$work/stdout" >> "$work/typify-own-$n.t"
    if [ -n "$base" ]; then
        rm -rf "$work/out"
        timed "$work/base-$n.t" "$work/toolc-base" build "$work/set-$n" --out "$work/out"
    fi
}

for n in $sizes; do
    : > "$work/toolc-$n.t"; : > "$work/typify-$n.t"; : > "$work/typify-own-$n.t"; : > "$work/base-$n.t"
    for _ in $(seq "$runs"); do measure "$n"; done
done

col() { cut -d' ' -f"$2" "$1" | median; }
printf '| tools | typify: types alone, s | typify process: wall s | CPU s | peak MiB | toolc build: wall s | CPU s | peak MiB | toolc / typify alone |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for n in $sizes; do
    yo=$(median < "$work/typify-own-$n.t")
    t="$work/typify-$n.t"; c="$work/toolc-$n.t"
    echo "$n $yo $(col "$c" 1) $(col "$c" 2) $(col "$c" 3) $(col "$t" 2)" >> "$work/rows"
    awk -v n="$n" -v yo="$yo" -v yt="$(col "$t" 1)" -v yc="$(col "$t" 2)" -v ym="$(col "$t" 3)" \
        -v tt="$(col "$c" 1)" -v tc="$(col "$c" 2)" -v tm="$(col "$c" 3)" 'BEGIN {
        printf "| %d | %.2f | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.2f× |\n",
            n, yo, yt, yc, ym / 1024, tt, tc, tm / 1024, tt / yo }'
done
awk '{ o[NR] = $2; w[NR] = $3; c[NR] = $4; m[NR] = $5; y[NR] = $6 } END {
    if (NR < 2) exit
    printf "\ngrowth 1,000 -> 10,000 tools: typify %.1fx (alone, wall), %.1fx (process CPU); toolc build %.1fx (wall), %.1fx (CPU), peak memory %.1fx\n",
        o[2] / o[1], y[2] / y[1], w[2] / w[1], c[2] / c[1], m[2] / m[1] }' "$work/rows"
if [ -n "$base" ]; then
    printf '\n| tools | base toolc: wall s | CPU s | peak MiB | this toolc: wall s | CPU s | peak MiB |\n'
    printf '|---|---|---|---|---|---|---|\n'
    for n in $sizes; do
        b="$work/base-$n.t"; c="$work/toolc-$n.t"
        printf '| %d | %s | %s | %.0f | %s | %s | %.0f |\n' "$n" "$(col "$b" 1)" "$(col "$b" 2)" \
            "$(echo "$(col "$b" 3) / 1024" | bc -l)" "$(col "$c" 1)" "$(col "$c" 2)" \
            "$(echo "$(col "$c" 3) / 1024" | bc -l)"
    done
fi
