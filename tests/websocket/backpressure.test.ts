/**
 * The WebSocket binding's output bound, on the runtime under test: a server started in a child process
 * (`deno run` under `deno test`, `bun` under `bun test`, tests/websocket/memory-server.ts) is sent 300
 * calls answering 1 MiB each by a raw client that then stops reading. The server closes that socket
 * (1008, RFC 6455 §7.4.1) once `maxBufferedBytes` (8 MiB by default) are queued for it, its
 * resident set grows by less than 50 MB, and it keeps serving another client.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";
import { type ChildServer, childServer } from "../helpers/child-server.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { rawWebSocket } from "./raw-client.ts";
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

describe("webSocketBinding's output bound", () => {
  it("closes a socket that stops reading with 1008, stays under +50 MB, and keeps serving others", async () => {
    const server = await memoryServer();
    const probe = await TestSocket.open(`ws://127.0.0.1:${server.port}${PATH}`);
    let id = 0;
    const rss = async () => {
      probe.send(call(++id, "rss"));
      return Number((await probe.answer(id)).result.content[0].text);
    };
    try {
      const before = await rss();
      const stalled = await rawWebSocket(server.port, PATH);
      for (let i = 0; i < 300; i++) stalled.send(call(i, "big", { kb: 1024 }));
      stalled.pause();
      // The answers pile up (they take well under a second on either runtime); the highest reading counts.
      let peak = 0;
      for (let i = 0; i < 4; i++) {
        await sleep(750);
        peak = Math.max(peak, await rss()); // the other client is served meanwhile
      }
      const grown = (peak - before) / 1e6;
      assert.ok(grown < 50, `the server grew by ${grown.toFixed(0)} MB for a client that does not read`);
      const { frames, closeCode } = await stalled.drain();
      // The server closed it: with its close frame, or (Deno, with frames still queued) by dropping the connection.
      assert.ok(closeCode === 1008 || stalled.closed, `still open after ${frames} answers (close code ${closeCode})`);
      assert.ok(frames < 300, "every answer was queued");
      stalled.destroy();
      probe.send(call(++id, "big", { kb: 1 }));
      assert.equal((await probe.answer(id)).result.content[0].text.length, 1024);
    } finally {
      await probe.close();
      await server.stop();
    }
  });
});
