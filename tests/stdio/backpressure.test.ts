/**
 * stdio's output bound, on the runtime under test: a server started in a child process with
 * `serveStdio()` (tests/websocket/memory-server.ts `stdio`, which writes `big` to stderr as each call
 * starts) is sent calls answering 1 MiB each, one once the one before started, by a host that reads
 * nothing of its stdout. The server stops reading requests while 8 MiB wait to be written: it starts 8
 * calls, not 64, however long the host waits; once the host reads again it reads the rest and answers
 * every call, in order. What is counted is calls started, which a loaded machine does not change (the
 * resident set it does).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { waitFor } from "../helpers/long-running.ts";
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
/** How long any one step may take on a loaded machine. */
const STEP_MS = 20_000;

describe("serveStdio's output bound", () => {
  it("reads no more requests while the host does not read stdout, then answers every call once it does", async () => {
    const { command, args } = runtimeCommand(`${ROOT}tests/websocket/memory-server.ts`);
    const child = spawn(command, [...args, "stdio"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let started = 0;
    child.stderr!.on("data", (chunk: Uint8Array) => void (started += String(chunk).split("big").length - 1));
    let read = 0;
    const ids: number[] = [];
    let head = ""; // the start of the line being read: only its id matters (1 MiB of "x" follows)
    child.stdout!.on("data", (chunk: Uint8Array) => {
      read += chunk.byteLength;
      const parts = String(chunk).split("\n");
      parts.forEach((part, i) => {
        head += part.slice(0, Math.max(0, 64 - head.length));
        if (i === parts.length - 1) return; // the line goes on in the next chunk
        ids.push(Number(/"id":(\d+)/.exec(head)?.[1]));
        head = "";
      });
    });
    try {
      // One answer of 1 MiB read whole first: the server is up and has served one.
      child.stdin!.write(JSON.stringify(call(0, "big", { kb: 1024 })) + "\n");
      await waitFor(() => read > MIB, STEP_MS);
      child.stdout!.pause(); // the host stops reading: the pipe fills
      // One call at a time, each once the one before started (so that each request is a read of its
      // own): the server starts calls while less than 8 MiB wait to be written, then reads no more.
      let sent = 0;
      while (sent < CALLS) {
        child.stdin!.write(JSON.stringify(call(++sent, "big", { kb: 1024 })) + "\n");
        const target = sent + 1;
        // The first 8 must start (only the queue can stop them): a loaded machine gets all the time it needs.
        const ms = sent <= QUEUED ? STEP_MS : STILL_MS;
        if (!await waitFor(() => started >= target, ms).then(() => true, () => false)) break;
      }
      assert.ok(started - 1 >= QUEUED, `stopped reading after ${started - 1} calls, before 8 MiB were queued`);
      assert.ok(started - 1 <= MOST_STARTED, `${started - 1} of ${CALLS} calls started for a host that does not read`);
      for (let i = sent + 1; i <= CALLS; i++) child.stdin!.write(JSON.stringify(call(i, "big", { kb: 1024 })) + "\n");
      child.stdout!.resume(); // the host reads again: the server reads the rest of the requests
      await waitFor(() => ids.length === CALLS + 1, STEP_MS);
      assert.deepEqual(ids, Array.from({ length: CALLS + 1 }, (_, id) => id), "every call answered, in order");
      assert.equal(started, CALLS + 1);
    } finally {
      child.kill();
    }
  });
});
