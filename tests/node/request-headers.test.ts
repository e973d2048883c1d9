/**
 * The request headers `serve()` and `nodeHandler()` hand a fetch handler on `node:http`: `get()` and
 * `has()` answered from the fields the parser read, the runtime's own `Headers` for everything else,
 * and what a handler sees the same as a `Headers` made from the fields with `append()`: every read, a
 * name that is no token, iteration, copies, mutations and what follows them
 * (tests/node/request-headers-probe.ts). On this runtime's `node:http` and on Node 22 itself.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node22 } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import { probe } from "./request-headers-probe.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

type Seen = Awaited<ReturnType<typeof probe>>;

function assertSame(seen: Seen): void {
  assert.deepEqual(Object.keys(seen).sort(), ["latin", "parsed", "plain", "repeated"]);
  for (const [name, { adapter, reference }] of Object.entries(seen)) {
    assert.ok(reference.length > 20, name);
    assert.deepEqual(adapter, reference, name);
  }
  // The adapter's own headers where every field is plain and named once; the runtime's where a name repeats.
  assert.equal(seen.plain.lazy, true);
  assert.equal(seen.latin.lazy, true);
  assert.equal(seen.parsed.lazy, true);
  assert.equal(seen.repeated.lazy, false);
}

describe("a request's headers on node:http", () => {
  it("read as a Headers of the same fields reads, on this runtime's node:http", async () => {
    assertSame(await probe());
  });

  it("read as a Headers of the same fields reads, on Node 22", { skip: ONCE_PER_RUN, timeout: 60_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip("needs Node 22: bash .ci/node22.sh");
    const { stdout, code } = await run(node, [`${ROOT}tests/node/request-headers-probe.ts`]);
    assert.equal(code, 0);
    assertSame(JSON.parse(stdout));
  });
});
