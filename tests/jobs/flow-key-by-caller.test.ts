/**
 * Flow control keyed by the caller (issue 101, item 8; docs/concepts/long-running.md, "Key limits that protect the
 * server by the caller"): a `concurrency` key taken from the arguments bounds nothing against a caller who sends a fresh
 * argument with every call, and one taken from the caller's verified identity (`auth.subject`, from the server's
 * `auth` over the wire) bounds that caller whatever it sends, while another caller's jobs run beside. In one process:
 * calls over MCP-lite with bearer tokens, a worker on a queue in memory, the results in a memory store.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import { SECRET, waitFor } from "../helpers/long-running.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { post, toolsCall } from "../helpers/request.ts";

/** A server whose `sync` tool's concurrency (1) is keyed by `key`; each job holds its slot until released. */
function syncServer(key: "argument" | "caller") {
  const running = new Map<string, number>(), most = new Map<string, number>(), started = new Map<string, number>();
  const releases: (() => void)[] = [];
  const server = createServer({
    name: `flow-by-${key}`,
    version: "1.0.0",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    queue: memoryQueue().queue,
    auth: opaqueAuth(),
    logger: false,
  }).tool(
    defineTool("sync").describe("Syncs an account").input(v.object({ account: v.string() }))
      .longRunning({
        concurrency: key === "argument"
          ? { limit: 1, key: ({ account }) => account }
          : { limit: 1, key: (_input, auth) => auth?.subject ?? "anonymous" },
      })
      .defer(async (_input, work) => {
        const caller = work.auth?.subject ?? "anonymous";
        started.set(caller, (started.get(caller) ?? 0) + 1);
        running.set(caller, (running.get(caller) ?? 0) + 1);
        most.set(caller, Math.max(most.get(caller) ?? 0, running.get(caller)!));
        await new Promise<void>((resolve) => releases.push(resolve));
        running.set(caller, running.get(caller)! - 1);
        return { synced: true };
      }),
  );
  return { server, running, most, started, releases };
}

/** Calls `sync` over MCP-lite as `token` for `account`; asserts the call was taken (a promise). */
async function call(server: { fetch(request: Request): Promise<Response> }, token: string, account: string) {
  const response = await server.fetch(post("/mcp-lite/v1/rpc", toolsCall("sync", { account }), bearer(token)));
  const body = await response.json();
  assert.equal(body.result?._meta?.response_type ?? body.result?.response_type, "promise", JSON.stringify(body));
}

describe("a concurrency key, against a caller who sends a fresh argument with every call", () => {
  it("keyed by an argument bounds nothing: every call runs at once", async () => {
    const { server, running, most, releases } = syncServer("argument");
    const worker = runWorker(server, { concurrency: 8 });
    try {
      for (let n = 0; n < 4; n++) await call(server, "reader", `account-${n}`);
      await waitFor(() => running.get("reader") === 4);
      assert.equal(most.get("reader"), 4);
    } finally {
      for (const release of releases) release();
      await worker.close();
    }
  });

  it("keyed by the caller's identity holds that caller to its limit, and another caller runs beside it", async () => {
    const { server, running, most, started, releases } = syncServer("caller");
    const worker = runWorker(server, { concurrency: 8 });
    try {
      for (let n = 0; n < 4; n++) await call(server, "reader", `account-${n}`);
      await call(server, "admin", "account-0");
      await waitFor(() => running.get("reader") === 1 && running.get("admin") === 1);
      // The reader's other three wait their turn, whichever accounts they name: each starts once the one before ends.
      while (started.get("reader")! < 4) {
        const before = started.get("reader")!;
        for (const release of releases.splice(0)) release();
        await waitFor(() => started.get("reader")! > before);
      }
      assert.equal(most.get("reader"), 1);
      assert.equal(most.get("admin"), 1);
    } finally {
      for (const release of releases) release();
      await worker.close();
    }
  });
});
