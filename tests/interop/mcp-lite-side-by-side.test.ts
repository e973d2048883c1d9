/**
 * The same composition and custom-error examples on `mcp-lite` 0.10 (installed from npm) and on ours,
 * answering the same MCP 2025-06-18 requests; the answers are compared where the protocols overlap.
 * The one planned difference: mcp-lite joins a group's prefix with `/`, ours with `.` (a tool name here
 * is `[A-Za-z0-9_.-]`), so names are compared with the separator swapped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { McpServer, RpcError, StreamableHttpTransport } from "mcp-lite";
import { createServer, defineTool } from "../../mod.ts";
import { ProtocolError } from "../../src/errors/mod.ts";

class UpstreamDown extends Error {}
const CloneInput = v.object({ url: v.string() });

/** mcp-lite's README examples: a git server grouped as `git`, a custom error, and onError. */
function theirs(): (request: Request) => Promise<Response> {
  const options = {
    version: "1.0.0",
    schemaAdapter: (schema: unknown) => toJsonSchema(schema as v.GenericSchema) as Record<string, unknown>,
  };
  const git = new McpServer({ name: "git", ...options })
    .tool("clone", {
      description: "Clones a repository",
      inputSchema: CloneInput,
      handler: ({ url }: { url: string }) => ({ content: [{ type: "text", text: `cloned ${url}` }] }),
    })
    .tool("quota", {
      description: "Always over quota",
      handler: () => {
        throw new RpcError(-32001, "Custom error", { reason: "quota" });
      },
    })
    .tool("upstream", {
      description: "Its upstream is down",
      handler: () => {
        throw new UpstreamDown("db refused");
      },
    });
  const app = new McpServer({ name: "app", ...options }).group("git", git);
  app.onError((error, ctx) => {
    if (error instanceof UpstreamDown) {
      return { code: -32050, message: "Upstream unavailable", data: { requestId: ctx.requestId } };
    }
  });
  return new StreamableHttpTransport().bind(app) as (request: Request) => Promise<Response>;
}

/** The same, with this SDK. */
function ours(): (request: Request) => Promise<Response> {
  const git = createServer({ name: "git", version: "1.0.0" })
    .tool(defineTool("clone").describe("Clones a repository").input(CloneInput).handle(({ url }) => `cloned ${url}`))
    .tool(
      defineTool("quota").describe("Always over quota").handle(() => {
        throw new ProtocolError(-32001, "Custom error", { data: { reason: "quota" } });
      }),
    )
    .tool(
      defineTool("upstream").describe("Its upstream is down").handle(() => {
        throw new UpstreamDown("db refused");
      }),
    );
  const app = createServer({
    name: "app",
    version: "1.0.0",
    onError: (error, call) => {
      if (error instanceof UpstreamDown) {
        return { code: -32050, message: "Upstream unavailable", data: { requestId: call?.ctx.meta.requestId } };
      }
    },
  }).group("git", git);
  return app.fetch;
}

/** Sends one MCP 2025-06-18 request, as a stateless client does, and reads its JSON-RPC answer. */
async function rpc(fetch: (request: Request) => Promise<Response>, method: string, params: unknown, id = 7) {
  const response = await fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    }),
  );
  const text = await response.text();
  return JSON.parse(
    text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6),
  );
}

const servers = { "mcp-lite 0.10": theirs(), "@mcplite/sdk": ours() };
const named = (name: string) => name.replace("/", ".");

describe("side by side with mcp-lite 0.10: composition", () => {
  it("lists the grouped tools under the same names (separator swapped), with the same schemas", async () => {
    const [a, b] = await Promise.all(Object.values(servers).map((fetch) => rpc(fetch, "tools/list", {})));
    const listed = (answer: { result: { tools: { name: string; description: string; inputSchema: unknown }[] } }) =>
      answer.result.tools.map((t) => ({ name: named(t.name), description: t.description }));
    assert.deepEqual(listed(a), [
      { name: "git.clone", description: "Clones a repository" },
      { name: "git.quota", description: "Always over quota" },
      { name: "git.upstream", description: "Its upstream is down" },
    ]);
    assert.deepEqual(listed(b), listed(a));
    const schema = (answer: typeof a) => answer.result.tools[0].inputSchema;
    assert.deepEqual(
      { ...schema(b), $schema: undefined, additionalProperties: undefined },
      { ...schema(a), $schema: undefined, additionalProperties: undefined },
    );
  });

  it("calls the grouped tool with the same result", async () => {
    const a = await rpc(servers["mcp-lite 0.10"], "tools/call", { name: "git/clone", arguments: { url: "r.git" } });
    const b = await rpc(servers["@mcplite/sdk"], "tools/call", { name: "git.clone", arguments: { url: "r.git" } });
    assert.deepEqual(b.result.content, a.result.content);
    assert.deepEqual(b.result.content, [{ type: "text", text: "cloned r.git" }]);
  });
});

describe("side by side with mcp-lite 0.10: custom errors", () => {
  it("answers a handler's custom code, message and data alike", async () => {
    const a = await rpc(servers["mcp-lite 0.10"], "tools/call", { name: "git/quota", arguments: {} });
    const b = await rpc(servers["@mcplite/sdk"], "tools/call", { name: "git.quota", arguments: {} });
    assert.deepEqual(a.error, { code: -32001, message: "Custom error", data: { reason: "quota" } });
    assert.deepEqual(b, a);
  });

  it("answers onError's replacement alike, with the request id", async () => {
    const a = await rpc(servers["mcp-lite 0.10"], "tools/call", { name: "git/upstream", arguments: {} }, 12);
    const b = await rpc(servers["@mcplite/sdk"], "tools/call", { name: "git.upstream", arguments: {} }, 12);
    assert.deepEqual(a.error, { code: -32050, message: "Upstream unavailable", data: { requestId: 12 } });
    assert.deepEqual(b, a);
  });
});
