/**
 * `streamCall`, the one streaming driver every streaming wire encodes (MCP-lite SSE, stdio and
 * WebSocket, gRPC `CallToolStream`): a call in, its events out — progress and logs, partials, the
 * deferred work's pushed progress (MCP-lite spec v0.042 §5.3), then the final outcome — and a client
 * that goes away (the call's signal, or a reader that stops) cancels the call.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { attachListener } from "../../src/server/listener.ts";
import { registryOf as registryOfCore } from "../../src/core/definitions/registry.ts";
import { type CallEvent, streamCall, type StreamedCall } from "../../src/core/call/stream-call.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function registryOf(...tools: Parameters<ReturnType<typeof createServer>["tool"]>[0][]) {
  const server = createServer({ name: "stream", version: "1.0.0", secret: "stream-call-secret-0123456789abcdef" });
  for (const tool of tools) server.tool(tool);
  return registryOfCore(attachListener(server).core);
}

function call(name: string, args: unknown, signal: AbortSignal = new AbortController().signal): StreamedCall {
  return { name, arguments: args, meta: { wire: "in-process", headers: new Headers() }, signal };
}

async function collect(events: AsyncIterable<CallEvent>): Promise<CallEvent[]> {
  const all: CallEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("streamCall", () => {
  it("yields a plain call's outcome as its one event", async () => {
    const registry = registryOf(
      defineTool("add").describe("add").input(v.object({ a: v.number(), b: v.number() })).handle(
        ({ a, b }) => String(a + b),
      ),
    );
    const events = await collect(streamCall(registry, call("add", { a: 1, b: 2 }), { holdMs: 0 }));
    assert.deepEqual(events, [{
      type: "outcome",
      outcome: { kind: "answer", result: { content: [{ type: "text", text: "3" }] } },
    }]);
  });

  it("yields a call's progress, logs and partials in order, then the outcome", async () => {
    const registry = registryOf(
      defineTool("count").describe("count").stream(async function* (_args, ctx) {
        ctx.progress(1, 2, "half");
        yield "a";
        ctx.log("info", "between");
        yield "b";
      }),
    );
    const events = await collect(streamCall(registry, call("count", {}), { holdMs: 0 }));
    assert.deepEqual(events.map((e) => e.type), ["progress", "partial", "log", "partial", "outcome"]);
    assert.deepEqual(events[0], { type: "progress", progress: 1, total: 2, message: "half", pushed: false });
    assert.deepEqual(events.filter((e) => e.type === "partial").map((e) => e.type === "partial" && e.partial), [
      "a",
      "b",
    ]);
    const last = events.at(-1)!;
    assert.ok(last.type === "outcome" && last.outcome.kind === "answer");
    assert.deepEqual(last.outcome.result.content, [{ type: "text", text: "ab" }]);
  });

  it("follows the deferred work a call started: its pushed progress, then its result as the outcome", async () => {
    // The work goes on only once the stream has delivered its last progress: pushed progress is the latest state
    // (two reports between two reads come as the later one), so the order is what is asserted, not the timing.
    let delivered = () => {};
    const next = () => new Promise<void>((resolve) => delivered = resolve);
    const registry = registryOf(
      defineTool("crunch").describe("crunch").longRunning({ retryAfterMs: 10 }).handle((_args, ctx) =>
        ctx.defer(async () => {
          const first = next();
          ctx.progress(1, 2, "loading");
          await first;
          const second = next();
          ctx.progress(2, 2, "adding up");
          await second;
          return { rows: 42 };
        })
      ),
    );
    const events: CallEvent[] = [];
    for await (const event of streamCall(registry, call("crunch", {}), { holdMs: 20_000 })) {
      events.push(event);
      if (event.type === "progress") delivered();
    }
    // `held` first: the following has begun, so no refusal of the caller can come (an HTTP stream opens).
    assert.deepEqual(events.map((e) => e.type), ["held", "progress", "progress", "outcome"]);
    assert.ok(events.slice(1, 3).every((e) => e.type === "progress" && e.pushed));
    const last = events.at(-1)!;
    assert.ok(last.type === "outcome" && last.outcome.kind === "answer");
    assert.deepEqual(last.outcome.result.structuredContent, { rows: 42 });
    // Without a hold, the promise is the outcome (its work, never released, is left behind unread).
    const held = await collect(streamCall(registry, call("crunch", {}), { holdMs: 0 }));
    assert.equal(held.length, 1);
    assert.ok(held[0].type === "outcome" && held[0].outcome.kind === "promise");
  });

  it("cancels the call when its signal aborts, and when the reader stops before the outcome", async () => {
    let seen: AbortSignal | undefined;
    const registry = registryOf(
      defineTool("endless").describe("endless").stream(async function* (_args, ctx) {
        seen = ctx.signal;
        for (let i = 0; i < 1_000; i++) {
          yield i;
          await sleep(5); // the stream's own work between values
        }
      }),
    );
    const client = new AbortController();
    const events: CallEvent[] = [];
    for await (const event of streamCall(registry, call("endless", {}, client.signal), { holdMs: 0 })) {
      events.push(event);
      if (events.length === 2) client.abort(new Error("the client went away"));
    }
    assert.equal(seen?.aborted, true);
    assert.ok(events.length < 6, `stopped early: ${events.length} events`);
    const last = events.at(-1)!;
    assert.ok(last.type === "outcome" && last.outcome.kind === "failure");

    seen = undefined;
    for await (const event of streamCall(registry, call("endless", {}), { holdMs: 0 })) {
      assert.equal(event.type, "partial");
      break; // the reader stops
    }
    assert.equal(seen!.aborted, true);
  });
});
