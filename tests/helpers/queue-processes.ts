/**
 * The processes of a queued deployment, for the worker tests: `mcplite worker` processes and web instances
 * (`tests/helpers/queued-web.ts`), both of `tests/helpers/queued-server.ts`, on the runtime running the
 * tests, each with its store and queue from the environment. Every process started here is killed by
 * `killQueueProcesses()`, which each test file calls in `after()`.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./process.ts";
import { scratchDir } from "./scratch-dir.ts";
import { runtimeCommand } from "./stdio.ts";
import { changes } from "./wait.ts";

/** How long a process may take to start (a runtime loading the SDK, on a loaded machine). */
const START_MS = 60_000;

/** Where a deployment's processes find their store and queue. */
export interface QueueBackend {
  /** A Redis or PostgreSQL URL. */
  readonly url: string;
  /** The variable `tests/helpers/queued-server.ts` reads it from: `REDIS_URL` or `DATABASE_URL`. */
  readonly variable: "REDIS_URL" | "DATABASE_URL";
  /** The queue's name: one per test. */
  readonly queue: string;
  /** BullMQ's lock on a running job, in ms (the store queue's lease). */
  readonly lockMs: number;
  /** The queue: BullMQ (the default), the shared store's (`storeQueue()`), or none given (the server's own). */
  readonly kind?: "bullmq" | "store" | "own";
}

/** A running process of the deployment. */
export interface QueueProcess {
  readonly pid: number;
  /** A web instance's URL (`http://127.0.0.1:port`); empty for a worker. */
  readonly url: string;
  /** The exit code, once it exited (`null` after a signal). */
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr. */
  readonly log: () => string;
  kill(signal: NodeJS.Signals): void;
}

const processes = new Set<QueueProcess>();
/** Told of every line the processes write (and of each exit): what {@link logged} waits on. */
const output = changes();

/** Starts `mcplite worker` (with `options`, e.g. `--drain-ms`); resolves once it takes jobs. */
export function startWorker(backend: QueueBackend, ...options: string[]): Promise<QueueProcess> {
  return startWorkerOf({}, backend, ...options);
}

/** Which worker {@link startWorkerOf} starts. */
export interface WorkerSpec {
  /** Its server module (default tests/helpers/queued-server.ts). */
  readonly module?: string;
  /** A runtime that runs the SDK's TypeScript as is (Node 22's binary), instead of the one running the tests. */
  readonly runtime?: string;
  /** More environment for it. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Starts `mcplite worker` on a module and runtime of `spec`; resolves once it takes jobs. */
export function startWorkerOf(spec: WorkerSpec, backend: QueueBackend, ...options: string[]): Promise<QueueProcess> {
  const { command, args } = spec.runtime === undefined
    ? runtimeCommand("src/cli/main.ts")
    : { command: spec.runtime, args: ["src/cli/main.ts"] };
  const module = spec.module ?? "tests/helpers/queued-server.ts";
  return start(backend, command, [...args, "worker", module, ...options], spec.env);
}

/**
 * Starts a web instance (with more environment `env`, on `runtime`: a binary that runs the SDK's TypeScript as is, such
 * as Node 22's, instead of the one running the tests); resolves once it listens.
 */
export function startWeb(
  backend: QueueBackend,
  env?: Readonly<Record<string, string>>,
  runtime?: string,
): Promise<QueueProcess> {
  const web = "tests/helpers/queued-web.ts";
  const { command, args } = runtime === undefined ? runtimeCommand(web) : { command: runtime, args: [web] };
  return start(backend, command, args, env);
}

async function start(
  backend: QueueBackend,
  command: string,
  args: string[],
  env: Readonly<Record<string, string>> = {},
): Promise<QueueProcess> {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      [backend.variable]: backend.url,
      QUEUE: backend.queue,
      LOCK_MS: String(backend.lockMs),
      QUEUE_KIND: backend.kind ?? "bullmq",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  let url = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${args.join(" ")} did not start in ${START_MS} ms:\n${log}`)),
      START_MS,
    );
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    child.stderr!.on("data", (chunk) => {
      log += String(chunk);
      output.changed();
      if (log.includes("taking jobs")) ready();
    });
    child.stdout!.once("data", (chunk) => {
      url = `http://127.0.0.1:${JSON.parse(String(chunk)).port}`;
      ready();
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code}:\n${log}`));
    });
  });
  const made: QueueProcess = { pid: child.pid!, url, exited, log: () => log, kill: (signal) => child.kill(signal) };
  processes.add(made);
  exited.then(() => (processes.delete(made), output.changed()));
  return made;
}

/** Kills every process still running (`kill -9`) and waits for each to exit. */
export async function killQueueProcesses(): Promise<void> {
  for (const process of processes) process.kill("SIGKILL");
  await Promise.all([...processes].map((process) => process.exited));
}

/**
 * Waits for a process sent SIGTERM to exit, and asserts it exited 0 (a worker: having drained). Deno's
 * `node:child_process` reports a child that was sent a signal as ended by it (code `null`) even when it
 * exited 0 itself.
 */
export async function assertStopped(process: QueueProcess): Promise<void> {
  const code = await process.exited;
  if (process.url === "") assert.match(process.log(), /drained\n$/, process.log());
  if (!("Deno" in globalThis)) assert.equal(code, 0, process.log());
}

/**
 * Waits until the workers' logs say `jobs` jobs started (`job N started`, tests/helpers/queued-server.ts): a signal
 * sent then finds them running their work, however loaded the machine. At most 60 s.
 */
export function started(workers: readonly QueueProcess[], jobs: number): Promise<void> {
  return logged(workers, /^job \d+ started$/gm, jobs);
}

/**
 * Waits until the processes' logs hold `count` lines matching `line` (a global, multiline pattern), checked as each
 * line comes. At most 60 s; fails at once when a log matches `failure` (what can never lead there, such as a job that
 * failed).
 */
export async function logged(
  processes: readonly QueueProcess[],
  line: RegExp,
  count: number,
  failure?: RegExp,
): Promise<void> {
  const seen = () => processes.reduce((sum, each) => sum + (each.log().match(line)?.length ?? 0), 0);
  const failed = () => failure && processes.find((each) => failure.test(each.log()));
  const logs = () => processes.map((each) => each.log()).join("\n");
  await output.until(
    () => seen() >= count || failed() !== undefined,
    () => `${seen()} of ${count} lines ${line}:\n${logs()}`,
  );
  const failing = seen() < count && failed();
  if (failing) assert.fail(`${seen()} of ${count} lines ${line}, and ${failure}:\n${failing.log()}`);
}

/** A gate the jobs of `tests/helpers/queued-server.ts` wait at (`{ gate: path }`), until the test opens it. */
export interface Gate {
  /** The file whose existence opens it: a job's `gate` argument. */
  readonly path: string;
  /** Opens it: the jobs waiting at it end (and any that reach it later pass). */
  open(): void;
}

/**
 * A gate, shut, in a scratch directory of the current suite: a test opens it once what it checks of its running
 * jobs has happened (a worker killed or signalled, the backend down), so that they end then, not on a timer.
 */
export function gate(): Gate {
  const path = join(scratchDir("mcplite-gate-"), "open");
  return { path, open: () => writeFileSync(path, "") };
}
