/**
 * Redeem of a finished `ctx.defer()` job through each result store: memory (this process), Redis (a
 * real `redis-server` on 127.0.0.1, started here) and Deno KV (a temporary file; Deno only). Prints
 * p50 and p99 of one in-process `redeem` call, and what each shared store adds to the memory one at
 * p50 (the goal: ≤ 1 ms on loopback).
 *
 * Run: `bun bench/stores.bench.ts` · `deno run -A bench/stores.bench.ts`. Not part of `npm run bench`:
 * it needs `redis-server` (apt-get install redis-server).
 *
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { type CallOutcome, createMemoryResultStore, createServer, defineTool, type ResultStore } from "../mod.ts";
import { redisResultStore } from "../src/redis/mod.ts";
import { denoKvResultStore } from "../src/deno-kv/mod.ts";
import { REDIS_MISSING, startRedis } from "../tests/helpers/redis-server.ts";
import { median, runtime } from "./harness.ts";

const SECRET = "a benchmark secret of at least thirty-two bytes";
const ROUNDS = 3_000;

const crunch = defineTool("crunch").describe("Crunches numbers in the background").longRunning().handle((_args, ctx) =>
  ctx.defer(() => ({ rows: 42 }))
);

/** Times `ROUNDS` redeems of one finished job, after a warm-up; answers p50 and p99 in µs. */
async function measure(store: ResultStore): Promise<{ p50: number; p99: number }> {
  const server = createServer({ name: "bench", version: "1.0.0", secret: SECRET, resultStore: store }).tool(crunch);
  const first = await server.call("crunch", {});
  if (first.kind !== "promise") throw new Error(`expected a promise, got ${first.kind}`);
  const token = (first as Extract<CallOutcome, { kind: "promise" }>).token;
  const deadline = Date.now() + 5_000;
  while ((await server.call("redeem", { promise: token })).kind !== "answer") {
    if (Date.now() > deadline) throw new Error("the job did not finish");
  }
  const times: number[] = [];
  for (let i = 0; i < ROUNDS + 300; i++) {
    const start = performance.now();
    const outcome = await server.call("redeem", { promise: token });
    const took = performance.now() - start;
    if (outcome.kind !== "answer") throw new Error(`a redeem answered ${outcome.kind}`);
    if (i >= 300) times.push(took * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p99: times[Math.floor(times.length * 0.99)] };
}

const rows: [string, { p50: number; p99: number }][] = [];
rows.push(["memory", await measure(createMemoryResultStore())]);

if (REDIS_MISSING) console.error(`redis: skipped: ${REDIS_MISSING}`);
else {
  const redis = await startRedis();
  const client = await createClient({ url: redis.url }).connect();
  rows.push(["Redis (127.0.0.1)", await measure(redisResultStore(client))]);
  client.destroy();
  await redis.stop();
}

const deno = (globalThis as { Deno?: typeof Deno }).Deno;
if (typeof deno?.openKv === "function") {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-kv-"));
  const kv = await deno.openKv(join(dir, "kv.sqlite3"));
  rows.push(["Deno KV (file)", await measure(denoKvResultStore(kv))]);
  kv.close();
  rmSync(dir, { recursive: true, force: true });
}

const { name, version } = runtime();
const base = rows[0][1].p50;
console.log(`redeem of a finished ctx.defer() job, in process, ${name} ${version}, ${ROUNDS} redeems each`);
console.log("| store | p50 µs | p99 µs | added at p50 |");
console.log("| ----- | -----: | -----: | -----------: |");
for (const [store, { p50, p99 }] of rows) {
  const added = store === "memory" ? "—" : `${((p50 - base) / 1000).toFixed(3)} ms`;
  console.log(`| ${store} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${added} |`);
}
