/**
 * `durableObjectResultStore()` as it runs in a Worker, on real workerd (Miniflare): the store conformance suite
 * and three server instances sharing it, every operation running in the Worker on its Durable Objects; entries
 * larger than one storage value; and a finished job's result redeemed after workerd stopped and started again on
 * the same storage.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { StoredResult } from "../../src/jobs/result-store.ts";
import { durableObjectResultStore } from "../../src/durable-object/mod.ts";
import { describeSharedInstances } from "../helpers/instances.ts";
import { acrossChunkBoundary } from "../helpers/large-results.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { toolsCall } from "../helpers/request.ts";
import { describeResultStore } from "../helpers/result-store-conformance.ts";
import { describeSharedStore } from "../helpers/shared-store-conformance.ts";
import { type DurableObjectWorker, startWorker, workerdMissing, workerRecords, workerStore } from "./workerd.ts";

// workerd comes with `npm ci` (miniflare): in CI its absence fails the file instead of skipping it.
const skip = missingOutsideCi(await workerdMissing());
if (skip) console.warn(`skipping the Durable Object tests: ${skip}`);

let worker: DurableObjectWorker | undefined;
before(async () => {
  if (!skip) worker = await startWorker();
});
after(async () => {
  await worker?.stop();
});

const store = workerStore(() => worker!.base);

describeResultStore(
  "Durable Objects (workerd)",
  () => store,
  { maxBytes: 1 << 20, skip },
);

// Its servers stand for a Worker's, whose timers die with the request that armed them: no queue kept in the store.
describeSharedInstances("Durable Objects (workerd)", () => store, skip, true);

// The store contract, natively (issue 100, item 1): the shared store the result store is a view of, in the Worker.
describeSharedStore("Durable Objects (workerd)", () => workerRecords(() => worker!.base), { maxBytes: 1 << 20, skip });

/** An entry of `text`. */
const completed = (text: string): StoredResult => ({
  status: "completed",
  result: { content: [{ type: "text", text }] },
});

/** Calls a tool over MCP-lite on `base`. */
async function lite(base: string, name: string, args: unknown) {
  const response = await fetch(`${base}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
  });
  return (await response.json()).result as {
    _meta: { response_type: string; promise_token?: string; retry_after_ms?: number };
    structuredContent?: unknown;
  };
}

describe("durableObjectResultStore on workerd", { skip }, () => {
  it("keeps an entry larger than one storage value, in chunks, a character split between two chunks included", async () => {
    const id = crypto.randomUUID();
    const large = acrossChunkBoundary(32_768, 100_000);
    assert.equal(await store.set(id, { status: "working" }, 60_000), true);
    assert.equal(await store.set(id, large, 60_000), true);
    assert.deepEqual(await store.get(id), large);
    const shrunk = crypto.randomUUID(); // a long running entry replaced by a short one: no chunk of the first is left
    assert.equal(await store.set(shrunk, { status: "working", answers: { big: "y".repeat(300_000) } }, 60_000), true);
    assert.equal(await store.set(shrunk, completed("short"), 60_000), true);
    assert.deepEqual(await store.get(shrunk), completed("short"));
  });

  it("refuses a bound it cannot keep", () => {
    const namespace = {
      idFromName: (name: string) => name,
      get: () => ({ fetch: () => Promise.resolve(new Response()) }),
    };
    assert.throws(() => durableObjectResultStore(namespace, { maxBytes: 5_000_000 }), RangeError);
    assert.throws(() => durableObjectResultStore(namespace, { maxBytes: 0 }), RangeError);
  });

  it("answers a finished job's redeem after workerd stopped and started again on the same storage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-do-"));
    let first: DurableObjectWorker | undefined = await startWorker(dir);
    let second: DurableObjectWorker | undefined;
    try {
      const started = await lite(first.base, "crunch", { n: 100, ms: 50 });
      assert.equal(started._meta.response_type, "promise");
      const token = started._meta.promise_token!;
      let redeemed = await lite(first.base, "redeem", { promise: token });
      for (let tries = 0; redeemed._meta.response_type === "promise" && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, redeemed._meta.retry_after_ms ?? 100)); // as it asks
        redeemed = await lite(first.base, "redeem", { promise: token });
      }
      assert.deepEqual(redeemed.structuredContent, { sum: 5050 });
      await first.stop();
      first = undefined;
      second = await startWorker(dir); // a new process: nothing of the first isolate's memory
      const again = await lite(second.base, "redeem", { promise: token });
      assert.equal(again._meta.response_type, "answer");
      assert.deepEqual(again.structuredContent, { sum: 5050 });
    } finally {
      await first?.stop();
      await second?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
