/**
 * stdio's output bound, on the runtime under test: a server started in a child process with
 * `serveStdio()` (tests/websocket/memory-server.ts `stdio`) is sent 300 calls answering 1 MiB each, one
 * every 5 ms, by a host that reads nothing of its stdout. The server stops reading requests while 8 MiB
 * wait to be written, so its resident set (Linux `/proc/<pid>/status`, VmRSS) grows by less than 50 MB.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { call } from "../websocket/fixture.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's resident set in bytes (Linux proc(5)). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Number(line!.split(/\s+/)[1]) * 1024;
}

describe("serveStdio's output bound", () => {
  it("reads no more requests while the host does not read stdout, and stays under +50 MB", async (t) => {
    if (!existsSync("/proc/self/status")) return t.skip("needs Linux's /proc to read a child's resident set");
    const { command, args } = runtimeCommand(`${ROOT}tests/websocket/memory-server.ts`);
    const child = spawn(command, [...args, "stdio"], { cwd: ROOT, stdio: ["pipe", "pipe", "ignore"] });
    try {
      // One answer of 1 MiB read whole first: the baseline has served one.
      let read = 0;
      const first = new Promise<void>((resolve) =>
        child.stdout!.on("data", (chunk: Uint8Array) => {
          read += chunk.byteLength;
          if (read > 1024 * 1024) resolve();
        })
      );
      child.stdin!.write(JSON.stringify(call(0, "big", { kb: 1024 })) + "\n");
      await Promise.race([first, sleep(20_000)]);
      child.stdout!.pause(); // the host stops reading: the pipe fills
      const before = rss(child.pid!);
      for (let i = 1; i <= 300; i++) {
        child.stdin!.write(JSON.stringify(call(i, "big", { kb: 1024 })) + "\n");
        await sleep(5);
      }
      let peak = 0;
      for (let i = 0; i < 6; i++) {
        await sleep(500);
        peak = Math.max(peak, rss(child.pid!));
      }
      const grown = (peak - before) / 1e6;
      assert.ok(grown < 50, `the server grew by ${grown.toFixed(0)} MB for a host that does not read`);
    } finally {
      child.kill();
    }
  });
});
