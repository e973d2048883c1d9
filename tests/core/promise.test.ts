import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tamper } from "../helpers/tamper.ts";
import * as v from "valibot";
import { type CallOutcome, defineTool } from "../../mod.ts";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import type { ErrorReporter } from "../../src/types.ts";
import { TokenError } from "../../src/codec/token-error.ts";
import { REPORT_INTERVAL_MS } from "../../src/core/instance/bounded-reports.ts";
import { createJobTools, jobServer, waitFor } from "../helpers/long-running.ts";
import { createClient } from "../../src/client/mod.ts";
import { callAny, final } from "../helpers/outcome.ts";
import { advanceClock, freezeClock, restoreClock } from "../helpers/clock.ts";

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise");
  return (outcome as Extract<CallOutcome, { kind: "promise" }>).token;
}

function isInvalidParams(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ErrorCode.InvalidParams;
}

describe("promises in process", () => {
  it("answers with a promise, then redeems until the continuation answers", async () => {
    const { server, counters } = jobServer();
    const first = await server.call("analyze_dataset", { dataset_id: "d1", polls: 3 });
    assert.equal(first.kind, "promise");
    if (first.kind !== "promise") return;
    assert.equal(first.retryAfterMs, 5);
    assert.equal(first.estimatedCompletion, "2030-01-01T00:00:00.000Z");
    assert.ok(Date.parse(first.expiresAt) > Date.now());
    let outcome: CallOutcome = first;
    let rounds = 0;
    while (outcome.kind === "promise" && rounds < 10) {
      outcome = await server.call("redeem", { promise: outcome.token });
      rounds++;
    }
    assert.equal(rounds, 3);
    assert.equal(outcome.kind, "answer");
    if (outcome.kind === "answer") assert.deepEqual(outcome.result.structuredContent, { dataset_id: "d1", rows: 42 });
    assert.deepEqual([counters.started, counters.redeemed], [1, 3]);
  });

  it("call() runs one call; the in-process client redeems by itself until the answer", async () => {
    const { server, counters } = jobServer();
    assert.equal((await server.call("analyze_dataset", { dataset_id: "d2", polls: 2 })).kind, "promise");
    const client = createClient(server);
    assert.deepEqual(await client.call("analyze_dataset", { dataset_id: "d2", polls: 2 }), {
      dataset_id: "d2",
      rows: 42,
    });
    assert.equal(counters.redeemed, 2);
  });

  it("lists redeem as a system tool once any tool is long-running", () => {
    const { server } = jobServer();
    const redeem = server.tools.find((t) => t.name === "redeem");
    assert.ok(redeem);
    assert.equal(redeem.category, "system");
    assert.deepEqual(redeem.input.jsonSchema.required, ["promise"]);
    assert.equal((redeem.input.jsonSchema.properties as Record<string, { type: string }>).promise.type, "string");
    assert.equal(server.tools.filter((t) => t.name === "redeem").length, 1);
  });

  it("redeems a token on another instance that shares the secret", async () => {
    const tools = createJobTools();
    const a = jobServer({}, tools).server;
    const b = jobServer({}, tools).server;
    const token = tokenOf(await a.call("analyze_dataset", { dataset_id: "shared", polls: 1 }));
    const outcome = final(await b.call("redeem", { promise: token }));
    assert.equal(outcome.kind, "answer");
  });

  it("refuses forged, foreign and expired tokens, and runs nothing", async () => {
    let now = Date.now();
    const { server, counters } = jobServer({ tokens: { now: () => now }, logger: false }); // bad tokens on purpose
    const token = tokenOf(await server.call("analyze_dataset", { dataset_id: "d" }));
    const foreign = tokenOf(
      await jobServer({ secret: "a different secret: 32 bytes or more!!" }).server.call("analyze_dataset", {
        dataset_id: "d",
      }),
    );
    const reports: unknown[] = [];
    const watched = jobServer({ onError: (e) => reports.push(e), tokens: { now: () => now } });
    for (const bad of [tamper(token), foreign, "prom_a7b9c2d4e6f8", token + "x"]) {
      await assert.rejects(watched.server.call("redeem", { promise: bad }), isInvalidParams);
    }
    // Each kind of refusal reaches onError (a forged and a foreign MAC are one kind: bad_mac).
    // Each kind of refusal reaches onError once (forged, foreign and lengthened tokens are all bad_mac).
    assert.deepEqual(reports.map((e) => (e as TokenError).reason), ["bad_mac", "malformed"]);
    now += 60 * 60 * 1000; // the default TTL is one hour
    await assert.rejects(
      server.call("redeem", { promise: token }),
      (e: ProtocolError) =>
        isInvalidParams(e) && e.message === "Invalid or expired promise token" &&
        (e.data as { reason: string }).reason === "invalid_promise",
    );
    assert.equal(counters.redeemed, 0);
  });

  it(
    "a flood of bad tokens reaches onError as one report per interval, which counts the rest",
    { timeout: 30_000 },
    async () => {
      const { server } = jobServer();
      const forged = tamper(tokenOf(await server.call("analyze_dataset", { dataset_id: "d" })));
      const reports: [unknown, Parameters<ErrorReporter>[2]][] = [];
      const watched = jobServer({ onError: (error, _call, report) => void reports.push([error, report]) });
      // The reports' clock stands still during the flood (which takes seconds on a loaded machine, over
      // several 5 s intervals), then moves past one interval: how many go out is exact, and nothing sleeps.
      freezeClock();
      try {
        for (let i = 0; i < 1_000; i++) {
          await assert.rejects(watched.server.call("redeem", { promise: forged }), isInvalidParams);
        }
        assert.equal(reports.length, 1, "one report per 5 s");
        assert.deepEqual(reports[0][1], { repeated: 0 });
        advanceClock(REPORT_INTERVAL_MS + 100);
        await assert.rejects(watched.server.call("redeem", { promise: forged }), isInvalidParams);
      } finally {
        restoreClock();
      }
      assert.equal(reports.length, 2);
      const total = reports.reduce((sum, [, report]) => sum + 1 + report!.repeated, 0);
      assert.equal(total, 1_001); // every refusal is counted once, in the report that went out after it
      assert.deepEqual(reports[1][1], { repeated: 999 });
      assert.ok(reports.every(([error]) => error instanceof TokenError && error.reason === "bad_mac"));
    },
  );

  it("binds a token to the authenticated caller", async () => {
    const { server } = jobServer({ logger: false }); // another caller's token on purpose: no error line
    server.use(async (call, next) => {
      const user = call.ctx.meta.headers.get("x-user");
      if (user) call.ctx.auth = { subject: user };
      return await next();
    });
    const token = tokenOf(
      await server.call("analyze_dataset", { dataset_id: "d", polls: 1 }, { headers: { "x-user": "alice" } }),
    );
    await assert.rejects(
      server.call("redeem", { promise: token }, { headers: { "x-user": "bob" } }),
      isInvalidParams,
    );
    await assert.rejects(server.call("redeem", { promise: token }), isInvalidParams);
    const outcome = final(await server.call("redeem", { promise: token }, { headers: { "x-user": "alice" } }));
    assert.equal(outcome.kind, "answer");
  });

  it("cancels a continuation through redeem with cancel: true", async () => {
    const { server, counters } = jobServer();
    const token = tokenOf(await server.call("analyze_dataset", { dataset_id: "d" }));
    const outcome = final(await server.call("redeem", { promise: token, cancel: true }));
    assert.equal(outcome.kind, "answer");
    assert.deepEqual([counters.cancelled, counters.redeemed], [1, 0]);
  });

  it("runs deferred work in process and keeps its result for redeem", async () => {
    const { server, counters, release } = jobServer();
    const token = tokenOf(await server.call("crunch", {}));
    const pending = await server.call("redeem", { promise: token });
    assert.equal(pending.kind, "promise");
    release(7);
    await waitFor(async () => (await server.call("redeem", { promise: token })).kind !== "promise");
    const outcome = final(await server.call("redeem", { promise: token }));
    assert.equal(outcome.kind, "answer");
    if (outcome.kind === "answer") assert.deepEqual(outcome.result.structuredContent, { rows: 7 });
    assert.equal(counters.started, 1);
    // Redeeming again gives the same result until it expires (a lost response can be retried).
    assert.equal((await server.call("redeem", { promise: token })).kind, "answer");
  });

  it("says a shared store is needed when another instance redeems deferred work", async () => {
    const tools = createJobTools();
    const a = jobServer({}, tools).server;
    const b = jobServer({}, tools).server;
    const token = tokenOf(await a.call("crunch", {}));
    await assert.rejects(
      b.call("redeem", { promise: token }),
      (e: ProtocolError) =>
        isInvalidParams(e) && /shared ResultStore/.test(e.message) &&
        (e.data as { reason: string }).reason === "result_not_found",
    );
    tools.release(1);
  });

  it("lets instances with a shared store redeem each other's deferred work", async () => {
    const { createMemoryResultStore } = await import("../../mod.ts");
    const shared = createMemoryResultStore();
    const tools = createJobTools();
    const a = jobServer({ resultStore: shared }, tools).server;
    const b = jobServer({ resultStore: shared }, tools).server;
    const token = tokenOf(await a.call("crunch", {}));
    assert.equal((await b.call("redeem", { promise: token })).kind, "promise");
    tools.release(3);
    await waitFor(async () => (await b.call("redeem", { promise: token })).kind === "answer");
  });

  it("aborts deferred work when its promise is cancelled", async () => {
    const { server } = jobServer();
    const token = tokenOf(await server.call("crunch", {}));
    assert.equal((await server.call("redeem", { promise: token, cancel: true })).kind, "answer");
    const after = final(await server.call("redeem", { promise: token }));
    assert.equal(after.kind, "failure");
    if (after.kind === "failure") assert.match(JSON.stringify(after.result.content), /cancelled/);
  });

  it("turns a failure of deferred work into an isError result", async () => {
    const { server, release } = jobServer({ logger: false }); // the work fails on purpose: no error line
    const token = tokenOf(await server.call("crunch", {}));
    release(-1);
    let outcome: CallOutcome | undefined;
    await waitFor(async () => (outcome = await server.call("redeem", { promise: token })).kind !== "promise");
    assert.equal(outcome?.kind, "failure");
  });

  it("makes a tool's mistakes its failures: a promise without .redeem(), defer without .longRunning()", async () => {
    const reports: unknown[] = [];
    const server = jobServer({ onError: (e) => reports.push(e) }).server
      .tool(defineTool("no_redeem").handle((_a, ctx) => ctx.promise({ state: 1 })))
      .tool(
        defineTool("no_decl").handle((_a, ctx) =>
          // @ts-expect-error a compile error in TypeScript (tests/tool/defer.test-d.ts); JavaScript gets here
          ctx.defer(() => 1)
        ),
      );
    for (const name of ["no_redeem", "no_decl"]) {
      const outcome = final(await callAny(server, name, {}));
      assert.equal(outcome.kind, "failure");
    }
    assert.equal(reports.length, 2);
  });

  it("fails the call when the state is too large for a token", async () => {
    const server = jobServer({ tokens: { maxBytes: 1024 }, logger: false }).server.tool( // too large on purpose
      defineTool("big").input(v.object({ n: v.number() }))
        .handle(({ n }, ctx) => ctx.promise({ state: "x".repeat(n) }))
        .redeem(() => "done"),
    );
    assert.equal((await server.call("big", { n: 10 })).kind, "promise");
    const outcome = final(await server.call("big", { n: 5000 }));
    assert.equal(outcome.kind, "failure");
    if (outcome.kind === "failure") assert.match(JSON.stringify(outcome.result.content), /over the limit of 1024/);
  });
});
