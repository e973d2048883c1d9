/**
 * The same fixture calls through every wire give the same results.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolResult } from "../../mod.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { callAny, final } from "../helpers/outcome.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { readJsonRpc, readSse } from "../helpers/sse.ts";

type Wire = (name: string, args: unknown) => Promise<ToolResult>;
const server = fixtureServer({ logger: false }); // `crashes` throws on purpose: no error line each

const wires: Record<string, Wire> = {
  "in-process": async (name, args) => final(await callAny(server, name, args)).result,
  "mcp-lite": async (name, args) => {
    const { result } = await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall(name, args)))).json();
    delete result._meta;
    return result;
  },
  "mcp 2026-07-28": async (name, args) => {
    const response = await server.fetch(modernRequest("tools/call", { name, arguments: args }));
    const { result } = await readJsonRpc(response);
    assert.equal(result.resultType, "complete");
    assert.deepEqual(result._meta, { "io.modelcontextprotocol/serverInfo": { name: "fixtures", version: "1.2.3" } });
    delete result.resultType;
    delete result._meta;
    return result;
  },
  "mcp 2025-11-25": async (name, args) =>
    (await readJsonRpc(await server.fetch(legacyRequest("tools/call", { name, arguments: args })))).result,
};

describe("every wire gives the same result", () => {
  const calls: [string, unknown][] = [
    ["add", { a: 20, b: 22 }],
    ["echo", { text: "hey ", times: 2 }],
    ["fails", {}],
    ["crashes", {}],
    ["countdown", { count: 2 }],
  ];
  for (const [name, args] of calls) {
    it(`${name}(${JSON.stringify(args)})`, async () => {
      const results = await Promise.all(Object.values(wires).map((wire) => wire(name, args)));
      for (const result of results.slice(1)) assert.deepEqual(result, results[0]);
    });
  }
});

describe("MCP on the same tools", () => {
  it("discovers the server on 2026-07-28 with versions, capabilities and serverInfo in _meta", async () => {
    const { id, result } = await (await server.fetch(modernRequest("server/discover", {}, "d1"))).json();
    assert.equal(id, "d1");
    assert.ok(result.supportedVersions.includes("2026-07-28"));
    assert.ok(result.capabilities.tools);
    assert.equal(result.resultType, "complete");
    assert.equal(result._meta["io.modelcontextprotocol/serverInfo"].name, "fixtures");
    assert.equal(typeof result.ttlMs, "number");
  });

  it("lists tools without MCP-lite's @type", async () => {
    const { result } = await (await server.fetch(modernRequest("tools/list"))).json();
    assert.equal(result.tools.length, 6);
    assert.equal(result.tools[0].name, "add");
    assert.equal("@type" in result.tools[0], false);
    assert.equal(result.resultType, "complete");
  });

  it("answers an unknown tool with -32602 and invalid arguments with an isError result naming the paths", async () => {
    const unknown = await (await server.fetch(modernRequest("tools/call", { name: "nope", arguments: {} }))).json();
    assert.equal(unknown.error.code, -32602);
    const invalid = await (await server.fetch(modernRequest("tools/call", { name: "add", arguments: { a: 1 } })))
      .json();
    assert.equal(invalid.result.isError, true);
    assert.match(invalid.result.content[0].text, /b: /);
  });

  it("negotiates 2025 versions in initialize, and answers ping and notifications statelessly", async () => {
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      const init = await (await server.fetch(legacyRequest(
        "initialize",
        {
          protocolVersion: version,
          capabilities: {},
          clientInfo: { name: "c", version: "1" },
        },
        1,
        version,
      ))).json();
      assert.equal(init.result.protocolVersion, version);
      assert.deepEqual(init.result.serverInfo, { name: "fixtures", version: "1.2.3" });
      assert.ok(init.result.capabilities.tools);
    }
    const newer =
      await (await server.fetch(legacyRequest("initialize", { protocolVersion: "2099-01-01", capabilities: {} })))
        .json();
    assert.equal(newer.result.protocolVersion, "2025-11-25");
    const note = await server.fetch(legacyRequest("notifications/initialized", {}, null));
    assert.equal(note.status, 202);
    assert.equal(await note.text(), "");
    assert.deepEqual((await (await server.fetch(legacyRequest("ping"))).json()).result, {});
  });

  it("rejects a 2026 request without its envelope (400/-32602) or with a mismatched header (400/-32020)", async () => {
    const bare = await server.fetch(post("/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    }, { "mcp-protocol-version": "2026-07-28" }));
    assert.equal(bare.status, 400);
    assert.equal((await bare.json()).error.code, -32602);
    const mismatch = await server.fetch(
      modernRequest("server/discover", {}, 2, { "mcp-protocol-version": "2025-11-25" }),
    );
    assert.equal(mismatch.status, 400);
    assert.equal((await mismatch.json()).error.code, -32020);
  });

  it("streams progress notifications, then the result, as SSE when the call reports progress", async () => {
    const response = await server.fetch(modernRequest("tools/call", {
      name: "slow",
      arguments: { ms: 5 },
      _meta: { progressToken: "tok" },
    }, 7));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const messages = (await readSse(response)).map((e) => JSON.parse(e.data));
    const progress = messages.filter((m) => m.method === "notifications/progress").map((m) => m.params);
    assert.deepEqual(progress, [
      { progressToken: "tok", progress: 0, total: 2, message: "started" },
      { progressToken: "tok", progress: 2, total: 2, message: "done" },
    ]);
    const last = messages.at(-1);
    assert.equal(last.id, 7);
    assert.equal(last.result.resultType, "complete");
    assert.deepEqual(last.result.content, [{ type: "text", text: "finished" }]);
  });
});
