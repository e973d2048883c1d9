/**
 * The server the Node adapter's tests serve: `add`; `hold`, which waits until its call is cancelled
 * (the client went away) and counts the cancellations it saw; `seen`, which answers those counts (for a
 * server in another process); MCP-lite, MCP and the WebSocket binding. And {@link streaming}, an answer
 * that counts the chunks it produced, for backpressure.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer } from "node:http";
import { connect } from "node:net";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import type { ServerOptions } from "../../src/server/server-options.ts";
import { modernRequest, toolsCall } from "../helpers/request.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { waitFor } from "../helpers/wait.ts";

/** A server with `add` and `hold`, and what `hold` saw. */
export function nodeFixture(options: Partial<ServerOptions> = {}) {
  const seen = { held: 0, cancelled: 0 };
  const add = defineTool("add")
    .describe("Adds two numbers")
    .input(v.object({ a: v.number(), b: v.number() }))
    .handle(({ a, b }) => String(a + b));
  const hold = defineTool("hold")
    .describe("Waits until the call is cancelled (at most 10 s)")
    .handle((_input, ctx) => {
      seen.held++;
      return new Promise<string>((resolve) => {
        const timer = setTimeout(() => resolve("not cancelled"), 10_000);
        ctx.signal.addEventListener("abort", () => {
          seen.cancelled++;
          clearTimeout(timer);
          resolve("cancelled");
        }, { once: true });
      });
    });
  const counts = defineTool("seen")
    .describe("Answers how many hold calls started and were cancelled")
    .handle(() => JSON.stringify(seen));
  const server = createServer({
    name: "node-fixture",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
    ...options,
  }).tool(add).tool(hold).tool(counts);
  return { server, seen };
}

/** Whether `check()` came to hold within `ms` (15 s: a bound for a loaded machine); see tests/helpers/wait.ts. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  return await waitFor(check, ms).then(() => true, () => false);
}

/** 64 KiB chunks. */
const CHUNK = new Uint8Array(64 * 1024);

/**
 * A fetch handler whose answer is an endless stream pulled chunk by chunk (`GET /stream`), and the
 * number of chunks pulled so far (`GET /pulled`): with backpressure, a client that reads nothing stops
 * the pulling once the socket's buffers are full.
 */
export function streaming(): { fetch(request: Request): Response } {
  let pulled = 0;
  return {
    fetch(request) {
      if (new URL(request.url).pathname === "/pulled") return new Response(String(pulled));
      return new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++;
            controller.enqueue(CHUNK);
          },
        }, { highWaterMark: 1 }),
      );
    },
  };
}

/**
 * Opens `GET /stream` and reads nothing, and checks the server pulled a bounded number of chunks and then
 * stopped (the socket's buffers, not the 1000s a loop that ignores `write()`'s false would pull). It waits
 * for the pulling to start and then to stand still for 300 ms (each within 15 s), instead of sampling at
 * 500 and 800 ms: a loaded machine may not have filled the buffers by then, and still be pulling.
 */
export async function assertBackpressure(base: string): Promise<void> {
  const { port } = new URL(base);
  const socket = connect(Number(port), "127.0.0.1");
  socket.pause(); // read nothing
  socket.write("GET /stream HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
  const pulled = async () => Number(await (await fetch(`${base}/pulled`)).text());
  // About time itself: standing still is pulling nothing for 300 ms, so the samples are 300 ms apart.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
  try {
    const bound = AbortSignal.timeout(15_000);
    let first = await pulled();
    while (first === 0 && !bound.aborted) first = (await pause(), await pulled());
    assert.ok(first > 0, "the answer started");
    let [before, after] = [first, (await pause(), await pulled())];
    while (after !== before && after < 400 && !bound.aborted) {
      [before, after] = [after, (await pause(), await pulled())];
    }
    assert.ok(after < 400, `pulled ${after} chunks of 64 KiB for a client that read nothing`);
    assert.equal(after, before, `went on pulling: ${before}, then ${after}`);
  } finally {
    socket.destroy();
  }
}

/** Sends an in-process request (tests/helpers/request.ts) to a listener under `base` instead. */
export async function over(base: string, request: Request, signal?: AbortSignal): Promise<Response> {
  const url = new URL(request.url);
  return await fetch(base + url.pathname + url.search, {
    method: request.method,
    headers: request.headers,
    body: await request.text(),
    signal,
  });
}

/** Calls `add` on MCP-lite and MCP under `base`; answers both sums' texts. */
export async function addOnBoth(base: string): Promise<[string, string]> {
  const lite = await fetch(`${base}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
  });
  assert.equal(lite.status, 200);
  const mcp = await over(base, modernRequest("tools/call", { name: "add", arguments: { a: 2, b: 3 } }));
  assert.equal(mcp.status, 200);
  return [(await lite.json()).result.content[0].text, (await mcp.json()).result.content[0].text];
}

/** Listens on 127.0.0.1 (a free port), runs `body` with the base URL, and closes. */
export async function listening(listener: RequestListener, body: (base: string) => Promise<void>): Promise<void> {
  const http: HttpServer = createHttpServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  try {
    await body(`http://127.0.0.1:${(http.address() as { port: number }).port}`);
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

/** Sends an MCP-lite `add` call whose head goes first and whose body follows in `pieces`, each in a packet of its own. */
function sendInPieces(port: number, body: string, pieces: string[], end: boolean): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("connect", async () => {
      socket.write(
        "POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n" +
          `content-length: ${new TextEncoder().encode(body).byteLength}\r\nconnection: close\r\n\r\n`,
      );
      for (const piece of pieces) {
        await new Promise((resolve) => setTimeout(resolve, 30)); // the sender's pace: each piece a packet of its own
        socket.write(piece);
      }
      if (!end) socket.destroy(), resolve("gone");
    });
    socket.on("data", (chunk) => received += String(chunk));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

/**
 * Asserts that the server at `base` reads a body arriving after its head, in two pieces (most clients send a small body
 * with its head; some, Bun's `fetch` among them, write it apart), and still answers once a sender went away mid-body.
 */
export async function assertLateBody(base: string): Promise<void> {
  const port = Number(new URL(base).port);
  const body = JSON.stringify(toolsCall("add", { a: 1, b: 2 }));
  const answer = await sendInPieces(port, body, [body.slice(0, 10), body.slice(10)], true);
  assert.match(answer, /^HTTP\/1\.1 200/);
  assert.match(answer, /"text":"3"/);
  await sendInPieces(port, body, [body.slice(0, 10)], false);
  assert.deepEqual(await addOnBoth(base), ["3", "5"], "the server still answers");
}
