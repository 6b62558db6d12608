#!/usr/bin/env bash
# Builds one bench of examples/demo (release, `cargo bench --no-run`) and prints the path of
# its binary: what scripts/dispatch-*.sh run.
#
#   scripts/example-bench.sh NAME     (NAME: dispatch, calls, replicas)
set -euo pipefail
shopt -s inherit_errexit

name=${1:?usage: scripts/example-bench.sh NAME}
[[ $name =~ ^[a-z_]+$ ]] || { echo "error: no bench named \`$name\`" >&2; exit 2; }
cd "$(dirname "$0")/.."
bin=$(cargo bench -q -p toolc-example --bench "$name" --no-run --message-format=json \
  | sed -n "s/.*\"executable\":\"\([^\"]*\/$name-[0-9a-f]*\)\".*/\1/p" | tail -n 1)
[ -x "$bin" ] || { echo "error: no $name bench binary (${bin:-none found})" >&2; exit 2; }
echo "$bin"
