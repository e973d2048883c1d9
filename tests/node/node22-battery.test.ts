/**
 * The reliability battery's in-process scenarios on Node 22 itself (`node --test`, from the sources):
 * three instances on one redis-server take no DPoP proof twice across its `kill -9` and an empty restart,
 * a flood of 1,000 bad promise tokens reaches `onError` as one report per interval counting the rest, and
 * `__proto__` keys sent over every wire reach no prototype (Node has the `__proto__` accessor Deno lacks).
 * Bun and Deno run the same files directly; the other scenarios start Node 22 servers of their own. One Node 22
 * process runs them all; each test below reads its scenarios' results from that run's TAP.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";

/** The scenarios: each file, and the pattern naming its tests that run on Node 22. */
const SCENARIOS: [file: string, pattern: string][] = [
  ["tests/auth/dpop-replay.test.ts", "kill -9 and an empty restart"],
  ["tests/core/promise.test.ts", "a flood of bad tokens"],
  ["tests/bindings/prototype-keys.test.ts", "plain data on every wire"],
  ["tests/proxy/answer-bound.test.ts", "maxResponseBytes"],
  ["tests/bullmq/workers.test.ts", "kill -9 one of two workers"],
  ["tests/bullmq/backend-faults.test.ts", "killed \\(kill -9\\) mid-run"],
  [
    "tests/testing/durable-run.test.ts",
    "a day's sleep and an elicitation in memory|names the step that is not idempotent",
  ],
];

let ran: Promise<string> | undefined;

/**
 * Every scenario's tests on Node 22's test runner (TAP), in one Node process: the files loaded into it together
 * (`--experimental-test-isolation=none`), each pattern naming tests of its file only, so that Node and the SDK's
 * modules load once rather than once per file (about 10 s of CPU of 40). Each test below reads its own lines.
 */
function onNode22(node: string): Promise<string> {
  ran ??= run(
    node,
    [
      "--test",
      "--experimental-test-isolation=none",
      "--test-reporter=tap",
      ...SCENARIOS.map(([, pattern]) => `--test-name-pattern=${pattern}`),
      ...SCENARIOS.map(([file]) => `${ROOT}${file}`),
    ],
    540_000,
  ).then((done) => `${done.stdout}\n# exit ${done.code}\n${done.stderr}`);
  return ran;
}

/** A test passed: "ok N - name" alone on its line (skipped, it ends "# SKIP"), at any depth. */
function passed(tap: string, name: string): RegExpMatchArray | null {
  return tap.match(new RegExp(`^\\s*ok \\d+ - ${name.replace(/[()]/g, "\\$&")}$`, "gm"));
}

/** A top-level suite's lines in the TAP, from its `# Subtest:` to its own result line. */
function suite(tap: string, name: string): string {
  const start = tap.indexOf(`# Subtest: ${name}\n`);
  assert.ok(start >= 0, `no suite "${name}" in:\n${tap}`);
  const end = new RegExp(`^(not )?ok \\d+ - ${name}$`, "m").exec(tap.slice(start));
  assert.ok(end, `no result of the suite "${name}" in:\n${tap}`);
  return tap.slice(start, start + end.index + end[0].length);
}

/** Each test's bound: the one Node process runs every scenario before the first test reads its lines. */
const LONG = { timeout: 600_000 };

describe("the battery's in-process scenarios on Node 22", { skip: ONCE_PER_RUN }, () => {
  it(
    "takes no DPoP proof twice across a redis-server kill -9 and an empty restart, three instances",
    LONG,
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
      const tap = await onNode22(node);
      const name = "three instances on Redis take no proof twice across a kill -9 and an empty restart";
      assert.equal(passed(tap, name)?.length, 1, tap);
    },
  );

  it(
    "reports a flood of 1,000 bad tokens to onError as one report per interval that counts the rest",
    LONG,
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      const tap = await onNode22(node);
      const name = "a flood of bad tokens reaches onError as one report per interval, which counts the rest";
      assert.equal(passed(tap, name)?.length, 1, tap);
    },
  );

  it("passes arguments on as plain data on all ten wires, __proto__ keys included", LONG, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const wires = suite(await onNode22(node), "arguments are plain data on every wire");
    const ok = wires.split("\n").filter((line) => /^ {4}ok \d+ - /.test(line) && !line.includes("# SKIP"));
    assert.equal(ok.length, 10, wires);
    assert.doesNotMatch(wires, /^\s*not ok /m, wires);
  });

  it(
    "runs a user's test of durable code with the test kit: a day's sleep skipped, a non-idempotent step named",
    LONG,
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      const tap = await onNode22(node);
      for (
        const name of [
          "runs three steps, a day's sleep and an elicitation in memory, the sleep skipped and journaled",
          "names the step that is not idempotent, by crashing after each step in turn",
        ]
      ) assert.equal(passed(tap, name)?.length, 1, `${name}:\n${tap}`);
    },
  );

  it("bounds what a proxy reads of a hostile remote's answers (node:http on both ends)", LONG, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const tap = await onNode22(node);
    for (
      const name of [
        "fails an SSE event whose data line never ends, naming the bound, and cancels the stream",
        "fails a 50 MB JSON body sent chunked after about the bound, and cancels it",
        "answers its caller with a tool error naming the bound, and serves the next call",
        "counts what a proxy holds of its remote's answers against the server's bodyBytes budget",
      ]
    ) assert.equal(passed(tap, name)?.length, 1, `${name}:\n${tap}`);
  });
});

describe("workers on Node 22 (issue 62)", { skip: ONCE_PER_RUN }, () => {
  it(
    "kill -9 one of two mcplite worker processes (Node 22) mid-run, on Redis and on PostgreSQL: every call its result",
    LONG,
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
      if (POSTGRES_MISSING) return skipOutsideCi(t, POSTGRES_MISSING);
      // The web instance is Node 22's test process; the workers it starts run on its runtime (tests/helpers/stdio.ts).
      const tap = await onNode22(node);
      const name =
        "kill -9 one of two workers mid-run: each of 20 calls gets its own result, with no client asking meanwhile";
      assert.equal(passed(tap, name)?.length, 2, tap); // on redis-server, then on PostgreSQL
    },
  );

  it(
    "the queue's backend killed under jobs on Node 22 workers, on Redis and on PostgreSQL: every call its result",
    LONG,
    async (t) => {
      const node = await node22();
      if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
      if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
      if (POSTGRES_MISSING) return skipOutsideCi(t, POSTGRES_MISSING);
      const tap = await onNode22(node);
      const name =
        "killed (kill -9) mid-run, then restarted: every call gets its own result, every answer meanwhile retryable";
      assert.equal(passed(tap, name)?.length, 2, tap); // on redis-server, then on PostgreSQL
    },
  );
});
