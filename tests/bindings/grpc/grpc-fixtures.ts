/**
 * What the gRPC tests share: the fixture server plus two tools that only these tests need (a probed
 * stream and a result that is not plain JSON), auth middleware driven by a header, and small waits.
 */
import assert from "node:assert/strict";
import * as v from "valibot";
import { ConnectError } from "@connectrpc/connect";
import { defineTool } from "../../../mod.ts";
import { ErrorCode, ProtocolError } from "../../../src/errors/mod.ts";
import type { Limits } from "../../../src/core/instance/budgets.ts";
import { attachListener, type ServerCore } from "../../../src/binding.ts";
import { budgetsOf } from "../../../src/core/instance/runtime.ts";
import { registryOf } from "../../../src/core/definitions/registry.ts";
import { grpcBinding } from "../../../src/bindings/grpc/mod.ts";
import { fixtureServer, sleep, withDefaults } from "../../helpers/fixtures.ts";
import { run } from "../../helpers/process.ts";

/** Streams `count` ticks, `delayMs` apart, recording how it ended. */
export const tickProbe = { started: 0, aborted: 0, finished: 0, pulled: 0 };
export const ticks = defineTool("ticks")
  .input(v.object({ count: v.number(), delayMs: v.optional(v.number(), 0) }))
  .stream(async function* ({ count, delayMs }, ctx) {
    tickProbe.started++;
    try {
      for (let i = 0; i < count; i++) {
        if (delayMs > 0) await sleep(delayMs, ctx.signal);
        tickProbe.pulled++;
        yield { tick: i };
      }
      tickProbe.finished++;
    } finally {
      if (ctx.signal.aborted) tickProbe.aborted++;
    }
  });

/** Returns a structured value with `undefined` keys and a date, as handlers do. */
export const loose = defineTool("loose").handle(() => ({
  a: 1,
  missing: undefined,
  at: new Date(0),
  list: [1, undefined],
}));

/** Answers with a promise, then another, then the result (so the server lists `redeem`). */
export const analyze = defineTool("analyze_dataset")
  .input(v.object({ n: v.number() }))
  .handle(({ n }, ctx) => ctx.promise({ state: { n, polls: 0 }, retryAfterMs: 5 }))
  .redeem((state, ctx) =>
    state.polls >= 1
      ? { doubled: state.n * 2 }
      : ctx.promise({ state: { n: state.n, polls: state.polls + 1 }, retryAfterMs: 5 })
  );

/**
 * A gate: its promise and what opens it. Not `Promise.withResolvers()`: node.test.ts bundles these fixtures into a
 * server that runs on the machine's Node, which may be Node 20 (withResolvers came in Node 22).
 */
function closedGate(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((opened) => resolve = opened);
  return { promise, resolve };
}
/** The gate `gated` calls wait at: opened by {@link openGate} (then closed again for later calls). */
let gate = closedGate();
/** How many calls of `gated` wait at the gate now. */
export const gatedProbe = { held: 0 };
/** Lets every call of `gated` waiting now answer. */
export function openGate(): void {
  gate.resolve();
  gate = closedGate();
}
/** Answers once the test opens its gate ({@link openGate}), or "cancelled" when cancelled: calls held at once. */
export const gated = defineTool("gated")
  .describe("Waits until the test opens its gate")
  .handle(async (_args, ctx) => {
    gatedProbe.held++;
    try {
      return await Promise.race([
        gate.promise.then(() => "opened"),
        new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("cancelled"))),
      ]);
    } finally {
      gatedProbe.held--;
    }
  });

/**
 * Counts the calls a server's budgets refuse (their `take` answering a refusal), from now on.
 *
 * @returns How many were refused so far.
 */
export function refusalsOf(server: object): () => number {
  const budgets = budgetsOf(registryOf(attachListener(server).core).runtime);
  const take = budgets.take.bind(budgets);
  let refused = 0;
  budgets.take = (name, amount, caller) => {
    const refusal = take(name, amount, caller);
    if (refusal !== undefined) refused++;
    return refusal;
  };
  return () => refused;
}

/** The fixture server (with the gRPC binding on its fetch), the tools above, and middleware failing on `x-test-auth: none|deny`. */
export function grpcServer(options: { maxBodyBytes?: number; bodyTimeoutMs?: number; limits?: Limits } = {}) {
  return fixtureServer({
    // The stress scenario is one client's load test: 500 calls at once, past a caller's default share of
    // `limits.calls` (tests/server/budgets*.test.ts and budgets.test.ts here test the shares).
    limits: { perCaller: false },
    logger: false, // `crashes` throws on purpose: no error line each
    ...options,
    secret: "grpc-test-secret-0123456789abcdef",
    bindings: withDefaults(grpcBinding()),
  }).tool(
    ticks,
  ).tool(loose).tool(analyze).use(
    async (call, next) => {
      const auth = call.ctx.meta.headers.get("x-test-auth");
      if (auth === "none") throw new ProtocolError(ErrorCode.Unauthenticated, "a token is required");
      if (auth === "deny") throw new ProtocolError(ErrorCode.PermissionDenied, "not for you");
      return await next();
    },
  );
}

/** Returns a server's core, as a binding receives it. */
export function coreOf(server: object): ServerCore {
  return attachListener(server).core;
}

/** Returns the error a call fails with. */
export async function rejection(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  assert.fail("expected the call to fail");
}

export { waitFor } from "../../helpers/long-running.ts";

export { ROOT, type Run, run } from "../../helpers/process.ts";

/** Runs a scenario of the grpc-js client under Node and returns what it saw. */
export async function grpcJs(address: string, scenario: string, channels = 1): Promise<Record<string, any>> {
  const out = await run("node", [
    "tests/bindings/grpc/clients/grpc-js-client.mjs",
    address,
    scenario,
    String(channels),
  ]);
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  assert.equal(report.error, undefined, report.error);
  return report;
}
