/**
 * DPoP (RFC 9449) on every wire, checked once in the server's gate: a bound token with a proof of the
 * request is taken, and without one is refused with the `DPoP` challenge (§7.1) where an OAuth client
 * reads it — the `WWW-Authenticate` header on every HTTP wire (MCP 2026-07-28 and 2025-11-25, MCP-lite
 * JSON and SSE, Webtools, OpenAPI, Connect and gRPC-Web over fetch, the WebSocket upgrade), the
 * trailers of gRPC and the headers of Connect on `serveGrpc()` (HTTP/2). The proof names each wire's
 * method and URL: `POST` and `http://{:authority}{:path}` for a gRPC call, `GET` for the upgrade.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code } from "@connectrpc/connect";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { ASYMMETRIC_ALGORITHMS } from "../../src/auth/jwt-auth.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { openapiBinding } from "../../src/bindings/openapi/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { WEBSOCKET_PROTOCOL, webSocketBinding } from "../../src/websocket/mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { BASE, legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import {
  dpopHeaders,
  dpopIssuer,
  type DpopKey,
  dpopKey,
  ISSUER,
  withNonce,
  youngMemoryNonce,
} from "../helpers/dpop.ts";
import { rawWebSocket } from "../websocket/raw-client.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const issuer = await dpopIssuer();
const bareKey = await dpopKey();
/** Minted before the tests (good for 5 minutes), not as the file loads: a runner may load it minutes earlier. */
let token = "";
const ALGS = ASYMMETRIC_ALGORITHMS.join(" ");

const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: jwtAuth({ issuer: ISSUER, resource: BASE, jwks: issuer.jwks, dpop: "required" }),
  bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), openapiBinding(), grpcBinding(), webSocketBinding()],
}).tool(defineTool("read_doc").describe("Reads a doc").handle((_args, ctx) => `doc for ${ctx.auth?.subject}`));
let key: DpopKey = bareKey;

const refusal = (path: string) =>
  `DPoP error="invalid_dpop_proof", error_description="send a DPoP proof (the DPoP header)", resource_metadata="${BASE}/.well-known/oauth-protected-resource${path}", algs="${ALGS}"`;

/** A gRPC-Web binary `CallTool` request for `read_doc`: one data frame holding `name` (field 1). */
function grpcWebCall(headers: Record<string, string>): Request {
  const message = [0x0a, 8, ...new TextEncoder().encode("read_doc")];
  return new Request(`${BASE}/mcplite.MCPLite/CallTool`, {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", ...headers },
    body: new Uint8Array([0, 0, 0, 0, message.length, ...message]),
  });
}

describe("DPoP on every wire", () => {
  before(async () => {
    token = await issuer.mint(BASE, bareKey.jkt);
    // The server's replay memory is new: its first window's proofs carry a nonce it issued (RFC 9449 §8).
    key = withNonce(bareKey, await youngMemoryNonce(server.fetch, bareKey, token, BASE + "/mcp-lite/v1/calltools"));
  });
  const fetchWires: [string, string, (headers: Record<string, string>) => Request][] = [
    ["MCP 2026-07-28 over HTTP", "/mcp", (h) => modernRequest("tools/call", { name: "read_doc" }, 1, h)],
    ["MCP 2025-11-25 over HTTP", "/mcp", (h) => legacyRequest("tools/call", { name: "read_doc" }, 1, "2025-11-25", h)],
    ["MCP-lite JSON", "/mcp-lite/v1/calltools", (h) => post("/mcp-lite/v1/calltools", toolsCall("read_doc"), h)],
    [
      "MCP-lite SSE",
      "/mcp-lite/v1/calltools",
      (h) => post("/mcp-lite/v1/calltools", toolsCall("read_doc"), { ...h, accept: "text/event-stream" }),
    ],
    ["Webtools", "/webtools/", (h) => post("/webtools/", { action: "read_doc", request: {} }, h)],
    ["OpenAPI", "/api/tools/read_doc", (h) => post("/api/tools/read_doc", {}, h)],
    [
      "Connect over fetch",
      "/mcplite.MCPLite/CallTool",
      (h) => post("/mcplite.MCPLite/CallTool", { name: "read_doc" }, h),
    ],
    ["gRPC-Web over fetch", "/mcplite.MCPLite/CallTool", grpcWebCall],
  ];
  for (const [wire, path, request] of fetchWires) {
    it(`${wire}: refused without a proof with the DPoP challenge; taken with one`, async () => {
      const refused = await server.fetch(request(dpopHeaders(token)));
      assert.equal(refused.headers.get("www-authenticate"), refusal(path));
      if (wire !== "gRPC-Web over fetch") assert.equal(refused.status, 401);
      await refused.body?.cancel();
      const proof = await key.proof({ htm: "POST", htu: BASE + path, token });
      const taken = await server.fetch(request(dpopHeaders(token, proof)));
      assert.equal(taken.status, 200);
      assert.equal(taken.headers.get("www-authenticate"), null);
      assert.match(await taken.text(), /doc for ada/);
    });
  }

  describe("serveGrpc() (HTTP/2)", () => {
    const served = grpcListener(server);
    for (const kind of ["gRPC", "Connect"] as const) {
      it(`${kind}: UNAUTHENTICATED with the challenge in the ${kind === "gRPC" ? "trailers" : "headers"}; taken with a proof of POST {:authority}{:path}`, async () => {
        const client = served.client(kind);
        const path = "/mcplite.MCPLite/CallTool";
        const refused = await rejection(client.callTool({ name: "read_doc" }, { headers: dpopHeaders(token) }));
        assert.equal(refused.code, Code.Unauthenticated);
        assert.equal(refused.metadata.get("www-authenticate"), refusal(path));
        const proof = await key.proof({ htm: "POST", htu: served.listener().url + path, token });
        const taken = await client.callTool({ name: "read_doc" }, { headers: dpopHeaders(token, proof) });
        assert.deepEqual(taken.result?.content, [{ type: "text", text: "doc for ada" }]);
      });
    }
  });

  describe("WebSocket", () => {
    let listener: Listener;
    before(async () => {
      listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    });
    after(() => listener.close());
    const path = "/mcp-lite/v1/ws";

    it("refuses the upgrade without a proof (401, the DPoP challenge); takes it with a proof of GET", async () => {
      const upgrade = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-version": "13" };
      const refused = await server.fetch(new Request(BASE + path, { headers: { ...upgrade, ...dpopHeaders(token) } }));
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get("www-authenticate"), refusal(path));
      await refused.body?.cancel();
      await assert.rejects(
        rawWebSocket(listener.port, path, { ...dpopHeaders(token), "sec-websocket-protocol": WEBSOCKET_PROTOCOL }),
        /401/,
      );
      const proof = await key.proof({ htm: "GET", htu: `http://127.0.0.1:${listener.port}${path}`, token });
      const socket = await rawWebSocket(listener.port, path, {
        ...dpopHeaders(token, proof),
        "sec-websocket-protocol": WEBSOCKET_PROTOCOL,
      });
      try {
        socket.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_doc", arguments: {} } });
        assert.equal((await socket.answer(1)).result.content[0].text, "doc for ada");
      } finally {
        socket.destroy();
      }
    });
  });
});
