/**
 * What a platform hands `server.fetch` besides the request (a Worker's `env` and `ExecutionContext`,
 * or a framework route's own second argument) reaches handlers as `ctx.env` on every wire; deferred
 * work is handed to `waitUntil`; `env.MCPLITE_SECRET` signs tokens when no `secret` option is given.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { withDefaults } from "../helpers/fixtures.ts";
import { legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { readJsonRpc } from "../helpers/sse.ts";

const whoami = defineTool("whoami").handle((_args, ctx) => ({
  user: String(ctx.env?.user ?? "nobody"),
  region: String(ctx.env?.REGION ?? "none"),
}));

function server() {
  return createServer({ name: "host", version: "1.0.0", bindings: withDefaults(webtoolsBinding(), grpcBinding()) })
    .tool(whoami);
}

const ENV = { REGION: "eu", user: "ada" };

describe("the platform's env reaches handlers as ctx.env", () => {
  const requests: [string, () => Request, (response: Response) => Promise<unknown>][] = [
    [
      "MCP-lite",
      () => post("/mcp-lite/v1/calltools", toolsCall("whoami", {})),
      async (r) => (await r.json()).result.structuredContent,
    ],
    [
      "MCP 2026-07-28",
      () => modernRequest("tools/call", { name: "whoami", arguments: {} }),
      async (r) => (await readJsonRpc(r)).result.structuredContent,
    ],
    [
      "MCP 2025",
      () => legacyRequest("tools/call", { name: "whoami", arguments: {} }),
      async (r) => (await readJsonRpc(r)).result.structuredContent,
    ],
    ["Webtools", () => post("/webtools/", { action: "whoami", request: {} }), async (r) => (await r.json()).data],
    [
      "Connect (direct)",
      () => post("/mcplite.MCPLite/CallTool", { name: "whoami" }),
      async (r) => (await r.json()).result.structuredContent,
    ],
    [
      "gRPC-Web (through Connect's handler)",
      () => grpcWeb("whoami"),
      async (r) => {
        const frames = new Uint8Array(await r.arrayBuffer()); // [flags, length (4 bytes), message]…, then the trailers
        const length = new DataView(frames.buffer).getUint32(1);
        return JSON.parse(new TextDecoder().decode(frames.subarray(5, 5 + length))).result.structuredContent;
      },
    ],
  ];
  for (const [wire, request, read] of requests) {
    it(wire, async () => {
      const s = server();
      assert.deepEqual(await read(await s.fetch(request(), ENV)), { user: "ada", region: "eu" });
      assert.deepEqual(await read(await s.fetch(request())), { user: "nobody", region: "none" });
    });
  }
});

/** A gRPC-Web JSON request (one enveloped message). */
function grpcWeb(name: string): Request {
  const json = new TextEncoder().encode(JSON.stringify({ name }));
  const body = new Uint8Array(5 + json.byteLength);
  new DataView(body.buffer).setUint32(1, json.byteLength);
  body.set(json, 5);
  return new Request("http://localhost/mcplite.MCPLite/CallTool", {
    method: "POST",
    headers: { "content-type": "application/grpc-web+json", "x-grpc-web": "1" },
    body,
  });
}

describe("deferred work on a platform that ends requests", () => {
  it("is handed to ctx.waitUntil, and completes there", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => release = resolve);
    const crunch = defineTool("crunch").longRunning({ retryAfterMs: 1 }).handle((_args, ctx) =>
      ctx.defer(async () => {
        await gate;
        return { done: true };
      })
    );
    const s = createServer({ name: "w", version: "1.0.0", secret: "a host test secret of at least 32 bytes" }).tool(
      crunch,
    );
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work) };
    const first = await (await s.fetch(post("/mcp-lite/v1/calltools", toolsCall("crunch", {})), {}, ctx)).json();
    assert.equal(first.result._meta.response_type, "promise");
    assert.equal(kept.length, 1, "the job went to waitUntil");
    release();
    await kept[0];
    const redeemed = await (await s.fetch(
      post("/mcp-lite/v1/calltools", toolsCall("redeem", { promise: first.result._meta.promise_token })),
      {},
      ctx,
    )).json();
    assert.deepEqual(redeemed.result.structuredContent, { done: true });
  });
});

describe("env.MCPLITE_SECRET", () => {
  const job = defineTool("job")
    .input(v.object({ n: v.number() }))
    .handle(({ n }, ctx) => ctx.promise({ state: { n }, retryAfterMs: 1 }))
    .redeem(({ n }) => ({ n }));
  const secret = "the platform's secret: long enough to sign tokens";

  it("signs tokens when no secret option is given, so another instance with the same env redeems them", async () => {
    const [a, b] = [
      createServer({ name: "a", version: "1" }).tool(job),
      createServer({ name: "b", version: "1" }).tool(job),
    ];
    const env = { MCPLITE_SECRET: secret };
    const first = await (await a.fetch(post("/mcp-lite/v1/calltools", toolsCall("job", { n: 7 })), env)).json();
    const token = first.result._meta.promise_token;
    const redeemed = await (await b.fetch(post("/mcp-lite/v1/calltools", toolsCall("redeem", { promise: token })), env))
      .json();
    assert.deepEqual(redeemed.result.structuredContent, { n: 7 });
  });

  it("yields to the secret option", async () => {
    const own = "the server's own secret, long enough too!!";
    const a = createServer({ name: "a", version: "1", secret: own }).tool(job);
    const b = createServer({ name: "b", version: "1" }).tool(job);
    const first =
      await (await a.fetch(post("/mcp-lite/v1/calltools", toolsCall("job", { n: 1 })), { MCPLITE_SECRET: secret }))
        .json();
    const token = first.result._meta.promise_token;
    const refused = await (await b.fetch(post("/mcp-lite/v1/calltools", toolsCall("redeem", { promise: token })), {
      MCPLITE_SECRET: secret,
    })).json();
    assert.equal(refused.error.code, -32602);
  });
});
