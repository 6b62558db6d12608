#!/usr/bin/env bash
# Time of one call of each group of benches/dispatch.rs, the floor's and the full call's
# (validation on), in RUNS criterion runs of the bench; with BASE_BENCH, a `dispatch` bench
# binary built from another commit, that binary runs in between, so both see the same load.
# Prints each run's ratio of full call to floor per group, then per group the median of the
# floors, of the full calls and of the runs' ratios (each taken within one run: not the ratio of
# the two medians).
#
#   scripts/dispatch-time.sh [RUNS] [BASE_BENCH]     (RUNS: default 3)
#
# A BASE_BENCH is e.g. `target/release/deps/dispatch-<hash>` of a checkout of another commit
# (`cargo bench -p toolc-example --bench dispatch --no-run` prints its path). Each run gives
# criterion 1 s of warm-up and 3 s of measurement per benchmark. On a shared machine the floor
# itself moves by a third from one run to the next: read the ratios, which are taken within
# one run, and the spread of them, rather than the times.
set -euo pipefail
shopt -s inherit_errexit

runs=${1:-3}
base=${2:-}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "error: RUNS must be a positive number, not \`$runs\`" >&2; exit 2; }
[ -z "$base" ] || base=$(realpath "$base")
[ -z "$base" ] || [ -x "$base" ] || { echo "error: no bench binary at $base" >&2; exit 2; }
cd "$(dirname "$0")/.."
bench=$(scripts/example-bench.sh dispatch)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Criterion keeps its reports under the crate's target folder otherwise.
export CRITERION_HOME=$work/criterion

# One run of a bench binary: lines of `<group> <floor ns> <full ns>`.
run() {
  if ! (cd examples/demo && "$1" --bench "/(floor_serde_parse_and_serialize|full_call_validation_on)$" \
    --warm-up-time 1 --measurement-time 3) > "$work/out" 2> "$work/err"; then
    echo "error: $1 failed:" >&2
    tail -n 20 "$work/err" >&2
    exit 1
  fi
  awk '
      /^dispatch/ { name = $1 }
      /time:/ {
        # The middle of the three estimates criterion gives, in ns (the name may stand before
        # them on the same line when it is short).
        for (t = 1; $t != "time:"; t++) {}
        v = $(t + 3); u = $(t + 4)
        if (u == "µs") v *= 1000; else if (u == "ms") v *= 1000000; else if (u == "ps") v /= 1000
        split(name, part, "/"); g = part[1]
        if (part[2] ~ /^floor/) floor[g] = v; else full[g] = v
        if (!(g in seen)) { seen[g] = 1; order[++n] = g }
      }
      END {
        for (i = 1; i <= n; i++) {
          g = order[i]
          if (!(g in floor) || !(g in full) || floor[g] <= 0) {
            print "error: no floor or no full call for " g " in the bench output" > "/dev/stderr"
            exit 1
          }
          printf "%s %.1f %.1f\n", g, floor[g], full[g]
        }
        if (n == 0) { print "error: the bench printed no times" > "/dev/stderr"; exit 1 }
      }' "$work/out"
}

for i in $(seq "$runs"); do
  # Which binary goes first changes every run, so neither always follows the other.
  order="this base"; (( i % 2 )) || order="base this"
  for variant in $order; do
    [ "$variant" = this ] || [ -n "$base" ] || continue
    bin=$bench; [ "$variant" = this ] || bin=$base
    run "$bin" | sed "s/^/$variant $i /" | tee -a "$work/all" \
      | awk '{ printf "%-5s run %s  %-40s floor %10.1f ns  full %10.1f ns  %5.2fx\n", $1, $2, $3, $4, $5, $5 / $4 }'
  done
done

echo
echo "medians of $runs runs:"
for variant in this base; do
  grep -q "^$variant " "$work/all" || continue
  for group in $(awk -v v="$variant" '$1 == v { print $3 }' "$work/all" | awk '!seen[$0]++'); do
    median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
    floor=$(awk -v v="$variant" -v g="$group" '$1 == v && $3 == g { print $4 }' "$work/all" | median)
    full=$(awk -v v="$variant" -v g="$group" '$1 == v && $3 == g { print $5 }' "$work/all" | median)
    ratio=$(awk -v v="$variant" -v g="$group" '$1 == v && $3 == g { print $5 / $4 }' "$work/all" | median)
    spread=$(awk -v v="$variant" -v g="$group" '$1 == v && $3 == g { printf "%.2f\n", $5 / $4 }' "$work/all" | sort -g | paste -sd ' ')
    printf '%-5s %-40s floor %10.1f ns  full %10.1f ns  %5.2fx  (runs: %s)\n' \
      "$variant" "$group" "$floor" "$full" "$ratio" "$spread"
  done
done
