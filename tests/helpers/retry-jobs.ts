/**
 * An instance serving `ingest`, a `.longRunning({ retry })` tool whose deferred work answers which
 * instance ran it, and the same tool without `retry` (`ingest_once`). An instance made to `hang` never
 * finishes the work (it stands for one that stops mid-run); the counters show where work ran.
 */
import * as v from "valibot";
import { createServer, defineTool, type ServerOptions } from "../../mod.ts";
import { SECRET } from "./long-running.ts";

/** What one instance did. */
export interface RetryCounters {
  /** Handler runs (the first call's, or a restart's). */
  handled: number;
  /** Deferred work started. */
  started: number;
}

/** Options of {@link retryInstance}. */
export interface RetryInstanceOptions {
  /** The instance's name, which its results carry. */
  readonly name: string;
  /** Never finish the work (until cancelled). */
  readonly hang?: boolean;
  /** Starts in all for `ingest` (default 2). */
  readonly attempts?: number;
  /** The wait before a restart, in ms (default 0). */
  readonly backoffMs?: number;
}

/** A server with `ingest` (retried) and `ingest_once` (not), and its counters. */
export function retryInstance(options: RetryInstanceOptions, server: Partial<ServerOptions> = {}) {
  const counters: RetryCounters = { handled: 0, started: 0 };
  const work = async (n: number, signal: AbortSignal) => {
    counters.started++;
    if (options.hang) {
      await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
    }
    await new Promise((resolve) => setTimeout(resolve, 30)); // the work's own length
    return { n, by: options.name };
  };
  const input = v.object({ n: v.number() });
  const output = v.object({ n: v.number(), by: v.string() });
  const ingest = defineTool("ingest")
    .describe("Ingests batch n; idempotent, started again if its instance stops")
    .input(input)
    .output(output)
    .longRunning({ retryAfterMs: 5, retry: { attempts: options.attempts ?? 2, backoff: options.backoffMs ?? 0 } })
    .defer(({ n }, job) => work(n, job.signal))
    .handle((_, ctx) => {
      counters.handled++;
      return ctx.defer();
    });
  const ingestOnce = defineTool("ingest_once")
    .describe("Ingests batch n, at most once")
    .input(input)
    .output(output)
    .longRunning({ retryAfterMs: 5 })
    .handle(({ n }, ctx) => {
      counters.handled++;
      return ctx.defer((signal) => work(n, signal));
    });
  const instance = createServer({ name: options.name, version: "0.0.1", secret: SECRET, ...server })
    .tool(ingest)
    .tool(ingestOnce);
  return { server: instance, counters };
}
