/**
 * Custom JSON-RPC errors (`new ProtocolError(-32001, …)`) and `onError` replacing the masked error:
 * the same handlers on every wire (MCP 2026-07-28 and 2025 over HTTP, MCP-lite JSON and SSE, Webtools,
 * gRPC through Connect's JSON, MCP over stdio), the code as raised where the wire carries JSON-RPC
 * codes, a documented mapping with the code kept in the details where it does not.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineResource, defineTool } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { legacyRequest, modernMeta, modernRequest, post } from "../helpers/request.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { withDefaults } from "../helpers/fixtures.ts";

class UpstreamDown extends Error {}

const custom = defineTool("custom").describe("Raises a custom code").handle(() => {
  throw new ProtocolError(-32001, "Custom error", { data: { reason: "quota" } });
});
const upstream = defineTool("upstream").describe("Its upstream is down").input(v.object({})).handle(() => {
  throw new UpstreamDown("db at 10.0.0.7 refused"); // never sent: onError names what to answer
});
const plain = defineTool("plain").describe("Fails plainly").handle(() => {
  throw new Error("plain failure");
});

const reported: unknown[] = [];
function server() {
  reported.length = 0;
  const made = createServer({
    name: "errors",
    version: "1.0.0",
    bindings: withDefaults(webtoolsBinding(), grpcBinding()),
    onError: (error, call) => {
      reported.push(error);
      if (error instanceof UpstreamDown) {
        return { code: -32050, message: "Upstream unavailable", data: { requestId: call?.ctx.meta.requestId } };
      }
    },
  });
  return made.tool(custom).tool(upstream).tool(plain).resource(
    defineResource("memo://down").read(() => {
      throw new UpstreamDown("no memo");
    }),
  );
}

/** The JSON-RPC error of a response, JSON or SSE. */
async function rpcError(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const json = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
  return JSON.parse(json).error;
}

const CALLS: [string, (name: string) => Request][] = [
  ["MCP 2026-07-28", (name) => modernRequest("tools/call", { name, arguments: {} }, 41)],
  ["MCP 2025-11-25", (name) => legacyRequest("tools/call", { name, arguments: {} }, 41)],
  [
    "MCP-lite",
    (name) =>
      post("/mcp-lite/v1/calltools", { jsonrpc: "2.0", id: 41, method: "tools/call", params: { name, arguments: {} } }),
  ],
];

describe("custom JSON-RPC errors on the JSON-RPC wires", () => {
  for (const [wire, request] of CALLS) {
    it(`${wire}: a handler's ProtocolError(-32001) is answered with that code, message and data`, async () => {
      const response = await server().fetch(request("custom"));
      assert.equal(response.status, 200);
      assert.deepEqual(await rpcError(response), { code: -32001, message: "Custom error", data: { reason: "quota" } });
    });

    it(`${wire}: onError's { code, message, data } replaces the error it recognises, with the request id`, async () => {
      const response = await server().fetch(request("upstream"));
      assert.deepEqual(await rpcError(response), {
        code: -32050,
        message: "Upstream unavailable",
        data: { requestId: 41 },
      });
      assert.ok(reported[0] instanceof UpstreamDown);
    });

    it(`${wire}: an error onError does not recognise keeps the default (a tool failure)`, async () => {
      const response = await server().fetch(request("plain"));
      const body = await response.json();
      const result = body.result;
      assert.equal(result.isError ?? result.response_type === "failure", true);
    });
  }

  it("MCP-lite over SSE: the error event carries the custom code", async () => {
    const response = await server().fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "custom", arguments: {}, _meta: { stream: true } },
    }, { accept: "text/event-stream" }));
    const text = await response.text();
    assert.match(
      text,
      /event: error\ndata: \{"id":5,"code":-32001,"message":"Custom error","data":\{"reason":"quota"\}\}/,
    );
  });

  it("MCP: a resource read's recognised error is replaced too", async () => {
    const response = await server().fetch(modernRequest("resources/read", { uri: "memo://down" }));
    assert.deepEqual((await rpcError(response)).code, -32050);
  });

  it("our client surfaces the code on MCP and MCP-lite", async () => {
    const app = server();
    for (const wire of ["mcp", "mcp-lite"] as const) {
      const client = createClient(app, { transport: wire });
      await assert.rejects(client.call("custom", {}), (error: Error & { data?: unknown }) => {
        assert.match(error.message, /Custom error/);
        assert.match(JSON.stringify(error), /-32001/);
        return true;
      });
    }
  });
});

describe("custom JSON-RPC errors over stdio", () => {
  it("MCP-lite, MCP 2025 and MCP 2026-07-28 on one connection: the code as raised, onError's replacement", async () => {
    const piped = pipeServer(server());
    try {
      piped.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "custom", arguments: {} } });
      assert.deepEqual((await piped.answer(1)).error, {
        code: -32001,
        message: "Custom error",
        data: { reason: "quota" },
      });
      piped.send({
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      await piped.answer(2);
      piped.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "upstream", arguments: {} } });
      assert.deepEqual((await piped.answer(3)).error, {
        code: -32050,
        message: "Upstream unavailable",
        data: { requestId: 3 },
      });
      piped.send({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "custom", arguments: {}, _meta: modernMeta() },
      });
      assert.equal(((await piped.answer(4)).error as { code: number }).code, -32001);
    } finally {
      await piped.end();
    }
  });
});

describe("custom JSON-RPC errors on the wires without JSON-RPC codes", () => {
  it("Webtools: CUSTOM_ERROR, 500, the code in details.jsonrpcCode beside the data", async () => {
    const response = await server().fetch(post("/webtools/", { action: "custom", request: {} }));
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), {
      status: "error",
      error: {
        code: "CUSTOM_ERROR",
        message: "Custom error",
        details: { reason: "quota", jsonrpcCode: -32001 },
        reason: "custom",
      },
    });
    const replaced = await server().fetch(post("/webtools/", { action: "upstream", request: {} }));
    assert.deepEqual((await replaced.json()).error.details.jsonrpcCode, -32050);
  });

  it("gRPC (Connect JSON): UNKNOWN, the code in ErrorInfo.metadata.jsonrpcCode", async () => {
    const response = await server().fetch(
      post("/mcplite.MCPLite/CallTool", { name: "custom", arguments: {} }),
    );
    const body = await response.json();
    assert.equal(body.code, "unknown");
    assert.equal(body.message, "Custom error");
    const info = body.details.find((d: { type: string }) => d.type === "google.rpc.ErrorInfo");
    assert.ok(info, "an ErrorInfo detail");
    const decoded = JSON.parse(JSON.stringify(info.debug ?? {}));
    assert.deepEqual(decoded.metadata, { reason: "quota", jsonrpcCode: "-32001" });
    assert.equal(decoded.reason, "CUSTOM");
  });
});

describe("ProtocolError with a number", () => {
  it("keeps JSON-RPC's five names as the SDK's codes, and refuses the rest of the reserved range", () => {
    const invalid = new ProtocolError(-32602, "Division by zero");
    assert.equal(invalid.code, ErrorCode.InvalidParams);
    assert.equal(invalid.rpcCode, -32602);
    assert.equal(new ProtocolError(-32001, "x").code, ErrorCode.Custom);
    assert.equal(new ProtocolError(42, "x").code, ErrorCode.Custom);
    assert.throws(() => new ProtocolError(-32500, "x"), RangeError);
    assert.throws(() => new ProtocolError(1.5, "x"), RangeError);
  });
});
