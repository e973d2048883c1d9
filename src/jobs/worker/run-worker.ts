/**
 * Workers: processes that run a server's queued jobs and answer no requests. A worker loads the same
 * server module as the web instances (the same tools, middleware, secret, result store and queue),
 * takes jobs from the queue and runs each as the server would have: a tool's declared work by this layer's own
 * runner (`queued-job.ts`), a job of another kind by the runner its feature registered on the server (MCP Events:
 * its webhook deliveries; `src/core/long-running/job-kinds.ts`), so the worker imports no feature. Shutting down
 * drains: running jobs get `drainMs` to finish, then go back to the queue.
 *
 * @module
 */
import { attachListener } from "../../server/listener.ts";
import type { RunAgain, WorkQueue } from "../work-queue.ts";
import { type Delivery, runQueuedJob } from "../queued-job.ts";
import { checkFlow } from "../flow-gate.ts";
import { serverWarning } from "../../core/instance/logger.ts";
import { type Registry, registryOf } from "../../core/definitions/registry.ts";
import { MAX_TIMER_MS } from "../../internal/timer-ms.ts";
import { jobObserverOf } from "./job-observer.ts";
import { type JobEnd, jobKindOf, jobRunnerOf, type JobWatch } from "../../core/long-running/job-kinds.ts";
import { continuationsOf } from "../continuations.ts";
import { TOKEN_PREFIX } from "../../codec/token.ts";

/** How long a worker waits for its running jobs to finish when it shuts down, by default, in ms. */
const DEFAULT_DRAIN_MS = 30_000;
/** The warning of a queued job of a kind the worker's server registers no runner for: delivered again later. */
const noRunner = (kind: string) =>
  `mcplite worker: a queued job of kind "${kind}" reached a worker whose server registers no runner for it ` +
  "(a feature it does not serve, such as MCP Events, or another version of the server module): the queue delivers " +
  "it again later";
/** How many distinct warnings a worker remembers having given (each is given once). */
const WARNINGS_KEPT = 256;

/**
 * The options of {@link runWorker}: where the jobs come from, how many run at once, and how a shutdown drains.
 *
 * @example
 * ```ts
 * import type { RunWorkerOptions } from "@mcplite/sdk";
 * // Longer jobs than the defaults expect: fewer at once, a minute to finish on SIGTERM.
 * const options: RunWorkerOptions = { concurrency: 4, drainMs: 60_000 };
 * ```
 */
export interface RunWorkerOptions {
  /** The queue to take jobs from (default: the server's `queue`, as `createServer({ queue })` gave it). */
  readonly queue?: WorkQueue;
  /** How many jobs run at once (a positive integer; default 8). */
  readonly concurrency?: number;
  /**
   * How long `close()` lets running jobs finish, in ms (default 30 000), before it gives them back to the queue,
   * which delivers them again to another worker.
   */
  readonly drainMs?: number;
}

/**
 * Runs a server's queued jobs in this process, with no listener: the server from `createServer()`
 * with a `queue` and a shared `resultStore`, as its web instances have it. `mcplite worker <module>`
 * does this from the command line, and closes on SIGTERM and SIGINT. With `otel()` among the server's
 * middleware, each job is a span in the trace of the call that queued it, and the worker records its
 * metrics (`@mcplite/sdk/otel`; start the OpenTelemetry SDK first). On a server serving MCP Events, the webhook
 * deliveries queued by its emits are jobs too: one attempt per run, a retry given back with its backoff.
 *
 * @param server The server whose tools run the jobs.
 * @param options The queue, how many jobs run at once, and how long `close()` lets running jobs finish.
 * @returns The worker: `close()` stops taking jobs and drains; `running` counts the jobs it runs.
 * @throws {TypeError} When the server has no queue and none is given, or is not one of `createServer()`.
 *
 * @example A worker that drains on SIGTERM
 * ```ts ignore
 * import { runWorker } from "@mcplite/sdk";
 * import { server } from "./server.ts"; // createServer({ resultStore, queue, … }).tool(…)
 *
 * const worker = runWorker(server, { concurrency: 16, drainMs: 60_000 });
 * Deno.addSignalListener("SIGTERM", () => worker.close().then(() => Deno.exit(0)));
 * ```
 */
export function runWorker(
  server: object,
  options: RunWorkerOptions = {},
): { close(): Promise<void>; readonly running: number } {
  const registry = registryOf(attachListener(server).core);
  const engine = continuationsOf(registry.runtime);
  const queue = options.queue ?? engine.queue;
  if (queue === undefined) {
    throw new TypeError(
      'runWorker() needs a server made with a queue (createServer({ queue }); queue: "store" keeps one in its resultStore)',
    );
  }
  // A worker is this process's taker of its server's queue: the server's own taker (`jobs-here.ts`) stays unstarted.
  engine.claimTaking();
  const worker = takeJobs(registry, queue, options);
  // A process that lives to take jobs: kept alive until closed (a queue kept in the store holds no connection open).
  const alive = setInterval(() => {}, MAX_TIMER_MS);
  return {
    get running() {
      return worker.running;
    },
    close: () => worker.close().finally(() => clearInterval(alive)),
  };
}

/**
 * Takes a server's jobs from `queue` in this process and runs each as the server would have ({@link runWorker}'s
 * work, for a worker and for a server taking the jobs of its own queue, `jobs-here.ts`).
 *
 * @param registry The server's registry.
 * @param queue The queue.
 * @param options How many jobs run at once, and how long `close()` lets running jobs finish.
 * @returns The taker: `close()` stops taking jobs and drains; `running` counts the jobs it runs.
 * @throws {RangeError} An option out of range.
 */
export function takeJobs(
  registry: Registry,
  queue: WorkQueue,
  options: Omit<RunWorkerOptions, "queue"> = {},
): { close(): Promise<void>; readonly running: number } {
  const concurrency = options.concurrency ?? 8;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  if (!(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new RangeError("concurrency must be a positive integer");
  }
  if (!(drainMs >= 0)) throw new RangeError("drainMs must not be negative");
  // Flow control is held here: its ranges checked as the worker starts, not on its first job.
  for (const tool of registry.tools) if (tool.longRunning !== undefined) checkFlow(tool.name, tool.longRunning, queue);
  const stop = new AbortController();
  // Telemetry: `otel()` among the server's middleware observes its workers (job-observer.ts).
  const observer = jobObserverOf(registry.runtime.middleware);
  let running = 0;
  let givenBack = 0;
  // Its own warnings and the queue's (a job refused, a lock lost in an outage): each once, to the server's logger.
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    if (warned.size >= WARNINGS_KEPT) warned.delete(warned.values().next().value!);
    warned.add(message);
    serverWarning(registry.runtime.logger, message);
  };
  // A tool's declared work (its data a job token) is this layer's own kind; any other kind is a feature's, run by
  // the runner it registered on the server's runtime. One of none is another server's: given back, warned once.
  const runTaken = (data: string, delivery: Delivery, watch?: JobWatch): Promise<JobEnd> => {
    const { start } = delivery;
    const kind = jobKindOf(data);
    const run = kind === undefined ? undefined : jobRunnerOf(registry.runtime, kind);
    if (run !== undefined) return run(data, { start, stop: stop.signal, watch, warn });
    if (kind === undefined || `${kind}.` === TOKEN_PREFIX) {
      return runQueuedJob(registry, data, delivery, queue, stop.signal, watch, warn); // refuses a non-job
    }
    const refused = new Error(noRunner(kind));
    warn(refused.message);
    watch?.end("failed", undefined, refused);
    throw refused;
  };
  const consumer = queue.take(async (data: string, start: number, first?: boolean, again?: RunAgain) => {
    const watch = observer?.took();
    if (stop.signal.aborted) {
      givenBack++;
      watch?.end("again");
      return "again";
    }
    running++;
    try {
      const done = await runTaken(data, { start, first, again }, watch);
      if (done === "again") givenBack++;
      return done;
    } finally {
      running--;
    }
  }, { concurrency, warn });
  let closing: Promise<void> | undefined;
  return {
    get running() {
      return running;
    },
    close() {
      closing ??= (async () => {
        const drained = observer?.draining(running);
        givenBack = 0;
        // Stop taking jobs at once; let the running ones finish within drainMs, then give them back.
        const deadline = setTimeout(() => stop.abort(new Error("the worker shut down")), drainMs);
        try {
          await consumer.close();
        } finally {
          clearTimeout(deadline);
          drained?.(givenBack);
        }
      })();
      return closing;
    },
  };
}
