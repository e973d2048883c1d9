/**
 * `serve()`, `nodeHandler()` and the Hono mount on Node 22 itself: tests/node/node22-server.ts runs on
 * Node 22 (from the sources), and this runtime drives it over sockets: MCP-lite and MCP through
 * `serve()`, two requests on one kept-alive connection (HTTP/1.1), an SSE call cancelled when its client
 * goes away, the body limit and the slow-sender deadline, a WebSocket client, backpressure on a streamed
 * answer, `nodeHandler()` mounted in Express under `/mcp` and in Fastify (its JSON parser on: the body
 * handed over is answered, one not handed over is a 500 naming the fix), and `mount(server.fetch)` in
 * Hono under `/mcp`.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import { WEBSOCKET_PROTOCOL } from "../../src/websocket/mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";
import { TestSocket } from "../websocket/socket.ts";
import { addOnBoth, assertBackpressure, assertLateBody, eventually } from "./fixture.ts";

/** The ports tests/node/node22-server.ts listens on. */
interface Ports {
  serve: number;
  express: number;
  fastify: number;
  hono: number;
  streaming: number;
}

let child: ChildProcess | undefined;
let ports: Ports | undefined;

// Five servers from the SDK's TypeScript, stripped by Node 22 as it loads them: seconds on a quiet machine, past 20 s
// with a core kept busy beside a CI run.
before(async () => {
  const node = await node22();
  if (node === undefined) return;
  child = spawn(node, [`${ROOT}tests/node/node22-server.ts`], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  ports = await new Promise<Ports>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the Node 22 servers did not start in 90 s")), 90_000);
    child!.stdout!.once("data", (chunk) => {
      clearTimeout(timer);
      resolve(JSON.parse(String(chunk)));
    });
    child!.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Node 22 servers exited with ${code}`));
    });
  });
}, { timeout: 120_000 });

after(async () => {
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child!.once("exit", resolve));
  const timer = setTimeout(() => child!.kill("SIGKILL"), 3000);
  child.stdin!.end(); // the servers close and the process exits
  await exited;
  clearTimeout(timer);
});

/** The base URL of one of the servers. */
const base = (name: keyof Ports) => `http://127.0.0.1:${ports![name]}`;

/** Writes raw HTTP/1.1 on one connection and collects what comes back until `done(text)` or 5 s. */
function raw(port: number, request: string, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const finish = () => {
      clearTimeout(limit);
      socket.destroy();
      resolve(text);
    };
    const limit = setTimeout(finish, 10_000); // seconds of room for a loaded machine
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => {
      text += String(chunk);
      if (done(text)) finish();
    });
    socket.on("close", finish);
    socket.on("error", reject);
  });
}

/** A raw MCP-lite call, with its Content-Length. */
function rawCall(body: string, extra = ""): string {
  return `POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${extra}` +
    `content-length: ${new TextEncoder().encode(body).byteLength}\r\n\r\n${body}`;
}

/** The counts the `seen` tool answers. */
async function seen(): Promise<{ held: number; cancelled: number }> {
  const answer = await fetch(`${base("serve")}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall("seen")),
  });
  return JSON.parse((await answer.json()).result.content[0].text);
}

describe("on Node 22", () => {
  it("serve() answers MCP-lite and MCP", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    assert.deepEqual(await addOnBoth(base("serve")), ["3", "5"]);
  });

  it("serve() reads a body that arrives after its head, and outlives a sender gone mid-body", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    await assertLateBody(base("serve"));
  });

  it("serve() keeps an HTTP/1.1 connection alive across requests", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    const call = JSON.stringify(toolsCall("add", { a: 1, b: 2 }));
    const text = await raw(ports.serve, rawCall(call) + rawCall(call), (text) => text.split('"text":"3"').length === 3);
    assert.equal(text.split("HTTP/1.1 200 OK").length, 3, text);
    assert.match(text, /content-length: \d+/i);
  });

  it("serve() cancels an SSE call when its client goes away", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    const before = await seen();
    const socket = connect(ports.serve, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(rawCall(JSON.stringify(toolsCall("hold")), "accept: text/event-stream\r\n"));
    assert.ok(await eventually(async () => (await seen()).held > before.held), "the call started");
    socket.destroy(); // the client goes away
    assert.ok(await eventually(async () => (await seen()).cancelled > before.cancelled), "the call was cancelled");
  });

  it("serve() refuses a body over maxBodyBytes (413) and a stalled sender (408)", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    const big = JSON.stringify(toolsCall("add", { a: 1, b: 2, pad: "x".repeat(4096) }));
    const refused = await raw(ports.serve, rawCall(big), (text) => text.includes("\r\n\r\n"));
    assert.match(refused, /^HTTP\/1\.1 413/);
    const stalled = rawCall("{}", "").replace("content-length: 2", "content-length: 100").slice(0, -1);
    // The body never ends: only the body timeout (300 ms) can answer. That it answers not before it is
    // node-handler.test.ts' (the server in the test's own process, its timers in order with the test's).
    assert.match(await raw(ports.serve, stalled, (text) => text.includes("\r\n\r\n")), /^HTTP\/1\.1 408/);
  });

  it("serve() upgrades a WebSocket (the ws package) and answers on it", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    const socket = await TestSocket.open(`ws://127.0.0.1:${ports.serve}/mcp-lite/v1/ws`, [WEBSOCKET_PROTOCOL]);
    try {
      socket.send(toolsCall("add", { a: 20, b: 22 }, 7));
      const answer = await socket.next((message) => message.id === 7);
      assert.equal(answer.result.content[0].text, "42");
    } finally {
      socket.close();
    }
  });

  it("serve() stops pulling a streamed answer while the client reads nothing (backpressure)", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    await assertBackpressure(base("streaming"));
  });

  it("nodeHandler() mounted in Express answers MCP-lite and MCP under /mcp", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    assert.deepEqual(await addOnBoth(`${base("express")}/mcp`), ["3", "5"]);
  });

  it("nodeHandler() in Fastify with its JSON parser on answers when the route hands request.body over", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    assert.deepEqual(await addOnBoth(`${base("fastify")}/mcp`), ["3", "5"]);
  });

  it("nodeHandler() answers a body Fastify read and nobody handed over with a 500 naming the fix", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    const answer = await fetch(`${base("fastify")}/forgot/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
      signal: AbortSignal.timeout(10_000), // it used to hang
    });
    assert.equal(answer.status, 500);
    assert.match(await answer.text(), /already read .* third argument/s);
  });

  it("the README's Hono mount answers MCP-lite and MCP under /mcp on @hono/node-server", async (t) => {
    if (ports === undefined) return t.skip(NODE22_MISSING);
    assert.deepEqual(await addOnBoth(`${base("hono")}/mcp`), ["3", "5"]);
  });
});
