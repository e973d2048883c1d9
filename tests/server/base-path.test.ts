/**
 * `createServer({ basePath })`: one prefix for every binding's routes, on MCP, MCP-lite, Webtools and
 * Connect, with the in-process and URL clients finding the server under it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { modernRequest, post, toolsCall } from "../helpers/request.ts";

const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => String(a + b));
const make = (basePath: string) =>
  createServer({
    name: "prefixed",
    version: "2.0.0",
    basePath,
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
  }).tool(add);

describe("basePath", () => {
  const server = make("api/"); // normalised to /api

  it("prefixes every binding's routes", async () => {
    const lite = await (await server.fetch(post("/api/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 }))))
      .json();
    assert.equal(lite.result.content[0].text, "3");
    const mcp = await server.fetch(
      new Request("http://localhost/api/mcp", modernRequest("tools/call", { name: "add", arguments: { a: 2, b: 2 } })),
    );
    assert.equal((await mcp.json()).result.content[0].text, "4");
    const webtools = await server.fetch(new Request("http://localhost/api/webtools"));
    assert.equal(webtools.status, 200);
    const version = await server.fetch(new Request("http://localhost/api/webtools/2.0.0"));
    assert.equal(version.status, 200);
    const connect =
      await (await server.fetch(post("/api/mcplite.MCPLite/CallTool", { name: "add", arguments: { a: 3, b: 4 } })))
        .json();
    assert.equal(connect.result.content[0].text, "7");
  });

  it("answers the old paths and paths outside the prefix with the plain 404", async () => {
    for (const path of ["/mcp", "/mcp-lite/v1/calltools", "/webtools", "/mcplite.MCPLite/CallTool", "/apimcp"]) {
      const response = await server.fetch(post(path, toolsCall("add", { a: 1, b: 2 })));
      assert.equal(response.status, 404, path);
      assert.equal((await response.json()).error.code, "not_found");
    }
  });

  it("routes each request by its own URL when URLs alternate (fetch keeps the last URL's route)", async () => {
    const paths = [
      "/api/mcp-lite/v1/calltools",
      "/api/mcp-lite/v1/calltools",
      "/nope",
      "/api/mcp-lite/v1/calltools?x=1",
    ];
    const statuses = [];
    for (const path of [...paths, "/nope", "/api/mcp-lite/v1/calltools"]) {
      statuses.push((await server.fetch(post(path, toolsCall("add", { a: 1, b: 2 })))).status);
    }
    assert.deepEqual(statuses, [200, 200, 404, 200, 404, 200]);
    const mcp = await server.fetch(
      new Request("http://localhost/api/mcp", modernRequest("tools/call", { name: "add", arguments: { a: 2, b: 2 } })),
    );
    assert.equal((await mcp.json()).result.content[0].text, "4");
  });

  it("keeps the Host check, refusing in each route's own shape", async () => {
    const refused = await server.fetch(
      new Request("http://evil.example/api/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).jsonrpc, "2.0");
  });

  it("is normalised and checked when the server is created", () => {
    assert.doesNotThrow(() => make("/"));
    for (const bad of ["/api?x=1", "/api#top", "/api/*", "/my api"]) assert.throws(() => make(bad), TypeError, bad);
    assert.throws(
      () => createServer({ name: "x", version: "1", basePath: "/a", bindings: [mcpBinding(), mcpBinding()] }),
      /two bindings serve \/a\/mcp/,
    );
  });

  it("a binding's root path becomes the prefix itself", async () => {
    const root = createServer({ name: "r", version: "1", basePath: "/svc", bindings: [mcpBinding({ path: "/" })] })
      .tool(add);
    const response = await root.fetch(new Request("http://localhost/svc", modernRequest("tools/list")));
    assert.equal((await response.json()).result.tools[0].name, "add");
  });

  it("the in-process client finds the server under its prefix, on MCP-lite and MCP", async () => {
    for (const wire of ["mcp-lite", "mcp"] as const) {
      const client = createClient(server, { transport: wire });
      assert.equal(await client.call("add", { a: 5, b: 6 }), "11");
    }
  });

  it("a URL client given the prefix discovers the wires below it", async () => {
    const fetch = (input: Request | string | URL, init?: RequestInit) =>
      server.fetch(input instanceof Request ? input : new Request(input, init));
    const client = createClient("http://localhost/api", { fetch });
    assert.equal(await client.call("add", { a: 1, b: 1 }), "2");
  });
});
