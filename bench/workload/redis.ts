/**
 * Redis for the workload: a real `redis-server` on a free 127.0.0.1 port (no persistence), seeded as the
 * benchmark's seeder (`infra/redis/seed.py`) seeds it: 10,000 carts, 1,000 order histories of twenty
 * entries, `bench:popular` with 100,000 products and 100 rate-limit counters.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import process from "node:process";
import { Redis } from "ioredis";

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The program (`REDIS_SERVER` overrides it, as the tests read it). */
export const REDIS_SERVER: string = process.env.REDIS_SERVER ?? "redis-server";

/** A running, seeded redis-server. */
export interface WorkloadRedis {
  url: string;
  pid: number;
  stop(): void;
}

/** A product's price in the API's catalog (the seeder's carts total with it). */
const price = (id: number) => 1 + (id % 99_900) / 100;

/**
 * Seeds the contract's keys, in pipelines of 1,000 commands.
 *
 * @param redis A connected client.
 */
export async function seed(redis: Redis): Promise<void> {
  let pipe = redis.pipeline();
  const flushEvery = async () => {
    if (pipe.length >= 1000) {
      await pipe.exec();
      pipe = redis.pipeline();
    }
  };
  const pad5 = (n: number) => String(n).padStart(5, "0");
  for (let n = 0; n < 10_000; n++) {
    const ids = [(n * 7) % 100_000, (n * 13) % 100_000, (n * 17) % 100_000];
    pipe.hset(`bench:cart:user-${pad5(n)}`, {
      user_id: `user-${pad5(n)}`,
      items: JSON.stringify(ids.map((product_id) => ({ product_id, quantity: 1 }))),
      created: "2024-01-01T00:00:00Z",
      expires: "2025-01-01T00:00:00Z",
      total: ids.reduce((sum, id) => sum + price(id), 0).toFixed(2),
    });
    await flushEvery();
  }
  for (let n = 0; n < 1000; n++) {
    pipe.del(`bench:history:user-${pad5(n)}`);
    for (let j = 0; j < 20; j++) {
      pipe.rpush(
        `bench:history:user-${pad5(n)}`,
        JSON.stringify({
          order_id: `ORD-${pad5(n)}-${String(j).padStart(2, "0")}`,
          total: Number((10 + n * 0.1 + j * 0.25).toFixed(2)),
          items_count: 3,
          status: "delivered",
          created: `2024-01-${String(j % 28 + 1).padStart(2, "0")}T00:00:00Z`,
        }),
      );
    }
    await flushEvery();
  }
  for (let i = 0; i < 100_000; i++) {
    pipe.zadd("bench:popular", i * 7 % 10_000, `product:${i}`);
    await flushEvery();
  }
  for (let n = 0; n < 100; n++) pipe.set(`bench:ratelimit:user-${pad5(n)}`, "0");
  await pipe.exec();
}

/**
 * Starts `redis-server` (`REDIS_SERVER` overrides the program) and seeds it.
 *
 * @returns The server.
 */
export async function startRedis(): Promise<WorkloadRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    redis.on("error", () => {});
    try {
      await redis.connect();
      await seed(redis);
      redis.disconnect();
      break;
    } catch (error) {
      redis.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill("SIGKILL");
        throw new Error(`redis-server did not start on port ${port}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}
