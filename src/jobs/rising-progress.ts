/**
 * Progress that only rises, for whoever follows a job: work reports its progress again when it runs again (a
 * `work.progress()` outside a step runs after every wake-up and every restart), and a follower must not see it go
 * back (MCP 2025-11-25, Progress: "The progress value MUST increase with each notification"). A report not above the
 * highest one this follower got is dropped; logs and questions pass as they are.
 *
 * @module
 */
import type { CallSink } from "../core/call/call-sink.ts";

/**
 * A sink that passes on to `sink` only progress above the highest it passed.
 *
 * @param sink The follower.
 * @returns The sink to hand the job.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { risingProgress } from "./rising-progress.ts";
 * const seen: number[] = [];
 * const sink = risingProgress({ progress: (progress) => void seen.push(progress) });
 * for (const progress of [1, 1, 2, 1, 2, 3]) sink.progress?.(progress, 3, undefined);
 * assert.deepEqual(seen, [1, 2, 3]);
 * ```
 */
export function risingProgress(sink: CallSink): CallSink {
  if (sink.progress === undefined) return sink;
  let highest = -Infinity;
  return {
    progress: (progress, total, message) => {
      if (!(progress > highest)) return;
      highest = progress;
      sink.progress!(progress, total, message);
    },
    ...(sink.log === undefined ? {} : { log: sink.log.bind(sink) }),
    ...(sink.input === undefined ? {} : { input: sink.input.bind(sink) }),
  };
}
