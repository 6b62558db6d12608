#!/usr/bin/env bash
# Runs examples/deploy/nginx.conf end to end on this machine: a self-signed certificate for
# localhost, nginx on https://localhost:18443, two mcp-server replicas sharing one Redis behind
# it, and the official Python MCP client calling through it.
#
# Needs nginx, redis-server and openssl on PATH, the debug mcp-server
# (cargo build -p toolc-example --bin mcp-server) and the Python client's venv
# (.ci/run makes it in target/mcp-venv). Stops everything it started when it ends.
set -euo pipefail
cd "$(dirname "$0")/../.."
target_dir="${CARGO_TARGET_DIR:-target}"
server="$target_dir/debug/mcp-server"
python="$target_dir/mcp-venv/bin/python"
for tool in nginx redis-server openssl; do
  command -v "$tool" >/dev/null || { echo "try-nginx: $tool is not installed" >&2; exit 2; }
done
[ -x "$server" ] || { echo "try-nginx: build $server first: cargo build -p toolc-example --bin mcp-server" >&2; exit 2; }
[ -x "$python" ] || { echo "try-nginx: $python is missing: run .ci/run once, or make the venv from tests/mcp/requirements.txt" >&2; exit 2; }

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -s "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  [ -s "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost" -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

# The example, pointed at this machine: unprivileged ports, files under $work.
sed -e "s#listen 443 ssl;#listen 127.0.0.1:18443 ssl;#" \
    -e "s#listen 80;#listen 127.0.0.1:18080;#" \
    -e "s#server 127.0.0.1:8081#server 127.0.0.1:18081#" \
    -e "s#server 127.0.0.1:8082#server 127.0.0.1:18082#" \
    -e "s#server_name mcp.example.com;#server_name localhost;#" \
    -e "s#/etc/ssl/certs/mcp.example.com.pem#$work/cert.pem#" \
    -e "s#/etc/ssl/private/mcp.example.com.key#$work/key.pem#" \
    -e "s#^http {#http {\n    log_format upstream \"\$upstream_addr\";\n    access_log $work/access.log upstream;\n    client_body_temp_path $work/body;\n    proxy_temp_path $work/proxy;\n    fastcgi_temp_path $work/fastcgi;\n    uwsgi_temp_path $work/uwsgi;\n    scgi_temp_path $work/scgi;#" \
    examples/deploy/nginx.conf > "$work/nginx.conf"

redis-server --port 0 --unixsocket "$work/redis.sock" --save '' --appendonly no --dir "$work" \
  --pidfile "$work/redis.pid" --logfile "$work/redis.log" --daemonize yes
for _ in $(seq 100); do [ -S "$work/redis.sock" ] && break; sleep 0.1; done

for port in 18081 18082; do
  TOOLC_CALLER=ada TOOLC_AUTH=user TOOLC_ROLES=support TOOLC_STATELESS=true \
  TOOLC_REDIS_URL="unix://$work/redis.sock" TOOLC_REDIS_PREFIX="toolc:try:" \
    "$server" support-desk --http "127.0.0.1:$port" 2>>"$work/replicas.log" &
  pids+=("$!")
done
nginx -p "$work" -c "$work/nginx.conf" -g "pid $work/nginx.pid; error_log $work/error.log;"
for _ in $(seq 100); do
  curl -skf https://localhost:18443/readyz >/dev/null 2>&1 && break
  sleep 0.1
done

SSL_CERT_FILE="$work/cert.pem" "$python" - <<'PY'
import asyncio, json, os

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

URL = "https://localhost:18443/mcp"


async def main() -> None:
    async with httpx2.AsyncClient(verify=os.environ["SSL_CERT_FILE"], timeout=30) as http:
        async with Client(streamable_http_client(URL, http_client=http)) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            order = await client.call_tool("lookup_order", {"order_id": "A-1001"})
            results = [
                await client.call_tool("update_ticket", {"id": "T-1", "priority": "low"}) for _ in range(40)
            ]
    granted = sum(1 for r in results if not r.is_error)
    print(f"tools: {tools}")
    print(f"lookup_order: {order.content[0].text}")
    print(f"update_ticket (30/min) through nginx and two replicas: {granted} of 40 granted")
    assert order.is_error is False and granted in (30, 31), granted


asyncio.run(main())
PY
echo "try-nginx: requests per replica (nginx's access log):"
sort "$work/access.log" | uniq -c
