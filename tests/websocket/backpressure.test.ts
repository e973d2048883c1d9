/**
 * The WebSocket binding's output bound, on the runtime under test: a server started in a child process
 * (`deno run` under `deno test`, `bun` under `bun test`, tests/websocket/memory-server.ts) is sent 300
 * calls answering 1 MiB each by a raw client that then stops reading. The server stops starting that
 * socket's calls while half of `maxBufferedBytes` (8 MiB by default) is queued for it, and closes it
 * (1008, RFC 6455 §7.4.1) once all of it is (a burst of answers can pass the bound at once): either
 * way it makes a bounded number of those answers (the count settles at 8 to 17, not 300), and it keeps
 * serving another client; the same on Node 22 (`attachWebSocket()`, the `ws` package), and on Node 22's
 * `serve()` with 1000 calls while another client calls over HTTP all along. The same bound holds for an
 * SSE stream (MCP-lite's `calltools` streaming 300 partials of 1 MiB to a client that reads nothing).
 * What is counted is answers made (the memory server's `made`), which a loaded machine does not change
 * (the resident set it does). Bun's own WebSocket backpressure limit bounds a socket there too.
 */
import assert from "node:assert/strict";
import { waitFor } from "../helpers/long-running.ts";
import { describe, it } from "node:test";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT } from "../helpers/process.ts";
import { type ChildServer, childServer, node22, NODE22_MISSING } from "../helpers/child-server.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { rawWebSocket, stalledPost } from "./raw-client.ts";
import { call } from "./fixture.ts";
import { TestSocket } from "./socket.ts";

const PATH = "/mcp-lite/v1/ws";

/** Starts the memory server on this runtime. */
function memoryServer(): Promise<ChildServer> {
  const { command, args } = runtimeCommand(`${ROOT}tests/websocket/memory-server.ts`);
  return childServer(command, args);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the count of answers made must stay the same to count as settled (about time itself: a stillness). */
const STILL_MS = 1000;
/**
 * The most answers of 1 MiB made for a client that does not read, of 300 or 1000: what the 8 MiB bound
 * lets through (half of it queued before no call starts, 16 calls at most a turn) and what the kernel's
 * socket buffers take on loopback.
 */
const MOST_MADE = 64;

/** The memory server, and another client (a WebSocket) that calls it while a test stalls one. */
interface Measured {
  readonly port: number;
  /**
   * Calls a tool on the other client.
   *
   * @returns Its text answer.
   */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  /**
   * Waits until the server makes no more answers of 1 MiB (`big` calls, `flood` partials: the count
   * unchanged for a second).
   *
   * @returns How many it made since it started.
   */
  settled(): Promise<number>;
}

/** Runs a test against a fresh memory server (this runtime's, or one `start` gives), stopped after. */
async function onMemoryServer(
  test: (server: Measured) => Promise<void>,
  start: () => Promise<ChildServer> = memoryServer,
): Promise<void> {
  const server = await start();
  const probe = await TestSocket.open(`ws://127.0.0.1:${server.port}${PATH}`);
  let id = 0;
  const measured: Measured = {
    port: server.port,
    call: async (name, args) => {
      probe.send(call(++id, name, args));
      return (await probe.answer(id)).result.content[0].text;
    },
    settled: async () => {
      let count = Number(await measured.call("made"));
      for (let last = -1; count !== last;) {
        last = count;
        await sleep(STILL_MS);
        count = Number(await measured.call("made"));
      }
      return count - before;
    },
  };
  const before = Number(await measured.call("made"));
  try {
    await test(measured);
  } finally {
    await probe.close();
    await server.stop();
  }
}

/**
 * Stalls a socket with 300 calls answering 1 MiB; checks the server made a bounded number of answers
 * for it (the count settled far below 300), closed it or held its calls, and serves others.
 */
async function assertStalledSocketBounded(server: Measured): Promise<void> {
  const stalled = await rawWebSocket(server.port, PATH);
  for (let i = 0; i < 300; i++) stalled.send(call(i, "big", { kb: 1024 }));
  stalled.pause();
  const made = await server.settled();
  assert.ok(made <= MOST_MADE, `${made} answers of 1 MiB made for a client that does not read`);
  const { frames, closeCode } = await stalled.drain(300);
  // The server closed it (its close frame, or the connection dropped), or held its calls until it read
  // again: then every answer comes, none lost.
  if (closeCode === undefined && !stalled.closed) assert.equal(frames, 300, "answers lost on a held socket");
  else assert.ok(frames < 300, "every answer was queued before the socket was closed");
  stalled.destroy();
  assert.equal((await server.call("big", { kb: 1 })).length, 1024);
}

describe("webSocketBinding's output bound", () => {
  // Up to two minutes: a server that holds the socket's calls sends 300 MiB once it reads again.
  it("closes a socket that stops reading with 1008, makes a bounded number of answers, and serves others", {
    timeout: 120_000,
  }, async () => {
    await onMemoryServer(assertStalledSocketBounded);
  });

  it("does the same on Node 22 (attachWebSocket, ws)", { timeout: 120_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await onMemoryServer(
      assertStalledSocketBounded,
      () => childServer(node, [`${ROOT}tests/websocket/memory-server.ts`, "node"]),
    );
  });

  it("on Node 22 (serve()), 1000 × 1 MiB to a client that never reads, under load: bounded, others served", {
    skip: ONCE_PER_RUN,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await onMemoryServer(async (server) => {
      let loading = true;
      let served = 0;
      const load = (async () => {
        while (loading) {
          const response = await fetch(`http://127.0.0.1:${server.port}/mcp-lite/v1/calltools`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(call(1, "big", { kb: 16 })),
          });
          assert.equal(response.status, 200);
          await response.arrayBuffer();
          served++;
        }
      })();
      try {
        const stalled = await rawWebSocket(server.port, PATH);
        for (let i = 0; i < 1000; i++) stalled.send(call(i, "big", { kb: 1024 }));
        stalled.pause();
        // Dropped past maxBufferedBytes, or held (its calls not started) while it does not read: bounded either way.
        const made = await server.settled();
        assert.ok(made <= MOST_MADE, `${made} answers of 1 MiB made for a client that does not read`);
        const before = served;
        await waitFor(() => served > before); // the other client is served all along
        stalled.destroy();
        assert.equal((await server.call("big", { kb: 1 })).length, 1024);
      } finally {
        loading = false;
        await load;
      }
    }, () => childServer(node, [`${ROOT}tests/websocket/memory-server.ts`]));
  });

  it("drops an SSE stream whose client stops reading: a bounded number of partials made", async () => {
    await onMemoryServer(async (server) => {
      const body = JSON.stringify(call(1, "flood", { n: 300, kb: 1024 }));
      const stalled = stalledPost(server.port, "/mcp-lite/v1/calltools", body, { accept: "text/event-stream" });
      const made = await server.settled();
      stalled.destroy();
      assert.ok(made <= MOST_MADE, `${made} partials of 1 MiB made for an SSE client that does not read`);
      assert.equal((await server.call("big", { kb: 1 })).length, 1024);
    });
  });
});
