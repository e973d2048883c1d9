/**
 * A streamed call as an async iterable of partials with a `result` promise: partials queue up until
 * read, breaking out of the loop cancels the call, and a failure never goes unhandled.
 *
 * @module
 */
import { clientError } from "./errors.ts";
import type { ToolStream } from "./client-types.ts";

/**
 * Starts a call and exposes its partials and final value.
 *
 * @param signal The caller's signal.
 * @param run Runs the call under the given signal, handing partials to `onPartial`.
 * @returns The stream.
 */
export function createToolStream<TOutput>(
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal, onPartial: (partial: unknown) => void) => Promise<TOutput>,
): ToolStream<TOutput> {
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const onPartial = (partial: unknown) => {
    queue.push(partial);
    wake?.();
  };
  const result = (async () => {
    try {
      return await run(combined, onPartial);
    } finally {
      finished = true;
      wake?.();
    }
  })();
  result.catch(() => {}); // the iterator or `result` reports it; never an unhandled rejection
  return {
    result,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          while (queue.length > 0) yield queue.shift();
          if (finished) break;
          await new Promise<void>((resolve) => wake = resolve);
          wake = undefined;
        }
        await result; // surfaces the call's error to the loop
      } finally {
        if (!finished) stop.abort(clientError("cancelled", "The stream was closed by its reader"));
      }
    },
  };
}
