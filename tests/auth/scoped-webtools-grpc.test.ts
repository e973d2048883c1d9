/**
 * Tool lists per scope set beyond MCP: Webtools metadata (each version) and gRPC `GetTools` (Connect's
 * direct unary path, JSON and binary, and Connect's own handler for GET and gRPC-Web) list only the
 * tools the caller may call; their caches and `ETag`s are kept per scope set, and private. A call
 * refused for a scope carries the step-up challenge on every one of them, read from the refusal.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { Code, createClient, type Transport } from "@connectrpc/connect";
import { createServer, defineTool } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { bearer, METADATA, opaqueAuth } from "../helpers/opaque-auth.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const readDoc = defineTool("read_doc").describe("Reads a doc").input(v.object({ id: v.string() }))
  .handle(({ id }) => `doc ${id}`);
const purge = defineTool("purge").describe("Deletes every doc").scopes("docs:admin").handle(() => "purged");
const oldPurge = defineTool("purge").describe("Deletes every doc (v0)").scopes("docs:admin").handle(() => "purged");

const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: opaqueAuth(),
  bindings: [
    webtoolsBinding({ versions: [{ version: "0.9.0", tools: [readDoc, oldPurge] }] }),
    grpcBinding(),
  ],
}).tool(readDoc).tool(purge);

describe("Webtools metadata per scope set", () => {
  const describeAs = (path: string, token: string, headers: Record<string, string> = {}) =>
    server.fetch(new Request(`${BASE}${path}`, { headers: { ...bearer(token), ...headers } }));

  for (const path of ["/webtools/", "/webtools/0.9.0"]) {
    it(`${path}: each token sees the actions it may run, under its own ETag, privately`, async () => {
      const seen: Record<string, { actions: string[]; etag: string }> = {};
      for (const token of ["reader", "admin", "reader"]) { // the reader again: the admin's copy must not leak
        const response = await describeAs(path, token);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("cache-control"), "private, no-cache");
        assert.equal(response.headers.get("vary"), "authorization");
        const body = await response.json();
        seen[token] = {
          actions: body.actions.map((a: { name: string }) => a.name),
          etag: response.headers.get("etag")!,
        };
      }
      assert.deepEqual(seen.reader.actions, ["read_doc"]);
      assert.deepEqual(seen.admin.actions, ["read_doc", "purge"]);
      assert.notEqual(seen.reader.etag, seen.admin.etag);
      assert.equal((await describeAs(path, "reader", { "if-none-match": seen.reader.etag })).status, 304);
      assert.equal((await describeAs(path, "reader", { "if-none-match": seen.admin.etag })).status, 200);
      assert.equal((await describeAs(path, "admin", { "if-none-match": seen.admin.etag })).status, 304);
    });
  }

  it("a tool set without scopes keeps one public document", async () => {
    const open = createServer({ name: "open", version: "1.0.0", auth: opaqueAuth(), bindings: [webtoolsBinding()] })
      .tool(readDoc);
    const tags = new Set<string | null>();
    for (const token of ["reader", "admin"]) {
      const response = await open.fetch(new Request(`${BASE}/webtools/`, { headers: bearer(token) }));
      assert.equal(response.headers.get("cache-control"), "no-cache");
      tags.add(response.headers.get("etag"));
    }
    assert.equal(tags.size, 1);
  });

  it("running an action without its scope → 403 insufficient_scope (step-up)", async () => {
    const run = (token: string) => server.fetch(post("/webtools/", { action: "purge", request: {} }, bearer(token)));
    const refused = await run("reader");
    assert.equal(refused.status, 403);
    assert.equal(
      refused.headers.get("www-authenticate"),
      `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}/webtools/"`,
    );
    assert.deepEqual(await (await run("admin")).json(), { status: "ok", data: "purged" });
  });
});

const inProcess = (protocol: "connect" | "grpc-web", useBinaryFormat: boolean, useHttpGet = false): Transport =>
  inProcessTransport(server, protocol, useBinaryFormat, useHttpGet);

describe("gRPC GetTools per scope set", () => {
  const transports: [string, Transport][] = [
    ["Connect JSON (direct path)", inProcess("connect", false)],
    ["Connect binary (direct path)", inProcess("connect", true)],
    ["Connect GET (Connect's handler)", inProcess("connect", false, true)],
    ["gRPC-Web binary (Connect's handler)", inProcess("grpc-web", true)],
  ];
  for (const [label, transport] of transports) {
    it(`${label}: each token gets the tools it may call`, async () => {
      const client = createClient(MCPLite, transport);
      const names = async (token: string) =>
        (await client.getTools({}, { headers: bearer(token) })).tools.map((t) => t.name);
      assert.deepEqual(await names("reader"), ["read_doc"]);
      assert.deepEqual(await names("admin"), ["read_doc", "purge"]);
      assert.deepEqual(await names("reader"), ["read_doc"]); // the admin's cached list is not the reader's
      assert.deepEqual(await names("stranger"), ["read_doc"]);
    });
  }

  it("the Connect JSON answer, as curl sees it", async () => {
    const response = await server.fetch(post("/mcplite.MCPLite/GetTools", {}, bearer("reader")));
    assert.equal(response.status, 200);
    assert.deepEqual((await response.json()).tools.map((t: { name: string }) => t.name), ["read_doc"]);
  });
});

describe("gRPC on fetch: the step-up challenge comes from the refusal, whatever the HTTP status", () => {
  const STEP_UP =
    `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}/mcplite.MCPLite/CallTool"`;
  const transports: [string, Transport][] = [
    ["Connect JSON (403)", inProcess("connect", false)],
    ["Connect binary (403)", inProcess("connect", true)],
    ["gRPC-Web binary (200, the status in the trailers)", inProcess("grpc-web", true)],
  ];
  for (const [label, transport] of transports) {
    it(`${label}: PERMISSION_DENIED carries it in the metadata`, async () => {
      const client = createClient(MCPLite, transport);
      const refused = await rejection(client.callTool({ name: "purge" }, { headers: bearer("reader") }));
      assert.equal(refused.code, Code.PermissionDenied);
      assert.equal(refused.metadata.get("www-authenticate"), STEP_UP);
      const granted = await client.callTool({ name: "purge" }, { headers: bearer("admin") });
      assert.deepEqual(granted.result?.content, [{ type: "text", text: "purged" }]);
    });
  }
});

describe("a refusal that is not about scopes gets no challenge, though it is a 403", () => {
  it("a middleware's permission_denied", async () => {
    const guarded = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth() }).tool(readDoc)
      .use(() => {
        throw new ProtocolError(ErrorCode.PermissionDenied, "closed for maintenance");
      });
    const response = await guarded.fetch(
      post("/mcp-lite/v1/calltools", toolsCall("read_doc", { id: "1" }), bearer("reader")),
    );
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("www-authenticate"), null);
  });
});
