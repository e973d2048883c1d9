/**
 * Step-up challenges on all nine wires (MCP 2025-11-25, Authorization, Scope Challenge Handling; RFC
 * 6750 §3.1): a call refused for a scope its caller lacks carries `WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"` where an OAuth client reads it — the HTTP response header on
 * every HTTP wire (MCP 2026 and 2025, MCP-lite JSON and SSE, Webtools, Connect, gRPC-Web), and the
 * trailers of gRPC and the headers of Connect on `serveGrpc()`. MCP-lite SSE answers 403 before it
 * opens the stream; gRPC-Web sends the challenge as a response header, its status in the trailer frame
 * (Connect's clients merge headers and trailers into one metadata: the challenge in both would read twice).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code } from "@connectrpc/connect";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { bearer, METADATA, opaqueAuth } from "../helpers/opaque-auth.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: opaqueAuth(),
  bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), grpcBinding()],
}).tool(defineTool("purge").describe("Deletes every doc").scopes("docs:admin").handle(() => "purged"));

const stepUp = (path: string) =>
  `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}${path}"`;

/** A gRPC-Web binary `CallTool` request for `purge`: one data frame holding `name = "purge"` (field 1). */
function grpcWebCall(token: string): Request {
  const message = [0x0a, 5, ...new TextEncoder().encode("purge")];
  return new Request("http://localhost/mcplite.MCPLite/CallTool", {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1", ...bearer(token) },
    body: new Uint8Array([0, 0, 0, 0, message.length, ...message]),
  });
}

describe("step-up challenges on all nine wires", () => {
  const fetchWires: [string, (token: string) => Request, string, number][] = [
    ["MCP 2026-07-28 over HTTP", (t) => modernRequest("tools/call", { name: "purge" }, 1, bearer(t)), "/mcp", 403],
    [
      "MCP 2025-11-25 over HTTP",
      (t) => legacyRequest("tools/call", { name: "purge" }, 1, "2025-11-25", bearer(t)),
      "/mcp",
      403,
    ],
    [
      "MCP-lite JSON",
      (t) => post("/mcp-lite/v1/calltools", toolsCall("purge"), bearer(t)),
      "/mcp-lite/v1/calltools",
      403,
    ],
    [
      "MCP-lite SSE",
      (t) => post("/mcp-lite/v1/calltools", toolsCall("purge"), { ...bearer(t), accept: "text/event-stream" }),
      "/mcp-lite/v1/calltools",
      403,
    ],
    ["Webtools", (t) => post("/webtools/", { action: "purge", request: {} }, bearer(t)), "/webtools/", 403],
    [
      "Connect over fetch",
      (t) => post("/mcplite.MCPLite/CallTool", { name: "purge" }, bearer(t)),
      "/mcplite.MCPLite/CallTool",
      403,
    ],
    ["gRPC-Web over fetch", grpcWebCall, "/mcplite.MCPLite/CallTool", 200],
  ];
  for (const [wire, request, path, status] of fetchWires) {
    it(`${wire}: HTTP ${status} with the challenge in WWW-Authenticate; the admin's call runs`, async () => {
      const refused = await server.fetch(request("reader"));
      assert.equal(refused.status, status);
      assert.equal(refused.headers.get("www-authenticate"), stepUp(path));
      const body = await refused.text();
      if (wire === "gRPC-Web over fetch") {
        // The trailer frame (gRPC-Web protocol, "Trailers") carries the status.
        assert.match(body, /grpc-status: ?7\r\n/);
      }
      const granted = await server.fetch(request("admin"));
      assert.equal(granted.status, 200);
      assert.equal(granted.headers.get("www-authenticate"), null);
      assert.match(await granted.text(), /purged/);
    });
  }

  describe("serveGrpc()", () => {
    const served = grpcListener(server);
    for (const kind of ["gRPC", "Connect"] as const) {
      it(`${kind} over serveGrpc: PERMISSION_DENIED with the challenge in the ${kind === "gRPC" ? "trailers" : "headers"}`, async () => {
        const client = served.client(kind);
        const refused = await rejection(client.callTool({ name: "purge" }, { headers: bearer("reader") }));
        assert.equal(refused.code, Code.PermissionDenied);
        assert.equal(refused.metadata.get("www-authenticate"), stepUp("/mcplite.MCPLite/CallTool"));
        const granted = await client.callTool({ name: "purge" }, { headers: bearer("admin") });
        assert.deepEqual(granted.result?.content, [{ type: "text", text: "purged" }]);
      });
    }
  });
});
