/**
 * Calls their callers give up on are counted, not reported: `onError` hears nothing of them (a caller can
 * abort at will, and would flood it), and `mcplite.server.calls.aborted` counts them, for a tool of the
 * server's own and for one proxied from a remote.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { CallContext } from "../../src/core/call/call-context.ts";
import { otelBudgets } from "../../src/otel/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";
import { type Recorded, registerSdk } from "./telemetry.ts";

const N = 10;

describe("aborted calls", () => {
  let recorded: Recorded;
  before(() => recorded = registerSdk());
  after(async () => await recorded.close());

  it("are counted in mcplite.server.calls.aborted, never reported to onError (native and proxied)", async () => {
    let started = 0;
    /** A tool that runs until its caller gives up, then throws what the signal says. */
    const waiting = () =>
      defineTool("wait").describe("Waits for its caller to give up").input(v.object({})).handle(
        async (_args: Record<string, never>, ctx: CallContext) => {
          started++;
          await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
        },
      );
    const remote = createServer({ name: "remote", version: "1.0.0" }).tool(waiting());
    const reported: unknown[] = [];
    const stop = new AbortController();
    const gateway = createServer({ name: "gateway", version: "1.0.0", onError: (e) => void reported.push(e) })
      .tool(waiting())
      .group("far", await proxy(createClient(remote), { refreshMs: 0, signal: stop.signal }));
    const stopObserving = otelBudgets(gateway);
    const aborted = async () => {
      const points = await recorded.histogram("mcplite.server.calls.aborted");
      return points[0]?.value as unknown as number | undefined;
    };
    try {
      for (const tool of ["wait", "far.wait"]) {
        for (let i = 0; i < N; i++) {
          const before = started;
          const caller = new AbortController();
          const answer = gateway.fetch(
            new Request(post("/mcp-lite/v1/calltools", toolsCall(tool, {})), { signal: caller.signal }),
          ).catch(() => undefined);
          await waitFor(() => started > before);
          caller.abort();
          await answer;
        }
      }
      await waitFor(async () => await aborted() === 2 * N);
      assert.deepEqual(reported, []);
    } finally {
      stopObserving();
      stop.abort();
    }
  });
});
