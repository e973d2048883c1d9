/**
 * Retries of thrown errors on the in-process engine (no queue): a tool's `retry` runs its work again when it throws
 * a retryable error, its completed steps read from the journal; `work.step(name, fn, { retry })` runs one step again;
 * a `NonRetryableError`, a `ToolError` and a refusal the work raised on purpose end the call at once; a step's failures
 * are journaled, so an instance that dies mid-retry leaves the next start only the runs left; deaths and thrown errors
 * share the tool's `attempts`; all of it for a tool grouped into another server (`group()`), and behind `proxy()`.
 * The same on workers, through a `kill -9`: tests/jobs/retry-worker.test.ts.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  runWorker,
  type ServerOptions,
} from "../../mod.ts";
import { NonRetryableError, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import type { PromiseRetry, WorkContext } from "../../src/types.ts";
import { killable, tokenOf } from "../helpers/instances.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { answered, ended, failedWith, redeemedWithin } from "../helpers/outcome.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";

/** The lease of the stopped-instance tests, in ms: a stopped instance's job starts again after about two. */
const LEASE_MS = 300;

/** Work held until the test ends (an instance that stopped never finishes it). */
let releases: (() => void)[] = [];
afterEach(() => {
  for (const release of releases) release();
  releases = [];
});
const held = () => new Promise<void>((resolve) => releases.push(resolve));

/** What the work did: runs of step a's fn, runs of b's fn (its tries), b's effect after success. */
interface Effects {
  a: number;
  tries: number;
  b: number;
}

/** How the `flaky` tool behaves. */
interface Flaky {
  /** The tool's `retry`. */
  readonly tool?: PromiseRetry;
  /** Step b's own `retry`. */
  readonly step?: PromiseRetry;
  /** b's fn throws on these tries (from 1). */
  readonly throwsOn: readonly number[];
  /** What b's fn throws (default a plain `Error`, a transient 503). */
  readonly error?: () => unknown;
  /** b's fn never ends on this try, as if its instance stopped inside it. */
  readonly hangsOn?: number;
}

/** A server with `flaky`: step a, then step b, whose fn throws on the tries `flaky.throwsOn`, then its effect. */
function flakyServer(effects: Effects, flaky: Flaky, options: Partial<ServerOptions> = {}) {
  const work = async (_: unknown, work: WorkContext) => {
    const a = await work.step("a", () => ++effects.a);
    const b = await work.step("b", async () => {
      const tries = ++effects.tries;
      if (tries === flaky.hangsOn) await held();
      if (flaky.throwsOn.includes(tries)) throw flaky.error?.() ?? new Error(`503 from the ledger (try ${tries})`);
      return ++effects.b;
    }, flaky.step && { retry: flaky.step });
    return { a, b, attempt: work.attempt };
  };
  const tool = defineTool("flaky").describe("Step a, then step b, which throws on some tries")
    .longRunning({ retryAfterMs: 5, ...(flaky.tool && { retry: flaky.tool }) })
    .defer(work);
  return createServer({ name: "retry", version: "1.0.0", secret: SECRET, logger: false, ...options }).tool(tool);
}

/** Calls `flaky` on `server` and waits for its end. */
async function callFlaky(server: ReturnType<typeof flakyServer>): Promise<CallOutcome> {
  return await ended(server, await server.call("flaky", {}));
}

/** `flakyServer`'s `flaky` served as `ledger.flaky` by a parent that groups it. */
function groupedFlaky(effects: Effects, flaky: Flaky, options: Partial<ServerOptions> = {}) {
  return createServer({ name: "parent", version: "1.0.0", secret: SECRET, logger: false, ...options })
    .group("ledger", flakyServer(effects, flaky));
}

/**
 * `tool` called on instance A of `serve`, which shares its store with instance B (a lease of `LEASE_MS`); A stops
 * once b's try 2 runs there (`flaky.hangsOn: 2`). The call's end, collected on B, and what the work did.
 */
async function diedOnTry2(
  serve: (effects: Effects, flaky: Flaky, options: Partial<ServerOptions>) => {
    call(name: string, args: unknown): Promise<CallOutcome>;
  },
  tool: string,
  flaky: Flaky,
) {
  const effects = { a: 0, tries: 0, b: 0 };
  const shared = createMemoryResultStore();
  const dying = killable(shared);
  const a = serve(effects, flaky, { resultStore: dying.store, leaseMs: LEASE_MS });
  const b = serve(effects, flaky, { resultStore: shared, leaseMs: LEASE_MS });
  const token = tokenOf(await a.call(tool, {}));
  await waitFor(() => effects.tries === 2); // try 2 runs on A
  dying.kill();
  return { outcome: await redeemedWithin(b, token, 30_000), effects };
}

describe("a tool's retry of thrown errors, in process", () => {
  it("with no logger, each retry of a step is one line on console.warn: the tool, the job, the step, what threw", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const lines: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
    try {
      // No `logger` given (the flaky server's `false` replaced by none): what an operator sees by default.
      const server = flakyServer(effects, { step: { attempts: 3 }, throwsOn: [1, 2] }, { logger: undefined });
      assert.deepEqual(answered(await callFlaky(server)), { a: 1, b: 1, attempt: 1 });
    } finally {
      console.warn = warn;
    }
    const retried = lines.filter((line) => line.includes("retried"));
    assert.equal(retried.length, 2, lines.join("\n"));
    for (const [i, line] of retried.entries()) {
      assert.match(line, new RegExp(`^mcplite: tool "flaky" retried \\(job [\\w-]+, step "b", retry ${i + 1}\\): `));
      assert.match(line, new RegExp(`Error: 503 from the ledger \\(try ${i + 1}\\)$`));
    }
  });

  it("a step that throws twice then succeeds, with retry { attempts: 3 }: one result, step a once, b's effect once", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const warned: unknown[] = [];
    const logger = { debug() {}, info() {}, warn: (fields: unknown) => void warned.push(fields), error() {} };
    const backoff = { type: "exponential", delayMs: 20 } as const;
    const server = flakyServer(effects, { tool: { attempts: 3, backoff }, throwsOn: [1, 2] }, { logger });
    assert.deepEqual(answered(await callFlaky(server)), { a: 1, b: 1, attempt: 3 });
    assert.deepEqual(effects, { a: 1, tries: 3, b: 1 });
    // Each retry is a warning in the server's log: the tool, the job, the step (none here: the work), what threw.
    assert.deepEqual(
      warned.map((line) => ({ ...line as object, job: typeof (line as { job?: unknown }).job })),
      [1, 2].map((retry) => ({
        tool: "flaky",
        job: "string",
        step: undefined,
        retry,
        error: `Error: 503 from the ledger (try ${retry})`,
      })),
    );
  });

  it("fails with the last error once every attempt threw", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const server = flakyServer(effects, { tool: { attempts: 3 }, throwsOn: [1, 2, 3, 4] });
    assert.equal(failedWith(await callFlaky(server)), "503 from the ledger (try 3)");
    assert.deepEqual(effects, { a: 1, tries: 3, b: 0 });
  });

  it("does not retry a NonRetryableError, a ToolError, or a refusal the work raised on purpose: the call fails at once", async () => {
    const finals: [string, () => unknown, RegExp][] = [
      ["NonRetryableError", () => new NonRetryableError("the card was declined"), /^the card was declined$/],
      ["ToolError", () => new ToolError("no such ledger"), /^no such ledger$/],
    ];
    for (const [name, error, message] of finals) {
      const effects = { a: 0, tries: 0, b: 0 };
      const server = flakyServer(effects, { tool: { attempts: 3 }, throwsOn: [1], error });
      assert.match(failedWith(await callFlaky(server)), message, name);
      assert.deepEqual(effects, { a: 1, tries: 1, b: 0 }, name);
    }
    const effects = { a: 0, tries: 0, b: 0 };
    const refused = () => new ProtocolError("invalid_arguments", "the ledger id is malformed");
    const server = flakyServer(effects, { tool: { attempts: 3 }, throwsOn: [1], error: refused });
    await assert.rejects(callFlaky(server), /the ledger id is malformed/);
    assert.deepEqual(effects, { a: 1, tries: 1, b: 0 });
  });

  it("retries a ProtocolError that says try later (unavailable)", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const later = () => new ProtocolError("unavailable", "the ledger is restarting");
    const server = flakyServer(effects, { tool: { attempts: 2 }, throwsOn: [1], error: later });
    assert.deepEqual(answered(await callFlaky(server)), { a: 1, b: 1, attempt: 2 });
  });

  it("deaths and thrown errors share the attempts: a throw, then a death, leaves a tool of 3 attempts one run", async () => {
    // Try 1 threw; try 2, attempt 2, runs on A when it stops.
    const { outcome, effects } = await diedOnTry2(flakyServer, "flaky", {
      tool: { attempts: 3 },
      throwsOn: [1],
      hangsOn: 2,
    });
    // B starts it again: its start is the second by the takeovers' count, its attempt the third with the failure.
    assert.deepEqual(answered(outcome), { a: 1, b: 1, attempt: 3 });
    assert.deepEqual(effects, { a: 1, tries: 3, b: 1 });
  });

  it("a restart in process that fails reports one error naming the tool, the job and its start, as a worker's", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const errors: Record<string, unknown>[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (fields: Record<string, unknown>) => void errors.push(fields),
    };
    const shared = createMemoryResultStore();
    const dying = killable(shared);
    const flaky: Flaky = { tool: { attempts: 2 }, hangsOn: 1, throwsOn: [2] };
    const a = flakyServer(effects, flaky, { resultStore: dying.store, leaseMs: LEASE_MS });
    const b = flakyServer(effects, flaky, { resultStore: shared, leaseMs: LEASE_MS, logger });
    const token = tokenOf(await a.call("flaky", {}));
    await waitFor(() => effects.tries === 1); // try 1 runs on A, which stops inside it
    dying.kill();
    const outcome = await redeemedWithin(b, token, 30_000); // B restarts it (attempt 2), where it throws
    assert.equal(outcome.kind, "failure", JSON.stringify(outcome));
    assert.equal(errors.length, 1, JSON.stringify(errors));
    const { err, ...fields } = errors[0];
    assert.match(String(err), /503 from the ledger \(try 2\)/);
    assert.deepEqual({ ...fields, job: typeof fields.job }, { tool: "flaky", job: "string", attempt: 2 });
  });

  it("a death after a throw with 2 attempts: the job ends stopped, the work not run a third time", async () => {
    const { outcome, effects } = await diedOnTry2(flakyServer, "flaky", {
      tool: { attempts: 2 },
      throwsOn: [1],
      hangsOn: 2,
    });
    assert.match(failedWith(outcome), /stopped before it finished \(2 attempts\)$/);
    assert.equal(effects.tries, 2);
  });
});

describe("a step's own retry, in process", () => {
  it("runs the step again, not the work: one result, step a once, b's effect once, still the first attempt", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const server = flakyServer(effects, {
      step: { attempts: 3, backoff: { type: "exponential", delayMs: 10 } },
      throwsOn: [1, 2],
    });
    assert.deepEqual(answered(await callFlaky(server)), { a: 1, b: 1, attempt: 1 });
    assert.deepEqual(effects, { a: 1, tries: 3, b: 1 });
  });

  it("fails the work with the step's last error once its attempts are used, and not a NonRetryableError's retry", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const server = flakyServer(effects, { step: { attempts: 2 }, throwsOn: [1, 2, 3] });
    assert.equal(failedWith(await callFlaky(server)), "503 from the ledger (try 2)");
    assert.equal(effects.tries, 2);
    const final = { a: 0, tries: 0, b: 0 };
    const error = () => new NonRetryableError("the card was declined");
    const refusing = flakyServer(final, { step: { attempts: 3 }, throwsOn: [1], error });
    assert.equal(failedWith(await callFlaky(refusing)), "the card was declined");
    assert.equal(final.tries, 1);
  });

  it("journals its failures: an instance that dies mid-retry leaves the next start only the runs left", async () => {
    // b may run twice: try 1 throws, try 2 never ends (its instance dies), so the next start has one run left, and
    // its throw (try 3) fails the step. Were the count lost, that start would retry, and try 4 would succeed.
    const flaky = { tool: { attempts: 2 }, step: { attempts: 2 }, throwsOn: [1, 3], hangsOn: 2 };
    const { outcome, effects } = await diedOnTry2(flakyServer, "flaky", flaky);
    assert.equal(failedWith(outcome), "503 from the ledger (try 3)");
    assert.deepEqual(effects, { a: 1, tries: 3, b: 0 });
  });

  it("refuses a step's retry out of its ranges, naming the step", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const server = flakyServer(effects, { step: { attempts: 0 }, throwsOn: [] });
    assert.match(failedWith(await callFlaky(server)), /^work\.step\("b"\): retry takes attempts 1–100/);
  });
});

describe("retries of a tool served through group() and proxy(), in process", () => {
  it("a grouped tool's retry and its step's retry: one result, step a once, b's effect once", async () => {
    const effects = { a: 0, tries: 0, b: 0 };
    const parent = groupedFlaky(effects, { tool: { attempts: 3 }, throwsOn: [1, 2] });
    assert.deepEqual(answered(await ended(parent, await parent.call("ledger.flaky", {}))), { a: 1, b: 1, attempt: 3 });
    assert.deepEqual(effects, { a: 1, tries: 3, b: 1 });
    const stepped = { a: 0, tries: 0, b: 0 };
    const byStep = groupedFlaky(stepped, { step: { attempts: 3 }, throwsOn: [1, 2] });
    assert.deepEqual(answered(await ended(byStep, await byStep.call("ledger.flaky", {}))), { a: 1, b: 1, attempt: 1 });
    assert.deepEqual(stepped, { a: 1, tries: 3, b: 1 });
    const final = { a: 0, tries: 0, b: 0 };
    const refusing = groupedFlaky(final, {
      tool: { attempts: 3 },
      throwsOn: [1],
      error: () => new NonRetryableError("the card was declined"),
    });
    assert.equal(failedWith(await ended(refusing, await refusing.call("ledger.flaky", {}))), "the card was declined");
    assert.deepEqual(final, { a: 1, tries: 1, b: 0 });
  });

  it("a grouped tool whose instance dies after a throw: another instance runs it again, attempts shared", async () => {
    const flaky = { tool: { attempts: 3 }, throwsOn: [1], hangsOn: 2 };
    const { outcome, effects } = await diedOnTry2(groupedFlaky, "ledger.flaky", flaky);
    assert.deepEqual(answered(outcome), { a: 1, b: 1, attempt: 3 });
    assert.deepEqual(effects, { a: 1, tries: 3, b: 1 });
  });

  it("a grouped tool on a queue: the worker retries the tool and the step, and fails a NonRetryableError at once", async () => {
    const cases = [
      [{ tool: { attempts: 3 }, throwsOn: [1, 2] }, { a: 1, b: 1, attempt: 3 }],
      [{ step: { attempts: 3 }, throwsOn: [1, 2] }, { a: 1, b: 1, attempt: 1 }],
      [
        { tool: { attempts: 3 }, throwsOn: [1], error: () => new NonRetryableError("the card was declined") },
        undefined,
      ],
    ] as const;
    for (const [flaky, answer] of cases) {
      const effects = { a: 0, tries: 0, b: 0 };
      const { queue } = memoryQueue();
      const parent = groupedFlaky(effects, flaky, { queue, resultStore: createMemoryResultStore() });
      const worker = runWorker(parent);
      try {
        const outcome = await ended(parent, await parent.call("ledger.flaky", {}));
        if (answer === undefined) assert.equal(failedWith(outcome), "the card was declined");
        else assert.deepEqual(answered(outcome), answer, JSON.stringify(flaky));
        assert.deepEqual(effects, { a: 1, tries: answer === undefined ? 1 : 3, b: answer?.b ?? 0 });
      } finally {
        await worker.close();
      }
    }
  });

  it("a proxied tool whose remote retries (the tool's, then a step's), on MCP-lite and MCP: the caller gets one result, or the final error", async () => {
    const flakies = [[{ tool: { attempts: 3 } }, 3], [{ step: { attempts: 3 } }, 1]] as const;
    for (const transport of ["mcp-lite", "mcp"] as const) {
      for (const [flaky, attempt] of flakies) {
        const effects = { a: 0, tries: 0, b: 0 };
        const remote = flakyServer(effects, { ...flaky, throwsOn: [1, 2] });
        const gateway = createServer({ name: "gateway", version: "1.0.0", secret: SECRET, logger: false })
          .group("ledger", await proxy(createClient(remote, { transport })));
        const outcome = await ended(gateway, await gateway.call("ledger.flaky", {}));
        const on = `${transport}: ${JSON.stringify(flaky)}`;
        assert.deepEqual(answered(outcome), { a: 1, b: 1, attempt }, on);
        assert.deepEqual(effects, { a: 1, tries: 3, b: 1 }, on);
      }
      const final = { a: 0, tries: 0, b: 0 };
      const error = () => new NonRetryableError("the card was declined");
      const refusing = flakyServer(final, { tool: { attempts: 3 }, throwsOn: [1], error });
      const gateway = createServer({ name: "gateway", version: "1.0.0", secret: SECRET, logger: false })
        .group("ledger", await proxy(createClient(refusing, { transport })));
      const outcome = await ended(gateway, await gateway.call("ledger.flaky", {}));
      assert.equal(failedWith(outcome), "the card was declined", transport);
      assert.deepEqual(final, { a: 1, tries: 1, b: 0 }, transport);
    }
  });
});
