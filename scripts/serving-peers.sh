#!/usr/bin/env bash
# toolc's MCP server beside a bare rmcp server, the official TypeScript SDK's and FastMCP's
# (peers/serving): the same two tools and data, over stdio and stateless streamable HTTP on
# loopback, 1, 8 and 32 clients, every server in turn in each round. Builds the Rust servers and
# the load client (release), installs the TypeScript peer (npm ci, pinned by its lockfile) and
# FastMCP (pinned, in a venv of its own) into target/peer-serving, and prints the table and the
# ratios (BENCHMARKS.md, "Serving").
#
#   scripts/serving-peers.sh [ROUNDS] [serving-load options…]   (ROUNDS: default 3)
#   scripts/serving-peers.sh 1 --clients 32 --transports http      (one cell, while iterating)
set -euo pipefail

rounds=${1:-3}
shift || true
root=$(git rev-parse --show-toplevel)
cd "$root"
peer="$root/peers/serving"
target="$root/target/peer-serving"
mkdir -p "$target"

echo "building the Rust servers and the load client (release)..." >&2
CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$target" cargo build --quiet --release \
    --manifest-path "$peer/Cargo.toml"
bin="$target/release"

echo "installing the TypeScript SDK server (npm ci)..." >&2
(cd "$peer/ts" && npm ci --no-audit --no-fund --loglevel=error >&2)

echo "installing FastMCP (pip, pinned)..." >&2
venv="$target/fastmcp-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$peer/py/requirements.txt"

echo "load: $(uptime)" >&2
"$bin/serving-load" --data "$peer/data.json" --rounds "$rounds" \
    --server "toolc=$bin/toolc-server $peer/data.json" \
    --server "rmcp=$bin/rmcp-server $peer/data.json" \
    --server "ts-sdk=node $peer/ts/server.mjs $peer/data.json" \
    --server "fastmcp=$venv/bin/python $peer/py/server.py $peer/data.json" \
    --out "$target/results.tsv" "$@"
echo "load: $(uptime)" >&2
echo "per round: $target/results.tsv" >&2
