/**
 * The server's budgets across requests (`limits`), on a server in a child process (`serve()` on the
 * runtime under test, and on Node 22): 60 concurrent calls of 4 MiB bodies, from 60 callers, keep the
 * server's resident set within +150 MB and every refused request carries `Retry-After`; one greedy
 * caller is refused 429 past its share while another caller is still served; calls held open and deferred
 * jobs are bounded for the instance and for one caller.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";
import { type ChildServer, childServer, node22, NODE22_MISSING } from "../helpers/child-server.ts";
import { runtimeCommand } from "../helpers/stdio.ts";

const MiB = 1024 * 1024;

/** Starts the budgets server with these limits, on this runtime (or Node 22), with `gc()` exposed. */
async function budgetsServer(limits: object, node?: string): Promise<ChildServer> {
  const file = `${ROOT}tests/server/budgets-server.ts`;
  if (node !== undefined) return await childServer(node, ["--expose-gc", file, JSON.stringify(limits)]);
  const { command, args } = runtimeCommand(file);
  if (args[0] === "run") args.splice(1, 0, "--v8-flags=--expose-gc");
  return await childServer(command, [...args, JSON.stringify(limits)]);
}

/** What a raw request was answered. */
interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
}

/**
 * POSTs an MCP-lite call of `hold` on a raw socket, its body sent whole; resolves with the answer's head
 * as soon as it comes (a refusal comes before the body is read), then drops the connection. Rejects after 30 s.
 */
function callHold(port: number, token: string, data: number, ms: number): Promise<Answer> {
  const body = new TextEncoder().encode(JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "hold", arguments: { data: "x".repeat(data), ms } },
  }));
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no answer in 30 s"));
    }, 30_000);
    let head = "";
    socket.on("data", (chunk: Uint8Array) => {
      head += new TextDecoder().decode(chunk);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      clearTimeout(timer);
      socket.destroy();
      const lines = head.slice(0, end).split("\r\n");
      const retryAfter = lines.find((line) => /^retry-after:/i.test(line))?.split(":")[1].trim();
      resolve({ status: Number(lines[0].split(" ")[1]), retryAfter });
    });
    socket.on("error", () => {}); // the server may stop reading a refused body: the answer already came
    socket.on("close", () => {
      clearTimeout(timer); // a connection closed before any answer is a failure of its own, said at once
      reject(new Error(`the server closed the connection without an answer (${head.length} bytes came)`));
    });
    socket.write(
      `POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.byteLength}\r\n\r\n`,
    );
    socket.write(body);
  });
}

async function rss(port: number, reset = false): Promise<number> {
  return Number(await (await fetch(`http://127.0.0.1:${port}/rss${reset ? "?reset" : ""}`)).text());
}

/** 60 callers each send a 4 MiB call at once: the server's peak RSS grows < 150 MB; every refusal says when to retry. */
async function assertBodiesBounded(server: ChildServer): Promise<void> {
  const before = await rss(server.port, true);
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => callHold(server.port, `caller-${i}`, 4 * MiB - 200, 300)),
  );
  const grown = (await rss(server.port) - before) / 1e6;
  const statuses = answers.map((answer) => answer.status);
  assert.ok(statuses.includes(200), `none was served: ${statuses}`);
  for (const answer of answers) {
    assert.ok(answer.status === 200 || answer.status === 503, `answered ${answer.status}`);
    if (answer.status !== 200) assert.equal(answer.retryAfter, "1", "a refusal without Retry-After");
  }
  assert.ok(grown < 150, `the server grew by ${grown.toFixed(0)} MB for 60 bodies of 4 MiB`);
}

/** One caller sends 4 calls at once past its share of 2: two are refused 429; another caller is served meanwhile. */
async function assertCallerShare(server: ChildServer): Promise<void> {
  const greedy = Array.from({ length: 4 }, () => callHold(server.port, "greedy", 10, 1_000));
  await new Promise((resolve) => setTimeout(resolve, 200)); // the greedy calls are in
  const other = await callHold(server.port, "modest", 10, 0);
  const answers = await Promise.all(greedy);
  assert.equal(other.status, 200);
  assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 429, 429]);
  for (const answer of answers.filter((answer) => answer.status === 429)) assert.equal(answer.retryAfter, "1");
}

/** What the server's budgets hold now. */
async function inUse(port: number): Promise<Record<string, number>> {
  return await (await fetch(`http://127.0.0.1:${port}/budgets`)).json();
}

/** Waits (at most 10 s) until the server's budgets hold `want`. */
async function until(port: number, want: Record<string, number>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const held = await inUse(port);
    if (Object.entries(want).every(([name, value]) => held[name] === value)) return;
    assert.ok(Date.now() < deadline, `the budgets hold ${JSON.stringify(held)}, not ${JSON.stringify(want)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Calls `later` as `token`, streamed (SSE: held while its job runs) or not. */
function callLater(port: number, token: string, stream: boolean): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(stream ? { accept: "text/event-stream" } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "later", arguments: {} } }),
  });
}

/** How a streamed call of `later` ended: held until its result, or answered its promise at once. */
async function ending(response: Response): Promise<string> {
  const text = await response.text();
  const done = JSON.parse(text.split("\n").filter((line) => line.startsWith("data:")).at(-1)!.slice(5));
  return done._meta.response_type === "answer" ? `held: ${done.content[0].text}` : done._meta.response_type;
}

/**
 * heldStreams 2 (1 a caller) and jobs 4 (2 a caller): ada's second streamed call is not held, her third
 * call is refused 429 for its job; grace is held; alan is not held (the instance holds 2); bob's job is
 * refused (the instance runs 4); once the work ends, the held calls end with its result.
 */
async function assertHeldAndJobs(server: ChildServer): Promise<void> {
  const { port } = server;
  const ada = callLater(port, "ada", true);
  await until(port, { heldStreams: 1, jobs: 1 });
  assert.equal(await ending(await callLater(port, "ada", true)), "promise");
  const adaThird = await callLater(port, "ada", false);
  assert.equal(adaThird.status, 429);
  assert.equal(adaThird.headers.get("retry-after"), "1");
  assert.equal((await adaThird.json()).error.data.scope, "caller");
  const grace = callLater(port, "grace", true);
  await until(port, { heldStreams: 2, jobs: 3 });
  assert.equal(await ending(await callLater(port, "alan", true)), "promise");
  const bob = await callLater(port, "bob", false);
  assert.equal(bob.status, 429);
  assert.equal(bob.headers.get("retry-after"), "1");
  assert.equal((await bob.json()).error.data.scope, "instance");
  await fetch(`http://127.0.0.1:${port}/release`).then((response) => response.text());
  assert.deepEqual([await ending(await ada), await ending(await grace)], ["held: finished", "held: finished"]);
  await until(port, { heldStreams: 0, jobs: 0, calls: 0 });
}

const HELD_AND_JOBS = { heldStreams: 2, jobs: 4, perCaller: { heldStreams: 1, jobs: 2 } };

async function onServer(limits: object, test: (server: ChildServer) => Promise<void>, node?: string) {
  const server = await budgetsServer(limits, node);
  try {
    await test(server);
  } finally {
    await server.stop();
  }
}

describe("the server's budgets, on a server in a child process", () => {
  it("keeps 60 concurrent 4 MiB bodies within +150 MB, and every refusal carries Retry-After", async () => {
    await onServer({}, assertBodiesBounded);
  });

  it("refuses one greedy caller 429 past its share while another caller is served", async () => {
    await onServer({ calls: 8, perCaller: { calls: 2 } }, assertCallerShare);
  });

  it("bounds calls held open and deferred jobs, for the instance and for one caller", async () => {
    await onServer(HELD_AND_JOBS, assertHeldAndJobs);
  });

  it("does all three on Node 22 (serve() on node:http)", async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await onServer({}, assertBodiesBounded, node);
    await onServer({ calls: 8, perCaller: { calls: 2 } }, assertCallerShare, node);
    await onServer(HELD_AND_JOBS, assertHeldAndJobs, node);
  });
});
