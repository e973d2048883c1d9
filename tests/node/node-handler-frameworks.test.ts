/**
 * `nodeHandler()` behind frameworks that read the body themselves: Fastify with its JSON parser on and
 * Koa with `@koa/bodyparser` hand the body over as the third argument and are answered; Fastify with
 * its parsers passed by (the body left in the stream) is answered from the stream, binary bodies (Connect's)
 * included, as Koa's are where its parser reads none; a body read and not
 * handed over gets a 500 naming the fix at once, where it used to hang; the body's other forms (a
 * string, a Buffer, an ArrayBuffer) are read as given.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import bodyParser from "@koa/bodyparser";
import Fastify, { type FastifyInstance } from "fastify";
import Koa from "koa";
import { nodeHandler } from "../../src/runtime/node/mod.ts";
import { toolsCall } from "../helpers/request.ts";
import { listening, nodeFixture } from "./fixture.ts";

/** Well above an answer that comes at once, well below a hang: a request that waits this long fails. */
const HANG = 10_000;

/** POSTs a JSON-RPC request to MCP-lite (`lite`) or MCP under `base`, failing after {@link HANG} ms. */
function post(base: string, wire: "lite" | "mcp", body: unknown = toolsCall("add", { a: 1, b: 2 })) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (wire === "mcp") {
    headers.accept = "application/json, text/event-stream";
    headers["mcp-protocol-version"] = "2025-11-25";
  }
  return fetch(`${base}/${wire === "lite" ? "mcp-lite/v1/calltools" : "mcp"}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(HANG),
  });
}

/** The sums MCP-lite (1 + 2) and MCP (2 + 3) answer under `base`. */
async function sums(base: string): Promise<[string, string]> {
  const lite = await post(base, "lite");
  assert.equal(lite.status, 200, await lite.clone().text());
  const mcp = await post(base, "mcp", toolsCall("add", { a: 2, b: 3 }));
  assert.equal(mcp.status, 200, await mcp.clone().text());
  return [(await lite.json()).result.content[0].text, (await mcp.json()).result.content[0].text];
}

/** Runs `body` with a Fastify app listening on 127.0.0.1 and its base URL, and closes it. */
async function fastifying(app: FastifyInstance, body: (base: string) => Promise<void>): Promise<void> {
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    await body(address);
  } finally {
    await app.close();
  }
}

/** Runs `body` with a Koa app listening on 127.0.0.1 and its base URL, and closes it. */
async function koaing(app: Koa, body: (base: string) => Promise<void>): Promise<void> {
  const http = await new Promise<ReturnType<Koa["listen"]>>((resolve) => {
    const listener = app.listen(0, "127.0.0.1", () => resolve(listener));
  });
  try {
    await body(`http://127.0.0.1:${(http.address() as { port: number }).port}`);
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

/** Asserts the answer to a body read and not handed over: 500, saying to hand it over. */
async function assertNamesTheFix(answer: Response): Promise<void> {
  assert.equal(answer.status, 500);
  const text = await answer.text();
  assert.match(text, /body was already read/);
  assert.match(text, /third argument/);
  assert.match(text, /request\.body/);
}

describe("nodeHandler() behind a framework's body parser", () => {
  it("answers Fastify with its JSON parser on when the handler hands request.body over", async () => {
    const { server } = nodeFixture({ basePath: "/mcp" });
    const mcp = nodeHandler(server);
    const app = Fastify();
    app.all("/mcp/*", async (request, reply) => {
      reply.hijack();
      await mcp(request.raw, reply.raw, request.body);
    });
    await fastifying(app, async (base) => {
      assert.deepEqual(await sums(`${base}/mcp`), ["3", "5"]);
    });
  });

  it("answers Fastify with its parsers passed by, from the body still in the stream", async () => {
    const { server } = nodeFixture({ basePath: "/mcp" });
    const mcp = nodeHandler(server);
    const app = Fastify();
    await app.register((scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      scope.all("/mcp/*", (request, reply) => {
        reply.hijack();
        void mcp(request.raw, reply.raw);
      });
      return Promise.resolve();
    });
    await fastifying(app, async (base) => {
      assert.deepEqual(await sums(`${base}/mcp`), ["3", "5"]);
    });
  });

  it("answers a body Fastify read and nobody handed over with a 500 naming the fix, not a hang", async () => {
    const { server } = nodeFixture({ basePath: "/mcp" });
    const mcp = nodeHandler(server);
    const app = Fastify();
    app.all("/mcp/*", (request, reply) => {
      reply.hijack();
      void mcp(request.raw, reply.raw);
    });
    await fastifying(app, async (base) => {
      await assertNamesTheFix(await post(`${base}/mcp`, "lite"));
      await assertNamesTheFix(await post(`${base}/mcp`, "mcp", { jsonrpc: "2.0", id: 2, method: "tools/list" }));
    });
  });

  it("answers Koa with @koa/bodyparser when the middleware hands ctx.request.body over", async () => {
    const { server } = nodeFixture({ basePath: "/mcp" });
    const mcp = nodeHandler(server);
    const app = new Koa();
    app.use(bodyParser());
    app.use(async (ctx, next) => {
      if (!ctx.path.startsWith("/mcp/")) return next();
      ctx.respond = false;
      await mcp(ctx.req, ctx.res, ctx.request.body);
    });
    await koaing(app, async (base) => {
      assert.deepEqual(await sums(`${base}/mcp`), ["3", "5"]);
    });
  });

  it("answers a body Koa read and nobody handed over with a 500 naming the fix", async () => {
    const { server } = nodeFixture();
    const mcp = nodeHandler(server);
    const app = new Koa();
    app.use(bodyParser());
    app.use(async (ctx) => {
      ctx.respond = false;
      await mcp(ctx.req, ctx.res);
    });
    await koaing(app, async (base) => {
      await assertNamesTheFix(await post(base, "lite"));
    });
  });

  it("reads a handed-over body given as a string, a Buffer, an ArrayBuffer or the JSON null", async () => {
    const { server } = nodeFixture();
    const mcp = nodeHandler(server);
    for (const form of ["string", "buffer", "arraybuffer", "null"] as const) {
      await listening((req, res) => {
        const chunks: Uint8Array[] = [];
        req.on("data", (chunk: Uint8Array) => chunks.push(chunk));
        req.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const body = form === "null"
            ? null
            : form === "string"
            ? bytes.toString("utf8")
            : form === "buffer"
            ? bytes
            : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
          void mcp(req, res, body);
        });
      }, async (base) => {
        const answer = await post(base, "lite", form === "null" ? null : undefined);
        const text = await answer.text();
        if (form === "null") assert.match(text, /"code":-32600/); // answered as the JSON it was: not a request
        else assert.equal(JSON.parse(text).result.content[0].text, "3", form);
      });
    }
  });

  it("streams a binary body through Fastify with its parsers passed by, and through Koa's parser", async () => {
    // What Connect and gRPC-Web send (application/proto): Fastify's parsers refuse it with 415 before the route.
    const echo = nodeHandler({
      fetch: async (request: Request) => new Response(await request.arrayBuffer()),
    });
    const bytes = new Uint8Array(256 * 1024).map((_, i) => i % 251);
    const send = (url: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/proto" },
        body: bytes,
        signal: AbortSignal.timeout(HANG),
      });
    const parsing = Fastify({ forceCloseConnections: true }); // its 415 leaves the body unread, the connection busy
    parsing.all("/mcp/*", async (request, reply) => {
      reply.hijack();
      await echo(request.raw, reply.raw, request.body);
    });
    await fastifying(parsing, async (base) => {
      const refused = await send(`${base}/mcp/echo`);
      assert.equal(refused.status, 415);
      await refused.body?.cancel();
    });
    const passing = Fastify();
    await passing.register((scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      scope.all("/mcp/*", async (request, reply) => {
        reply.hijack();
        await echo(request.raw, reply.raw);
      });
      return Promise.resolve();
    });
    await fastifying(passing, async (base) => {
      const echoed = await send(`${base}/mcp/echo`);
      assert.equal(echoed.status, 200);
      assert.deepEqual(new Uint8Array(await echoed.arrayBuffer()), bytes);
    });
    const koa = new Koa();
    koa.use(bodyParser());
    koa.use(async (ctx) => {
      ctx.respond = false;
      await echo(ctx.req, ctx.res, ctx.request.body);
    });
    await koaing(koa, async (base) => {
      const echoed = await send(`${base}/mcp/echo`);
      assert.equal(echoed.status, 200);
      assert.deepEqual(new Uint8Array(await echoed.arrayBuffer()), bytes);
    });
  });

  it("reads the stream, not a handed-over body, when the parser left the stream alone", async () => {
    const { server } = nodeFixture();
    const mcp = nodeHandler(server);
    // A parser that did not read this content type leaves its placeholder (Koa's bodyparser: `{}`).
    await listening((req, res) => void mcp(req, res, {}), async (base) => {
      const answer = await post(base, "lite");
      assert.equal(answer.status, 200);
      assert.equal((await answer.json()).result.content[0].text, "3");
    });
  });
});
