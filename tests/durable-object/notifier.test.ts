/**
 * `durableObjectNotifier()` as it runs in Workers, on real workerd (Miniflare): two Workers whose isolates share
 * no memory, one Durable Object namespace. A listener (MCP 2026-07-28 `subscriptions/listen`) on either hears the
 * changes raised by requests to the other and to its own, once each, in order; a listener that ends leaves no
 * socket in the object; and after workerd stopped and started again on the same storage, a new listener hears
 * again. (tests/helpers/notifier-instances.ts drives a notifier from the test's own process; this one runs only
 * inside workerd, so the same assertions are made here through the Workers.)
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SseReader } from "../bindings/mcp/mcp-helpers.ts";
import { waitFor } from "../helpers/long-running.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { modernRequest } from "../helpers/request.ts";
import { type DurableObjectWorker, startWorker, workerdMissing } from "./workerd.ts";

// workerd comes with `npm ci` (miniflare): in CI its absence fails the file instead of skipping it.
const skip = missingOutsideCi(await workerdMissing());
if (skip) console.warn(`skipping the Durable Object notifier tests: ${skip}`);

/** How long a listener waits for the next event before the change counts as lost (room for a loaded machine). */
const NEXT_MS = 10_000;

/** What each listener asks for. */
const WANTED = { resourceSubscriptions: ["docs://readme"], toolsListChanged: true };

let worker: DurableObjectWorker | undefined;
before(async () => {
  if (!skip) worker = await startWorker();
});
after(async () => {
  await worker?.stop();
});

/** An MCP 2026-07-28 request to `/mcp`, sent with `send` (the first Worker's origin, or the second Worker). */
function mcp(method: string, params: Record<string, unknown>, id: string | number = 1): [string, RequestInit] {
  const request = modernRequest(method, params, id);
  return ["/mcp", { method: "POST", headers: request.headers, body: request.body, duplex: "half" } as RequestInit];
}

/** The two Workers, as the test reaches them. */
function workers(running: DurableObjectWorker) {
  const first = (path: string, init?: RequestInit) => fetch(running.base + path, init);
  return { first, second: running.other };
}

type Send = ReturnType<typeof workers>["first"];

/** Opens a listener on a Worker; it is subscribed once acknowledged. */
async function listen(send: Send): Promise<SseReader> {
  const stream = new SseReader(await send(...mcp("subscriptions/listen", { notifications: WANTED }, "s")));
  const ack = await stream.next(NEXT_MS);
  assert.equal(ack.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack.params.notifications, WANTED);
  return stream;
}

/** Calls a tool on a Worker and checks it answered. */
async function call(send: Send, name: string): Promise<void> {
  const response = await send(...mcp("tools/call", { name, arguments: {} }));
  const body = await response.json();
  assert.equal(body.result?.isError, undefined, JSON.stringify(body));
}

/** The sockets the notifier's object holds, by its own count. */
async function held(running: DurableObjectWorker): Promise<number> {
  return (await (await fetch(`${running.base}/listeners`)).json()).listeners;
}

describe("durableObjectNotifier on workerd", { skip }, () => {
  it("carries a change raised on either Worker to the listeners of both, once each, in order", async () => {
    const { first, second } = workers(worker!);
    const streams = [await listen(first), await listen(second)];
    try {
      assert.equal(await held(worker!), 2, "one socket per listening stream");
      await call(second, "touch"); // raised by a request to the second Worker
      for (const stream of streams) {
        const event = await stream.next(NEXT_MS);
        assert.equal(event.method, "notifications/resources/updated");
        assert.equal(event.params.uri, "docs://readme");
      }
      await call(second, "grow"); // a tool registered on the second Worker's isolate
      for (const stream of streams) {
        assert.equal((await stream.next(NEXT_MS)).method, "notifications/tools/list_changed");
      }
      await call(first, "touch"); // the first Worker's own listener hears it once, through the object
      for (const stream of streams) {
        const event = await stream.next(NEXT_MS);
        assert.equal(event.method, "notifications/resources/updated");
      }
      await call(first, "grow"); // the next event is this one: nothing before it came twice
      for (const stream of streams) {
        assert.equal((await stream.next(NEXT_MS)).method, "notifications/tools/list_changed");
      }
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
    await waitFor(async () => await held(worker!) === 0); // bounded: waitFor fails after 15 s
  });

  it("forgets a listener that ends: the object holds no socket of it, and the others still hear", async () => {
    const { first, second } = workers(worker!);
    const leaving = await listen(first);
    const staying = await listen(second);
    try {
      assert.equal(await held(worker!), 2);
      await leaving.close();
      await waitFor(async () => await held(worker!) === 1);
      await call(first, "touch");
      assert.equal((await staying.next(NEXT_MS)).method, "notifications/resources/updated");
    } finally {
      await staying.close();
    }
    await waitFor(async () => await held(worker!) === 0);
  });

  it("serves a new listener after workerd stopped and started again on the same storage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-do-notifier-"));
    let running: DurableObjectWorker | undefined = await startWorker(dir);
    try {
      const before = await listen(workers(running).first);
      await call(workers(running).second, "touch");
      assert.equal((await before.next(NEXT_MS)).method, "notifications/resources/updated");
      await before.close();
      await running.stop(); // every isolate and the object go, with their sockets
      running = undefined;
      running = await startWorker(dir);
      assert.equal(await held(running), 0, "no socket survives the restart");
      const { first, second } = workers(running);
      const after = await listen(first);
      try {
        await call(second, "touch");
        assert.equal((await after.next(NEXT_MS)).method, "notifications/resources/updated");
      } finally {
        await after.close();
      }
    } finally {
      await running?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
