/**
 * A server with code mode, a BullMQ queue and a shared result store (on Redis or on PostgreSQL, as
 * tests/helpers/jobs-server.ts), for the tests of promised programs on workers (tests/code-mode/). Its programs
 * are promised at once (`promiseAfterMs: 0`, unless told) and start again after a death (`retry`, unless told not). Tools `a`, `b`, `c`
 * and `d` count their calls in Redis (`COUNTER_URL`, else `REDIS_URL`) and write `program N called X` on stderr; `c`
 * first waits for the gate key, `d` is destructive (the user is asked first), and `pid` answers the process id.
 * Exports `server` made from the environment for `mcplite worker`.
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { codeMode } from "../../src/code-mode/mod.ts";
import { countedQueueAndStore, fromEnvironment, type QueueStoreOptions } from "./queue-store.ts";
import { readUntil } from "./wait.ts";

const SECRET = "code mode's jobs' secret: thirty-two bytes or more";

/** Where call `n`'s count of tool `name` is kept in the counters' Redis. */
export const countKey = (queue: string, n: number, name: string): string => `${queue}:${n}:${name}`;
/** The key whose presence opens the gate before `c` counts. */
export const openKey = (queue: string): string => `${queue}:gate`;

/** How long `c` waits at its gate at most: a bound for a stuck test, not a measure. */
const GATE_MS = 60_000;

/** Options of {@link codeModeServer}: its queue and store, and where it counts. */
export interface CodeModeServerOptions extends QueueStoreOptions {
  /** The Redis that counts the tools' calls and holds the gate (default `url`, which must then be Redis). */
  readonly counters?: string;
  /** After how long a program is promised (default 0: at once). */
  readonly promiseAfterMs?: number;
  /** Whether a program starts again after a death (default `true`: `retry`, 3 attempts; `CODE_MODE_RETRY=0`: none). */
  readonly retry?: boolean;
}

/** A program that calls `a`, `b` and `c` in turn for call `n`, and answers their counts and the process of its end. */
export const threeCalls = (n: number): string =>
  `const a = await tools.a({ n: ${n} });\nconst b = await tools.b({ n: ${n} });\n` +
  `const c = await tools.c({ n: ${n} });\nreturn { a, b, c, pid: await tools.pid() };`;

/** The server with its queue and store, its counters' client, and `close()` for their connections. */
export function codeModeServer(options: CodeModeServerOptions) {
  const { resultStore, queue, counters, close, ready } = countedQueueAndStore(options);
  const counted = (name: string, gated = false) =>
    defineTool(name).describe(`Counts a call of ${name}`).input(v.object({ n: v.number() }))
      .annotations({ destructiveHint: name === "d" })
      .handle(async ({ n }, ctx) => {
        process.stderr.write(`program ${n} called ${name}\n`); // on the worker: the tests wait for these lines
        if (gated) {
          await readUntil(() => counters.exists(openKey(options.queue)), (set) => set > 0, `program ${n}: the gate`, {
            timeoutMs: GATE_MS,
            everyMs: 50,
            signal: ctx.signal,
          });
        }
        return await counters.incr(countKey(options.queue, n, name));
      });
  const server = createServer({
    name: "programs",
    version: "1.0.0",
    secret: SECRET,
    resultStore,
    queue,
    bindings: [mcpLiteBinding(), mcpBinding()],
    codeMode: codeMode({
      promiseAfterMs: options.promiseAfterMs ?? 0,
      ...(options.retry ?? process.env.CODE_MODE_RETRY !== "0" ? { retry: { attempts: 3 } } : {}),
      confirmDestructive: true,
      // These programs compute next to nothing; a worker's program thread, at nice 10 on a loaded machine, can count
      // a second of waiting for a core as CPU (issue 86's open risk, seen once here under Deno): a limit far from it.
      limits: { cpuMs: 10_000 },
    }),
  })
    .tool(counted("a"))
    .tool(counted("b"))
    .tool(counted("c", true))
    .tool(counted("d"))
    .tool(defineTool("pid").describe("Answers the process id").handle(() => process.pid));
  return {
    server,
    counters,
    close,
    ready,
  };
}

/** The server of the environment's settings, for `mcplite worker`. */
const made = fromEnvironment(codeModeServer);
export const server = made?.server;
/** Closes the connections of `server`. */
export const close = made?.close;
