/**
 * Lists whole by default: a server with 250 tools (and prompts, resources and templates past 100)
 * answers each list on one page, so a host that reads only the first page (the official v1 client's
 * `listTools()` does, unless the host follows `nextCursor` itself) sees every tool; the page is still
 * served with its `ETag` and answers `If-None-Match` with 304. With a page size set, our client still
 * reads every page of every list.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../../src/client/mod.ts";
import {
  createServer,
  definePrompt,
  defineResource,
  defineTool,
  mcpBinding,
  type McpOptions,
  serve,
} from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { modernRequest } from "../../helpers/request.ts";
import { modern } from "./mcp-helpers.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

const TOOLS = 250;
const OTHERS = 120;

function bigServer(options: McpOptions = {}) {
  const server = createServer({ name: "big", version: "1.0.0", bindings: [mcpBinding(options)] });
  for (let i = 0; i < TOOLS; i++) server.tool(defineTool(`tool_${i}`).describe(`Tool ${i}`).handle(() => "x"));
  for (let i = 0; i < OTHERS; i++) {
    server.prompt(definePrompt(`prompt_${i}`).describe(`Prompt ${i}`).get(() => "x"));
    server.resource(defineResource(`big://r${i}`).read(() => "x"));
    server.resource(defineResource(`big://t${i}/{x}`).read(() => "x"));
  }
  return server;
}

describe("lists whole by default", () => {
  let listener: Listener;
  before(async () => listener = await serve(bigServer(), { port: 0, hostname: "127.0.0.1", quiet: true }));
  after(() => listener.close());

  it("gives the official v1 client every tool, prompt, resource and template on one page", async () => {
    const client = new ClientV1({ name: "v1", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(`${listener.url.replace(/\/$/, "")}/mcp`)));
    try {
      const tools = await client.listTools();
      assert.equal(tools.tools.length, TOOLS);
      assert.equal(tools.nextCursor, undefined);
      assert.equal(tools.tools.at(-1)?.name, `tool_${TOOLS - 1}`);
      const prompts = await client.listPrompts();
      assert.equal(prompts.prompts.length, OTHERS);
      assert.equal(prompts.nextCursor, undefined);
      const resources = await client.listResources();
      assert.equal(resources.resources.length, OTHERS);
      assert.equal(resources.nextCursor, undefined);
      const templates = await client.listResourceTemplates();
      assert.equal(templates.resourceTemplates.length, OTHERS);
      assert.equal(templates.nextCursor, undefined);
    } finally {
      await client.close();
    }
  });

  it("serves the one page with its ETag, and 304 while the list is unchanged", async () => {
    const server = bigServer();
    const first = await modern(server, "tools/list");
    assert.equal(first.body.result.tools.length, TOOLS);
    assert.equal(first.body.result.nextCursor, undefined);
    const etag = first.headers.get("etag");
    assert.match(etag ?? "", /^W\/".+"$/);
    const again = await server.fetch(modernRequest("tools/list", {}, 2, { "if-none-match": etag! }));
    assert.equal(again.status, 304);
    assert.equal(await again.text(), "");
    server.tool(defineTool("one_more").handle(() => "x"));
    const changed = await modern(server, "tools/list", {}, { "if-none-match": etag! });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.result.tools.length, TOOLS + 1);
    assert.notEqual(changed.headers.get("etag"), etag);
  });

  it("pages when the server sets a page size", async () => {
    const { body } = await modern(bigServer({ pageSize: 100 }), "tools/list");
    assert.equal(body.result.tools.length, 100);
    assert.equal(typeof body.result.nextCursor, "string");
  });

  it("refuses a page size that is not a positive integer", () => {
    for (const pageSize of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => mcpBinding({ pageSize }), /mcp.pageSize must be a positive integer/);
    }
  });
});

describe("our client reads every page of every list", () => {
  for (const protocolVersion of ["2026-07-28", "2025-11-25"] as const) {
    it(`follows nextCursor through small pages (${protocolVersion})`, async () => {
      // 125 pages of tools: more than any fixed page bound a client might keep.
      const server = bigServer({ pageSize: 2 });
      const client = createClient("http://localhost/mcp", { fetch: (r) => server.fetch(r), protocolVersion });
      const tools = await client.listTools();
      assert.equal(tools.length, TOOLS);
      assert.equal(new Set(tools.map((t) => t.name)).size, TOOLS);
      assert.equal((await client.listPrompts()).length, OTHERS);
      assert.equal((await client.listResources()).length, OTHERS);
      assert.equal((await client.listResourceTemplates()).length, OTHERS);
      await client.close();
    });
  }

  it("fails a server that sends the same cursor twice, instead of looping", async () => {
    // A server whose prompts/list answers every cursor with its first page and the same next cursor.
    const server = bigServer({ pageSize: 50 });
    const looping = async (request: Request) => {
      const rpc = await request.clone().json();
      if (rpc.method !== "prompts/list") return server.fetch(request);
      const reply = await (await server.fetch(modernRequest("prompts/list", {}, rpc.id))).json();
      return Response.json({ ...reply, result: { ...reply.result, nextCursor: "again" } });
    };
    const client = createClient("http://localhost/mcp", { fetch: looping, protocolVersion: "2026-07-28" });
    await assert.rejects(client.listPrompts(), /prompts\/list: the server sent the cursor "again" twice/);
    await client.close();
  });
});
