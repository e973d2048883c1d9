/**
 * A slow sender over a real socket (a client that trickles its body to hold a handler) gets 408 once
 * `bodyTimeoutMs` passes, and the server keeps serving others meanwhile. The 408 says `Connection:
 * close` and the server closes the socket (RFC 9112 §9.6), so slow senders cannot hold sockets (Bun;
 * Deno's server keeps it until the body ends, see below).
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

const IS_DENO = "Deno" in globalThis;
/**
 * How long the test waits for the 408: the body never ends (41 of 100 bytes), so only the body timeout
 * can answer; seconds of room for a loaded machine.
 */
const WAIT_MS = 10_000;
/**
 * How long it then waits for the server to close the socket (the client never does): the SDK closes it
 * with the 408; Bun's own idle timeout would only 10 s after the trickle stops (4 s in).
 */
const CLOSE_WAIT_MS = 5_000;

interface SlowAnswer {
  /** The status line. */
  head: string;
  /** The whole response head. */
  headers: string;
  /** The response body. */
  body: string;
  /** Whether the server closed the socket within `CLOSE_WAIT_MS` of the answer. */
  closed: boolean;
}

/**
 * Sends the head and one body byte every 100 ms (at most 40), and resolves with what came back and
 * when the server closed the socket (`WAIT_MS`, then `CLOSE_WAIT_MS`, at most). `chunked`: the body has no
 * `Content-Length` (RFC 9112 §7.1), its first chunk arrives with the head, and each byte is a chunk.
 */
function trickle(path: string, chunked = false): Promise<SlowAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(listener.port, "127.0.0.1");
    let sent = 0;
    let received = "";
    let answered = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = (error?: Error) => {
      clearInterval(timer);
      clearTimeout(limit);
      const closed = socket.destroyed || socket.readableEnded;
      socket.destroy();
      if (!answered) return reject(error ?? new Error(`no answer within ${WAIT_MS} ms`));
      const [head, body = ""] = received.split("\r\n\r\n");
      resolve({ head: head.split("\r\n")[0], headers: head, body, closed });
    };
    let limit = setTimeout(() => done(), WAIT_MS);
    socket.on("connect", () => {
      const framing = chunked ? "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n" : "Content-Length: 100\r\n\r\n{";
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}`);
      // The trickle begins after the head: begun before the connection (a busy machine), its first byte went
      // ahead of the request line, a 400.
      timer = setInterval(() => {
        if (sent++ >= 40 || socket.destroyed || !socket.writable) return;
        socket.write(chunked ? "1\r\n \r\n" : " ");
      }, 100);
    });
    socket.on("data", (data) => {
      if (!answered) {
        answered = true;
        clearTimeout(limit); // from the answer on: the wait for the close
        limit = setTimeout(() => done(), CLOSE_WAIT_MS);
      }
      received += String(data);
      // Deno: the socket stays, so no use waiting for it; done once the whole answer (its Content-Length) is in.
      const [head, body] = received.split("\r\n\r\n");
      const length = /^content-length: *(\d+)$/im.exec(head)?.[1];
      if (IS_DENO && body !== undefined && new TextEncoder().encode(body).byteLength >= Number(length ?? 0)) done();
    });
    socket.on("end", () => done());
    socket.on("close", () => done());
    socket.on("error", () => done()); // a reset after the answer is a close too
  });
}

describe("a slow sender over a socket", () => {
  for (
    const [path, chunked] of [["/mcp-lite/v1/calltools", false], ["/mcp", false], [
      "/mcp-lite/v1/calltools",
      true,
    ]] as const
  ) {
    // Chunked: the first chunk is in when the handler starts reading; the deadline still holds for the rest.
    it(`${path}${chunked ? ", chunked" : ""}: 408 after bodyTimeoutMs, while others are served`, async () => {
      const slow = trickle(path, chunked);
      const ok = await (await fetch(listener.url + "/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
      })).json();
      assert.deepEqual(ok.result.structuredContent, { sum: 3 });
      const { head, headers, body, closed } = await slow;
      assert.match(head, /^HTTP\/1\.1 408/);
      // Answered by the body deadline (its own words), not by anything before it: the body never ends.
      assert.match(body, /did not arrive within 300 ms/);
      assert.match(headers, /^connection: close$/im);
      // Deno's HTTP server keeps a connection until the request body ends, whatever the response says
      // (measured on Deno 2.9): there the header is what the server can do, and the handler is free.
      if (!IS_DENO) {
        // The client never closes it: a close is the server's.
        assert.ok(closed, `the socket was still open ${CLOSE_WAIT_MS} ms after the 408`);
      }
    });
  }
});
