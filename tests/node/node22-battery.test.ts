/**
 * The reliability battery's in-process scenarios on Node 22 itself (`node --test`, from the sources):
 * three instances on one redis-server take no DPoP proof twice across its `kill -9` and an empty restart,
 * a flood of 1,000 bad promise tokens reaches `onError` as one report per interval counting the rest, and
 * `__proto__` keys sent over every wire reach no prototype (Node has the `__proto__` accessor Deno lacks).
 * Bun and Deno run the same files directly; the other scenarios start Node 22 servers of their own.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";

/** Runs test files on Node 22's test runner (TAP), the tests whose names match `pattern` only. */
async function onNode22(node: string, files: string[], pattern: string): Promise<string> {
  const done = await run(node, ["--test", "--test-reporter=tap", `--test-name-pattern=${pattern}`, ...files], 240_000);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /^# fail 0$/m);
  return done.stdout; // a test passed is "ok N - name" alone on its line; skipped, it ends "# SKIP"
}

describe("the battery's in-process scenarios on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("takes no DPoP proof twice across a redis-server kill -9 and an empty restart, three instances", {
    timeout: 300_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
    const tap = await onNode22(node, [`${ROOT}tests/auth/dpop-replay.test.ts`], "kill -9 and an empty restart");
    assert.match(
      tap,
      /^\s*ok \d+ - three instances on Redis take no proof twice across a kill -9 and an empty restart$/m,
    );
  });

  it("reports a flood of 1,000 bad tokens to onError as one report per interval that counts the rest", {
    timeout: 300_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const tap = await onNode22(node, [`${ROOT}tests/core/promise.test.ts`], "a flood of bad tokens");
    assert.match(
      tap,
      /^\s*ok \d+ - a flood of bad tokens reaches onError as one report per interval, which counts the rest$/m,
    );
  });

  it("passes arguments on as plain data on all ten wires, __proto__ keys included", { timeout: 300_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const tap = await onNode22(node, [`${ROOT}tests/bindings/prototype-keys.test.ts`], "plain data on every wire");
    assert.match(tap, /^# pass 10$/m);
  });

  it("bounds what a proxy reads of a hostile remote's answers (node:http on both ends)", {
    timeout: 300_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const tap = await onNode22(node, [`${ROOT}tests/proxy/answer-bound.test.ts`], "maxResponseBytes");
    for (
      const name of [
        "fails an SSE event whose data line never ends, naming the bound, and cancels the stream",
        "fails a 50 MB JSON body sent chunked after about the bound, and cancels it",
        "answers its caller with a tool error naming the bound, and serves the next call",
        "counts what a proxy holds of its remote's answers against the server's bodyBytes budget",
      ]
    ) assert.match(tap, new RegExp(`^\\s*ok \\d+ - ${name.replace(/[()]/g, "\\$&")}$`, "m"));
  });
});

describe("workers on Node 22 (issue 62)", { skip: ONCE_PER_RUN }, () => {
  it(
    "kill -9 one of two mcplite worker processes (Node 22) mid-run, on Redis and on PostgreSQL: every call its result",
    {
      timeout: 300_000,
    },
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
      if (POSTGRES_MISSING) return skipOutsideCi(t, POSTGRES_MISSING);
      // The web instance is Node 22's test process; the workers it starts run on its runtime (tests/helpers/stdio.ts).
      const tap = await onNode22(node, [`${ROOT}tests/bullmq/workers.test.ts`], "kill -9 one of two workers");
      const passed = tap.match(
        /^\s*ok \d+ - kill -9 one of two workers mid-run: each of 20 calls gets its own result/gm,
      );
      assert.equal(passed?.length, 2, tap); // on redis-server, then on PostgreSQL
    },
  );

  it("the queue's backend killed under jobs on Node 22 workers, on Redis and on PostgreSQL: every call its result", {
    timeout: 300_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
    if (POSTGRES_MISSING) return skipOutsideCi(t, POSTGRES_MISSING);
    const tap = await onNode22(node, [`${ROOT}tests/bullmq/backend-faults.test.ts`], "killed \\(kill -9\\) mid-run");
    const passed = tap.match(
      /^\s*ok \d+ - killed \(kill -9\) mid-run, then restarted: every call gets its own result/gm,
    );
    assert.equal(passed?.length, 2, tap); // on redis-server, then on PostgreSQL
  });
});
