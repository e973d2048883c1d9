/**
 * A stdio remote that crashes at start is started again with exponential backoff and jitter, up to a cap,
 * on a clock the test moves: a call meanwhile is refused `unavailable` with the rest of the wait (never a
 * spawn), and the remote recovers once the child is healthy. A child that ran healthy for a while starts
 * the count over.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ErrorCode, ProtocolError } from "../../src/errors/error.ts";
import { connectRemote } from "../../src/proxy/remote.ts";
import { remoteError } from "../../src/proxy/remote-error.ts";
import { RestartBackoff, RestartPending } from "../../src/proxy/restart-backoff.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

describe("RestartBackoff", () => {
  it("waits nothing after one failure, then doubles the wait up to the cap, with jitter", () => {
    let random = 0;
    const backoff = new RestartBackoff({ baseMs: 100, capMs: 1_000, now: () => 0, random: () => random });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      backoff.started();
      backoff.failed();
      waits.push(backoff.wait());
    }
    assert.deepEqual(waits, [0, 50, 100, 200, 400, 500, 500, 500]); // half of 100·2ⁿ, capped at 1 000
    random = 0.999;
    backoff.started();
    backoff.failed();
    assert.ok(backoff.wait() > 500 && backoff.wait() <= 1_000, String(backoff.wait()));
  });

  it("starts the count over after a child ran healthy for healthyMs", () => {
    let now = 0;
    const backoff = new RestartBackoff({ baseMs: 100, healthyMs: 5_000, now: () => now, random: () => 0 });
    for (let i = 0; i < 5; i++) {
      backoff.started();
      backoff.failed();
    }
    assert.equal(backoff.wait(), 400);
    now = 1_000;
    backoff.started();
    now = 6_000; // it ran 5 s
    backoff.failed();
    assert.equal(backoff.wait(), 0);
  });
});

describe("proxy()'s stdio remote that crashes at start", () => {
  const dir = scratchDir("mcplite-backoff-");

  it("is started again on the backoff's schedule, callers told when to retry, and recovers", async () => {
    const log = join(dir, "starts.log");
    const flag = join(dir, "healthy");
    writeFileSync(log, "");
    const base = runtimeCommand(new URL("./flapping-stdio-server.ts", import.meta.url).pathname);
    const command = { ...base, args: [...base.args, log, flag], stderr: "pipe" as const };
    let clock = 0;
    const remote = connectRemote(command, {}, { baseMs: 250, capMs: 30_000, now: () => clock, random: () => 0 });
    const starts = () => readFileSync(log, "utf8").split("\n").filter(Boolean).length;
    const spawnedAt: number[] = [];
    const refusals: unknown[] = [];
    try {
      // 100 calls over 10 s of the test's clock; without a backoff, each would start a child.
      for (clock = 0; clock < 10_000; clock += 100) {
        const before = starts();
        try {
          await remote.client.callTool("pid", {}, { timeoutMs: 20_000 });
          assert.fail("the child exits at start");
        } catch (error) {
          if (error instanceof RestartPending) refusals.push(error);
          else remote.failed(error);
        }
        if (starts() > before) spawnedAt.push(clock);
      }
      // At once after the first failure, then 125, 250, 500… ms of equal jitter's least wait.
      assert.deepEqual(spawnedAt, [0, 100, 300, 600, 1_100, 2_100, 4_100, 8_100]);
      assert.equal(starts(), 8);
      assert.equal(refusals.length, 92);
      const answered = remoteError(refusals.at(-1), 1_000, "flapping");
      assert.ok(answered instanceof ProtocolError && answered.code === ErrorCode.Unavailable);
      const data = answered.data as { retryAfterMs: number; reason: string };
      assert.equal(data.reason, "restarting");
      assert.equal(data.retryAfterMs, 8_100 + 8_000 - 9_900); // the rest of the wait
      writeFileSync(flag, "");
      clock = 16_100;
      const pid = await remote.client.callTool("pid", {}, { timeoutMs: 20_000 });
      assert.equal(starts(), 9);
      assert.deepEqual(pid.content, [{ type: "text", text: readFileSync(log, "utf8").trim().split("\n").at(-1) }]);
    } finally {
      await remote.close();
    }
  });
});
