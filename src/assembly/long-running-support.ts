/**
 * `longRunning`: the long-running support a server plugs in (MCP-lite spec v0.042 §3.5 promises, §3.6
 * the `redeem` system tool, §5.3 pushed updates; MCP 2026-07-28 tasks). `createServer` of
 * `@mcplite/sdk` always passes it; a server from `@mcplite/sdk/lite` has it only when given it, so that
 * a bundle without long-running tools leaves out the job runner, its store and leases, `redeem` and the
 * following of tasks.
 *
 * @module
 */
import { Continuations, type ContinuationsOptions } from "../jobs/continuations.ts";
import type { LongRunning } from "../core/definitions/registry.ts";
import { pushedOutcome } from "../jobs/follow-promise.ts";
import { promiseOutcome } from "../jobs/promise-outcome.ts";
import { createRedeemTool } from "../tool/redeem-tool.ts";
import { admitTool } from "../jobs/declared-work.ts";
import { takeJobsHere } from "../jobs/worker/jobs-here.ts";
import { type Capability, capability } from "../server/server-capability.ts";

/**
 * Long-running support, for `createServer({ longRunning })` of `@mcplite/sdk/lite` (that of
 * `@mcplite/sdk` has it already): tools may then answer "not done yet" with `ctx.promise()` and
 * `.redeem()`, or `ctx.defer()` after `.longRunning()`, and the server lists the `redeem` tool.
 *
 * Opaque: the server runs it with its token, store and lease options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, longRunning } from "../lite/mod.ts";
 *
 * const report = defineTool("report")
 *   .describe("Builds a report, later")
 *   .input(v.object({ id: v.string() }))
 *   .handle(({ id }, ctx) => ctx.promise({ state: { id } }))
 *   .redeem(({ id }) => `report ${id}`);
 * const server = createServer({ name: "reports", version: "1.0.0", longRunning }).tool(report);
 * const first = await server.call("report", { id: "q3" });
 * assert.equal(first.kind, "promise");
 * if (first.kind === "promise") {
 *   const redeemed = await server.call("redeem", { promise: first.token });
 *   assert.equal(redeemed.kind, "answer");
 * }
 * ```
 */
export const longRunning: Capability<"longRunning"> = /* @__PURE__ */ capability("longRunning", makeLongRunning);

/** The deferred-work machinery and what the wires call, made with the server's options. */
function makeLongRunning(options: ContinuationsOptions): LongRunning {
  const continuations = new Continuations(options);
  return {
    continuations,
    redeemTool: createRedeemTool,
    // A queue kept in the store has no flow control's priority and deduplication: such tools need a queue server.
    admit: (tool) => admitTool(tool, continuations.ownsQueue ? undefined : continuations.queue),
    promised: promiseOutcome,
    follow: pushedOutcome,
    serve: takeJobsHere,
  };
}
