/**
 * Reads an SSE response with a real SSE parser (eventsource-parser), within a time bound.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";

/** Reads every event of an SSE body until it ends, failing after `timeoutMs`; `onEvent` sees each as it comes. */
export async function readSse(
  response: Response,
  timeoutMs = 10_000,
  onEvent?: (event: EventSourceMessage) => void,
): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => (events.push(event), onEvent?.(event)) });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => reader.cancel(new Error("SSE read timed out")), timeoutMs);
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** Reads the JSON-RPC response of a request answered as JSON or as SSE (the last message with an id). */
export async function readJsonRpc(response: Response): Promise<Record<string, any>> {
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return await response.json();
  // An event without data primes a resumable stream (SEP-1699): no message.
  const messages = (await readSse(response)).filter((e) => e.data !== "").map((e) => JSON.parse(e.data));
  const reply = messages.filter((m) => m.id !== undefined && ("result" in m || "error" in m)).at(-1);
  if (!reply) throw new Error(`no JSON-RPC response in the stream: ${JSON.stringify(messages)}`);
  return reply;
}
