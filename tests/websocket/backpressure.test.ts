/**
 * The WebSocket binding's output bound, on the runtime under test: a server started in a child process
 * (`deno run` under `deno test`, `bun` under `bun test`, tests/websocket/memory-server.ts) is sent 300
 * calls answering 1 MiB each by a raw client that then stops reading. The server stops starting that
 * socket's calls while half of `maxBufferedBytes` (8 MiB by default) is queued for it, and closes it
 * (1008, RFC 6455 §7.4.1) once all of it is (a burst of answers can pass the bound at once): either
 * way its resident set grows by less than 50 MB, and it keeps serving another client; the same on Node 22
 * (`attachWebSocket()`, the `ws` package). The same bound holds for an SSE stream (MCP-lite's
 * `calltools` streaming 300 partials of 1 MiB to a client that reads nothing).
 *
 * And the battery's case on Node 22, `serve()` run with `--expose-gc`: a raw client sends 1000 calls
 * answering 1 MiB each and never reads, while another client calls over HTTP all along. The server's
 * resident set (read from /proc without a collection, on Linux) stays under +100 MB; 10 s after the
 * client left it is back within 30 MB of where it was under the same load alone (after a forced
 * collection, the `rss` tool's `gc()`).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT } from "../helpers/process.ts";
import { type ChildServer, childServer, node22, NODE22_MISSING } from "../helpers/child-server.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { rawWebSocket, stalledPost } from "./raw-client.ts";
import { call } from "./fixture.ts";
import { TestSocket } from "./socket.ts";

const PATH = "/mcp-lite/v1/ws";

/** Starts the memory server on this runtime (Deno with `gc()` exposed). */
function memoryServer(): Promise<ChildServer> {
  const { command, args } = runtimeCommand(`${ROOT}tests/websocket/memory-server.ts`);
  if (args[0] === "run") args.splice(1, 0, "--v8-flags=--expose-gc");
  return childServer(command, args);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
   * Samples the server's resident set for 3 s (the other client is served meanwhile).
   *
   * @returns The highest reading above the one at the start, in MB.
   */
  growth(): Promise<number>;
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
    growth: async () => {
      let peak = 0;
      for (let i = 0; i < 4; i++) {
        await sleep(750);
        peak = Math.max(peak, Number(await measured.call("rss")));
      }
      return (peak - before) / 1e6;
    },
  };
  const before = Number(await measured.call("rss"));
  try {
    await test(measured);
  } finally {
    await probe.close();
    await server.stop();
  }
}

/** Stalls a socket with 300 answers of 1 MiB; checks the server closed it, stayed under +50 MB, and serves others. */
async function assertStalledSocketClosed(server: Measured): Promise<void> {
  const stalled = await rawWebSocket(server.port, PATH);
  for (let i = 0; i < 300; i++) stalled.send(call(i, "big", { kb: 1024 }));
  stalled.pause();
  // The answers pile up (they take well under a second on either runtime); the highest reading counts.
  const grown = await server.growth();
  assert.ok(grown < 50, `the server grew by ${grown.toFixed(0)} MB for a client that does not read`);
  const { frames, closeCode } = await stalled.drain();
  // The server closed it (its close frame, or the connection dropped), or held its calls until it read
  // again: then every answer comes, none lost.
  if (closeCode === undefined && !stalled.closed) assert.equal(frames, 300, "answers lost on a held socket");
  else assert.ok(frames < 300, "every answer was queued before the socket was closed");
  stalled.destroy();
  assert.equal((await server.call("big", { kb: 1 })).length, 1024);
}

describe("webSocketBinding's output bound", () => {
  it("closes a socket that stops reading with 1008, stays under +50 MB, and keeps serving others", async () => {
    await onMemoryServer(assertStalledSocketClosed);
  });

  it("does the same on Node 22 (attachWebSocket, ws)", async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await onMemoryServer(
      assertStalledSocketClosed,
      () => childServer(node, ["--expose-gc", `${ROOT}tests/websocket/memory-server.ts`, "node"]),
    );
  });

  it(
    "on Node 22 (serve()), 1000 × 1 MiB to a client that never reads, under load: +100 MB at most, memory given back",
    {
      skip: ONCE_PER_RUN,
    },
    async (t) => {
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      let pid = 0;
      await onMemoryServer(async (server) => {
        // The resident set as the kernel counts it, no collection forced (Linux); elsewhere the rss tool's.
        const resident = async () =>
          existsSync(`/proc/${pid}/status`)
            ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024
            : Number(await server.call("rss"));
        let loading = true;
        const load = (async () => {
          while (loading) {
            const response = await fetch(`http://127.0.0.1:${server.port}/mcp-lite/v1/calltools`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(call(1, "big", { kb: 16 })),
            });
            assert.equal(response.status, 200);
            await response.arrayBuffer();
          }
        })();
        try {
          await sleep(1000); // the load alone, settled
          const baseline = Number(await server.call("rss"));
          const stalled = await rawWebSocket(server.port, PATH);
          for (let i = 0; i < 1000; i++) stalled.send(call(i, "big", { kb: 1024 }));
          stalled.pause();
          let peak = 0;
          for (const start = Date.now(); Date.now() - start < 4000;) {
            peak = Math.max(peak, await resident());
            await sleep(50);
          }
          const grown = (peak - baseline) / 1e6;
          assert.ok(grown < 100, `the server grew by ${grown.toFixed(0)} MB for a client that does not read`);
          // Dropped past maxBufferedBytes, or held (its calls not started) while it does not read: bounded either way.
          stalled.destroy();
          await sleep(10_000);
          const left = (Number(await server.call("rss")) - baseline) / 1e6;
          assert.ok(left < 30, `${left.toFixed(0)} MB still held 10 s after the client left`);
        } finally {
          loading = false;
          await load;
        }
      }, async () => {
        const child = await childServer(node, ["--expose-gc", `${ROOT}tests/websocket/memory-server.ts`]);
        pid = child.pid;
        return child;
      });
    },
  );

  it("drops an SSE stream whose client stops reading, and stays under +50 MB", async () => {
    await onMemoryServer(async (server) => {
      const body = JSON.stringify(call(1, "flood", { n: 300, kb: 1024 }));
      const stalled = stalledPost(server.port, "/mcp-lite/v1/calltools", body, { accept: "text/event-stream" });
      const grown = await server.growth();
      stalled.destroy();
      assert.ok(grown < 50, `the server grew by ${grown.toFixed(0)} MB for an SSE client that does not read`);
      assert.equal((await server.call("big", { kb: 1 })).length, 1024);
    });
  });
});
