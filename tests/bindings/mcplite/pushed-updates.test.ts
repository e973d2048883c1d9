/**
 * Pushed promise updates (MCP-lite spec v0.042 §5.3, "Alternative: use CallToolStream for server-pushed
 * updates"): a streamed call of a `ctx.defer()` tool keeps its stream open and pushes the job's
 * progress, then its result, instead of ending at the promise; past the bounded wait it answers the
 * promise as before. Over SSE, gRPC `CallToolStream` (real HTTP/2) and stdio with `_meta.stream`; our
 * client's `stream()` gets the result without a redeem.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createClient as createConnectClient } from "@connectrpc/connect";
import { closeClientSessions, grpcOverH2 } from "../../helpers/h2-sessions.ts";
import { createServer, defineTool, mcpLiteBinding, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { type GrpcListener, MCPLite, serveGrpc } from "../../../src/bindings/grpc/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import { createMcpliteTransport } from "../../../src/client/transports/mcplite.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";
import { post } from "../../helpers/request.ts";
import { type SeenSteps, seenSteps } from "../../helpers/seen-steps.ts";
import { readSse } from "../../helpers/sse.ts";
import { pipeServer } from "../../helpers/stdio.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The gate of the gated call under test (see tests/helpers/seen-steps.ts). */
let gate: SeenSteps = seenSteps(0);
/** What a held job waits for: released by its test once it asserted (a job that outlasts any hold meanwhile). */
let held = Promise.withResolvers<void>();
/** A new gate for the next gated call; returns its `saw`. */
function gated(): (step: number) => void {
  gate = seenSteps(2);
  return gate.saw;
}

/**
 * A tool whose deferred job reports two steps of progress, then answers: `{ held: true }` once its test releases
 * it (for the tests of the hold, which need a job to outlast it: see {@link held}), `{ gated: true }` each step once
 * the caller saw the one before (see {@link gated}), else at once.
 */
function jobServer(options: { holdMs?: number; serverHoldMs?: number } = {}) {
  const bindings = options.holdMs === undefined ? undefined : [mcpLiteBinding({ holdMs: options.holdMs })];
  const secret = "pushed-updates-secret-0123456789abcdef";
  return createServer({ name: "jobs", version: "1.0.0", secret, bindings, holdMs: options.serverHoldMs })
    .tool(
      defineTool("crunch")
        .describe("Crunches numbers in the background")
        .input(v.object({ held: v.optional(v.boolean(), false), gated: v.optional(v.boolean(), false) }))
        .longRunning({ retryAfterMs: 20 })
        .handle(({ held: outlasting, gated }, ctx) =>
          ctx.defer(async () => {
            const { passed } = gate;
            const { promise: released } = held;
            ctx.log("info", "crunching"); // at once: before the stream follows the job
            ctx.progress(1, 2, "loading");
            await (gated ? passed(1) : outlasting ? released : undefined);
            ctx.progress(2, 2, "adding up");
            await (gated ? passed(2) : undefined);
            return { rows: 42 };
          })
        ),
    );
}

function sseCall(args: Record<string, unknown>): Request {
  return post(
    "/mcp-lite/v1/calltools",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "crunch", arguments: args } },
    { accept: "text/event-stream" },
  );
}

describe("pushed promise updates over MCP-lite SSE", () => {
  it("pushes the job's progress, then its result in done, instead of a promise", async () => {
    const saw = gated();
    const events = await readSse(
      await jobServer().fetch(sseCall({ gated: true })),
      undefined,
      (event) => event.event === "progress" && saw(JSON.parse(event.data).progress),
    );
    const kinds = events.map((e) => e.event).filter((e) => e !== "heartbeat");
    // The job's first log, written before the stream followed the job, is kept for it (Job.watch).
    assert.deepEqual(kinds, ["log", "progress", "progress", "done"]);
    assert.deepEqual(events.filter((e) => e.event === "progress").map((e) => JSON.parse(e.data)), [
      { progress: 1, total: 2, message: "loading" },
      { progress: 2, total: 2, message: "adding up" },
    ]);
    const done = JSON.parse(events.at(-1)!.data);
    assert.equal(done._meta.response_type, "answer");
    assert.deepEqual(done.structuredContent, { rows: 42 });
  });

  it("answers the promise, as before, when the job outlasts holdMs, and when the call is not streamed", async () => {
    held = Promise.withResolvers<void>();
    const server = jobServer({ holdMs: 30 });
    const events = await readSse(await server.fetch(sseCall({ held: true })));
    const done = JSON.parse(events.find((e) => e.event === "done")!.data);
    assert.equal(done._meta.response_type, "promise");
    assert.match(done._meta.promise_token, /^mcl1\./);
    const plain = await (await jobServer().fetch(post("/mcp-lite/v1/calltools", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "crunch", arguments: { held: true } },
    }))).json();
    assert.equal(plain.result._meta.response_type, "promise");
    held.resolve();
  });

  it("holds for the server's one holdMs, which mcpLiteBinding({ holdMs }) overrides", async () => {
    held = Promise.withResolvers<void>();
    const promised = async (server: ReturnType<typeof jobServer>) =>
      JSON.parse((await readSse(await server.fetch(sseCall({ held: true })))).find((e) => e.event === "done")!.data)
        ._meta.response_type;
    assert.equal(await promised(jobServer({ serverHoldMs: 30 })), "promise");
    assert.equal(await promised(jobServer({ holdMs: 30, serverHoldMs: 60_000 })), "promise");
    held.resolve();
    assert.throws(() => createServer({ name: "x", version: "1", holdMs: -1 }), {
      name: "TypeError",
      message: /holdMs/,
    });
    assert.throws(() => mcpLiteBinding({ holdMs: Number.NaN }), { name: "TypeError", message: /holdMs/ });
  });
});

describe("a held SSE call over a real listener", () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer({ name: "jobs", version: "1.0.0", secret: "held-headers-secret-0123456789abcdef" })
    .tool(
      defineTool("settle")
        .describe("Settles an account in the background, reporting nothing until it is done")
        .longRunning({ retryAfterMs: 20 })
        .handle((_args, ctx) =>
          ctx.defer(async () => {
            await released;
            return { settled: true };
          })
        ),
    );
  let http: Listener;
  before(async () => {
    http = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => http.close());

  it("sends its headers at once, not after the hold or the first heartbeat, so a proxy does not cut it", async () => {
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "settle", arguments: {} } };
    const responding = fetch(`http://127.0.0.1:${http.port}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(call),
    });
    // The job is held (holdMs 30 s, heartbeats every 15 s): the headers must come well before either.
    const response = await Promise.race([responding, sleep(5_000).then(() => undefined)]);
    assert.ok(response !== undefined, "no response headers within 5 s of a held call");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    release();
    const events = await readSse(response);
    const done = JSON.parse(events.find((e) => e.event === "done")!.data);
    assert.equal(done._meta.response_type, "answer");
    assert.deepEqual(done.structuredContent, { settled: true });
  });
});

describe("pushed promise updates on sockets", () => {
  const server = jobServer();
  let http: Listener;
  let grpc: GrpcListener;
  before(async () => {
    http = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 500 });
  });
  after(async () => {
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await grpc.close();
    await http.close();
  });

  it("gRPC CallToolStream (HTTP/2) sends progress messages, then the ANSWER", async () => {
    const client = createConnectClient(MCPLite, grpcOverH2(`http://127.0.0.1:${grpc.port}`));
    const messages = [];
    const saw = gated();
    for await (const response of client.callToolStream({ name: "crunch", arguments: { gated: true } })) {
      messages.push(response);
      const step = (response.result as { progress?: { progress?: number } } | undefined)?.progress?.progress;
      if (step !== undefined) saw(step);
    }
    assert.deepEqual(messages.slice(0, 2).map((m) => [m.meta, m.result]), [
      [undefined, { progress: { progress: 1, total: 2, message: "loading" } }],
      [undefined, { progress: { progress: 2, total: 2, message: "adding up" } }],
    ]);
    assert.equal(messages.length, 3);
    assert.equal(messages[2].meta?.responseType, 0); // ANSWER
    assert.deepEqual(messages[2].result?.structuredContent, { rows: 42 });
  });

  it("our client's stream() gets the progress and the result without redeeming, over MCP-lite and gRPC", async () => {
    const h2 = grpcOverH2(`http://127.0.0.1:${grpc.port}`);
    for (const transport of [createMcpliteTransport(`${http.url}/mcp-lite/v1`), grpcTransport(h2)]) {
      const calls: string[] = [];
      const client = createClient<typeof server>(transport);
      const progress: number[] = [];
      const saw = gated();
      const stream = client.stream("crunch", { gated: true }, {
        onProgress: (p) => (progress.push(p.progress), saw(p.progress)),
      });
      for await (const _ of stream) calls.push("partial");
      assert.deepEqual(await stream.result, { rows: 42 }, transport.wire);
      assert.deepEqual(progress, [1, 2], transport.wire);
      assert.deepEqual(calls, []);
    }
  });
});

describe("pushed promise updates over MCP-lite stdio", () => {
  it("a call with _meta.stream gets notifications/progress, then the answer", async () => {
    const piped = pipeServer(jobServer());
    const saw = gated();
    try {
      piped.send({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "crunch", arguments: { gated: true }, _meta: { stream: true } },
      });
      for (const step of [1, 2]) {
        await piped.next((m) =>
          m.method === "notifications/progress" && (m.params as { progress: number }).progress === step
        );
        saw(step);
      }
      const answer = await piped.answer(7);
      const result = answer.result as Record<string, any>;
      assert.equal(result._meta.response_type, "answer");
      assert.deepEqual(result.structuredContent, { rows: 42 });
      const progress = piped.messages.filter((m) => m.method === "notifications/progress").map((m) => m.params);
      assert.deepEqual(progress, [
        { requestId: 7, progress: 1, total: 2, message: "loading" },
        { requestId: 7, progress: 2, total: 2, message: "adding up" },
      ]);
    } finally {
      await piped.end();
    }
  });
});
