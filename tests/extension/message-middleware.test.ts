/**
 * Message middleware (an extension's `.intercept()`, an anonymous one's for the server's own, `createClient(…, { intercept })`): a full
 * session seen by the server's middleware and the client's, every message both ways, asserted exactly, over HTTP on
 * 2026-07-28 and 2025-11-25 (JSON and SSE answers, the 2025 elicitation request and its answer), stdio (the server a
 * child process) and a WebSocket (MCP-lite's JSON-RPC). Then what a middleware may do: replace a message, answer a
 * request itself, and throw (the server keeps serving).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineExtension, defineTool, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import type { Listener, MessageMiddleware } from "../../src/types.ts";
import { initializedSession, runtimeCommand } from "../helpers/stdio.ts";
import { bearer, opaqueAuth, RESOURCE } from "../helpers/opaque-auth.ts";
import { recorder, transcriptServer } from "./message-middleware-server.ts";

const CHILD = fileURLToPath(new URL("./message-middleware-server.ts", import.meta.url));

/** A message as both the server's middleware (an anonymous extension served first) and then the extension's see it. */
const both = (line: string) => [`server ${line}`, `ext ${line}`];

/** What a session does: lists the tools, calls `add` with progress, then `confirm`, which asks the user. */
async function session(client: ReturnType<typeof createClient>, asks = true): Promise<void> {
  await client.listTools();
  const progress: number[] = [];
  assert.equal(String(await client.call("add", { a: 1, b: 2 }, { onProgress: (p) => progress.push(p.progress) })), "3");
  assert.deepEqual(progress, [1]);
  if (asks) assert.equal(await client.call("confirm", {}), "confirmed");
}

const INTERNAL = { code: -32603, message: "Internal error", data: { code: "internal" } };
const accept = () => ({ action: "accept" as const, content: { ok: true } });

/** The session's messages on 2026-07-28: the probe, the list, a call that streams, a call with an input round. */
function modern(t: "http" | "stdio", sse: "sse" | "stdio") {
  return {
    client: [
      `out ${t} server/discover request`,
      `in ${t} server/discover result`,
      `out ${t} tools/list request`,
      `in ${t} tools/list result`,
      `out ${t} tools/call request`,
      `in ${sse} notifications/progress notification`,
      `in ${sse} tools/call result`,
      `out ${t} tools/call request`, // confirm: input_required
      `in ${t} tools/call result`,
      `out ${t} tools/call request`, // again, with the answer
      `in ${t} tools/call result`,
    ],
  };
}

/** The session's messages on 2025-11-25: the handshake, the list, a call that streams, one that asks the client. */
function legacy(t: "http" | "stdio", sse: "sse" | "stdio") {
  return {
    client: [
      `out ${t} initialize request`,
      `in ${t} initialize result`,
      `out ${t} notifications/initialized notification`,
      `out ${t} tools/list request`,
      `in ${t} tools/list result`,
      `out ${t} tools/call request`,
      `in ${sse} notifications/progress notification`,
      `in ${sse} tools/call result`,
      `out ${t} tools/call request`,
      `in ${sse} elicitation/create request`,
      `out ${t} elicitation/create result`,
      `in ${sse} tools/call result`,
    ],
  };
}

/** The server sees each message the client sends or receives, in the other direction. */
function mirrored(client: string[]): string[] {
  return client.flatMap((line) => both(line.startsWith("out ") ? `in ${line.slice(4)}` : `out ${line.slice(3)}`));
}

describe("a full session, both sides, over HTTP", () => {
  const lines: string[] = [];
  let listener: Listener;
  before(async () => {
    listener = await serve(transcriptServer((line) => lines.push(line)), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
  });
  after(async () => await listener.close());

  for (
    const [protocolVersion, expected] of [["2026-07-28", modern("http", "sse")], [
      "2025-11-25",
      legacy("http", "sse"),
    ]] as const
  ) {
    it(`on ${protocolVersion}: every message, JSON and SSE, in order`, async () => {
      lines.length = 0;
      const client = createClient(`${listener.url}/mcp`, {
        transport: "mcp",
        protocolVersion,
        intercept: [recorder("client", (line) => lines.push(line))],
        onElicit: accept,
      });
      await session(client);
      await client.close();
      const side = (who: string) => lines.filter((l) => l.startsWith(`${who} `)).map((l) => l.slice(who.length + 1));
      assert.deepEqual(side("client"), expected.client);
      // Each side in its own order; the server's own middleware then the extension's, for every message.
      assert.deepEqual(lines.filter((l) => !l.startsWith("client ")), mirrored(expected.client));
    });
  }
});

describe("a full session, both sides, over stdio (the server a child process)", () => {
  for (
    const [protocolVersion, expected] of [["2026-07-28", modern("stdio", "stdio")], [
      "2025-11-25",
      legacy("stdio", "stdio"),
    ]] as const
  ) {
    it(`on ${protocolVersion}: every message, in order`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "mcplite-mw-"));
      const file = join(dir, "transcript.txt");
      const lines: string[] = [];
      const env = { ...process.env, MW_TRANSCRIPT: file } as Record<string, string>;
      const transport = createStdioTransport({ ...runtimeCommand(CHILD), env, protocolVersion });
      const client = createClient(transport, {
        intercept: [recorder("client", (line) => lines.push(line.slice("client ".length)))],
        onElicit: accept,
      });
      try {
        try {
          await session(client);
        } finally {
          await client.close(); // the child flushes its transcript and exits
        }
        assert.deepEqual(lines, expected.client);
        assert.deepEqual(readFileSync(file, "utf8").trim().split("\n"), mirrored(expected.client));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("a full session, both sides, over a WebSocket", () => {
  it("MCP-lite's JSON-RPC messages, in order", async () => {
    const lines: string[] = [];
    const listener = await serve(transcriptServer((line) => lines.push(line)), {
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
    });
    try {
      const url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
      const client = createClient(createWebSocketTransport(url), {
        intercept: [recorder("client", (line) => lines.push(line))],
      });
      await session(client, false);
      await client.close();
    } finally {
      await listener.close();
    }
    const client = [
      "out websocket tools/list request",
      "in websocket tools/list result",
      "out websocket tools/call request",
      "in websocket notifications/progress notification",
      "in websocket tools/call result",
    ];
    assert.deepEqual(lines.filter((l) => l.startsWith("client ")).map((l) => l.slice(7)), client);
    assert.deepEqual(lines.filter((l) => !l.startsWith("client ")), mirrored(client));
  });
});

/** POSTs one message to a server in process and reads the answer's messages. */
async function post(
  server: { fetch(request: Request): Promise<Response> },
  message: unknown,
  version = "2025-11-25",
): Promise<{ status: number; messages: Record<string, unknown>[] }> {
  const response = await server.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": version,
      },
      body: JSON.stringify(message),
    }),
  );
  const text = await response.text();
  const messages = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)))
    : text === ""
    ? []
    : [JSON.parse(text)];
  return { status: response.status, messages };
}

const add = defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() })).handle(
  ({ a, b }, ctx) => {
    ctx.progress(1, 2);
    return a + b;
  },
);

describe("what a middleware may do", () => {
  it("replaces a message, both ways: next(other) hands on another message", async () => {
    const server = createServer({ name: "mw", version: "1.0.0" }).tool(add).extension(
      defineExtension().intercept(async (message, info, next) => {
        if (info.direction === "in" && info.method === "tools/call") {
          const params = message.params as { arguments: Record<string, unknown> };
          return await next({ ...message, params: { ...params, arguments: { ...params.arguments, a: 40 } } });
        }
        if (info.direction === "out" && info.method === "tools/call" && "result" in message) {
          return await next({ ...message, result: { content: [{ type: "text", text: "replaced" }], replaced: true } });
        }
        await next();
      }),
    );
    const { messages } = await post(server, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "add", arguments: { a: 1, b: 2 } },
    });
    assert.deepEqual(messages, [{
      jsonrpc: "2.0",
      id: 7,
      result: { content: [{ type: "text", text: "replaced" }], replaced: true },
    }]);
    // The client's middleware replaces what it sends (the arguments) and what it receives (the result).
    const client = createClient(createServer({ name: "plain", version: "1.0.0" }).tool(add), {
      transport: "mcp",
      intercept: [async (message, info, next) => {
        if (info.direction === "out" && info.method === "tools/call") {
          const params = message.params as Record<string, unknown>;
          return await next({ ...message, params: { ...params, arguments: { a: 20, b: 22 } } });
        }
        await next();
      }],
    });
    assert.equal(String(await client.call("add", { a: 1, b: 2 })), "42");
  });

  it("answers an incoming request itself: the SDK never sees it, the answer passes the middleware going out", async () => {
    const seen: string[] = [];
    const server = createServer({ name: "mw", version: "1.0.0" })
      .use(async (call, next) => {
        seen.push(`handled ${call.method}`);
        return await next();
      })
      .extension(
        defineExtension().intercept((message, info, next) =>
          info.direction === "in" && message.method === "ping" ? { result: { answeredBy: "middleware" } } : next()
        ),
      )
      .extension(
        defineExtension().intercept(async (_message, info, next) => {
          seen.push(`${info.direction} ${info.method}`);
          await next();
        }),
      );
    const { messages } = await post(server, { jsonrpc: "2.0", id: "p1", method: "ping" });
    assert.deepEqual(messages, [{ jsonrpc: "2.0", id: "p1", result: { answeredBy: "middleware" } }]);
    assert.deepEqual(seen, ["out ping"]); // the second never saw it come in; no handler ran
    // On the client: a middleware answers the server's question (2025 elicitation), no handler needed.
    const asking = createServer({ name: "ask", version: "1.0.0" }).tool(
      defineTool("confirm").describe("Asks").handle(async (_args, ctx) => {
        const answer = await ctx.elicit("sure", {
          message: "Sure?",
          requestedSchema: { type: "object", properties: {} },
        });
        return answer.action;
      }),
    );
    const listener = await serve(asking, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const client = createClient(`${listener.url}/mcp`, {
        transport: "mcp",
        protocolVersion: "2025-11-25",
        onElicit: () => ({ action: "decline" }), // declared, so the server may ask; never called
        intercept: [
          (message, info, next) =>
            info.direction === "in" && info.method === "elicitation/create" && "method" in message
              ? { result: { action: "accept", content: {} } }
              : next(),
        ],
      });
      assert.equal(await client.call("confirm", {}), "accept");
      await client.close();
    } finally {
      await listener.close();
    }
  });

  it("keeps a refusal for a scope what it is: the edge still adds its step-up challenge", async () => {
    const seen: string[] = [];
    const server = createServer({ name: "mw", version: "1.0.0", auth: opaqueAuth() })
      .tool(defineTool("admin").describe("Admins only").scopes("docs:admin").handle(() => "done"))
      .extension(
        defineExtension().intercept(async (message, info, next) => {
          seen.push(`${info.direction} ${info.method} ${"error" in message ? "error" : ""}`.trim());
          await next();
        }),
      );
    const response = await server.fetch(
      new Request(`${RESOURCE}/mcp`, {
        method: "POST",
        headers: { ...bearer("reader"), "content-type": "application/json", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "admin", arguments: {} } }),
      }),
    );
    assert.equal(response.status, 403, await response.clone().text());
    assert.match(
      response.headers.get("www-authenticate") ?? "",
      /^Bearer error="insufficient_scope", scope="docs:admin"/,
    );
    assert.deepEqual(seen, ["in tools/call", "out tools/call error"]);
  });

  it("passes each message of a 2025-03-26 batch, in and out, an early answer joining the batch's answers", async () => {
    const seen: string[] = [];
    const server = createServer({ name: "mw", version: "1.0.0" }).tool(add).extension(
      defineExtension().intercept(async (message, info, next) => {
        seen.push(`${info.direction} ${info.method}`);
        if (info.direction === "in" && message.method === "ping") return { result: { early: true } };
        await next();
      }),
    );
    const response = await server.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", "mcp-protocol-version": "2025-03-26" },
        body: JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 1 } } },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "ping" },
        ]),
      }),
    );
    assert.deepEqual(await response.json(), [
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "2" }] } },
      { jsonrpc: "2.0", id: 2, result: { early: true } },
    ]);
    assert.deepEqual(seen, ["in tools/call", "in notifications/initialized", "in ping", "out tools/call", "out ping"]);
  });

  it("drops a message by not calling next: an incoming request gets no answer (202 over HTTP)", async () => {
    const server = createServer({ name: "mw", version: "1.0.0" }).extension(
      defineExtension().intercept(() => undefined),
    );
    const { status, messages } = await post(server, { jsonrpc: "2.0", id: 1, method: "ping" });
    assert.equal(status, 202);
    assert.deepEqual(messages, []);
  });

  it("throws: an incoming request is answered with an internal error, reported, and the server keeps serving", async () => {
    const reported: unknown[] = [];
    const boom: MessageMiddleware = async (message, info, next) => {
      if (info.direction === "in" && (message.params as { name?: string } | undefined)?.name === "boom") {
        throw new Error("the middleware broke");
      }
      if (info.direction === "out" && info.method === "notifications/progress") throw new Error("no progress");
      if (
        info.direction === "out" &&
        (message.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text === "13"
      ) {
        throw new Error("unlucky");
      }
      await next();
    };
    const server = createServer({ name: "mw", version: "1.0.0", onError: (error) => void reported.push(error) })
      .tool(add)
      .tool(defineTool("boom").describe("Never runs").handle(() => assert.fail("the handler ran")))
      .extension(defineExtension("org.example/boom").intercept(boom));
    const refused = await post(server, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "boom", arguments: {} },
    });
    assert.deepEqual(refused.messages, [{ jsonrpc: "2.0", id: 1, error: INTERNAL }]);
    // Going out: a notification that throws is dropped, a response becomes an internal error.
    const call = (id: number, a: number) =>
      post(server, {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "add", arguments: { a, b: 3 }, _meta: { progressToken: "t" } },
      });
    assert.deepEqual((await call(2, 1)).messages, [{
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "4" }] },
    }]);
    assert.deepEqual((await call(3, 10)).messages, [{ jsonrpc: "2.0", id: 3, error: INTERNAL }]);
    assert.deepEqual(reported.map((e) => (e as Error).message), [
      "the middleware broke",
      "no progress",
      "no progress",
      "unlucky",
    ]);
    // The client: a middleware that throws going out fails that request; the next one goes through.
    const client = createClient(server, {
      transport: "mcp",
      intercept: [async (message, info, next) => {
        if (info.direction === "out" && (message.params as { name?: string } | undefined)?.name === "boom") {
          throw new Error("not sent");
        }
        await next();
      }],
    });
    await assert.rejects(client.call("boom", {}), (error: Error) => /not sent/.test(`${error.message} ${error.cause}`));
    assert.equal(String(await client.call("add", { a: 1, b: 1 })), "2");
  });
});

describe("what a middleware may do, on a connection (stdio)", () => {
  it("throws: the request is answered with an error, a question to the client fails its asker, serving goes on", async () => {
    const reported: string[] = [];
    const server = createServer({
      name: "mw",
      version: "1.0.0",
      onError: (e) => void reported.push((e as Error).message),
    })
      .tool(add)
      .tool(
        defineTool("confirm").describe("Asks").handle(async (_args, ctx) => {
          try {
            await ctx.elicit("sure", { message: "Sure?", requestedSchema: { type: "object", properties: {} } });
            return "answered";
          } catch (error) {
            return `failed: ${(error as Error).message}`;
          }
        }),
      )
      .extension(
        defineExtension().intercept(async (message, info, next) => {
          if (info.direction === "in" && (message.params as { name?: string } | undefined)?.name === "boom") {
            throw new Error("in");
          }
          if (info.direction === "out" && info.method === "elicitation/create" && "method" in message) {
            throw new Error("out");
          }
          await next();
        }),
      );
    const piped = await initializedSession(server);
    try {
      piped.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "boom", arguments: {} } });
      assert.deepEqual(await piped.answer(2), { jsonrpc: "2.0", id: 2, error: INTERNAL });
      piped.send({
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: {} },
          clientInfo: { name: "t", version: "1" },
        },
      });
      await piped.answer(3);
      piped.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "confirm", arguments: {} } });
      const answer = await piped.answer(4);
      assert.match(
        JSON.stringify(answer),
        /failed: The client answered elicitation\/create with an error: Internal error/,
      );
      piped.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 2 } } });
      assert.deepEqual((await piped.answer(5)).result, { content: [{ type: "text", text: "4" }] });
      assert.deepEqual(reported, ["in", "out"]);
      assert.equal(
        piped.messages.some((m) => m.method === "elicitation/create"),
        false,
        "the failed question never went out",
      );
    } finally {
      await piped.end();
    }
  });
});
