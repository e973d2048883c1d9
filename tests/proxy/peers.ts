/**
 * Remote servers nobody here wrote, for the proxy's tests: the official SDK v1 (Streamable HTTP, with
 * sessions), the SDK v2 (2026-07-28, `createMcpHandler`) and fiberplane's mcp-lite, each served on
 * 127.0.0.1; each has `add` (with an output schema) and `wait` (which waits for its abort signal and
 * counts the aborts it saw, read back with `aborts`); v1's `grow` adds a tool `late` to its session; v2's `chatty`
 * logs at four levels, and its `pictured`, `card`, `logo` and `page:///{name}` have icons and results with `_meta`;
 * v2's `declared` answers the client capabilities its request carried, and `roots` the roots it asked for.
 */
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import * as v from "valibot";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer as V2Server,
  ResourceTemplate as V2Template,
} from "@modelcontextprotocol/server";
import { McpServer as LiteServer, StreamableHttpTransport } from "mcp-lite";
import { serve } from "../../src/server/serve.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

// The v1 SDK's `.js` subpaths, imported by a computed specifier: Deno's checker does not resolve them.
const V1 = "@modelcontextprotocol/sdk";
const { McpServer: V1Server, ResourceTemplate } = await import(`${V1}/server/mcp.js`) as Any;
const { StreamableHTTPServerTransport } = await import(`${V1}/server/streamableHttp.js`) as Any;

/** The icon the v2 peer's tool, prompt, resource and template list (MCP 2025-11-25, `Icon`). */
export const ICON = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };
/** An icon no client should be handed: an image over plain HTTP from a host that is not this machine. */
const UNSAFE_ICON = { src: "http://example.com/icon.png", mimeType: "image/png" };

/** A peer on 127.0.0.1. */
export interface Peer {
  /** Its endpoint. */
  readonly url: string;
  /** The aborts its `wait` tool saw. */
  readonly aborts: () => number;
  /** The calls of its `wait` tool that started waiting. */
  readonly waits: () => number;
  /** The `traceparent` headers of the requests it received. */
  readonly traceparents: string[];
  /** The `Authorization` headers of the requests it received. */
  readonly authorizations: string[];
  /** Stops it. */
  close(): Promise<void>;
}

/** What a peer's `wait` tool saw: the calls that started waiting, and the aborts. */
interface Counter {
  n: number;
  started: number;
}

/** Waits for the signal, counting the wait and the abort. */
function waitForAbort(signal: AbortSignal, counter: Counter): Promise<never> {
  counter.started++;
  return new Promise((_, reject) => {
    const stop = () => {
      counter.n++;
      reject(new Error("aborted"));
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

function v1Server(counter: Counter): Any {
  const server: Any = new V1Server({ name: "sdk-v1", version: "1.32.2" }, { capabilities: { logging: {} } });
  server.registerTool("add", {
    description: "Adds two numbers",
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
  }, ({ a, b }: Any) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }));
  server.registerTool("wait", { description: "Waits until cancelled" }, async (extra: Any) => {
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken: extra._meta?.progressToken ?? 0, progress: 1, total: 2 },
    }).catch(() => {});
    return await waitForAbort(extra.signal, counter);
  });
  server.registerTool("chatty", { description: "Logs, then answers" }, async (extra: Any) => {
    await extra.sendNotification({
      method: "notifications/message",
      params: { level: "warning", logger: "chatty", data: "disk almost full" },
    });
    return { content: [{ type: "text", text: "done" }] };
  });
  // Registers `late` (once): the SDK tells the session's standalone stream `notifications/tools/list_changed`.
  server.registerTool("grow", { description: "Adds the tool late" }, () => {
    if (server._registeredTools.late === undefined) {
      server.registerTool("late", { description: "Registered later" }, () => ({
        content: [{ type: "text", text: "late answer" }],
      }));
    }
    return { content: [{ type: "text", text: "grown" }] };
  });
  server.registerPrompt(
    "greet",
    { description: "Greets", argsSchema: { name: z.string() } },
    ({ name }: Any) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}` } }] }),
  );
  server.registerResource(
    "readme",
    "docs://readme",
    { mimeType: "text/markdown", description: "The readme" },
    (uri: URL) => ({ contents: [{ uri: uri.href, text: "# Readme" }] }),
  );
  server.registerResource(
    "file",
    new ResourceTemplate("file:///{name}", {
      list: undefined,
      complete: { name: (value: string) => ["alpha", "beta"].filter((n) => n.startsWith(value)) },
    }),
    { description: "A file" },
    (uri: URL, { name }: Any) => ({ contents: [{ uri: uri.href, text: `contents of ${name}` }] }),
  );
  return server;
}

/** The official SDK v1 (1.32) over Streamable HTTP with sessions (MCP 2025-11-25, Transports). */
export async function sdkV1Peer(): Promise<Peer> {
  const counter: Counter = { n: 0, started: 0 };
  const traceparents: string[] = [];
  const authorizations: string[] = [];
  const sessions = new Map<string, Any>();
  const http = createHttpServer(async (req, res) => {
    const tp = req.headers.traceparent;
    if (typeof tp === "string") traceparents.push(tp);
    if (typeof req.headers.authorization === "string") authorizations.push(req.headers.authorization);
    const body = req.method === "POST" ? JSON.parse(await readBody(req)) : undefined;
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (body?.method !== "initialize") {
        res.writeHead(typeof id === "string" ? 404 : 400).end();
        return;
      }
      const created: Any = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid: string) => void sessions.set(sid, created),
      });
      transport = created;
      await v1Server(counter).connect(created);
    }
    await transport.handleRequest(req as Any, res as Any, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    aborts: () => counter.n,
    waits: () => counter.started,
    traceparents,
    authorizations,
    close: async () => {
      for (const t of sessions.values()) await t.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => text += chunk);
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/**
 * The official SDK v2 (2.4), stateless 2026-07-28 through `createMcpHandler`, served on 127.0.0.1; its
 * `subtract` tool is served while `extra.on` is set; `httpServer` as `serve()` takes it.
 */
export async function sdkV2Peer(port = 0, httpServer?: "node:http"): Promise<Peer & { extra: { on: boolean } }> {
  const extra = { on: false };
  const counter: Counter = { n: 0, started: 0 };
  const traceparents: string[] = [];
  const authorizations: string[] = [];
  const schema = (s: v.GenericSchema): Any => toStandardJsonSchema(s as Any);
  const mcp = createMcpHandler(() => {
    const server: Any = new V2Server({ name: "sdk-v2", version: "2.4.0" }, { capabilities: { logging: {} } });
    server.registerTool("add", {
      description: "Adds two numbers",
      inputSchema: schema(v.object({ a: v.number(), b: v.number() })),
      outputSchema: schema(v.object({ sum: v.number() })),
    }, ({ a, b }: Any) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }));
    server.registerTool(
      "wait",
      { description: "Waits until cancelled" },
      (ctx: Any) => waitForAbort(ctx.mcpReq.signal, counter),
    );
    server.registerTool("fail", { description: "Fails" }, () => ({
      content: [{ type: "text", text: "it broke" }],
      isError: true,
    }));
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
            requestState: JSON.stringify({ env }),
          });
        }
        return { content: [{ type: "text", text: `deployed to ${env}` }] };
      },
    );
    // What the request declared (MCP 2026-07-28 capabilities go with each request), and the roots it is asked for.
    server.registerTool("declared", { description: "Answers the request's client capabilities" }, (ctx: Any) => ({
      content: [{
        type: "text",
        text: JSON.stringify(ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"] ?? null),
      }],
    }));
    server.registerTool("roots", { description: "Asks for the client's roots" }, (ctx: Any) => {
      const answered = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (answered.kind !== "roots") {
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() }, requestState: "roots" });
      }
      return { content: [{ type: "text", text: answered.roots.map((r: Any) => r.uri).join(" ") }] };
    });
    // Logs at four levels, each sent only as far as the request's own `_meta` log level allows (MCP 2026-07-28).
    server.registerTool("chatty", { description: "Logs at four levels, then answers" }, async (ctx: Any) => {
      for (const level of ["debug", "info", "warning", "error"]) await ctx.mcpReq.log(level, `${level} line`, "chatty");
      return { content: [{ type: "text", text: "done" }] };
    });
    // Icons (one a client should not be handed: `http:` off loopback) and a result's own `_meta`.
    server.registerTool("pictured", { description: "Has icons", icons: [ICON, UNSAFE_ICON] }, () => ({
      content: [{ type: "text", text: "a picture" }],
      _meta: { "example.com/cost": 3 },
    }));
    server.registerPrompt(
      "card",
      { description: "A card", icons: [ICON] },
      () => ({
        messages: [{ role: "user", content: { type: "text", text: "a card" } }],
        _meta: { "example.com/deck": 1 },
      }),
    );
    server.registerResource(
      "logo",
      "docs://logo",
      { mimeType: "text/plain", icons: [ICON] },
      (uri: URL) => ({ contents: [{ uri: uri.href, text: "logo" }], _meta: { "example.com/etag": "v1" } }),
    );
    server.registerResource(
      "page",
      new V2Template("page:///{name}", { list: undefined }),
      { description: "A page", icons: [ICON] },
      (uri: URL) => ({ contents: [{ uri: uri.href, text: "page" }] }),
    );
    if (extra.on) {
      server.registerTool("subtract", {
        description: "Subtracts",
        inputSchema: schema(v.object({ a: v.number(), b: v.number() })),
      }, ({ a, b }: Any) => ({ content: [{ type: "text", text: String(a - b) }] }));
    }
    return server;
  });
  const listener = await serve({
    fetch: (request: Request) => {
      const tp = request.headers.get("traceparent");
      if (tp !== null) traceparents.push(tp);
      const authorization = request.headers.get("authorization");
      // The proxy's own `subscriptions/listen` stream (its credentials, opened in the background) is not a call's.
      const listen = request.headers.get("mcp-method") === "subscriptions/listen";
      if (authorization !== null && !listen) authorizations.push(authorization);
      return mcp.fetch(request);
    },
  }, { port, hostname: "127.0.0.1", quiet: true, httpServer });
  return {
    url: `${listener.url}/mcp`,
    aborts: () => counter.n,
    waits: () => counter.started,
    traceparents,
    authorizations,
    extra,
    close: () => listener.close(),
  };
}

/** fiberplane's mcp-lite (the package `mcp-lite`), Streamable HTTP, served on 127.0.0.1. */
export async function mcpLitePeer(port = 0): Promise<Peer> {
  const traceparents: string[] = [];
  const authorizations: string[] = [];
  const server = new LiteServer({
    name: "mcp-lite",
    version: "1.0.0",
    schemaAdapter: (s: unknown) => toJsonSchema(s as v.GenericSchema) as Record<string, unknown>,
  }).tool("add", {
    description: "Adds two numbers",
    inputSchema: v.object({ a: v.number(), b: v.number() }),
    handler: ({ a, b }: { a: number; b: number }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  });
  const handle = new StreamableHttpTransport().bind(server) as (request: Request) => Promise<Response>;
  const listener = await serve({
    fetch: (request: Request) => {
      const tp = request.headers.get("traceparent");
      if (tp !== null) traceparents.push(tp);
      const authorization = request.headers.get("authorization");
      if (authorization !== null) authorizations.push(authorization);
      return handle(request);
    },
  }, { port, hostname: "127.0.0.1", quiet: true });
  return {
    url: `${listener.url}/mcp`,
    aborts: () => 0,
    waits: () => 0,
    traceparents,
    authorizations,
    close: () => listener.close(),
  };
}
