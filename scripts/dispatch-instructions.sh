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
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "error: needs valgrind (Debian package valgrind)" >&2; exit 2; }

bin=${1:-}
if [ -z "$bin" ]; then
  bin=$(cargo bench -q -p toolc-example --bench calls --no-run --message-format=json 2> /dev/null \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
fi
[ -x "$bin" ] || { echo "error: no calls bench binary (${bin:-none found})" >&2; exit 2; }

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() {
  local few many
  few=$(count "$1" 100)
  many=$(count "$1" 400)
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
