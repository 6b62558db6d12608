"""10,000 sequential calls through the Python SDK: the server's resident memory levels off.

The server's RSS is read from /proc/<pid>/status every 500 calls. The calls mix every outcome
the server builds: structured results, text results, invalid arguments, forbidden and
rate-limited calls. Runs in both connection modes. The samples go to target/mcp-memory-<mode>.json (and are
printed with `-s`).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT, SUPPORT, connect, server_path

pytestmark = pytest.mark.anyio

CALLS = 10_000
SAMPLE_EVERY = 500
WARM_UP = 2_000
# After the warm-up, the RSS may move by allocator noise, not by what the calls leave behind:
# 10,000 calls leaking even 100 bytes each would be ~1 MiB.
MAX_GROWTH_KIB = 512

CUSTOMER = "0b5e2a6e-3c1f-4f6a-9d7e-2f1c8a9b4d3e"
CALL_MIX = [
    ("lookup_order", {"order_id": "A-1001"}, False),
    ("list_tickets", {"customerId": CUSTOMER, "limit": 2}, False),
    ("lookup_order", {"order_id": "not an id"}, True),
    ("list_tickets", {"customerId": "nope", "limit": 0}, True),
    # 30 a minute: after the first 30 calls, every one is rate_limited.
    ("update_ticket", {"id": "T-1", "status": "open"}, None),
]


def server_pid() -> int:
    """The pid of this process's `mcp-server` child."""
    me = os.getpid()
    binary = os.path.realpath(server_path())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            exe = os.path.realpath(entry / "exe")
        except OSError:
            continue
        # The command name may hold spaces or parentheses: the ppid follows the last ')'.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == me and exe == binary:
            return int(entry.name)
    raise AssertionError(f"no {binary} child of pid {me}")


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


async def test_rss_stops_growing_over_10000_calls(mode: str) -> None:
    async with connect("support-desk", SUPPORT, mode=mode) as client:
        pid = server_pid()
        samples: list[tuple[int, int]] = [(0, status_kib(pid, "VmRSS"))]
        kinds: Counter[str] = Counter()
        start = time.monotonic()
        for i in range(1, CALLS + 1):
            name, arguments, expect_error = CALL_MIX[i % len(CALL_MIX)]
            result = await client.call_tool(name, arguments)
            if expect_error is not None:
                assert result.is_error is expect_error, result
            kinds[json.loads(result.content[0].text)["kind"] if result.is_error else "ok"] += 1
            if i % SAMPLE_EVERY == 0:
                samples.append((i, status_kib(pid, "VmRSS")))
        elapsed = time.monotonic() - start
        peak = status_kib(pid, "VmHWM")

    after_warm_up = [rss for calls, rss in samples if calls >= WARM_UP]
    growth = max(after_warm_up) - after_warm_up[0]
    report = {
        "mode": mode,
        "calls": CALLS,
        "results": dict(sorted(kinds.items())),
        "seconds": round(elapsed, 1),
        "rss_kib_by_calls": samples,
        "peak_rss_kib": peak,
        "growth_after_warm_up_kib": growth,
    }
    out = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / f"mcp-memory-{mode}.json"
    out.write_text(json.dumps(report) + "\n")
    print(json.dumps(report))
    per_entry = CALLS // len(CALL_MIX)
    assert kinds["arguments_invalid"] == 2 * per_entry, kinds
    # update_ticket: 30 at once, then one every 2 s.
    assert per_entry - 60 < kinds["rate_limited"] <= per_entry - 30, kinds
    assert growth <= MAX_GROWTH_KIB, report
