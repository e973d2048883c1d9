/**
 * Turns the call pipeline's pushed partials into a pull iterator, for wires whose server streams are
 * async iterables (Connect). The handler runs at most one partial ahead of the consumer, so gRPC's
 * flow control reaches the handler.
 *
 * @module
 */
import type { CallOutcome } from "../../core/mod.ts";

type Item =
  | { readonly partial: unknown; readonly taken: () => void }
  | { readonly outcome: CallOutcome }
  | { readonly error: unknown };

/**
 * Runs a call through `run`, yielding each partial as the consumer pulls it and returning the final
 * outcome. Closing the iterator early (a cancelled call) releases the handler; the call's signal,
 * aborted by the wire, makes the pipeline close the handler's generator.
 *
 * @param run Runs the call, handing each partial to `onPartial` and waiting for its promise.
 * @returns The partials, then (as the return value) the final outcome.
 * @throws {ProtocolError} What the call threw.
 */
export async function* pullStream(
  run: (onPartial: (partial: unknown) => Promise<void>) => Promise<CallOutcome>,
): AsyncGenerator<unknown, CallOutcome, undefined> {
  const queue: Item[] = [];
  const waiting: (() => void)[] = []; // partials handed over and not yet pulled
  let wake: (() => void) | undefined;
  let closed = false;
  const push = (item: Item): void => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  run((partial) =>
    closed ? Promise.resolve() : new Promise<void>((taken) => {
      waiting.push(taken);
      push({ partial, taken });
    })
  ).then((outcome) => push({ outcome }), (error: unknown) => push({ error }));
  try {
    while (true) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if ("partial" in item) {
        waiting.splice(waiting.indexOf(item.taken), 1);
        item.taken(); // the handler may make the next one while this one is sent
        yield item.partial;
      } else if ("outcome" in item) {
        return item.outcome;
      } else {
        throw item.error;
      }
    }
  } finally {
    closed = true;
    for (const taken of waiting) taken();
  }
}
