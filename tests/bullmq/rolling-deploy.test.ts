/**
 * A rolling deploy under load, on BullMQ and a real redis-server: two web instances and two workers, each a
 * process of its own; while 200 calls of a long-running tool arrive at a steady pace (a client that, like a
 * load balancer, sends each call to a live instance and another one when an instance refuses the connection),
 * every instance and every worker is replaced in turn: a new one started, the old one sent SIGTERM (a web
 * instance finishes the requests in flight, a worker drains its running jobs). No call is lost, and every call
 * has one result, the same on every instance.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  assertStopped,
  killQueueProcesses,
  type QueueBackend,
  type QueueProcess,
  startWeb,
  startWorker,
} from "../helpers/queue-processes.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { readUntil, waitFor } from "../helpers/wait.ts";
import { toolsCall } from "../helpers/request.ts";

if (REDIS_MISSING) console.error(`bullmq rolling deploy: skipped: ${REDIS_MISSING}`);

const CALLS = 200;
/** The calls' pace: 200 calls over at least 4 s, and on while the four replacements happen. */
const PACE_MS = 20;
/** Calls that arrive before each replacement: every one of them happens while calls arrive. */
const BETWEEN = 10;
/**
 * Each job's length: longer than the pace, so that every worker stops with jobs running, and short enough that the
 * workers (eight jobs at once each) keep up with the calls: at 1.5 s a job, the two of them took 19 s to run 200.
 */
const JOB_MS = 300;

let redis: RedisServer | undefined;
before(async () => {
  if (!REDIS_MISSING) redis = await startRedis();
});
after(async () => {
  await killQueueProcesses();
  await redis?.stop();
});

/** A JSON-RPC answer of MCP-lite's `tools/call`. */
interface Answer {
  result?: {
    content: { text: string }[];
    isError?: boolean;
    _meta?: { response_type?: string; promise_token?: string };
  };
  error?: { message: string; data?: { reason?: string; retryAfterMs?: number } };
}

/** Sends one MCP-lite call to a live web instance, the next one when a connection is refused; 30 s at most. */
async function send(webs: () => QueueProcess[], name: string, args: unknown): Promise<Answer> {
  const bound = AbortSignal.timeout(30_000);
  for (let i = 0;; i++) {
    const live = webs();
    const web = live[i % live.length];
    try {
      const response = await fetch(`${web.url}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall(name, args)),
        signal: AbortSignal.timeout(10_000),
      });
      const answer: Answer = await response.json();
      const refusal = answer.error?.data;
      if (refusal?.reason !== "unavailable" || bound.aborted) return answer;
      // The store was out of reach for a moment (a loaded machine): sent again after retryAfterMs, as clients do.
      await new Promise((resolve) => setTimeout(resolve, refusal.retryAfterMs ?? 1_000));
    } catch (error) {
      // The instance stopped listening (SIGTERM): another one takes the call, as a load balancer does.
      if (bound.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20)); // a load balancer's pause before the next instance
    }
  }
}

describe("a rolling deploy of web instances and workers (BullMQ, redis-server)", { skip: REDIS_MISSING }, () => {
  it("replaces every instance and worker under 200 long-running calls: none lost, each one result", async () => {
    const backend: QueueBackend = {
      url: redis!.url,
      variable: "REDIS_URL",
      queue: `rolling-${crypto.randomUUID()}`,
      lockMs: 2_000,
    };
    const drain = ["--drain-ms", "20000"];
    const webs = await Promise.all([startWeb(backend), startWeb(backend)]);
    const workers = await Promise.all([startWorker(backend, ...drain), startWorker(backend, ...drain)]);
    const live = () => webs;

    // The steady stream of calls, each answered with its promise token at once: 200, and on until the deploy ends.
    const tokens: string[] = [];
    let deployed = false;
    const stream = (async () => {
      for (let n = 0; n < CALLS || !deployed; n++) {
        const answer = await send(live, "slow", { n, ms: JOB_MS });
        assert.equal(answer.result?._meta?.response_type, "promise", JSON.stringify(answer));
        tokens[n] = answer.result!._meta!.promise_token!;
        await new Promise((resolve) => setTimeout(resolve, PACE_MS)); // the load's pace: calls spread over the deploy
      }
    })();

    // The deploy: each process replaced in turn while the calls arrive.
    const stopped: QueueProcess[] = [];
    for (
      const [list, index, next] of [
        [webs, 0, () => startWeb(backend)],
        [workers, 0, () => startWorker(backend, ...drain)],
        [webs, 1, () => startWeb(backend)],
        [workers, 1, () => startWorker(backend, ...drain)],
      ] as const
    ) {
      const before = tokens.length;
      await waitFor(() => tokens.length >= before + BETWEEN, 30_000);
      const old = list[index];
      (list as QueueProcess[])[index] = await next(); // the new one serves before the old one stops
      old.kill("SIGTERM");
      stopped.push(old);
      await assertStopped(old);
    }
    deployed = true;
    await stream;
    assert.ok(tokens.length >= CALLS && tokens.every(Boolean), `${tokens.length} calls, each a token`);

    // Every call's result, redeemed on one instance, then the other: the same, its own.
    for (let n = 0; n < tokens.length; n++) {
      const answer = await readUntil(
        () => send(live, "redeem", { promise: tokens[n] }),
        (answer) => answer.result?._meta?.response_type !== "promise",
        `call ${n}'s result`,
        { timeoutMs: 60_000, everyMs: 100 },
      );
      assert.equal(answer.result?.isError, undefined, `call ${n}: ${JSON.stringify(answer)}`);
      const result = JSON.parse(answer.result!.content[0].text);
      assert.equal(result.n, n);
      const again = await send(() => [webs[(n + 1) % 2]], "redeem", { promise: tokens[n] });
      assert.deepEqual(JSON.parse(again.result!.content[0].text), result, `call ${n}, on the other instance`);
    }
    assert.equal(stopped.length, 4);
  });
});
