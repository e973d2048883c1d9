/**
 * Turns the core's push-style {@link drainStream} into a pull iterator, for wires whose server
 * streams are async iterables (Connect). The handler runs at most one partial ahead of the consumer,
 * so gRPC's flow control reaches the handler.
 *
 * @module
 */
import type { ToolCall } from "../../core/middleware.ts";
import type { StreamOutcome } from "../../core/outcome.ts";
import type { Registry } from "../../core/registry.ts";
import { drainStream } from "../../core/stream.ts";

/** What {@link drainStream} ends with. */
export type DrainedOutcome = Awaited<ReturnType<typeof drainStream>>;

type Item = { partial: unknown } | { final: DrainedOutcome } | { error: unknown };

/**
 * Drives a streaming outcome through {@link drainStream}, yielding each partial and returning the
 * final outcome. Closing the iterator early (a cancelled call) releases the handler; the call's
 * signal, aborted by the wire, makes `drainStream` close the handler's generator.
 *
 * @param registry The registry, for its error reporter.
 * @param call The call.
 * @param outcome The stream.
 * @returns The partials, then (as the return value) the final outcome.
 * @throws {ProtocolError} When the handler throws one mid-stream.
 */
export async function* pullStream(
  registry: Registry,
  call: ToolCall,
  outcome: StreamOutcome,
): AsyncGenerator<unknown, DrainedOutcome, undefined> {
  const queue: Item[] = [];
  let wake: (() => void) | undefined; // the consumer waits for an item
  let resume: (() => void) | undefined; // the producer waits for the consumer to take an item
  let closed = false;
  const push = (item: Item): void => {
    queue.push(item);
    wake?.();
    wake = undefined;
  };
  const source = outcome.partials;
  const gated: AsyncIterator<unknown, unknown, undefined> = {
    next: () =>
      queue.length === 0 || closed
        ? source.next()
        : new Promise<void>((resolve) => (resume = resolve)).then(() => source.next()),
    return: (value?: unknown) => source.return?.(value) ?? Promise.resolve({ done: true, value }),
  };
  drainStream(registry, call, { kind: "stream", partials: gated }, (partial) => push({ partial }))
    .then((final) => push({ final }), (error: unknown) => push({ error }));
  try {
    while (true) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      resume?.();
      resume = undefined;
      if ("partial" in item) yield item.partial;
      else if ("final" in item) return item.final;
      else throw item.error;
    }
  } finally {
    closed = true;
    resume?.();
  }
}
