#!/usr/bin/env python3
"""Checks toolc's emitted tool lists with the providers' own SDK types.

For every agent of the manifests and every dialect, runs `toolc dump` and
validates the list: the Gemini dialects with google-genai's
`types.Tool` / `types.FunctionDeclaration` (pydantic models that forbid
unknown fields), MCP with the `mcp` package's `ListToolsResult`, and the
OpenAI and Anthropic shapes structurally. Dialects the manifests' toolc.toml
targets must produce a list; for the others a refusal (exit 1, lint errors)
is accepted.

Usage: check_tool_lists.py TOOLC MANIFESTS
"""

import json
import subprocess
import sys

from google.genai import types as genai
import mcp.types as mcp

DIALECTS = [
    "openai",
    "openai-strict",
    "azure-openai-strict",
    "gemini",
    "gemini-vertex",
    "gemini-jsonschema",
    "anthropic",
    "anthropic-strict",
    "mcp",
]


def run(toolc, *args):
    return subprocess.run([toolc, *args], capture_output=True, text=True)


def check_gemini(dialect, data):
    tool = genai.Tool.model_validate(data)
    decls = data["functionDeclarations"]
    assert tool.function_declarations is not None
    assert len(tool.function_declarations) == len(decls)
    for raw in decls:
        d = genai.FunctionDeclaration.model_validate(raw)
        assert d.name == raw["name"]
        if dialect == "gemini-jsonschema":
            assert d.parameters is None and isinstance(d.parameters_json_schema, dict)
        elif "parameters" in raw:
            assert isinstance(d.parameters, genai.Schema)
            assert d.parameters.type == genai.Type.OBJECT
        if dialect == "gemini-vertex" and "response" in raw:
            assert isinstance(d.response, genai.Schema)


def check_mcp(data):
    result = mcp.ListToolsResult.model_validate(data)
    assert len(result.tools) == len(data["tools"])
    for t in result.tools:
        assert t.input_schema.get("type") == "object", t.name
        if t.output_schema is not None:
            assert t.output_schema.get("type") == "object", t.name


def check_openai(dialect, data):
    assert isinstance(data, list)
    for t in data:
        assert t["type"] == "function"
        f = t["function"]
        assert isinstance(f["name"], str) and isinstance(f["description"], str)
        assert f["parameters"]["type"] == "object"
        assert f["strict"] is (dialect != "openai")


def check_anthropic(dialect, data):
    assert isinstance(data, list)
    for t in data:
        assert isinstance(t["name"], str)
        assert t["input_schema"]["type"] == "object"
        assert t.get("strict", False) is (dialect == "anthropic-strict")


def check(dialect, data):
    if dialect.startswith("gemini"):
        check_gemini(dialect, data)
    elif dialect == "mcp":
        check_mcp(data)
    elif "openai" in dialect:
        check_openai(dialect, data)
    else:
        check_anthropic(dialect, data)


def self_test():
    """The oracles do reject what a provider would: a Gemini schema with a
    JSON Schema keyword it lacks, and an MCP tool without an input schema."""
    bad_gemini = {
        "functionDeclarations": [
            {
                "name": "x",
                "description": "d",
                "parameters": {"type": "object", "properties": {"a": {"const": "x"}}},
            }
        ]
    }
    bad_mcp = {"tools": [{"name": "x", "description": "d"}]}
    for dialect, data in [("gemini", bad_gemini), ("mcp", bad_mcp)]:
        try:
            check(dialect, data)
        except Exception:
            continue
        raise AssertionError(f"the {dialect} oracle accepted a broken list")


def main():
    toolc, manifests = sys.argv[1], sys.argv[2]
    self_test()
    lint = run(toolc, "lint", manifests, "--format", "json")
    targeted = set(json.loads(lint.stdout)["summary"]["dialects"])
    agents = run(toolc, "dump", manifests, "--list-agents").stdout.split()
    assert agents, "no agents"
    passed, failed = 0, 0
    for agent in agents:
        for dialect in DIALECTS:
            what = f"{agent} / {dialect}"
            out = run(toolc, "dump", manifests, "--agent", agent, "--dialect", dialect, "--format", "plain")
            if out.returncode == 1 and dialect not in targeted and "error[" in out.stderr:
                print(f"ok   {what}: refused (not a targeted dialect)")
                passed += 1
                continue
            if out.returncode != 0:
                print(f"FAIL {what}: exit {out.returncode}\n{out.stderr}")
                failed += 1
                continue
            try:
                check(dialect, json.loads(out.stdout))
            except Exception as e:  # noqa: BLE001 - report every failure
                print(f"FAIL {what}: {type(e).__name__}: {e}")
                failed += 1
                continue
            print(f"ok   {what}")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
