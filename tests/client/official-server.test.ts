/**
 * The client against a server nobody here wrote: the official MCP server SDK
 * (`@modelcontextprotocol/server` 2.4.0), served by its own web-standard handlers. 2026-07-28 through
 * `createMcpHandler` (MRTR input rounds included), its stateless 2025 fallback, and a sessionful
 * 2025 server (`WebStandardStreamableHTTPServerTransport`) that sends elicitation and sampling
 * requests on the call's SSE stream.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { createClient } from "../../src/client/mod.ts";
import { ProtocolError, ToolError } from "../../src/errors/mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const schema = (s: v.GenericSchema): Any => toStandardJsonSchema(s as Any);

/** The requests the client sent, as the server saw them. */
interface Seen {
  method: string;
  id: unknown;
  params: Record<string, unknown>;
  headers: Headers;
}

function official() {
  const server: Any = new McpServer({ name: "official", version: "2.4.0" });
  server.registerTool("add", {
    description: "Adds two numbers",
    inputSchema: schema(v.object({ a: v.number(), b: v.number() })),
    outputSchema: schema(v.object({ sum: v.number() })),
  }, ({ a, b }: Any) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }));
  server.registerTool(
    "boom",
    { description: "Fails" },
    () => ({ content: [{ type: "text", text: "it broke" }], isError: true }),
  );
  server.registerTool("progress", { description: "Reports progress" }, async (ctx: Any) => {
    for (let i = 1; i <= 3; i++) {
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken: ctx.mcpReq._meta?.progressToken, progress: i, total: 3 },
      });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool(
    "deploy",
    { description: "Asks first", inputSchema: schema(v.object({ env: v.string() })) },
    ({ env }: Any, ctx: Any) => {
      if (acceptedContent(ctx.mcpReq.inputResponses, "confirm")?.ok !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
            }),
          },
          requestState: `{"env":"${env}","n":1}`,
        });
      }
      return { content: [{ type: "text", text: `deployed to ${env}` }] };
    },
  );
  return server;
}

function handler(seen: Seen[] = []) {
  const mcp = createMcpHandler(() => official());
  return async (request: Request): Promise<Response> => {
    const body = JSON.parse(await request.clone().text());
    seen.push({ method: body.method, id: body.id, params: body.params ?? {}, headers: request.headers });
    return await mcp.fetch(request);
  };
}

/** Fails unless every request the server saw was on `revision` (MCP 2026-07-28, Transports). */
function assertRevision(seen: Seen[], revision: string): void {
  assert.deepEqual([...new Set(seen.map((s) => s.headers.get("mcp-protocol-version")))], [revision]);
}

describe("client against the official MCP server SDK, 2026-07-28", () => {
  it("probes, lists and calls with the envelope and the standard headers", async () => {
    const seen: Seen[] = [];
    const client = createClient("http://localhost/mcp", {
      fetch: handler(seen),
      clientInfo: { name: "t", version: "1" },
    });
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["add", "boom", "progress", "deploy"]);
    assert.deepEqual(await client.call("add", { a: 2, b: 3 }), { sum: 5 });
    assert.deepEqual(seen.map((s) => s.method), ["server/discover", "tools/list", "tools/call"]);
    for (const request of seen) {
      assert.equal(request.headers.get("mcp-protocol-version"), "2026-07-28");
      assert.equal(request.headers.get("mcp-method"), request.method);
      const meta = request.params._meta as Record<string, unknown>;
      assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], { name: "t", version: "1" });
    }
    assert.equal(seen[2].headers.get("mcp-name"), "add");
  });

  it("turns isError into a ToolError and an unknown tool into a ProtocolError unknown_tool", async () => {
    const seen: Seen[] = [];
    const client = createClient("http://localhost/mcp", { fetch: handler(seen) });
    await assert.rejects(
      client.call("boom", {}),
      (e: unknown) => e instanceof ToolError && e.message === "it broke",
    );
    await assert.rejects(
      client.call("nope", {}),
      (e: unknown) => e instanceof ProtocolError && e.code === "unknown_tool" && e.rpcCode === -32602,
    );
    assertRevision(seen, "2026-07-28");
  });

  it("answers an input_required round and retries with a new id and the exact requestState", async () => {
    const seen: Seen[] = [];
    const messages: string[] = [];
    const client = createClient("http://localhost/mcp", {
      fetch: handler(seen),
      onElicit: (request) => {
        messages.push(request.message);
        return { action: "accept", content: { ok: true } };
      },
    });
    assert.equal(await client.call("deploy", { env: "prod" }), "deployed to prod");
    assert.deepEqual(messages, ["Deploy to prod?"]);
    const calls = seen.filter((s) => s.method === "tools/call");
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0].id, calls[1].id);
    assert.equal(calls[0].params.requestState, undefined);
    assert.equal(calls[1].params.requestState, '{"env":"prod","n":1}');
    assert.deepEqual(calls[1].params.inputResponses, { confirm: { action: "accept", content: { ok: true } } });
    assert.deepEqual(calls[1].params.arguments, { env: "prod" });
    const capabilities =
      (calls[0].params._meta as Record<string, Record<string, unknown>>)["io.modelcontextprotocol/clientCapabilities"];
    assert.deepEqual(capabilities.elicitation, {});
    assertRevision(seen, "2026-07-28");
  });

  it("delivers progress notifications from the call's SSE stream", async () => {
    const seen: Seen[] = [];
    const client = createClient("http://localhost/mcp", { fetch: handler(seen) });
    const progress: number[] = [];
    assert.equal(await client.call("progress", {}, { onProgress: (p) => progress.push(p.progress) }), "done");
    assert.deepEqual(progress, [1, 2, 3]);
    assertRevision(seen, "2026-07-28");
  });
});

describe("client against the official MCP server SDK, 2025-11-25", () => {
  it("speaks the stateless 2025 fallback when asked for 2025-11-25", async () => {
    const seen: Seen[] = [];
    const client = createClient("http://localhost/mcp", { fetch: handler(seen), protocolVersion: "2025-11-25" });
    assert.deepEqual(await client.call("add", { a: 1, b: 2 }), { sum: 3 });
    await assert.rejects(client.call("boom", {}), ToolError);
    assert.equal(seen[0].method, "initialize");
    assert.equal(seen[0].params.protocolVersion, "2025-11-25");
    assert.equal(seen[1].method, "notifications/initialized");
    assert.equal(seen.at(-1)!.headers.get("mcp-protocol-version"), "2025-11-25");
    await client.close();
  });

  it("falls back to initialize against a sessionful 2025 server, and answers its elicitation and sampling", async () => {
    const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
    const methods: string[] = [];
    const versions = new Set<string | null>(); // MCP-Protocol-Version after initialize (MCP 2025-11-25, Transports)
    let offered: unknown;
    const fetcher = async (request: Request): Promise<Response> => {
      const body = request.method === "POST" ? JSON.parse(await request.clone().text()) : undefined;
      if (body?.method === "initialize") offered = body.params.protocolVersion;
      else if (offered !== undefined) versions.add(request.headers.get("mcp-protocol-version"));
      methods.push(`${request.method} ${body === undefined ? "" : body.method ?? "response"}`);
      const id = request.headers.get("mcp-session-id");
      const known = id === null ? undefined : sessions.get(id);
      if (known) return await known.handleRequest(request);
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid: string) => void sessions.set(sid, transport),
      });
      const server: Any = new McpServer({ name: "sessions", version: "2.4.0" });
      server.registerTool("ask", { description: "Asks the user, then a model" }, async (ctx: Any) => {
        const answer = await ctx.mcpReq.elicitInput({
          mode: "form",
          message: "Name?",
          requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } },
        });
        const sampled = await ctx.mcpReq.requestSampling({
          messages: [{ role: "user", content: { type: "text", text: "hi" } }],
          maxTokens: 5,
        });
        return {
          content: [{ type: "text", text: `${answer.action}:${answer.content?.name}:${sampled.content.text}` }],
        };
      });
      await server.connect(transport);
      return await transport.handleRequest(request);
    };
    const client = createClient("http://localhost/mcp", {
      fetch: fetcher,
      onElicit: () => ({ action: "accept", content: {} }), // the name comes from the schema's default
      onSample: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "test" }),
    });
    assert.equal(await client.call("ask", {}), "accept:Ada:sampled");
    assert.equal(methods[0], "POST server/discover");
    assert.ok(methods.includes("POST initialize"));
    assert.ok(methods.filter((m) => m === "POST response").length >= 2, "answers POSTed back");
    assert.equal(offered, "2025-11-25");
    assert.deepEqual([...versions], ["2025-11-25"], "every request after initialize on 2025-11-25");
    await client.close();
    assert.equal(methods.at(-1), "DELETE ");
  });
});
