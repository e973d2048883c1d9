/**
 * The digest `npm test` prints last for each failed lane (tools/failure-digest.mjs): from `bun test`'s and
 * `deno test`'s real output, each failed test with its error, and nothing of the tests that passed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
// @ts-types="../../tools/failure-digest.d.mts"
import { failureDigest } from "../../tools/failure-digest.mjs";

/** `bun test` (1.4) on a file whose second test fails, as written to a file. */
const BUN = `bun test v1.4.5 (a7733435c)

a.test.ts:
(pass) group > passes [17.55ms]
a line the test printed
5 |   it("fails with a diff", () => { assert.deepEqual({ a: 1 }, { a: 2 }); });
                                             ^
AssertionError: Expected values to be strictly deep-equal:
      at /tmp/fd/a.test.ts:5:82
(fail) group > fails with a diff [31.82ms]
(pass) group > passes after [0.15ms]
# Unhandled error between tests
-------------------------------
error: the server closed the connection
-------------------------------

 2 pass
 1 fail
Ran 3 tests across 1 file. [344.00ms]
`;

/** `deno test` (2.x) on the same file, colours included, as CI's terminal-less run writes them. */
const DENO = `running 1 test from ./a.test.ts
group ...
  passes ... \x1b[0m\x1b[32mok\x1b[0m \x1b[0m\x1b[38;5;245m(1ms)\x1b[0m
  fails with a diff ... \x1b[0m\x1b[31mFAILED\x1b[0m \x1b[0m\x1b[38;5;245m(3ms)\x1b[0m
group ... \x1b[0m\x1b[31mFAILED\x1b[0m (due to 1 failed step) \x1b[0m\x1b[38;5;245m(6ms)\x1b[0m

\x1b[0m\x1b[1m\x1b[37m\x1b[41m ERRORS \x1b[0m

group ... fails with a diff \x1b[0m\x1b[38;5;245m=> ext:deno_node/testing.ts:1:21231\x1b[0m
\x1b[0m\x1b[1m\x1b[31merror\x1b[0m: AssertionError: Expected values to be strictly deep-equal:

\x1b[0m\x1b[1m\x1b[37m\x1b[41m FAILURES \x1b[0m

group ... fails with a diff \x1b[0m\x1b[38;5;245m=> ext:deno_node/testing.ts:1:21231\x1b[0m

\x1b[0m\x1b[31mFAILED\x1b[0m | 0 passed (2 steps) | 1 failed (1 step) \x1b[0m\x1b[38;5;245m(17ms)\x1b[0m
`;

describe("the failure digest npm test prints last", () => {
  it("gives each of bun's failed tests with the lines it printed, and its unhandled errors", () => {
    const digest = failureDigest(BUN).join("\n");
    assert.match(digest, /a line the test printed\n[\s\S]*AssertionError[\s\S]*\(fail\) group > fails with a diff/);
    assert.match(digest, /# Unhandled error between tests\n-+\nerror: the server closed the connection/);
    assert.doesNotMatch(digest, /\(pass\)|bun test v/);
  });

  it("gives deno's ERRORS section through its FAILURES, without colours", () => {
    const digest = failureDigest(DENO);
    assert.equal(digest[0], " ERRORS ");
    assert.ok(digest.includes("group ... fails with a diff => ext:deno_node/testing.ts:1:21231"), digest.join("\n"));
    assert.ok(digest.some((line) => line.startsWith("error: AssertionError")));
    assert.doesNotMatch(digest.join("\n"), /passes \.\.\. ok/);
    assert.ok(!digest.join("\n").includes("\x1b"), "no colour codes");
  });

  it("gives the last lines of an output that names no failed test (a type check, a crash)", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const digest = failureDigest(`${output}\nerror: TS2322 Type 'string' is not assignable to type 'number'.`);
    assert.equal(digest.at(-1), "error: TS2322 Type 'string' is not assignable to type 'number'.");
    assert.ok(digest.length <= 40 && !digest.includes("line 0"));
  });

  it("keeps a long digest to its bound, saying how much more the log holds", () => {
    const many = Array.from({ length: 300 }, (_, i) => `boom ${i}\n(fail) test ${i} [1ms]`).join("\n");
    const digest = failureDigest(many);
    assert.equal(digest.length, 161);
    assert.match(digest.at(-1)!, /^… \(\d+ more lines above in the log\)$/);
  });
});
