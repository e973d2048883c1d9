/**
 * A slow sender over a real socket (a client that trickles its body to hold a handler) gets 408 once
 * `bodyTimeoutMs` passes, and the server keeps serving others meanwhile.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { toolsCall } from "../helpers/request.ts";

let listener: Listener;
before(async () =>
  listener = await serve(fixtureServer({ bodyTimeoutMs: 300 }), { port: 0, hostname: "127.0.0.1", quiet: true })
);
after(async () => await listener.close());

/** Sends the head and one body byte every 100 ms (at most 40), and resolves with what came back first. */
function trickle(path: string): Promise<{ head: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(listener.port, "127.0.0.1");
    let sent = 0;
    const timer = setInterval(() => {
      if (sent++ >= 40) return;
      socket.write(" ");
    }, 100);
    const done = (value: { head: string; ms: number } | Error) => {
      clearInterval(timer);
      socket.destroy();
      value instanceof Error ? reject(value) : resolve(value);
    };
    socket.on("connect", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      );
    });
    socket.on("data", (data) => done({ head: String(data).split("\r\n")[0], ms: Date.now() - started }));
    socket.on("error", (error) => done(error));
    setTimeout(() => done(new Error("no answer within 5 s")), 5000);
  });
}

describe("a slow sender over a socket", () => {
  for (const path of ["/mcp-lite/v1/calltools", "/mcp"]) {
    it(`${path}: 408 after bodyTimeoutMs, while others are served`, async () => {
      const slow = trickle(path);
      const ok = await (await fetch(listener.url + "/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
      })).json();
      assert.deepEqual(ok.result.structuredContent, { sum: 3 });
      const { head, ms } = await slow;
      assert.match(head, /^HTTP\/1\.1 408/);
      assert.ok(ms >= 250 && ms < 3000, `answered after ${ms} ms`);
    });
  }
});
