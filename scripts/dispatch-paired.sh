#!/usr/bin/env bash
# The floor and the full call (validation on) of each group of benches/dispatch.rs, timed in
# alternating blocks of about 100 µs (`calls paired`, examples/demo/benches/calls.rs): each
# block's ratio is taken against a floor measured within the same millisecond, so the drift
# of a shared machine's speed between criterion's two measurements does not enter it. Prints
# per group the median time of a call on each side, the median of the block ratios (not the
# ratio of the two medians), and their 10th and 90th percentiles.
#
#   scripts/dispatch-paired.sh [BLOCKS] [BASE_CALLS]     (BLOCKS: default 5000 per group)
#
# BASE_CALLS: a `calls` bench binary built from another commit (`cargo bench -p toolc-example
# --bench calls --no-run` prints its path), run group by group in between. It needs the
# `paired` mode, which came with d3ddf1c: for an earlier runtime, build this checkout's
# benches/calls.rs against it (e.g. `git checkout <rev> -- runtime/`, build, then
# `git checkout HEAD -- runtime/`).
set -euo pipefail
shopt -s inherit_errexit

blocks=${1:-5000}
base=${2:-}
[[ $blocks =~ ^[1-9][0-9]*$ ]] || { echo "error: BLOCKS must be a positive number, not \`$blocks\`" >&2; exit 2; }
[ -z "$base" ] || base=$(realpath "$base")
[ -z "$base" ] || [ -x "$base" ] || { echo "error: no calls bench binary at $base" >&2; exit 2; }
cd "$(dirname "$0")/.."
bin=$(scripts/example-bench.sh calls)

for group in 3 20 200_nested 10kb; do
  printf 'this  '; "$bin" paired "$group" "$blocks"
  [ -z "$base" ] || { printf 'base  '; "$base" paired "$group" "$blocks"; }
done
