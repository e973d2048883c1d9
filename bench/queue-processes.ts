/**
 * What the queue benches (`bench/queue.ts`, `bench/queue-run.ts`, `bench/queue-raw.ts`) share beside CPU time: a
 * child process on this runtime started and awaited until it says `ready`, BullMQ's classes and connection for a
 * backend, and PostgreSQL's `max_connections` raised for their many pools.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { createPostgresBackend, Queue, withBackend, Worker } from "bullmq";
import pg from "pg";
import type { PostgresServer } from "../tests/helpers/postgres-server.ts";
import { runtime } from "./harness.ts";

/** A child process of a bench, and its exit. */
export interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/**
 * Starts `bench/<name>` on this runtime (Node: the bundle `.mjs` beside it) with `env` and resolves once it says
 * `ready` on stderr; after that its stderr shows prefixed with `label` and its pid.
 */
export async function startChild(
  name: string,
  env: Record<string, string>,
  label: string,
  stdout: "pipe" | "ignore",
  startMs = 90_000,
): Promise<Started> {
  const kind = runtime().name;
  const file = (ext: string) => fileURLToPath(new URL(`./${name}.${ext}`, import.meta.url));
  const args = kind === "deno"
    ? ["run", "-A", "--unstable-no-legacy-abort", file("ts")]
    : [file(kind === "bun" ? "ts" : "mjs")];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["pipe", stdout, "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`a ${label} did not start in ${startMs} ms:\n${log}`)), startMs);
    child.stderr!.on("data", (chunk) => {
      log += chunk;
      if (log.includes("ready\n")) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`a ${label} exited:\n${log}`));
    });
  });
  // After it is ready, its errors still show.
  child.stderr!.on("data", (chunk) => process.stderr.write(`${label} ${child.pid}: ${chunk}`));
  return { child, exited };
}

/** BullMQ's `Queue` and `Worker` on a backend (PostgreSQL: `createPostgresBackend`), and their connection. */
export function bullmqOn(backend: "redis" | "postgres", url: string) {
  const classes = backend === "redis"
    ? { Queue, Worker }
    : withBackend(createPostgresBackend) as unknown as { Queue: typeof Queue; Worker: typeof Worker };
  // `migrate: true`: BullMQ makes its schema on first use (a bare connection string never does).
  const connection = backend === "redis"
    ? { host: "127.0.0.1", port: Number(new URL(url).port) }
    : { connectionString: url, migrate: true };
  return { ...classes, connection: connection as any };
}

/** Raises PostgreSQL's `max_connections` to 400 (`ALTER SYSTEM`, then a restart): the benches' pools pass 100. */
export async function raiseMaxConnections(postgres: PostgresServer): Promise<void> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query("ALTER SYSTEM SET max_connections = 400");
  await client.end();
  await postgres.stop();
  await postgres.restart();
}
