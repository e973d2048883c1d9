/**
 * `nodeHandler()` (`@mcplite/sdk/node`) on a real `node:http` server (this runtime's: Bun's and Deno's
 * Node compatibility here; Node 22 itself in node22.test.ts) and mounted in Express under `/mcp`:
 * MCP-lite and MCP answer, the mount's base path is honoured, a body Express already parsed is used, a
 * call is cancelled when its client goes away, and the server's body limits and slow-sender deadline hold.
 */
import assert from "node:assert/strict";
import type { RequestListener } from "node:http";
import { connect } from "node:net";
import { describe, it } from "node:test";
import express from "express";
import { nodeHandler } from "../../src/runtime/node/mod.ts";
import { toolsCall } from "../helpers/request.ts";
import {
  addOnBoth,
  assertBackpressure,
  assertLateBody,
  eventually,
  listening,
  nodeFixture,
  streaming,
} from "./fixture.ts";

describe("nodeHandler()", () => {
  it("serves MCP-lite and MCP on node:http", async () => {
    const { server } = nodeFixture();
    await listening(nodeHandler(server), async (base) => {
      assert.deepEqual(await addOnBoth(base), ["3", "5"]);
    });
  });

  it("answers MCP-lite and MCP under an Express mount, with the server's routes under it", async () => {
    const { server } = nodeFixture();
    const app = express();
    app.use("/mcp", nodeHandler(server));
    app.get("/other", (_req: unknown, res: { send(text: string): void }) => void res.send("express"));
    await listening(app as unknown as RequestListener, async (base) => {
      assert.deepEqual(await addOnBoth(`${base}/mcp`), ["3", "5"]);
      assert.equal(await (await fetch(`${base}/other`)).text(), "express");
    });
  });

  it("keeps the whole path for a server whose basePath is the mount point, and reads a body Express parsed", async () => {
    const { server } = nodeFixture({ basePath: "/mcp" });
    const app = express();
    app.use(express.json());
    app.use("/mcp", nodeHandler(server));
    await listening(app as unknown as RequestListener, async (base) => {
      assert.deepEqual(await addOnBoth(`${base}/mcp`), ["3", "5"]);
    });
  });

  it("cancels the call when the client goes away", async () => {
    const { server, seen } = nodeFixture();
    await listening(nodeHandler(server), async (base) => {
      const gone = new AbortController();
      const call = fetch(`${base}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("hold")),
        signal: gone.signal,
      }).catch(() => "aborted");
      assert.ok(await eventually(() => seen.held === 1), "the call started");
      gone.abort();
      assert.equal(await call, "aborted");
      assert.ok(await eventually(() => seen.cancelled === 1), "the handler's signal aborted");
    });
  });

  it("refuses a chunked body over maxBodyBytes with 413", async () => {
    const { server } = nodeFixture({ maxBodyBytes: 1024 });
    await listening(nodeHandler(server), async (base) => {
      const big = JSON.stringify(toolsCall("add", { a: 1, b: 2, pad: "x".repeat(64 * 1024) }));
      const bytes = new TextEncoder().encode(big);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
          controller.close();
        },
      });
      const answer = await fetch(`${base}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      assert.equal(answer.status, 413);
    });
  });

  it("answers a stalled sender 408 once bodyTimeoutMs passes", async () => {
    const { server } = nodeFixture({ bodyTimeoutMs: 300 });
    await listening(nodeHandler(server), async (base) => {
      const { port } = new URL(base);
      // Not before the body timeout: a timer of 250 ms, set as the head is sent, has fired when the answer comes (two
      // timers of one event loop fire in order of their ends, however loaded the machine).
      let due = false;
      let early: ReturnType<typeof setTimeout> | undefined;
      const head = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1");
        // The body never ends: only the body timeout can answer; seconds of room for a loaded machine.
        const limit = setTimeout(() => {
          socket.destroy();
          reject(new Error("no answer within 10 s"));
        }, 10_000);
        socket.on("connect", () => {
          early = setTimeout(() => due = true, 250);
          socket.write(
            "POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
              "content-length: 100\r\n\r\n{",
          );
        });
        socket.on("data", (chunk) => {
          clearTimeout(limit);
          socket.destroy();
          resolve(String(chunk).split("\r\n")[0]);
        });
        socket.on("error", reject);
      });
      clearTimeout(early);
      assert.match(head, /^HTTP\/1\.1 408/);
      assert.ok(due, "answered before the body timeout");
    });
  });

  it("reads a body that arrives after its head, in pieces, and outlives a sender gone mid-body", async () => {
    const { server } = nodeFixture();
    await listening(nodeHandler(server), async (base) => await assertLateBody(base));
  });

  it("stops pulling a streamed answer while the client reads nothing (backpressure)", async () => {
    await listening(nodeHandler(streaming()), async (base) => {
      await assertBackpressure(base);
    });
  });

  it("sends the head of an event stream at once, before its first event", async () => {
    let release = () => {};
    const app = {
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              release = () => {
                controller.enqueue(new TextEncoder().encode("data: late\n\n"));
                controller.close();
              };
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    };
    await listening(nodeHandler(app), async (base) => {
      const head = await Promise.race([
        fetch(`${base}/events`),
        // A bound for a loaded machine: without an event, only a head sent at once can come.
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
      ]);
      assert.ok(head !== undefined, "no head within 10 s of an event stream with no event yet");
      assert.equal(head.headers.get("content-type"), "text/event-stream");
      release();
      assert.equal(await head.text(), "data: late\n\n");
    });
  });
});

/** The head of the answer to `request` (raw HTTP/1.1, `Connection: close`), lower-cased, up to its blank line. */
function rawHead(base: string, request: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer: ${received}`))), 10_000);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => received += chunk);
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(received.slice(0, received.indexOf("\r\n\r\n")).toLowerCase());
    });
  });
}

describe("nodeHandler(): an answer without a body", () => {
  // A fetch handler answering each path with a null body: 202 (a notification, MCP Streamable HTTP), 204
  // (a session's DELETE), and a HEAD's 200.
  const app = {
    fetch: (request: Request) => {
      const status = Number(new URL(request.url).pathname.slice(1));
      return new Response(null, { status, headers: status === 200 ? { "content-length": "42" } : {} });
    },
  };
  const ask = (method: string, path: string) =>
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`;

  it("is framed with Content-Length: 0 where a body may be sent (a 202), not chunked", async () => {
    await listening(nodeHandler(app), async (base) => {
      const head = await rawHead(base, ask("POST", "/202"));
      assert.match(head, /^http\/1\.1 202/);
      assert.match(head, /\r\ncontent-length: 0(\r\n|$)/);
      assert.doesNotMatch(head, /transfer-encoding/);
    });
  });

  it("carries no length for a 204 (RFC 9110 §8.6), and keeps the one a HEAD's answer states", async () => {
    await listening(nodeHandler(app), async (base) => {
      const noContent = await rawHead(base, ask("DELETE", "/204"));
      assert.match(noContent, /^http\/1\.1 204/);
      assert.doesNotMatch(noContent, /content-length|transfer-encoding/);
      const head = await rawHead(base, ask("HEAD", "/200"));
      assert.match(head, /^http\/1\.1 200/);
      assert.match(head, /\r\ncontent-length: 42(\r\n|$)/);
      assert.doesNotMatch(head, /transfer-encoding/);
    });
  });
});
