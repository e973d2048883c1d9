/**
 * The same deadlines on every runtime's `serve()`, over raw sockets: 40 senders that trickle a
 * request's head, and 40 that trickle its body, one byte a second, are all cut once `bodyTimeoutMs`
 * passes (the body with 408 and `Connection: close`, RFC 9110 §15.5.9), while other clients are
 * served; a 100 KB head is refused 431 (RFC 6585 §5); a body refused 413 for its declared length
 * (RFC 9110 §15.5.14) closes the connection it was still arriving on. On this runtime, and on Node 22
 * (a child process, tests/server/deadline-server.ts, once per run); and the same, exactly, with `httpServer: "node:http"`
 * on this runtime (Deno's and Bun's `node:http`).
 *
 * Where a runtime's own server decides instead, the test says so: Bun cuts a slow head itself after
 * about 10 s (uWebSockets' header timeout, not configurable). `Deno.serve` has no deadline for a head
 * at all (denoland/deno#3515), answers an oversized one 400 before any handler runs, and (2.9.5) keeps
 * a connection whose body a handler started to read until that body ends, whatever the response says.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { type ChildServer, childServer, node22 } from "../helpers/child-server.ts";
import { fixtureServer } from "../helpers/fixtures.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";

const BODY_TIMEOUT_MS = 1500;
const MAX_BODY_BYTES = 1024 * 1024;
const SENDERS = 40;
const IS_BUN = "Bun" in globalThis;
const IS_DENO = "Deno" in globalThis;
/** Bun's own deadline for a request's head (uWebSockets), whatever the server's. */
const BUN_HEAD_MS = 10_000;

/** What one raw connection saw. */
interface Seen {
  /** Everything the server sent. */
  readonly received: string;
  /** Whether the server closed the connection (after whatever it sent). */
  readonly closed: boolean;
  /** How many bytes of the drip went before the server's first byte or its close: the connection held meanwhile. */
  readonly dripped: number;
}

/**
 * Opens a connection, writes `head`, then one byte of `drip` a second, until the server closes the
 * connection (or, `untilAnswer`, its whole answer came: its head and its `Content-Length` of body) or `waitMs` pass.
 */
function trickle(port: number, head: string, drip: string, waitMs: number, untilAnswer = false): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let dripped: number | undefined;
    let sent = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ received, closed, dripped: dripped ?? sent });
    };
    const limit = setTimeout(() => done(false), waitMs);
    socket.on("connect", () => {
      socket.write(head);
      // The drip begins after the head (begun before the connection, a byte could go ahead of it).
      timer = setInterval(() => {
        if (socket.writable) socket.write(drip[sent++ % drip.length]);
      }, 1000);
    });
    socket.on("data", (chunk) => {
      dripped ??= sent;
      received += String(chunk);
      const [answer, body] = received.split("\r\n\r\n");
      const length = Number(/^content-length: *(\d+)\r?$/im.exec(answer)?.[1] ?? 0);
      if (untilAnswer && body !== undefined && new TextEncoder().encode(body).byteLength >= length) done(false);
    });
    socket.on("error", () => {}); // a reset is a close too
    socket.on("close", () => done(true));
  });
}

/** Writes `request` whole and reads until the server closes the connection (or `waitMs`). */
function exchange(port: number, request: string, waitMs: number): Promise<Seen> {
  return trickle(port, request, "", waitMs);
}

/** Calls `add` over fetch: the server serves others while slow senders hold connections. */
async function served(port: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
  });
  assert.deepEqual((await response.json()).result.structuredContent, { sum: 3 });
}

const SLOW_HEAD = "POST /mcp-lite/v1/calltools HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";
const SLOW_BODY = "POST /mcp-lite/v1/calltools HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
  "Content-Length: 100\r\n\r\n{";

/** The deadline tests against a server at `port()`, served by `runtime`'s own HTTP server. */
function deadlines(name: string, port: () => number, runtime: "node" | "bun" | "deno"): void {
  describe(name, () => {
    // The slow heads wait longest (Bun's own deadline, about 10 s): sent as the block begins, while a client is
    // served, and checked by its last test, the other tests running meanwhile.
    let heads: { seen: Promise<Seen[]>; served: Promise<void> } | undefined;
    const headMs = runtime === "bun" ? BUN_HEAD_MS : BODY_TIMEOUT_MS;
    before(() => {
      if (runtime === "deno") return;
      let at: number;
      try {
        at = port();
      } catch {
        return; // no server: the tests fail, saying why
      }
      const seen = Promise.all(
        Array.from({ length: SENDERS }, () => trickle(at, SLOW_HEAD, "abcdefgh", headMs + 10_000)),
      );
      heads = { seen, served: served(at) };
      heads.served.catch(() => {}); // its failure is the last test's
    });

    it(`cuts ${SENDERS} senders that trickle a body with 408 and closes their connections`, async () => {
      // Seconds of room for a loaded machine; Deno.serve keeps the connection (see above): its answer is all.
      const waitMs = BODY_TIMEOUT_MS + 10_000;
      const deno = runtime === "deno";
      const seen = Promise.all(Array.from({ length: SENDERS }, () => trickle(port(), SLOW_BODY, " ", waitMs, deno)));
      await served(port());
      for (const { received, closed } of await seen) {
        assert.match(received, /^HTTP\/1\.1 408 /);
        assert.match(received, /^connection: close\r$/im);
        // By the SDK's deadline on every runtime (Deno.serve included), in its own words: not the body's end (it
        // never ends), nor anything before the deadline.
        assert.match(received, /did not arrive within 1500 ms/);
        if (runtime === "deno") continue; // Deno.serve keeps it while the body arrives (see above)
        // Closed after the 408 was sent (received above): the deadline's cut.
        assert.ok(closed, "the connection stayed open after the 408");
      }
    });

    it("cuts a sender that trickles a large body (Deno.serve reads it in steps) with 408", async () => {
      const large = SLOW_BODY.replace("Content-Length: 100", "Content-Length: 200000");
      const seen = await trickle(port(), large, " ", BODY_TIMEOUT_MS + 10_000, true);
      assert.match(seen.received, /^HTTP\/1\.1 408 /);
      assert.match(seen.received, /did not arrive within 1500 ms/); // the SDK's deadline, not before it
      await served(port());
    });

    it("answers 100 pipelined requests, in order (RFC 9112 §9.3.2)", async (t) => {
      if (runtime === "deno") {
        // Deno 2.9.5 answers `Connection: close` once a body did not come whole with the head, and drops
        // what was pipelined behind it (denoland/deno#36657, fixed upstream by denoland/deno#36690).
        return t.skip("Deno.serve 2.9.5 closes the connection after a body larger than its first read");
      }
      let requests = "";
      for (let id = 0; id < 100; id++) {
        const body = JSON.stringify(toolsCall("echo", { text: "x".repeat(2000) }, id));
        requests += "POST /mcp-lite/v1/calltools HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          `Content-Length: ${body.length}\r\n\r\n${body}`;
      }
      const ids = await new Promise<number[]>((resolve) => {
        const socket = connect(port(), "127.0.0.1");
        let received = "";
        const found = () => [...received.matchAll(/"id":(\d+)/g)].map((match) => Number(match[1]));
        const done = () => {
          clearTimeout(limit);
          socket.destroy();
          resolve(found());
        };
        const limit = setTimeout(done, 10_000);
        socket.on("connect", () => socket.write(requests));
        socket.on("data", (chunk) => {
          received += String(chunk);
          if (found().length === 100) done();
        });
        socket.on("error", done);
        socket.on("close", done);
      });
      assert.deepEqual(ids, Array.from({ length: 100 }, (_, id) => id));
    });

    it("refuses a 100 KB head with 431", async (t) => {
      if (runtime === "deno") return t.skip("Deno.serve answers a head over 64 KiB 400, before any handler runs");
      const { received } = await exchange(
        port(),
        `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`,
        5000,
      );
      assert.match(received, /^HTTP\/1\.1 431 /);
    });

    it("closes the connection after refusing a declared Content-Length with 413", async () => {
      const { received, closed } = await exchange(
        port(),
        "POST /mcp-lite/v1/calltools HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          "Content-Length: 99999999999\r\n\r\n{",
        5000,
      );
      assert.match(received, /^HTTP\/1\.1 413 /);
      assert.ok(closed, "the connection stayed open after the 413");
    });

    it(`cuts ${SENDERS} senders that trickle a request's head`, async (t) => {
      if (runtime === "deno") {
        // The documented alternative, httpServer: "node:http", is cut on Deno by the describe block below.
        return t.skip("Deno.serve has no deadline for a request's head (denoland/deno#3515)");
      }
      if (heads === undefined) port(); // throws: no server
      await heads!.served;
      for (const { received, closed, dripped } of await heads!.seen) {
        assert.ok(closed, "a slow head still holds its connection");
        // Not cut at once: the head's deadline let the sender drip on a while (a byte a second) before it.
        assert.ok(dripped >= 1, `cut after ${dripped} bytes of the head's drip, before the deadline`);
        // Node answers 408 (RFC 9110 §15.5.9); Bun closes without an answer.
        if (runtime === "node") assert.match(received, /^HTTP\/1\.1 408 /);
      }
    });
  });
}

describe("serve()'s deadlines", () => {
  let listener: Listener;
  before(async () => {
    const server = fixtureServer({ bodyTimeoutMs: BODY_TIMEOUT_MS, maxBodyBytes: MAX_BODY_BYTES });
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => await listener.close());
  deadlines("on this runtime", () => listener.port, IS_BUN ? "bun" : IS_DENO ? "deno" : "node");
});

describe('serve({ httpServer: "node:http" })\'s deadlines', () => {
  let listener: Listener;
  before(async () => {
    const server = fixtureServer({ bodyTimeoutMs: BODY_TIMEOUT_MS, maxBodyBytes: MAX_BODY_BYTES });
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true, httpServer: "node:http" });
  });
  after(async () => await listener.close());
  deadlines("on this runtime", () => listener.port, "node");
});

describe("serve()'s deadlines on Node 22", { skip: ONCE_PER_RUN }, () => {
  let child: ChildServer | undefined;
  before(async () => {
    const node = await node22();
    if (node === undefined) return;
    child = await childServer(node, [
      `${ROOT}tests/server/deadline-server.ts`,
      String(BODY_TIMEOUT_MS),
      String(MAX_BODY_BYTES),
    ]);
  });
  after(async () => await child?.stop());
  deadlines("node:http", () => {
    if (child === undefined) throw new Error("needs Node 22: bash .ci/node22.sh installs it");
    return child.port;
  }, "node");
});
