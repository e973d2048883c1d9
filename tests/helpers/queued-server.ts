/**
 * A server with a BullMQ queue and a shared result store, for the worker tests: on Redis (the queue on
 * BullMQ's Redis backend, `redisResultStore` on ioredis) or on PostgreSQL (BullMQ's `createPostgresBackend`,
 * `postgresResultStore` on node-postgres). The module web instances and workers (`mcplite worker
 * tests/helpers/queued-server.ts`) load alike. Exports `server` made from the environment (`REDIS_URL` or
 * `DATABASE_URL`, `QUEUE`, `LOCK_MS`, `LEASE_MS`) and `queuedServer()` to make one in a test.
 *
 * Tools: `slow` (`retry`: three starts) and `fragile` (no `retry`) wait `ms` (with `gate`, a file's path: until the
 * test makes that file, `ms` at most) and answer `{ n, pid }` (the worker's process id), writing `job N started` and
 * `job N finished` on stderr; `inline` does the same as inline work (`ctx.defer(fn)`: in process, never queued);
 * `asks` asks the client a question from the worker; `steps` reports each of `n` steps (200 ms apart) as progress. With `events` (from the
 * environment: `EVENTS_ALLOW`, the callbacks' origins, and `EVENTS_RETRY_MS`, comma-separated), it serves the event
 * `order.shipped` and the tool `emit_shipped`, which emits it (tests/events/durable-delivery.test.ts).
 */
import { existsSync } from "node:fs";
import process from "node:process";
import * as v from "valibot";
import { type Binding, createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";
import { sleep } from "../../src/internal/sleep.ts";
import { queueAndStore, queueKind, type QueueStoreOptions } from "./queue-store.ts";

export const QUEUED_SECRET = "queued jobs' secret: thirty-two bytes or more";

const args = v.object({ n: v.number(), ms: v.number(), gate: v.optional(v.string()) });
const work = async ({ n, ms, gate }: v.InferOutput<typeof args>, { signal }: { signal: AbortSignal }) => {
  process.stderr.write(`job ${n} started\n`); // on the worker: the tests wait for it before they signal it
  if (gate === undefined) await sleep(ms, signal);
  else await opened(gate, ms, signal);
  process.stderr.write(`job ${n} finished\n`); // its result is being stored (held while the store is down)
  return { n, pid: process.pid };
};

/**
 * Waits until the file `gate` exists, `ms` at most: a test (tests/helpers/queue-processes.ts, `gate()`) then says
 * when its running jobs end, once what it checks has happened, rather than a timer long enough for a loaded machine.
 */
async function opened(gate: string, ms: number, signal: AbortSignal): Promise<void> {
  const timeUp = AbortSignal.timeout(ms); // the job's own length: it ends then, gate or not
  while (!existsSync(gate) && !timeUp.aborted) await sleep(20, signal);
}

/** What an order's shipping carries, and whom it is for. */
const order = v.object({ orderId: v.string(), customerId: v.string() });
const shipped = defineEvent("order.shipped")
  .describe("An order left the warehouse")
  .input(v.object({ customerId: v.string() }))
  .payload(order)
  .match((input, payload) => input.customerId === payload.customerId);

/** Options of {@link queuedServer}. */
export interface QueuedServerOptions extends QueueStoreOptions {
  /** Serve `order.shipped` (and `emit_shipped`), callbacks allowed from these origins, retried after these waits. */
  readonly events?: { readonly allowCallbacks: readonly string[]; readonly retryDelaysMs?: readonly number[] };
  /** The lease of the jobs run in process (inline work), in ms (default 5 000). */
  readonly leaseMs?: number;
  /**
   * Its bindings (default MCP-lite's and MCP's). Workers and web instances load none more: gRPC's modules cost each
   * process a third of a second of CPU, and about two hundred of them start in a run; a test that calls over gRPC
   * gives `grpcBinding()`.
   */
  readonly bindings?: readonly Binding[];
}

/** A server with the queue and store, and `close()` for their connections. */
export function queuedServer(options: QueuedServerOptions) {
  const { resultStore, queue, close, ready } = queueAndStore(options);
  const base = createServer({
    // Without a queue given, the instances of one server (one name) share the queue they keep in their store.
    name: options.kind === "own" ? `queued-${options.queue}` : "queued",
    version: "1.0.0",
    secret: QUEUED_SECRET,
    resultStore,
    queue: options.kind === "own" ? "store" : queue,
    leaseMs: options.leaseMs,
    events: options.events,
    bindings: options.bindings ?? [mcpLiteBinding(), mcpBinding()],
  })
    .tool(
      defineTool("slow").describe("Waits, then answers (three starts)").input(args).longRunning({
        retry: { attempts: 3 },
      }).defer(work),
    )
    .tool(
      defineTool("fragile").describe("Waits, then answers (one start)").input(args).longRunning().defer(work),
    )
    .tool(
      defineTool("inline").describe("Waits, then answers (inline work, in process)").input(args).longRunning()
        .handle((input, ctx) => ctx.defer(() => work(input, ctx))),
    )
    .tool(
      defineTool("steps").describe("Reports each of n steps, from the worker").input(v.object({ n: v.number() }))
        .longRunning().defer(async ({ n }, work) => {
          for (let step = 1; step <= n; step++) {
            await sleep(200, work.signal);
            work.progress(step, n, `step ${step}`);
          }
          return { steps: n, pid: process.pid };
        }),
    )
    .tool(
      defineTool("asks").describe("Asks the client, from the worker").longRunning().defer(async (_, work) => {
        const answer = await work.elicit("colour", {
          message: "Which colour?",
          requestedSchema: { type: "object", properties: { colour: { type: "string" } } },
        });
        return { answer: answer.action === "accept" ? answer.content?.colour : answer.action, pid: process.pid };
      }),
    );
  // With events, `emit_shipped` emits from a handler, on whichever instance takes the call (typed as `base`: the
  // callers of the other tools see one server).
  const server = options.events === undefined ? base : (() => {
    const evented = base.event(shipped);
    return evented.tool(
      defineTool("emit_shipped").describe("Emits order.shipped (`id`: its event id)")
        .input(v.object({ ...order.entries, id: v.optional(v.string()) }))
        .handle(async ({ id, ...payload }) => await evented.emit("order.shipped", payload, { id })),
    ) as unknown as typeof base;
  })();
  return {
    server,
    queue,
    close,
    /** Resolves once the store answers: a web instance listens only then, as a readiness probe would wait. */
    ready,
  };
}

/** The server of the environment's settings, for `mcplite worker` and `tests/helpers/queued-web.ts`. */
const url = process.env.REDIS_URL ?? process.env.DATABASE_URL;
const fromEnvironment = url === undefined ? undefined : queuedServer({
  url,
  queue: process.env.QUEUE ?? "mcplite",
  lockMs: Number(process.env.LOCK_MS ?? 30_000),
  leaseMs: process.env.LEASE_MS === undefined ? undefined : Number(process.env.LEASE_MS),
  kind: queueKind(process.env.QUEUE_KIND),
  events: process.env.EVENTS_ALLOW === undefined ? undefined : {
    allowCallbacks: process.env.EVENTS_ALLOW.split(","),
    retryDelaysMs: process.env.EVENTS_RETRY_MS?.split(",").map(Number),
  },
});
export const server = fromEnvironment?.server;
/** Closes the connections of `server`. */
export const close = fromEnvironment?.close;
/** Resolves once the store of `server` answers. */
export const ready = fromEnvironment?.ready;
