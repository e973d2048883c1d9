import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixtureServer } from "../../helpers/fixtures.ts";
import { BASE, legacyRequest, modernMeta, post } from "../../helpers/request.ts";
import { legacy, mcpServer, modern, send } from "./mcp-helpers.ts";

const server = mcpServer();
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("MCP endpoint: 2026-07-28", () => {
  it("answers server/discover with versions, capabilities, caching hints and serverInfo", async () => {
    const { status, body } = await modern(server, "server/discover");
    assert.equal(status, 200);
    const result = body.result;
    assert.deepEqual(result.supportedVersions, ["2026-07-28"]);
    assert.deepEqual(result.capabilities, {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
    assert.equal(result.resultType, "complete");
    assert.equal(result.ttlMs, 0);
    assert.equal(result.cacheScope, "public");
    assert.deepEqual(result._meta["io.modelcontextprotocol/serverInfo"], { name: "fixtures", version: "1.2.3" });
  });

  it("advertises only what is registered: no prompts, resources or completions on a tools-only server", async () => {
    const toolsOnly = fixtureServer();
    const { body } = await modern(toolsOnly, "server/discover");
    assert.deepEqual(body.result.capabilities, { tools: { listChanged: true } });
    const missing = await modern(toolsOnly, "prompts/list", {}, {}, 7);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, -32601);
    assert.equal(missing.body.id, 7);
  });

  it("checks the envelope first: missing _meta, protocolVersion or clientCapabilities is 400/-32602", async () => {
    for (
      const meta of [undefined, { "io.modelcontextprotocol/clientCapabilities": {} }, {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      }]
    ) {
      const body = { jsonrpc: "2.0", id: 5, method: "tools/list", params: meta === undefined ? {} : { _meta: meta } };
      const answer = await send(
        server,
        post("/mcp", body, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }),
      );
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, -32602);
      assert.equal(answer.body.id, 5);
    }
  });

  it("answers a header that disagrees with _meta with 400/-32020, and an unknown version with 400/-32022", async () => {
    const mismatch = await send(
      server,
      post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }, {
        "mcp-protocol-version": "2025-11-25",
        "mcp-method": "tools/list",
      }),
    );
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
    const v999 = { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" };
    const unknown = await send(
      server,
      post("/mcp", { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: v999 } }, {
        "mcp-protocol-version": "v999.0.0",
        "mcp-method": "tools/list",
      }),
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, -32022);
    assert.deepEqual(unknown.body.error.data, {
      code: "unsupported_version",
      supported: ["2026-07-28"],
      requested: "v999.0.0",
    });
  });

  it("answers removed and unknown methods with 404/-32601, echoing the id", async () => {
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "nope/nothing"]) {
      const { status, body } = await modern(server, method, {}, {}, "id-" + method);
      assert.equal(status, 404, method);
      assert.equal(body.error.code, -32601);
      assert.equal(body.id, "id-" + method);
    }
  });

  it("answers an unknown log level with -32602", async () => {
    const { body } = await modern(server, "tools/list", { _meta: { "io.modelcontextprotocol/logLevel": "loud" } });
    assert.equal(body.error.code, -32602);
  });

  it("accepts notifications with 202 and no body", async () => {
    const response = await server.fetch(
      post("/mcp", { jsonrpc: "2.0", method: "notifications/whatever", params: { _meta: modernMeta() } }, {
        "mcp-protocol-version": "2026-07-28",
      }),
    );
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
  });

  it("answers GET and PUT with 405 and Allow: POST, DELETE (a DELETE ends a 2025 session: sessions.test.ts)", async () => {
    for (const method of ["GET", "PUT"]) {
      const response = await server.fetch(new Request(BASE + "/mcp", { method }));
      assert.equal(response.status, 405);
      assert.equal(response.headers.get("allow"), "POST, DELETE");
      await response.body?.cancel();
    }
  });

  it("never issues a session id on 2026-07-28", async () => {
    const { headers } = await modern(server, "server/discover");
    assert.equal(headers.get("mcp-session-id"), null);
  });

  it("treats a missing arguments object as {} and answers a no-argument call", async () => {
    const { body } = await modern(server, "tools/call", { name: "fails" });
    assert.equal(body.result.isError, true);
    assert.equal(body.result.resultType, "complete");
  });

  it("answers an unknown tool with -32602 and invalid arguments with an isError result naming the path", async () => {
    const unknown = await modern(server, "tools/call", { name: "nope", arguments: {} });
    assert.equal(unknown.body.error.code, -32602);
    const invalid = await modern(server, "tools/call", { name: "add", arguments: { a: "x", b: 1 } });
    assert.equal(invalid.body.result.isError, true);
    assert.match(invalid.body.result.content[0].text, /\ba\b/);
  });
});

describe("MCP endpoint: the 2025 revisions", () => {
  it("negotiates in initialize and issues a visible-ASCII session id", async () => {
    const { status, headers, body } = await send(
      server,
      legacyRequest("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      }),
    );
    assert.equal(status, 200);
    assert.equal(body.result.protocolVersion, "2025-06-18");
    assert.deepEqual(body.result.serverInfo, { name: "fixtures", version: "1.2.3" });
    assert.deepEqual(body.result.capabilities, { tools: {}, prompts: {}, resources: {}, completions: {}, logging: {} });
    assert.match(headers.get("mcp-session-id") ?? "", /^[\x21-\x7E]+$/);
  });

  it("offers its newest 2025 revision to a client asking for another one", async () => {
    for (const asked of ["2026-07-28", "1999-01-01"]) {
      const { body } = await send(
        server,
        post("/mcp", {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "t", version: "1" } },
        }),
      );
      assert.equal(body.result.protocolVersion, "2025-11-25");
    }
  });

  it("answers ping with {}, and refuses resources/subscribe: a stateless server has no stream for the updates (session-stream.test.ts)", async () => {
    assert.deepEqual((await legacy(server, "ping")).body.result, {});
    assert.equal((await legacy(server, "resources/subscribe", { uri: "docs://readme" })).body.error.code, -32601);
    assert.equal((await legacy(server, "resources/unsubscribe", { uri: "docs://readme" })).body.error.code, -32601);
  });

  it("rejects an unsupported MCP-Protocol-Version header with 400", async () => {
    const { status, body } = await legacy(server, "tools/list", {}, {}, "2020-01-01");
    assert.equal(status, 400);
    assert.equal(body.error.code, -32022);
  });

  it("carries no 2026 fields in 2025 results", async () => {
    const { body } = await legacy(server, "tools/list");
    assert.equal(body.result.resultType, undefined);
    assert.equal(body.result.ttlMs, undefined);
    assert.equal(body.result._meta, undefined);
  });

  it("answers unknown methods with -32601 over HTTP 200 (a 2025 client reads 404 as an expired session)", async () => {
    const { status, body } = await legacy(server, "server/discover");
    assert.equal(status, 200);
    assert.equal(body.error.code, -32601);
  });

  it("rejects an answer to a question nobody asked", async () => {
    const response = await send(server, post("/mcp", { jsonrpc: "2.0", id: "mcplite-nope", result: {} }));
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, -32600);
  });
});
