/**
 * `SUPPORTED_PROTOCOL_VERSIONS` and `createServer({ protocolVersions })`: the MCP revisions as data,
 * and a server narrowed to some of them, seen by raw requests, our client and the official v2 client.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { createServer, defineTool, serve, SUPPORTED_PROTOCOL_VERSIONS } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { Listener } from "../../src/types.ts";
import { legacyRequest, modernRequest } from "../helpers/request.ts";

const echo = defineTool("echo").input(v.object({ text: v.string() })).handle(({ text }) => text);
const narrowed = (versions: Parameters<typeof createServer>[0]["protocolVersions"]) =>
  createServer({ name: "v", version: "1.0.0", protocolVersions: versions }).tool(echo);

describe("SUPPORTED_PROTOCOL_VERSIONS", () => {
  it("lists every revision served, newest first, and is frozen", () => {
    assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, [
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    assert.ok(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS));
  });

  it("is what a server serves by default: discover and initialize", async () => {
    const server = createServer({ name: "v", version: "1.0.0" });
    const discovered = await (await server.fetch(modernRequest("server/discover"))).json();
    assert.deepEqual(discovered.result.supportedVersions, ["2026-07-28"]);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS.slice(1)) {
      const init = await (await server.fetch(legacyRequest("initialize", { protocolVersion: version }))).json();
      assert.equal(init.result.protocolVersion, version);
    }
  });
});

describe("createServer({ protocolVersions })", () => {
  it("refuses a revision it does not list with -32022 naming those it serves, and offers the newest listed", async () => {
    const server = narrowed(["2025-06-18", "2025-03-26"]);
    const modern = await (await server.fetch(modernRequest("tools/list"))).json();
    assert.equal(modern.error.code, -32022);
    assert.deepEqual(modern.error.data, {
      code: "unsupported_version",
      supported: ["2025-06-18", "2025-03-26"],
      requested: "2026-07-28",
    });
    const init = await (await server.fetch(legacyRequest("initialize", { protocolVersion: "2025-11-25" }))).json();
    assert.equal(init.result.protocolVersion, "2025-06-18"); // MCP 2025-11-25, Lifecycle: the server offers its own
    const header = await (await server.fetch(legacyRequest("tools/list", {}, 2, "2025-11-25"))).json();
    assert.equal(header.error.code, -32022);
    const served = await (await server.fetch(legacyRequest("tools/list", {}, 3, "2025-06-18"))).json();
    assert.deepEqual(served.result.tools.map((t: { name: string }) => t.name), ["echo"]);
  });

  it("a 2026-only server refuses initialize, and discover lists only 2026-07-28", async () => {
    const server = narrowed(["2026-07-28"]);
    const init = await (await server.fetch(legacyRequest("initialize", { protocolVersion: "2025-11-25" }))).json();
    assert.equal(init.error.code, -32022);
    assert.deepEqual(init.error.data.supported, ["2026-07-28"]);
    const discovered = await (await server.fetch(modernRequest("server/discover"))).json();
    assert.deepEqual(discovered.result.supportedVersions, ["2026-07-28"]);
  });

  it("refuses an empty list and a revision it cannot serve, at creation", () => {
    assert.throws(() => narrowed([]), /at least one/);
    assert.throws(() => narrowed(["2023-01-01" as never]), /"2023-01-01" is not a served MCP revision/);
  });

  describe("over HTTP, with real clients", () => {
    let listener: Listener;
    before(async () => listener = await serve(narrowed(["2025-06-18"]), { port: 0, hostname: "127.0.0.1" }));
    after(async () => await listener.close());

    it("our client falls back to the revision the server lists", async () => {
      const client = createClient(`${listener.url}/mcp`);
      try {
        assert.equal(await client.call("echo", { text: "hi" }), "hi");
      } finally {
        await client.close();
      }
    });

    it("the official v2 client negotiates 2025-06-18", async () => {
      const client = new ClientV2({ name: "v2", version: "2.4.0" });
      const transport = new HttpV2(new URL(`${listener.url}/mcp`));
      await client.connect(transport);
      try {
        assert.equal(transport.protocolVersion, "2025-06-18");
        const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
        assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
      } finally {
        await client.close();
      }
    });
  });
});
