/**
 * The WebSocket binding's output bound, on the runtime under test: a server started in a child process
 * (`deno run` under `deno test`, `bun` under `bun test`, tests/websocket/memory-server.ts) is sent 300
 * calls answering 1 MiB each by a raw client that then stops reading. The server closes that socket
 * (1008, RFC 6455 §7.4.1) once `maxBufferedBytes` (8 MiB by default) are queued for it, its
 * resident set grows by less than 50 MB, and it keeps serving another client; the same on Node 22
 * (`attachWebSocket()`, the `ws` package). The same bound holds for an SSE stream (MCP-lite's
 * `calltools` streaming 300 partials of 1 MiB to a client that reads nothing).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
  // The server closed it: with its close frame, or (Deno, with frames still queued) by dropping the connection.
  assert.ok(closeCode === 1008 || stalled.closed, `still open after ${frames} answers (close code ${closeCode})`);
  assert.ok(frames < 300, "every answer was queued");
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
