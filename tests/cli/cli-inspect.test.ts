/**
 * `mcplite inspect` against a server that speaks only the 2025 revisions: the official TypeScript
 * SDK's v1 `McpServer` (`@modelcontextprotocol/sdk` 1.32) over Streamable HTTP. Who the server is
 * comes from its `initialize` answer, and each argument's constraints are printed. Against our server
 * with no prompts, at its bare origin (tools over MCP-lite), the prompts section says there are none.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { createServer, defineTool, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import { runCli } from "./cli-helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load them by a computed specifier, as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { McpServer } = await import(`${V1}/server/mcp.js`) as { McpServer: new (...args: Any[]) => Any };
const { WebStandardStreamableHTTPServerTransport } = await import(`${V1}/server/webStandardStreamableHttp.js`) as {
  WebStandardStreamableHTTPServerTransport: new (options: Any) => Any;
};

/** One v1 server with one session transport: enough for one CLI run at a time. */
function officialV1(): { fetch(request: Request): Promise<Response> } {
  let transport: Any;
  return {
    async fetch(request) {
      // Bun's server holds a streamed response's headers until its first chunk, and this server writes
      // nothing on its standalone GET stream: offer none (405, as MCP 2025-11-25 Transports allows).
      if (request.method === "GET") return new Response(null, { status: 405 });
      if (transport === undefined || request.method === "POST" && !request.headers.has("mcp-session-id")) {
        const server = new McpServer({ name: "official-v1", title: "Official v1", version: "1.32.2" });
        server.registerTool("book", {
          description: "Books seats",
          inputSchema: {
            seats: z.number().int().min(1).max(8),
            cabin: z.enum(["economy", "business"]),
            code: z.string().regex(/^[A-Z]{3}$/),
          },
        }, ({ seats }: Any) => ({ content: [{ type: "text", text: `booked ${seats}` }] }));
        transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
        await server.connect(transport);
      }
      return await transport.handleRequest(request);
    },
  };
}

describe("mcplite inspect against a 2025-only server (official SDK v1)", () => {
  let listener: Listener;
  before(async () => {
    listener = await serve(officialV1(), { port: 0, hostname: "127.0.0.1" });
  });
  after(async () => {
    await listener.close();
  });

  it("shows the serverInfo from initialize, and each argument's constraints", async () => {
    const run = await runCli(["inspect", `${listener.url}/mcp`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Server {2}Official v1 1\.32\.2$/m);
    assert.match(run.stdout, /^Wire {4}mcp \(2025-\d\d-\d\d\)$/m);
    assert.match(run.stdout, /^ {6}seats +integer, minimum 1, maximum 8, required$/m);
    assert.match(run.stdout, /^ {6}cabin +string, one of "economy", "business", required$/m);
    assert.match(run.stdout, /^ {6}code +string, pattern \^\[A-Z\]\{3\}\$, required$/m);
  });

  it("client.discover() gives what initialize told", async () => {
    const client = createClient(`${listener.url}/mcp`);
    try {
      const server = await client.discover();
      assert.deepEqual(server?.serverInfo, { name: "official-v1", title: "Official v1", version: "1.32.2" });
      assert.match(String(server?.protocolVersion), /^2025-/);
    } finally {
      await client.close();
    }
  });
});

describe("mcplite inspect against a server without prompts", () => {
  it("says there are none, not that the reply was unexpected", async () => {
    const server = createServer({ name: "plain", version: "1.0.0" })
      .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const run = await runCli(["inspect", listener.url]);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /Unexpected reply/);
      assert.match(run.stdout, /^Prompts: none \(Method not found: this server defines no prompts\)$/m);
    } finally {
      await listener.close();
    }
  });
});
