/**
 * The server's budgets on each carrier, in process and over sockets: held calls (`heldStreams`) past
 * the budget answer their promise at once, for the instance and for one caller's share; deferred jobs
 * (`jobs`) past it refuse the call `rate_limited` with `Retry-After`, starting nothing; calls in flight on
 * a WebSocket and on stdio past `calls` are answered -32029 with `retryAfterMs`; `serveGrpc()` refuses a call past
 * `calls` `RESOURCE_EXHAUSTED` with `retry-after`; and the client sends a refused request again after the
 * server's hint (429 on MCP-lite, 503 on MCP, `RESOURCE_EXHAUSTED` on gRPC).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Limits } from "../../src/types.ts";
import { attachListener } from "../../src/server/listener.ts";
import { budgetsOf } from "../../src/core/instance/runtime.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { grpcBinding, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import type { RetryEvent } from "../../src/client/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { readSse } from "../helpers/sse.ts";
import { TestSocket } from "../websocket/socket.ts";
import { pipeServer } from "../helpers/stdio.ts";

/** A server whose `later` defers work until `release()`, and whose `slow` answers after it (once released, at once). */
function gatedServer(limits: Limits) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const server = createServer({
    name: "budgets",
    version: "1.0.0",
    secret: SECRET,
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding(), grpcBinding()],
    limits: { callerKey: (request) => request.headers.get("x-caller") ?? undefined, ...limits },
  })
    .tool(
      defineTool("later").describe("Finishes in the background once released").longRunning({ retryAfterMs: 5 })
        .handle((_args, ctx) => ctx.defer(async () => (await gate, "finished"))),
    )
    .tool(
      defineTool("slow").describe("Answers once released").input(v.object({})).handle(async () => {
        await gate;
        return "done";
      }),
    );
  const budgets = budgetsOf(registryOf(attachListener(server).core).runtime);
  return { server, budgets, release };
}

const sse = (caller: string) => ({ accept: "text/event-stream", "x-caller": caller });

/** How a streamed call ended (its `done` event): held, with the work's result; or with the promise, at once. */
async function outcomeOf(response: Response): Promise<"held" | "promise"> {
  const done = JSON.parse((await readSse(response)).at(-1)!.data);
  if (done._meta.response_type === "answer") {
    assert.equal(done.content[0].text, "finished");
    return "held";
  }
  assert.equal(done._meta.response_type, "promise");
  return "promise";
}

describe("heldStreams", () => {
  it("answers the promise at once past the caller's share and past the instance's budget", async () => {
    const { server, budgets, release } = gatedServer({ heldStreams: 2, perCaller: { heldStreams: 1 } });
    const call = (caller: string) => server.fetch(post("/mcp-lite/v1/calltools", toolsCall("later", {}), sse(caller)));
    // A held call's answer starts when the work ends (or at the first keep-alive): not awaited here.
    const ada = call("ada");
    await waitFor(() => budgets.inUse.heldStreams === 1);
    const adaAgain = await call("ada"); // past ada's share
    const grace = call("grace");
    await waitFor(() => budgets.inUse.heldStreams === 2);
    const alan = await call("alan"); // past the instance's budget
    assert.equal(await outcomeOf(adaAgain), "promise");
    assert.equal(await outcomeOf(alan), "promise");
    assert.equal(budgets.refused.heldStreams, 2);
    release();
    assert.deepEqual([await outcomeOf(await ada), await outcomeOf(await grace)], ["held", "held"]);
    await waitFor(() => budgets.inUse.heldStreams === 0 && budgets.inUse.calls === 0);
  });
});

describe("jobs", () => {
  it("refuses a call that would start a job past the budget with 429 and Retry-After, and starts nothing", async () => {
    const { server, budgets, release } = gatedServer({ jobs: 2, perCaller: { jobs: 1 }, retryAfterMs: 2_000 });
    const call = (caller: string) =>
      server.fetch(post("/mcp-lite/v1/calltools", toolsCall("later", {}), { "x-caller": caller }));
    assert.equal((await call("ada")).status, 200);
    const refused = await call("ada");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "2");
    const body = await refused.json();
    assert.equal(body.error.code, -32029);
    assert.deepEqual(body.error.data, {
      code: "rate_limited",
      limit: "jobs",
      scope: "caller",
      retryAfterMs: 2_000,
      processed: false,
    });
    assert.equal((await call("grace")).status, 200);
    const full = await call("alan");
    assert.equal((await full.json()).error.data.scope, "instance");
    assert.equal(budgets.inUse.jobs, 2);
    release();
    await waitFor(() => budgets.inUse.jobs === 0);
    assert.equal((await call("ada")).status, 200);
  });
});

describe("calls", () => {
  it("refuses a request past the budget before reading its body: 503 for the instance, 429 for a caller", async () => {
    const { server, budgets, release } = gatedServer({ calls: 3, perCaller: { calls: 2 } });
    const call = (caller: string) =>
      server.fetch(post("/mcp-lite/v1/calltools", toolsCall("slow", {}), { "x-caller": caller }));
    const running = [call("ada"), call("ada")];
    await waitFor(() => budgets.inUse.calls === 2);
    const refused = await call("ada");
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    running.push(call("grace"));
    await waitFor(() => budgets.inUse.calls === 3);
    // On MCP too, with the request's body never read.
    const unread = post("/mcp", toolsCall("slow", {}), {
      accept: "application/json, text/event-stream",
      "x-caller": "alan",
    });
    const full = await server.fetch(unread);
    assert.equal(full.status, 503);
    assert.equal(full.headers.get("retry-after"), "1");
    assert.equal(unread.bodyUsed, false);
    assert.equal((await full.json()).error.data.scope, "instance");
    release();
    for (const response of await Promise.all(running)) assert.equal(response.status, 200);
    assert.equal(budgets.inUse.calls, 0);
  });

  it("counts a WebSocket's calls in flight, answering -32029 with retryAfterMs past the budget", async () => {
    const { server, budgets, release } = gatedServer({ calls: 2, perCaller: false });
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const socket = await TestSocket.open(`${listener.url.replace("http", "ws")}/mcp-lite/v1/ws`);
    try {
      socket.send(toolsCall("slow", {}, 1));
      socket.send(toolsCall("slow", {}, 2));
      await waitFor(() => budgets.inUse.calls === 2);
      socket.send(toolsCall("slow", {}, 3));
      const refused = await socket.answer(3);
      assert.equal(refused.error.code, -32029);
      assert.equal(refused.error.data.retryAfterMs, 1_000);
      assert.equal(refused.error.data.processed, false);
      release();
      assert.equal((await socket.answer(1)).result.content[0].text, "done");
      assert.equal((await socket.answer(2)).result.content[0].text, "done");
      await waitFor(() => budgets.inUse.calls === 0);
    } finally {
      await socket.close();
      await listener.close();
    }
  });

  it("counts stdio's calls in flight, answering -32029 past the budget, and gives them back as they answer", async () => {
    const { server, budgets, release } = gatedServer({ calls: 1 });
    const piped = pipeServer(server);
    try {
      piped.send(toolsCall("slow", {}, 1));
      await waitFor(() => budgets.inUse.calls === 1);
      piped.send(toolsCall("slow", {}, 2));
      const refused = await piped.next((message) => message.id === 2);
      assert.equal((refused.error as { code: number }).code, -32029);
      assert.equal((refused.error as { data: { limit: string } }).data.limit, "calls");
      release();
      assert.ok((await piped.next((message) => message.id === 1)).result);
      await waitFor(() => budgets.inUse.calls === 0);
      piped.send(toolsCall("slow", {}, 3));
      assert.ok((await piped.next((message) => message.id === 3)).result);
    } finally {
      await piped.stdio.close();
    }
  });

  it("serveGrpc(): RESOURCE_EXHAUSTED with retry-after past the budget; the client retries after it", async () => {
    const { server, budgets, release } = gatedServer({ calls: 1, perCaller: false, retryAfterMs: 50 });
    const listener = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
    try {
      const transport = () => grpcTransport(grpcOverH2(listener.url));
      const first = createClient(transport(), { retry: false });
      const running = first.call("slow", {});
      await waitFor(() => budgets.inUse.calls === 1);
      const refused: any = await createClient(transport(), { retry: false }).call("slow", {}).catch((error) => error);
      assert.equal(refused.data.grpcCode, "ResourceExhausted");
      assert.equal(refused.cause.metadata.get("retry-after"), "1");
      // Refused once: the direct path decides, the listener that answers does not take the budget again.
      assert.equal(budgets.refused.calls, 1);
      const retries: RetryEvent[] = [];
      const patient = createClient(transport(), {
        retry: { maxAttempts: 5, onRetry: (retry) => (retries.push(retry), retries.length === 1 && release()) },
      });
      assert.equal(await patient.call("slow", {}), "done");
      assert.ok(retries.length >= 1 && retries[0].delayMs === 50, JSON.stringify(retries.map((r) => r.delayMs)));
      assert.equal(await running, "done");
      await Promise.all([first.close(), patient.close()]);
      await waitFor(() => budgets.inUse.calls === 0); // every call gave its budget back when its stream closed
    } finally {
      release();
      closeClientSessions();
      await listener.close();
    }
  });
});

describe("the client's retry of a budget's refusal", () => {
  for (
    const [wire, path, limits, status] of [
      ["mcp-lite", "/mcp-lite/v1", { calls: 4, perCaller: { calls: 1 }, retryAfterMs: 50 }, 429],
      ["mcp", "/mcp", { calls: 1, perCaller: false, retryAfterMs: 50 }, 503],
    ] as const
  ) {
    it(`${wire}: a call refused ${status} before it ran is sent again after retryAfterMs`, async () => {
      const { server, budgets, release } = gatedServer(limits);
      const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
      try {
        const first = createClient(listener.url + path, { transport: wire, retry: false });
        const running = first.call("slow", {});
        await waitFor(() => budgets.inUse.calls > 0);
        const retries: RetryEvent[] = [];
        const patient = createClient(listener.url + path, {
          transport: wire,
          retry: { maxAttempts: 5, onRetry: (retry) => (retries.push(retry), retries.length === 1 && release()) },
        });
        assert.equal(await patient.call("slow", {}), "done");
        assert.ok(retries.length >= 1, "no retry");
        assert.equal(retries[0].error.status, status);
        assert.equal(retries[0].delayMs, 50);
        assert.equal(await running, "done");
        await Promise.all([first.close(), patient.close()]);
      } finally {
        release();
        await listener.close();
      }
    });
  }
});
