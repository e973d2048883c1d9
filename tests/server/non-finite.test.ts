/**
 * Numbers JSON cannot carry (RFC 8259 §6): `1e400` decodes as Infinity and passes `v.number()`, and a
 * protobuf `Struct` can hold Infinity or NaN. They are invalid arguments, named by their path, on every
 * wire (MCP-lite -32602, MCP an `isError` result naming the path, Webtools `SCHEMA_ERROR`, gRPC
 * `INVALID_ARGUMENT` with a `BadRequest` field), never a 500 after the output check.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createClient } from "@connectrpc/connect";
import { mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { add, fixtureServer } from "../helpers/fixtures.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const server = fixtureServer({ bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), grpcBinding()] });
const HUGE = '{"a":1e400,"b":1}';
const NESTED = "b"; // the path the refusal names

/** A JSON body with `arguments` spliced in as raw text (JSON.stringify would write Infinity as null). */
const withRawArguments = (message: Record<string, unknown>, raw: string) =>
  JSON.stringify(message).replace('"arguments":{}', `"arguments":${raw}`);

describe("non-finite numbers in arguments", () => {
  it("MCP-lite: -32602 naming the path", async () => {
    for (const [raw, path] of [[HUGE, "a"], ['{"a":1,"b":-1e999}', NESTED]] as const) {
      const response = await server.fetch(post("/mcp-lite/v1/calltools", withRawArguments(toolsCall("add", {}), raw)));
      assert.equal(response.status, 200);
      const { error } = await response.json();
      assert.equal(error.code, -32602);
      assert.deepEqual(error.data.issues.map((i: { path: string }) => i.path), [path]);
    }
  });

  it("MCP 2026-07-28 and 2025-11-25: an isError result naming the path", async () => {
    for (const request of [modernRequest, (m: string, p: Record<string, unknown>) => legacyRequest(m, p)]) {
      const base = request("tools/call", { name: "add", arguments: {} });
      const body = withRawArguments(await base.json(), HUGE);
      const response = await server.fetch(new Request(base.url, { method: "POST", headers: base.headers, body }));
      assert.equal(response.status, 200);
      const { result } = await response.json();
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /a: must be a finite number/);
    }
  });

  it("Webtools: 400 SCHEMA_ERROR naming the path", async () => {
    const response = await server.fetch(post("/webtools/", `{"action":"add","request":${HUGE}}`));
    assert.equal(response.status, 400);
    const { error } = await response.json();
    assert.equal(error.code, "SCHEMA_ERROR");
    assert.match(error.message, /a: must be a finite number/);
  });

  it("Connect JSON (raw 1e400): INVALID_ARGUMENT naming the field", async () => {
    const response = await server.fetch(post("/mcplite.MCPLite/CallTool", `{"name":"add","arguments":${HUGE}}`));
    assert.equal(response.status, 400);
    const error = await response.json();
    assert.equal(error.code, "invalid_argument");
    assert.match(error.message, /a: must be a finite number/);
  });

  it("gRPC binary (a Struct holding Infinity): INVALID_ARGUMENT naming the field", async () => {
    const client = createClient(MCPLite, inProcessTransport(server, "grpc-web", true));
    const refused = await rejection(client.callTool({ name: add.name, arguments: { a: 1, b: -Infinity } }));
    assert.equal(refused.code, Code.InvalidArgument);
    assert.match(refused.message, /b: must be a finite number/);
  });

  it("finite numbers, however large, still pass", async () => {
    const response = await server.fetch(
      post("/mcp-lite/v1/calltools", withRawArguments(toolsCall("add", {}), '{"a":1e308,"b":-1e308}')),
    );
    assert.deepEqual((await response.json()).result.structuredContent, { sum: 0 });
  });
});
