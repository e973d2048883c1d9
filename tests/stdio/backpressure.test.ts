/**
 * stdio's output bound, on the runtime under test: a server started in a child process with
 * `serveStdio()` (tests/websocket/memory-server.ts `stdio`, which writes `big` to stderr as each call
 * starts) is sent calls answering 1 MiB each, one once the one before started, by a host that reads
 * nothing of its stdout. The server stops reading requests while 8 MiB wait to be written: it starts 8
 * calls, not 64, however long the host waits; once the host reads again it reads the rest and answers
 * every call, in order. What is counted is calls started, which a loaded machine does not change (the
 * resident set it does). 64 requests written at once start a burst of 16 at most, then the same, however
 * the pipe splits them into reads (tests/stdio/burst-bound.test.ts splits them on purpose, in process).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { LOADED_MS } from "../helpers/long-running.ts";
import { ROOT } from "../helpers/process.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { call } from "../websocket/fixture.ts";

const CALLS = 64;
const MIB = 1024 * 1024;
/** The answers the server queues before it stops reading (8 MiB of 1 MiB answers; serveStdio's bound). */
const QUEUED = 8;
/**
 * The most calls that may start for a host that does not read: the queue, and an answer or two the pipe
 * and the host's buffer may take whole (8 start on Bun and Deno; all 64 without the bound).
 */
const MOST_STARTED = QUEUED + 2;
/** How long a call past the queue may take to start before the server counts as having stopped reading. */
const STILL_MS = 1000;
/** The most requests serveStdio starts before their answers are written, for a host behind (a burst). */
const BURST = 16;
/**
 * The most any one step may take on a loaded machine (a bound, not a measure): a step is the server starting, or
 * the host reading up to 64 MiB (20 s failed once in CI, at a sixth of a core).
 */
const STEP_MS = LOADED_MS;

/** The memory server over stdio, the calls it started, and the ids of the answers its host read. */
function stdioServer() {
  const { command, args } = runtimeCommand(`${ROOT}tests/websocket/memory-server.ts`);
  const child = spawn(command, [...args, "stdio"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  const seen = { started: 0, read: 0, ids: [] as number[] };
  /** Who waits for what the host reads next (see `until`). */
  const waiting = new Set<() => void>();
  const changed = () => waiting.forEach((check) => check());
  child.stderr!.on("data", (chunk: Uint8Array) => {
    seen.started += String(chunk).split("big").length - 1;
    changed();
  });
  let head = ""; // the start of the line being read: only its id matters (1 MiB of "x" follows)
  child.stdout!.on("data", (chunk: Uint8Array) => {
    seen.read += chunk.byteLength;
    const parts = String(chunk).split("\n");
    parts.forEach((part, i) => {
      head += part.slice(0, Math.max(0, 64 - head.length));
      if (i === parts.length - 1) return; // the line goes on in the next chunk
      seen.ids.push(Number(/"id":(\d+)/.exec(head)?.[1]));
      head = "";
    });
    changed();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const send = (id: number) => child.stdin!.write(JSON.stringify(call(id, "big", { kb: 1024 })) + "\n");
  /**
   * Resolves once `check()` holds, checked as the host reads (stdout, and the server's stderr: nothing else changes
   * what it counts); rejects, naming `what` and the counts, after `ms` or when the server exits first.
   */
  const until = (check: () => boolean, what: string, ms = STEP_MS) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => end(`not within ${ms} ms`), ms);
      const end = (failure?: string) => {
        clearTimeout(timer);
        waiting.delete(test);
        if (failure === undefined) resolve();
        else reject(new Error(`${failure}: ${what} (${seen.started} started, ${seen.read} bytes read)`));
      };
      const test = () => void (check() && end());
      waiting.add(test);
      exited.then(() => waiting.has(test) && end("the server exited first"));
      test();
    });
  return { child, seen, send, until };
}

/** Waits until `count()` stays the same for {@link STILL_MS} (bounded by {@link STEP_MS}): stillness has no event. */
async function settled(count: () => number): Promise<number> {
  let last = count();
  for (const bound = AbortSignal.timeout(STEP_MS); !bound.aborted;) {
    await new Promise((resolve) => setTimeout(resolve, STILL_MS)); // about time itself: a stillness this long
    if (count() === last) return last;
    last = count();
  }
  return last;
}

describe("serveStdio's output bound", () => {
  it("reads no more requests while the host does not read stdout, then answers every call once it does", async () => {
    const { child, seen, send, until } = stdioServer();
    try {
      // One answer of 1 MiB read whole first: the server is up and has served one.
      send(0);
      await until(() => seen.read > MIB, "the first answer read");
      child.stdout!.pause(); // the host stops reading: the pipe fills
      // One call at a time, each once the one before started (so that each request is a read of its
      // own): the server starts calls while less than 8 MiB wait to be written, then reads no more.
      let sent = 0;
      while (sent < CALLS) {
        send(++sent);
        const target = sent + 1;
        // The first 8 must start (only the queue can stop them): a loaded machine gets all the time it needs.
        const ms = sent <= QUEUED ? STEP_MS : STILL_MS;
        if (!await until(() => seen.started >= target, `call ${sent} started`, ms).then(() => true, () => false)) break;
      }
      const started = seen.started - 1;
      assert.ok(started >= QUEUED, `stopped reading after ${started} calls, before 8 MiB were queued`);
      assert.ok(started <= MOST_STARTED, `${started} of ${CALLS} calls started for a host that does not read`);
      for (let i = sent + 1; i <= CALLS; i++) send(i);
      child.stdout!.resume(); // the host reads again: the server reads the rest of the requests
      await until(() => seen.ids.length === CALLS + 1, "every answer read");
      assert.deepEqual(seen.ids, Array.from({ length: CALLS + 1 }, (_, id) => id), "every call answered, in order");
      // Each call writes to stderr before it answers on stdout, but the two pipes reach the host in either order.
      await until(() => seen.started === CALLS + 1, "every call's line on stderr");
      assert.equal(seen.started, CALLS + 1);
    } finally {
      child.kill();
    }
  });

  it("starts a burst of requests written at once a few at a time, so the bound holds for it too", async () => {
    const { child, seen, send, until } = stdioServer();
    try {
      send(0);
      await until(() => seen.read > MIB, "the first answer read");
      child.stdout!.pause();
      child.stdin!.cork(); // all 64 requests in one write (which the server may read in more than one chunk)
      for (let id = 1; id <= CALLS; id++) send(id);
      child.stdin!.uncork();
      // The first 8 must start (only the queue can stop them): a loaded machine gets all the time it needs.
      await until(() => seen.started > QUEUED, "the first 8 calls of the burst started");
      const started = await settled(() => seen.started) - 1;
      assert.ok(started >= QUEUED, `${started} calls started`);
      assert.ok(
        started <= BURST + 2,
        `${started} of ${CALLS} calls written at once started for a host that does not read`,
      );
      child.stdout!.resume();
      await until(() => seen.ids.length === CALLS + 1, "every answer read");
      assert.deepEqual(seen.ids, Array.from({ length: CALLS + 1 }, (_, id) => id), "every call answered, in order");
    } finally {
      child.kill();
    }
  });
});
