/**
 * examples/worker.ts on real workerd (Cloudflare's Workers runtime, shipped in npm `miniflare`),
 * bundled the way a Worker is deployed: one ES module without `node:*` imports. What workerd does
 * differently from Deno and Bun shows here: it cancels a request's timers once that request has
 * answered, it keeps work alive after the answer only through `waitUntil`, and configuration arrives
 * in `env`, not in the process environment.
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, describe, it } from "node:test";
import { Miniflare } from "miniflare";
import { createTokenCodec, TokenError } from "../../src/codec/mod.ts";
import { env } from "../../src/runtime/env.ts";
import { waitFor } from "../helpers/long-running.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { modernMeta, toolsCall } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";
import { TestSocket } from "../websocket/socket.ts";

/** The Worker's `MCPLITE_SECRET` variable. */
const SECRET = "the Worker's own secret from its env (32+ bytes)";

interface Started {
  /** The Worker's origin. */
  readonly base: string;
  /** Stops workerd. */
  readonly dispose: () => Promise<void>;
}

/** Bundles the example and starts it on workerd; the reason to skip when workerd cannot run here. */
async function startWorker(): Promise<Started | string> {
  // Miniflare reports a workerd that cannot be spawned as an unhandled error event: try the binary first.
  const workerd = env("MINIFLARE_WORKERD_PATH") ?? `${ROOT}node_modules/.bin/workerd`;
  const version = await run(workerd, ["--version"], 10_000);
  if (version.code !== 0) {
    return `workerd (${workerd}) does not run here: ${version.stderr.trim() || "not found"}. npm ci installs it with ` +
      `miniflare; it needs Linux (x64/arm64, glibc), macOS or Windows`;
  }
  // Bun's bundler ships with the `bun` devDependency and needs no network (`deno bundle` downloads esbuild).
  const bundled = await run(`${ROOT}node_modules/.bin/bun`, [
    "build",
    "--target=browser",
    "--format=esm",
    "--external=node:*", // left as imports, which workerd refuses without nodejs_compat (Bun would stub them)
    "examples/worker.ts",
  ]);
  // A bundle that fails, or that workerd refuses, is a failure of the code under test: no skip.
  if (bundled.code !== 0) throw new Error(`bun could not bundle examples/worker.ts: ${bundled.stderr}`);
  const mf = new Miniflare({
    modules: true,
    script: bundled.stdout,
    compatibilityDate: "2026-04-01",
    bindings: { REGION: "eu-west", MCPLITE_SECRET: SECRET },
  });
  const url = await mf.ready;
  return { base: url.origin, dispose: () => mf.dispose() };
}

const worker = await startWorker();
// workerd comes with `npm ci` (miniflare): in CI its absence fails the file instead of skipping it.
const skip = missingOutsideCi(typeof worker === "string" ? worker : false);
if (skip) console.warn(`skipping the workerd tests: ${skip}`);
const base = typeof worker === "string" ? "" : worker.base;
after(async () => {
  if (typeof worker !== "string") await worker.dispose();
});

/** Calls a tool over MCP-lite, as JSON or (`sse`) as an event stream. */
function lite(name: string, args: unknown, sse = false): Promise<Response> {
  return fetch(`${base}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: sse ? "text/event-stream" : "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
  });
}

/** Calls a tool over MCP 2026-07-28, accepting an SSE answer as its clients do. */
function mcp(name: string, args: unknown): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args, _meta: modernMeta() },
    }),
  });
}

describe("examples/worker.ts on workerd", { skip }, () => {
  it("answers an MCP-lite call as JSON", async () => {
    const answer = await (await lite("quick", { n: 1 })).json();
    assert.deepEqual(answer.result.structuredContent, { n: 1 });
  });

  it("answers an MCP-lite call as SSE, with heartbeats while the tool works", async () => {
    // Three keep-alive intervals of work: at least one heartbeat comes before the result, however late a
    // loaded machine runs the timers (1.3 s of work for exactly one heartbeat at 1 s left 300 ms of room).
    const response = await lite("slow", { n: 2, ms: 3_000 }, true);
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
    const events = await readSse(response);
    const names = events.map((e) => e.event);
    assert.equal(names.at(-1), "done", names.join());
    assert.ok(names.length > 1 && names.slice(0, -1).every((name) => name === "heartbeat"), names.join());
    assert.deepEqual(JSON.parse(events.at(-1)!.data).structuredContent, { n: 2 });
  });

  it("answers an MCP 2026-07-28 tools/call, with the Worker's env as ctx.env", async () => {
    const response = await mcp("region", {});
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const answer = await response.json();
    assert.equal(answer.result.resultType, "complete");
    assert.deepEqual(answer.result.structuredContent, { region: "eu-west" });
  });

  it("serves MCP-lite over a WebSocket (a WebSocketPair): calls at once, a slow one, ctx.env, bad frames", async () => {
    const socket = await TestSocket.open(`${base.replace("http:", "ws:")}/mcp-lite/v1/ws`, ["mcp-lite.v1"]);
    assert.equal(socket.protocol, "mcp-lite.v1");
    const call = (id: number, name: string, args: unknown) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    socket.send(call(1, "slow", { n: 1, ms: 2_000 })); // outlasts the two after it, however loaded the machine
    socket.send(call(2, "region", {}));
    socket.send("not json");
    assert.deepEqual((await socket.answer(2)).result.structuredContent, { region: "eu-west" });
    assert.equal((await socket.next((m) => m.id === null)).error.code, -32700);
    assert.deepEqual((await socket.answer(1)).result.structuredContent, { n: 1 });
    assert.deepEqual(socket.messages.map((m) => m.id), [2, null, 1]);
    socket.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    assert.ok((await socket.answer(3)).result.tools.some((t: { name: string }) => t.name === "region"));
    await socket.close();
  });

  it("keeps a slow MCP call alive after a quick call answered (timers belong to their request)", async () => {
    // The quick call arms the keep-alive timer inside its own request; workerd cancels it when that
    // request answers, so the slow call must get a timer of its own.
    assert.deepEqual((await (await mcp("quick", { n: 3 })).json()).result.structuredContent, { n: 3 });
    const response = await mcp("slow", { n: 4, ms: 3_000 }); // three keep-alive intervals: room for late timers
    assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/, "a keep-alive turned it into SSE");
    const text = await response.text();
    const keepAlive = text.indexOf(": keep-alive");
    const result = text.indexOf('"structuredContent":{"n":4}');
    assert.ok(keepAlive >= 0 && result > keepAlive, `a keep-alive before the result: ${JSON.stringify(text)}`);
  });

  it("finishes ctx.defer() work after the answer (waitUntil), and redeems its result", async () => {
    const first = (await (await lite("crunch", { n: 100 })).json()).result;
    assert.equal(first._meta.response_type, "promise", JSON.stringify(first));
    const token: string = first._meta.promise_token;
    let done: Record<string, any> | undefined;
    await waitFor(async () => {
      const redeemed = (await (await lite("redeem", { promise: token })).json()).result;
      if (redeemed._meta.response_type !== "answer") return false;
      done = redeemed;
      return true;
    });
    assert.deepEqual(done!.structuredContent, { sum: 5050 });
  });

  it("signs tokens with env.MCPLITE_SECRET", async () => {
    const first = (await (await lite("crunch", { n: 1 })).json()).result;
    const token: string = first._meta.promise_token;
    const claims = await createTokenCodec({ secret: SECRET }).verify(token, { kind: "promise" });
    assert.equal(claims.scope, "crunch");
    await assert.rejects(
      createTokenCodec({ secret: "some other secret that is also 32+ bytes" }).verify(token, { kind: "promise" }),
      TokenError,
      "not a random per-isolate key, nor another",
    );
  });
});

describe("examples/worker.ts at its workers.dev host name, unchanged", { skip }, () => {
  const DEPLOYED = "my-worker.example-sub.workers.dev";
  // Cloudflare's edge names the visitor in CF-Connecting-IP; without it Miniflare names its own
  // loopback client, as `wrangler dev` does for a browser on the developer's machine.
  const VISITOR = { "cf-connecting-ip": "203.0.113.7" };

  it("lists its tools and answers a call over MCP-lite (not 403)", async () => {
    const listing = await requestAs(DEPLOYED, "/mcp-lite/v1/listtools", {}, VISITOR);
    assert.equal(listing.status, 200, listing.body);
    const { tools } = JSON.parse(listing.body) as { tools: { name: string }[] };
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["crunch", "quick", "redeem", "region", "slow"]);
    const call = await requestAs(DEPLOYED, "/mcp-lite/v1/calltools", toolsCall("quick", { n: 5 }), VISITOR);
    assert.equal(call.status, 200, call.body);
    assert.deepEqual(JSON.parse(call.body).result.structuredContent, { n: 5 });
  });

  it("answers an MCP 2026-07-28 tools/call", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "region", arguments: {}, _meta: modernMeta() },
    };
    const response = await requestAs(DEPLOYED, "/mcp", body, {
      ...VISITOR,
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "region",
    });
    assert.equal(response.status, 200, response.body);
    assert.deepEqual(JSON.parse(response.body).result.structuredContent, { region: "eu-west" });
  });

  it("refuses a rebinding host name from this machine (wrangler dev), and answers localhost", async () => {
    const rebound = await requestAs("rebind.evil.example:8787", "/mcp-lite/v1/calltools", toolsCall("quick", { n: 6 }));
    assert.equal(rebound.status, 403, rebound.body);
    const local = await requestAs("localhost:8787", "/mcp-lite/v1/calltools", toolsCall("quick", { n: 6 }));
    assert.equal(local.status, 200, local.body);
  });
});

/**
 * POSTs JSON to the Worker naming `host` in the `Host` header, which workerd builds `request.url` from,
 * as it does for a deployed Worker's host name. (`mf.dispatchFetch()` carries the URL in a header of its
 * own, which Miniflare loses under Bun 1.4, and `fetch` may not set `Host`; node:http does both on the
 * three runtimes.)
 */
function requestAs(
  host: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      hostname,
      port: Number(port),
      path,
      method: "POST",
      headers: { host, "content-type": "application/json", accept: "application/json", ...headers },
      agent: false, // a connection per request
      timeout: 10_000,
    }, (incoming) => {
      let text = "";
      incoming.setEncoding("utf8");
      incoming.on("data", (chunk: string) => text += chunk);
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: text }));
      incoming.on("error", reject);
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer from workerd within 10 s (${host}${path})`)));
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify(body));
  });
}
