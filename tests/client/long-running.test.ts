/**
 * The client finishing long-running and multi-step calls on our server over MCP-lite: promises
 * redeemed with the `redeem` tool, handles resumed later, deferred work, and elicitation rounds
 * answered through the user's handlers.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../src/errors/mod.ts";
import { jobServer, waitFor } from "../helpers/long-running.ts";
import { recordTimers } from "../helpers/recorded-timers.ts";

/** `server` as a client's target, counting the `redeem` calls that reach it. */
function countingRedeems(server: { fetch(request: Request): Response | Promise<Response> }) {
  let redeems = 0;
  return {
    redeems: () => redeems,
    target: {
      async fetch(request: Request) {
        const body = await request.clone().json().catch(() => undefined);
        if (body?.params?.name === "redeem") redeems++;
        return await server.fetch(request);
      },
    },
  };
}

const handlers = {
  onElicit: (request: { message: string }) => ({
    action: "accept" as const,
    content: request.message.startsWith("Who") ? { name: "Ada" } : { ok: true },
  }),
  onRoots: () => [{ uri: "file:///srv", name: "srv" }],
};

describe("client: long-running calls over MCP-lite", () => {
  it("redeems a promise until the answer, waiting retry_after_ms between redeems", async () => {
    const { server, counters } = jobServer();
    const client = createClient(server, { transport: "mcp-lite" });
    const timers = recordTimers();
    let rows: number;
    try {
      ({ rows } = await client.call("analyze_dataset", { dataset_id: "d1", polls: 3 }));
    } finally {
      timers.restore();
    }
    assert.equal(rows, 42);
    assert.equal(counters.started, 1);
    assert.equal(counters.redeemed, 3);
    // The waits the client chose (the timers it set), not the time a loaded machine took.
    assert.ok(
      timers.delays.filter((ms) => ms === 5).length >= 3,
      `three waits of retry_after_ms (5 ms): ${timers.delays}`,
    );
  });

  it("returns the raw promise with wait: false, and resumes it later", async () => {
    const { server, counters } = jobServer();
    const client = createClient(server, { transport: "mcp-lite" });
    const handle = await client.call("analyze_dataset", { dataset_id: "d2" }, { wait: false });
    assert.equal(handle.kind, "promise");
    if (handle.kind !== "promise") return;
    assert.equal(typeof handle.token, "string");
    assert.equal(handle.retryAfterMs, 5);
    assert.equal(handle.estimatedCompletion, "2030-01-01T00:00:00.000Z");
    assert.equal(counters.redeemed, 0);
    assert.deepEqual(await client.resume(handle), { dataset_id: "d2", rows: 42 });
    assert.equal(counters.redeemed, 2);
  });

  it("waits for deferred work in the server's result store", async () => {
    const { server, release } = jobServer();
    const counted = countingRedeems(server);
    const client = createClient(counted.target, { transport: "mcp-lite", redeemBackoff: { initialMs: 5, maxMs: 20 } });
    const call = client.call("crunch", {});
    await waitFor(() => counted.redeems() >= 2); // it redeemed while the work ran
    release(7);
    assert.deepEqual(await call, { rows: 7 });
  });

  it("stops redeeming when the caller aborts", async () => {
    const { server, counters } = jobServer();
    const counted = countingRedeems(server);
    const client = createClient(counted.target, { transport: "mcp-lite" });
    const controller = new AbortController();
    const call = client.call("crunch", {}, { signal: controller.signal });
    await waitFor(() => counted.redeems() >= 1); // redeeming
    controller.abort(new Error("gave up"));
    await assert.rejects(call, /gave up/);
    const [redeems, requests] = [counters.redeemed, counted.redeems()];
    // About time: that no redeem follows is seen only over a while (the redeems were 5 ms apart).
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(counters.redeemed, redeems);
    assert.equal(counted.redeems(), requests, "no redeem after the abort");
  });

  it("answers elicitation and roots rounds, each step running once", async () => {
    const { server, counters } = jobServer();
    const asked: string[] = [];
    const client = createClient(server, {
      transport: "mcp-lite",
      onElicit: (request, context) => {
        assert.ok(context.signal instanceof AbortSignal);
        asked.push(request.message);
        return handlers.onElicit(request);
      },
      onRoots: handlers.onRoots,
    });
    const trip = await client.call("book_trip", { city: "Oslo" });
    assert.deepEqual(trip, { hold: "H-1", charge: 1, city: "Oslo", name: "Ada", confirmed: true, roots: 1 });
    assert.deepEqual(asked, ["Who travels?", "Book Oslo for Ada?"]);
    assert.equal(counters.holds, 1);
    assert.equal(counters.charges, 1);
  });

  it("fails with input_required when no handler can answer", async () => {
    const { server } = jobServer();
    const client = createClient(server, { transport: "mcp-lite" });
    await assert.rejects(client.call("book_trip", { city: "Oslo" }), (error: unknown) => {
      assert.ok(error instanceof McpliteError && !(error instanceof ProtocolError));
      assert.equal(error.code, ErrorCode.InputRequired);
      assert.match(error.message, /onElicit/);
      return true;
    });
  });
});
