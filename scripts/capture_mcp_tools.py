#!/usr/bin/env python3
"""Capture an MCP server's `tools/list` as the server sends it.

    scripts/capture_mcp_tools.py OUT.json -- COMMAND [ARGS...]
    scripts/capture_mcp_tools.py OUT.json --snapshots DIR

Starts COMMAND, speaks MCP over its stdin and stdout (newline-delimited
JSON-RPC, as MCP's stdio transport does), initializes, asks `tools/list`
(following `nextCursor` until the last page) and writes
`{"tools": [...]}` to OUT.json: the tools of every page, in the order
received, each object with its keys in the order the server wrote them,
every value as Python's `json` reads it. The layout is the script's own
(two-space indentation, non-ASCII characters as they are), and so is the
spelling of a float (`1e3` is written `1000.0`); the values are the server's. The server's `serverInfo` and the
negotiated protocol version are printed on stderr, for the corpus README.

It uses nothing but the Python standard library and sends nothing but
`initialize`, `notifications/initialized` and `tools/list`.

With `--snapshots DIR`, the tools are instead the JSON files `DIR/*.snap`,
one tool each, in the order of their file names: for servers that keep a
snapshot of every tool they list (github-mcp-server's `__toolsnaps__`).
"""

import json
import os
import subprocess
import sys
import threading

PROTOCOL_VERSION = "2025-11-25"
TIMEOUT_S = 60


def main(argv):
    if len(argv) == 4 and argv[2] == "--snapshots":
        return from_snapshots(argv[1], argv[3])
    if len(argv) < 4 or argv[2] != "--":
        sys.exit(__doc__)
    out_path, command = argv[1], argv[3:]
    server = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    try:
        replies = Replies(server)
        init = replies.call(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "toolc-corpus-capture", "version": "1"},
            },
        )
        notify(server, "notifications/initialized")
        tools, cursor = [], None
        while True:
            page = replies.call("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(page["tools"])
            cursor = page.get("nextCursor")
            if not cursor:
                break
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    write(out_path, tools)
    print(
        json.dumps(
            {
                "serverInfo": init.get("serverInfo"),
                "protocolVersion": init.get("protocolVersion"),
                "tools": len(tools),
            }
        ),
        file=sys.stderr,
    )


def from_snapshots(out_path, folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".snap"))
    tools = []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            tools.append(json.load(f))
    write(out_path, tools)
    print(json.dumps({"snapshots": len(tools)}), file=sys.stderr)


def write(out_path, tools):
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"tools": tools}, f, indent=2, ensure_ascii=False)
        f.write("\n")


def notify(server, method):
    message = {"jsonrpc": "2.0", "method": method}
    server.stdin.write((json.dumps(message) + "\n").encode())
    server.stdin.flush()


class Replies:
    """Requests with ids; lines from the server that are not the awaited
    reply (logging notifications, say) are skipped."""

    def __init__(self, server):
        self.server = server
        self.next_id = 1

    def call(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self.server.stdin.write((json.dumps(message) + "\n").encode())
        self.server.stdin.flush()
        while True:
            line = read_line(self.server)
            try:
                reply = json.loads(line)
            except json.JSONDecodeError:
                continue  # a server that prints a banner on stdout
            if reply.get("id") != request_id:
                continue
            if "error" in reply:
                sys.exit(f"{method} failed: {reply['error']}")
            return reply["result"]


def read_line(server):
    """One line of the server's stdout, or exit when none comes in time."""
    box = []
    reader = threading.Thread(target=lambda: box.append(server.stdout.readline()), daemon=True)
    reader.start()
    reader.join(TIMEOUT_S)
    if not box:
        server.kill()
        sys.exit(f"no reply from the server within {TIMEOUT_S} s")
    if not box[0]:
        sys.exit(f"the server closed its output (exit status {server.wait()})")
    return box[0]


if __name__ == "__main__":
    main(sys.argv)
