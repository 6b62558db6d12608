"""Shared by the agreement tests: how instances are generated, the harness (`toolc-agreement`'s
`agreement` binary) over its line protocol, and the tally of what was sent, printed at the end of
the run (with pytest-xdist, each worker's tally is gathered by the controller)."""

from __future__ import annotations

import json
import os
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

import readings

ROOT = Path(__file__).resolve().parents[2]


def _remember_composite_checks() -> None:
    """hypothesis (6.170 as 6.119) parses the source of every `@st.composite` function each time
    one is made (to warn when it never calls `draw`), and hypothesis-jsonschema makes one per
    object it draws: the answer is remembered per function body, which is what it depends on."""
    from hypothesis.strategies._internal import core

    check = core.is_first_param_referenced_in_function
    known: dict[Any, bool] = {}

    def remembered(f: Any) -> bool:
        code = getattr(f, "__code__", None)
        if code is None:
            return check(f)
        if code not in known:
            known[code] = check(f)
        return known[code]

    core.is_first_param_referenced_in_function = remembered


def _remember_subschema_strategies() -> None:
    """hypothesis-jsonschema 0.23 makes the strategy of an object's member afresh for every
    member it draws (canonicalising and resolving its schema each time): each strategy is
    remembered per schema, alphabet and formats, which are all it is made from. Strategies are
    immutable descriptions, so a remembered one draws the same instances."""
    from hypothesis_jsonschema import _from_schema

    make = getattr(_from_schema, "__from_schema")
    known: dict[tuple[str, int, int], SearchStrategy[Any]] = {}

    def remembered(schema: Any, *, alphabet: Any, custom_formats: Any) -> SearchStrategy[Any]:
        key = (json.dumps(schema, sort_keys=True), id(alphabet), id(custom_formats))
        if key not in known:
            known[key] = make(schema, alphabet=alphabet, custom_formats=custom_formats)
        return known[key]

    setattr(_from_schema, "__from_schema", remembered)


def target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


# What hypothesis keeps on disk (its Unicode tables) goes to the target dir, not the work tree.
set_hypothesis_home_dir(target_dir() / "hypothesis")

# Distinct instances per tool and reading (fewer only where the schema allows no more). Each costs
# hypothesis about 20 ms to draw; 200 a reading took the whole agreement step to 578 s of CI's
# two cores, 100 (with 5 per served real-world tool) to 253 s, and every instance the 200 sent
# was accepted, so none of the dropped ones was a finding.
INSTANCES = 100

# At most this many rounds of generation, each from its own fixed seed.
ROUNDS = 4

# One dict for every run, so that the strategies remembered for it stay valid.
CUSTOM_FORMATS = {"uuid": st.uuids().map(str)}

_SPED_UP = False


def instances(schema: Any) -> SearchStrategy[Any]:
    """hypothesis-jsonschema's instances of a JSON Schema (of its bounded part, see readings.py).

    It generates every `format` the generated validation asserts but `uuid` (a 2019-09 format it
    does not know); hypothesis's own UUIDs stand for it."""
    from hypothesis_jsonschema import from_schema

    # Here, not at import: hypothesis_jsonschema reads hypothesis's Unicode tables as it loads.
    global _SPED_UP
    if not _SPED_UP:
        _remember_composite_checks()
        _remember_subschema_strategies()
        _SPED_UP = True

    return from_schema(readings.bounded(schema), custom_formats=CUSTOM_FORMATS)


def generate(schema: Any, check: Callable[[Any], None], count: int = INSTANCES) -> int:
    """Runs `check` on `count` distinct instances of `schema` (fewer where hypothesis finds no
    more), in rounds from fixed seeds, so every run sends the same ones; returns how many. A
    failing instance is shrunk by hypothesis and its error raised."""
    passed: set[str] = set()

    def once(instance: Any) -> None:
        key = json.dumps(instance, sort_keys=True)
        if key not in passed:
            check(instance)
            passed.add(key)

    strategy = instances(schema)
    for n in range(ROUNDS):
        before = len(passed)
        wanted = count - before
        if wanted <= 0:
            break
        run = settings(
            # A few more than wanted, for the duplicates; a later round starts again from the
            # simplest instances, which the first one has sent.
            max_examples=wanted + (count // 20 if n == 0 else 50),
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )(seed(n)(given(strategy)(once)))
        run()
        if len(passed) == before:
            break
    return len(passed)


def harness_path() -> str:
    """The harness binary: $TOOLC_AGREEMENT, or the debug build in the target dir."""
    return os.environ.get("TOOLC_AGREEMENT") or str(target_dir() / "debug" / "agreement")


def describe() -> dict[str, Any]:
    """What the harness compiled: per toolset, per tool and play, its schemas."""
    out = subprocess.run([harness_path(), "--describe"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


class Harness:
    """One harness process; `check` sends one request and reads its answer."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [harness_path()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def check(self, toolset: str, group: str, tool: str, arguments: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"toolset": toolset, "group": group, "tool": tool, "arguments": arguments}
        self.process.stdin.write(json.dumps(request) + "\n")
        line = self.process.stdout.readline()
        assert line, f"the harness exited ({self.process.poll()})"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def harness() -> Iterator[Harness]:
    h = Harness()
    yield h
    h.close()


class Tally:
    """What the tests sent: one row per run (a tool and the dialects sharing one reading of it)."""

    def __init__(self) -> None:
        # [toolset, tool, dialects, instances sent, seconds, instances wanted]
        self.runs: list[list[Any]] = []

    def add(
        self, toolset: str, tool: str, dialects: list[str], sent: int, seconds: float, wanted: int = INSTANCES
    ) -> None:
        self.runs.append([toolset, tool, dialects, sent, seconds, wanted])


TALLY = Tally()


def pytest_sessionfinish(session: pytest.Session) -> None:
    # An xdist worker hands its tally to the controller.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["agreement-tally"] = json.dumps(TALLY.runs)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    TALLY.runs.extend(json.loads(getattr(node, "workeroutput", {}).get("agreement-tally", "[]")))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not TALLY.runs:
        return
    write = terminalreporter.write_line
    per_dialect: dict[str, list[int]] = defaultdict(list)
    for _, _, dialects, sent, *_ in TALLY.runs:
        for d in dialects:
            per_dialect[d].append(sent)
    tools = {(s, t) for s, t, *_ in TALLY.runs}
    pairs = sum(len(r[2]) for r in TALLY.runs)
    sent = sum(r[3] for r in TALLY.runs)
    write("")
    write(
        f"agreement: {len(tools)} tools and plays, {pairs} (tool, dialect) pairs, "
        f"{sent} distinct instances generated in {len(TALLY.runs)} runs "
        f"({sum(r[3] * len(r[2]) for r in TALLY.runs)} counted per dialect), "
        f"{sum(r[4] for r in TALLY.runs):.1f} s in the runs"
    )
    for d, rows in sorted(per_dialect.items()):
        write(f"  {d:<20} {len(rows):>3} tools {sum(rows):>6} instances")
    few = sorted({f"{s}/{t}: {n} of {w}" for s, t, _, n, _, w in TALLY.runs if n < w})
    if few:
        write(f"  fewer distinct instances than wanted, all that hypothesis found: {', '.join(few)}")
    refused: dict[str, set[str]] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    for toolset in describe()["toolsets"]:
        for op in toolset["operations"]:
            for d, rules in op["not_advertised"].items():
                count[d] += 1
                refused[d].update(rules)
    for d in sorted(count):
        write(f"  not advertised in {d} for {count[d]} tools, by {', '.join(sorted(refused[d]))}")
