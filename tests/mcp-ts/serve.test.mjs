// `toolc serve`, driven by the official TypeScript SDK over stdio: the toolset of
// tests/mcp/serve/weather.yaml served without Rust, one tool per backend (http against a local
// server, a command, mocks) and per policy (a role, a rate limit, an approval).
//
// Each client lists the tools first, so the SDK checks every structuredContent against the
// tool's outputSchema (with ajv) as a real host would.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOOLC =
  process.env.TOOLC_BIN ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug", "toolc");
const TOKEN = "sk-test-7a1d3c9e55";

/** The requests the weather API saw: [path, Authorization]. */
const seen = [];
let api;
let scratch;
let toolset;

before(async () => {
  api = createServer((request, response) => {
    seen.push([request.url, request.headers.authorization]);
    const city = decodeURIComponent(request.url.split("?")[0].split("/").pop());
    const body = JSON.stringify({ city, celsius: 19 });
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    response.end(body);
  });
  await new Promise((resolve) => api.listen(0, "127.0.0.1", resolve));
  scratch = mkdtempSync(path.join(tmpdir(), "toolc-serve-"));
  // The folder's name is the toolset's, and its one agent's.
  toolset = path.join(scratch, "weather");
  mkdirSync(toolset);
  const source = path.join(ROOT, "tests", "mcp", "serve");
  const text = readFileSync(path.join(source, "weather.yaml"), "utf8").replaceAll(
    "127.0.0.1:9",
    `127.0.0.1:${api.address().port}`,
  );
  writeFileSync(path.join(toolset, "weather.yaml"), text);
  copyFileSync(path.join(source, "convert.py"), path.join(toolset, "convert.py"));
});

after(() => {
  api.close();
  rmSync(scratch, { recursive: true, force: true });
});

test("the toolc binary is built", () => {
  assert.ok(existsSync(TOOLC), `${TOOLC} is missing: build it with cargo build -p toolc`);
});

/** Runs `body` with a client of the served toolset, its tools listed; `answer` makes it elicit. */
async function withClient(args, body, answer = null) {
  const transport = new StdioClientTransport({
    command: TOOLC,
    args: ["serve", toolset, "--caller", "ada", "--auth", "user", ...args],
    env: { WEATHER_TOKEN: TOKEN, PATH: process.env.PATH },
    stderr: "ignore",
  });
  const capabilities = answer ? { elicitation: {} } : {};
  const client = new Client({ name: "toolc-ts-test", version: "0.0.0" }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
  }
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return await body(client, tools, asked);
  } finally {
    await client.close();
  }
}

function textJson(result) {
  assert.equal(result.content.length, 1, JSON.stringify(result));
  return JSON.parse(result.content[0].text);
}

function failed(result, kind) {
  assert.equal(result.isError, true, JSON.stringify(result));
  const error = textJson(result);
  assert.equal(error.kind, kind, JSON.stringify(error));
  return error;
}

test("the list is the MCP dump", async () => {
  const dumped = JSON.parse(execFileSync(TOOLC, ["dump", toolset, "--dialect", "mcp"], { encoding: "utf8" })).tools;
  await withClient([], async (client, tools) => {
    assert.deepEqual(
      tools.map((t) => t.name),
      dumped.map((t) => t.name),
    );
    for (const [i, tool] of tools.entries()) {
      assert.deepEqual(tool.inputSchema, dumped[i].inputSchema, tool.name);
      assert.deepEqual(tool.outputSchema, dumped[i].outputSchema, tool.name);
    }
    assert.equal(client.getServerVersion().name, "weather");
  });
});

test("each backend answers", async () => {
  await withClient([], async (client) => {
    const forecast = await client.callTool({ name: "forecast", arguments: { city: "Bergen" } });
    assert.deepEqual(forecast.structuredContent, { city: "Bergen", celsius: 19 });
    assert.deepEqual(seen.at(-1), ["/v1/forecast/Bergen", `Bearer ${TOKEN}`]);
    const converted = await client.callTool({ name: "to_fahrenheit", arguments: { celsius: 100 } });
    assert.deepEqual(converted.structuredContent, { fahrenheit: 212 });
    const stations = await client.callTool({ name: "stations", arguments: { city: "Bergen" } });
    assert.notEqual(stations.isError, true, JSON.stringify(stations));
    assert.ok(Array.isArray(stations.structuredContent.stations));
  });
});

test("bad arguments, a missing role and a rate limit are refused", async () => {
  await withClient([], async (client) => {
    const bad = failed(await client.callTool({ name: "to_fahrenheit", arguments: { celsius: "hot" } }), "arguments_invalid");
    assert.equal(bad.violations[0].pointer, "/celsius");
    const refused = failed(await client.callTool({ name: "station_report", arguments: { station: "ST-001" } }), "forbidden");
    assert.match(refused.message, /ops/);
    const first = await client.callTool({ name: "refresh", arguments: {} });
    assert.deepEqual(first.structuredContent, { refreshed: true });
    const limited = failed(await client.callTool({ name: "refresh", arguments: {} }), "rate_limited");
    assert.equal(limited.retryable, true);
  });
});

test("an approval is asked before the backend runs", async () => {
  await withClient(
    [],
    async (client, _tools, asked) => {
      const result = await client.callTool({ name: "retire_station", arguments: { station: "ST-002" } });
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /^Allow the tool 'Retire a station' to run with these arguments\?/);
      assert.deepEqual(result.structuredContent, { retired: "ST-001" });
    },
    "accept",
  );
  await withClient(
    [],
    async (client) => {
      const result = await client.callTool({ name: "retire_station", arguments: { station: "ST-002" } });
      failed(result, "forbidden");
    },
    "decline",
  );
});
