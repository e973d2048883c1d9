import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineTool, mcpBinding } from "../../../mod.ts";
import { legacyRequest, modernRequest } from "../../helpers/request.ts";
import { legacy, mcpServer, modern } from "./mcp-helpers.ts";

describe("caching hints on the wire", () => {
  it("puts ttlMs and cacheScope in every 2026 list body and maps them to Cache-Control", async () => {
    const server = mcpServer();
    for (
      const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list", "server/discover"]
    ) {
      const { body, headers } = await modern(server, method);
      assert.equal(body.result.ttlMs, 0, method);
      assert.equal(body.result.cacheScope, "public", method);
      assert.equal(headers.get("cache-control"), "public, no-cache", method);
      assert.match(headers.get("etag") ?? "", /^W\/".+"$/, method);
    }
  });

  it("uses the server's list hint and a resource's own read hint", async () => {
    const server = mcpServer({ bindings: [mcpBinding({ listCache: { ttlMs: 60_000, scope: "private" } })] });
    const list = await modern(server, "tools/list");
    assert.equal(list.headers.get("cache-control"), "private, max-age=60");
    assert.equal(list.body.result.ttlMs, 60_000);
    const read = await modern(server, "resources/read", { uri: "docs://readme" });
    assert.equal(read.headers.get("cache-control"), "public, max-age=60");
    assert.equal(read.body.result.ttlMs, 60_000);
    assert.equal(read.body.result.cacheScope, "public");
    const fallback = await modern(server, "resources/read", { uri: "users://bob/profile" });
    assert.equal(fallback.headers.get("cache-control"), "private, no-cache");
    assert.equal(fallback.body.result.cacheScope, "private");
  });

  it("keeps 2025 bodies free of hints but still sends the HTTP headers", async () => {
    const server = mcpServer();
    const { body, headers } = await legacy(server, "resources/read", { uri: "docs://readme" });
    assert.equal(body.result.ttlMs, undefined);
    assert.equal(headers.get("cache-control"), "public, max-age=60");
  });

  it("rejects invalid hints when the binding or resource is defined", () => {
    assert.throws(() => mcpBinding({ listCache: { ttlMs: -1, scope: "public" } }), TypeError);
    assert.throws(() => mcpBinding({ readCache: { ttlMs: 1, scope: "shared" as "public" } }), TypeError);
  });
});

describe("ETag and 304 on list bodies", () => {
  it("answers If-None-Match with 304 and no body while the list is unchanged", async () => {
    const server = mcpServer();
    const first = await modern(server, "tools/list", {}, {}, 1);
    const etag = first.headers.get("etag")!;
    const again = await modern(server, "tools/list", {}, {}, 2);
    assert.equal(again.headers.get("etag"), etag, "the tag does not depend on the request id");
    for (const header of [etag, etag.slice(2), `"other", ${etag}`, "*"]) {
      const response = await server.fetch(modernRequest("tools/list", {}, 3, { "if-none-match": header }));
      assert.equal(response.status, 304, header);
      assert.equal(response.headers.get("etag"), etag);
      assert.equal(await response.text(), "");
    }
  });

  it("changes the tag when the list changes", async () => {
    const server = mcpServer();
    const before = (await modern(server, "tools/list")).headers.get("etag")!;
    server.tool(defineTool("added").describe("New").handle(() => "new"));
    const response = await server.fetch(modernRequest("tools/list", {}, 1, { "if-none-match": before }));
    assert.equal(response.status, 200);
    assert.notEqual(response.headers.get("etag"), before);
    const { result } = await response.json();
    assert.ok(result.tools.some((t: { name: string }) => t.name === "added"));
  });

  it("tags each era's body on its own (the 2025 body has no hints)", async () => {
    const server = mcpServer();
    const modernTag = (await modern(server, "prompts/list")).headers.get("etag");
    const legacyTag = (await legacy(server, "prompts/list")).headers.get("etag");
    assert.notEqual(modernTag, legacyTag);
    const response = await server.fetch(
      legacyRequest("prompts/list", {}, 1, "2025-11-25", { "if-none-match": legacyTag! }),
    );
    assert.equal(response.status, 304);
  });
});
