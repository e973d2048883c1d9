/**
 * The server's budgets across requests (`limits`), on a server in a child process (`serve()` on the
 * runtime under test, and on Node 22): 60 concurrent calls of 4 MiB bodies, from 60 callers, are each
 * answered, 200 or 503 with `Retry-After`, the bytes held never pass the body budget and no refused body is
 * read (the memory this saves is measured by bench/budgets-rss.ts); a refusal sent while the body is still to
 * come reaches the client, which may send its body whole after it: the server reads and discards it, and
 * closes without a reset (RFC 9112 §9.6); one greedy caller is refused 429 past its share while another
 * caller is still served; calls held open and deferred jobs are bounded for the instance and for one caller.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { type ChildServer, node22, NODE22_MISSING } from "../helpers/child-server.ts";
import { type Answer, budgetsServer, callHold } from "../helpers/budgets-calls.ts";
import { waitFor } from "../helpers/long-running.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

const MiB = 1024 * 1024;
/** The default body budget (`limits.bodyBytes`). */
const BODY_BUDGET = 16 * MiB;

/** What the server saw since the last reset: the most each budget held, and its refusals by whether it read their body. */
interface Seen {
  readonly peak: Record<string, number>;
  readonly refusedUnread: number;
  readonly refusedRead: number;
}

async function seen(port: number, reset = false): Promise<Seen> {
  return await (await fetch(`http://127.0.0.1:${port}/seen${reset ? "?reset" : ""}`)).json();
}

/**
 * 60 callers each send a 4 MiB call at once: each is answered, 200 or 503 with `Retry-After`; the bytes held
 * never pass the body budget, no refused body was read, and all is given back once they are answered.
 */
async function assertBodiesBounded(server: ChildServer): Promise<void> {
  await seen(server.port, true);
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => callHold(server.port, `caller-${i}`, 4 * MiB - 200, 300)),
  );
  const statuses = answers.map((answer) => answer.status);
  assert.ok(statuses.includes(200), `none was served: ${statuses}`);
  for (const answer of answers) {
    assert.ok(answer.status === 200 || answer.status === 503, `answered ${answer.status}`);
    if (answer.status !== 200) assert.equal(answer.retryAfter, "1", "a refusal without Retry-After");
  }
  const { peak, refusedUnread, refusedRead } = await seen(server.port);
  assert.ok(peak.bodyBytes <= BODY_BUDGET, `the bodies held ${peak.bodyBytes} bytes at once`);
  assert.equal(refusedRead, 0, "a refused body was read");
  assert.equal(refusedUnread, statuses.filter((status) => status === 503).length);
  await until(server.port, { bodyBytes: 0, calls: 0 });
}

/** How a refusal sent before the body went: its head, and how the connection ended once the body was sent after it. */
interface RefusedThenSent extends Answer {
  /** The error the connection ended with (`ECONNRESET`, `EPIPE`: a reset), or undefined for a clean close. */
  readonly error: string | undefined;
}

/**
 * Sends the head of a call of `size` bytes as `token`, waits for its answer, then sends the body whole and
 * ends; resolves once the connection closed, with the answer and how it ended. Rejects after 20 s.
 */
function refusedThenSent(port: number, token: string, size: number): Promise<RefusedThenSent> {
  return new Promise((resolve, reject) => {
    // Half-open: the server may close its side after the answer and still read the body.
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("the connection was still open after 20 s"));
    }, 20_000);
    let head = "";
    let answer: Answer | undefined;
    let error: string | undefined;
    socket.on("data", (chunk: Uint8Array) => {
      if (answer !== undefined) return;
      head += new TextDecoder().decode(chunk);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      const lines = head.slice(0, end).split("\r\n");
      const retryAfter = lines.find((line) => /^retry-after:/i.test(line))?.split(":")[1].trim();
      answer = { status: Number(lines[0].split(" ")[1]), retryAfter };
      socket.write(new Uint8Array(size).fill(0x20), () => socket.end()); // the body, after its refusal
    });
    socket.on("error", (failure: Error & { code?: string }) => error = failure.code ?? failure.message);
    socket.on("close", () => {
      clearTimeout(timer);
      if (answer === undefined) reject(new Error(`the server closed the connection without an answer (${error})`));
      else resolve({ ...answer, error });
    });
    socket.write(
      `POST /mcp-lite/v1/calltools HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${size}\r\n\r\n`,
    );
  });
}

/**
 * With the one call the instance admits held open, a call is refused 503 before its body was sent; the
 * client then sends the body (1 MiB) whole, and the connection closes without a reset (RFC 9112 §9.6).
 */
async function assertRefusalReaches(server: ChildServer): Promise<void> {
  const { port } = server;
  const held = callLater(port, "ada", true);
  await until(port, { heldStreams: 1, calls: 1 });
  const refused = await refusedThenSent(port, "grace", MiB);
  assert.deepEqual(refused, { status: 503, retryAfter: "1", error: undefined });
  await fetch(`http://127.0.0.1:${port}/release`).then((response) => response.text());
  assert.equal(await ending(await held), "held: finished");
}

/** One caller sends 4 calls at once past its share of 2: two are refused 429; another caller is served meanwhile. */
async function assertCallerShare(server: ChildServer): Promise<void> {
  // Each admitted call holds until released (a negative hold): the first two still run when the last two arrive,
  // however slowly a loaded machine sends them.
  await seen(server.port, true);
  const greedy = Array.from({ length: 4 }, () => callHold(server.port, "greedy", 10, -1));
  // The greedy calls are in: each held or refused.
  await waitFor(async () => {
    const { refusedUnread, refusedRead } = await seen(server.port);
    return (await inUse(server.port)).calls + refusedUnread + refusedRead === 4;
  }, 20_000);
  const other = await callHold(server.port, "modest", 10, 0);
  await fetch(`http://127.0.0.1:${server.port}/release`).then((response) => response.text());
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
  let held: Record<string, number> = {};
  await waitFor(async () => {
    held = await inUse(port);
    return Object.entries(want).every(([name, value]) => held[name] === value);
  }, 10_000).catch(() => assert.fail(`the budgets hold ${JSON.stringify(held)}, not ${JSON.stringify(want)}`));
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

const ONE_CALL = { calls: 1 };
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
  it("answers 60 concurrent 4 MiB calls 200 or 503 with Retry-After, within the body budget, refused bodies unread", {
    timeout: 180_000,
  }, async () => {
    await onServer({}, assertBodiesBounded);
  });

  it("gets a refusal to the client, which sends its body after it, and closes without a reset", async () => {
    await onServer(ONE_CALL, assertRefusalReaches);
  });

  it("refuses one greedy caller 429 past its share while another caller is served", async () => {
    await onServer({ calls: 8, perCaller: { calls: 2 } }, assertCallerShare);
  });

  it("bounds calls held open and deferred jobs, for the instance and for one caller", async () => {
    await onServer(HELD_AND_JOBS, assertHeldAndJobs);
  });

  // The same four on Node 22, each a test of its own: a child server each, on a loaded machine, with room to start.
  const onNode22: [string, object, (server: ChildServer) => Promise<void>][] = [
    ["bounds 60 concurrent 4 MiB calls", {}, assertBodiesBounded],
    ["gets a refusal to a client still sending its body", ONE_CALL, assertRefusalReaches],
    ["refuses one greedy caller past its share", { calls: 8, perCaller: { calls: 2 } }, assertCallerShare],
    ["bounds calls held open and deferred jobs", HELD_AND_JOBS, assertHeldAndJobs],
  ];
  for (const [name, limits, test] of onNode22) {
    it(`${name}, on Node 22 (serve() on node:http)`, { skip: ONCE_PER_RUN, timeout: 180_000 }, async (t) => {
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      await onServer(limits, test, node);
    });
  }
});
