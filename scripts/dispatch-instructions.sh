#!/usr/bin/env bash
# Instructions of one call of each group of benches/dispatch.rs, the floor's and the full
# call's side by side (examples/demo/benches/calls.rs under callgrind): what a call does,
# which the load of a shared machine does not move, unlike its time. Each figure is the count
# of 400 calls less that of 100 calls, over 300, so the setup is left out.
#
#   scripts/dispatch-instructions.sh            # the bench built from this checkout
#   scripts/dispatch-instructions.sh CALLS_BIN  # a `calls` bench binary built elsewhere
#
# Needs valgrind (Debian package valgrind). Instructions are not time: a call that stalls on
# memory does few instructions slowly. Read them beside the criterion figures.
set -euo pipefail
shopt -s inherit_errexit
command -v valgrind > /dev/null || { echo "error: needs valgrind (Debian package valgrind)" >&2; exit 2; }

bin=${1:-}
[ -z "$bin" ] || bin=$(realpath "$bin")
cd "$(dirname "$0")/.."
if [ -z "$bin" ]; then
  # The crate's binaries are built too when they are stale: take the bench's.
  bin=$(scripts/example-bench.sh calls)
fi
[ -x "$bin" ] || { echo "error: no calls bench binary (${bin:-none found})" >&2; exit 2; }

# The instructions of N calls of one kind (and of the setup).
count() {
  local n
  n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' || true)
  [[ $n =~ ^[0-9]+$ ]] || { echo "error: no instruction count for \`$1 $2\`" >&2; exit 1; }
  echo "$n"
}
per_call() {
  local few many
  few=$(count "$1" 100)
  many=$(count "$1" 400)
  (( many > few )) || { echo "error: \`$bin $1\` made no calls (is it the calls bench?)" >&2; exit 1; }
  echo $(( (many - few) / 300 ))
}

printf '%-12s %12s %12s %7s\n' group floor full ratio
for group in 3 20 200_nested 10kb; do
  floor=$(per_call "floor_$group")
  full=$(per_call "full_$group")
  awk -v g="$group" -v f="$floor" -v c="$full" \
    'BEGIN { printf "%-12s %12d %12d %6.2fx\n", g, f, c, c / f }'
done
unvalidated=$(per_call full_3_unvalidated)
printf '%-12s %12s %12d\n' "3, returns unvalidated" "" "$unvalidated"
