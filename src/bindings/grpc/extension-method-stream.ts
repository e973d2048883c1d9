/**
 * `CallMethodStream` of the `mcplite.MCPLite` service (this SDK's MCP-lite extension E5): an extension's request
 * method as `CallMethod` runs it, each notification it sends (`ctx.notify()`) streamed as it is sent, then its result,
 * or its error as the status. gRPC's server streaming is the request's own stream, as an SSE answer is over HTTP, so
 * a method may hold it open (`ctx.holdOpen()`: SEP-3415 "Push", `events/stream`) until the client cancels the call or
 * the server drains.
 *
 * @module
 */
import type { ConnectError, HandlerContext } from "@connectrpc/connect";
import type { Registry } from "../../core/mod.ts";
import { holdRequest } from "../../extension/held-request.ts";
import type { MethodMessage, MethodRequest } from "../../gen/mcplite/mcplite_pb.ts";
import type { WireStream } from "../../extension/run-on-wire.ts";
import { toJsonObject } from "./envelope.ts";
import { type MethodCall, methodCallOf, runMethod } from "./extension-method.ts";
import { errorToConnectError } from "./status.ts";

/** One message of the stream, as Connect takes it. */
type Message = Pick<MethodMessage, "kind">;

/**
 * Answers `CallMethodStream`: the method's notifications as they come, then its result.
 *
 * @param registry The registry.
 * @param request The decoded request.
 * @param context Connect's handler context: its signal aborts when the client cancels or the deadline passes.
 * @returns The messages.
 * @throws {ConnectError} UNIMPLEMENTED for an unknown method; the method's failure as `CallMethod`'s.
 */
export async function* callMethodStream(
  registry: Registry,
  request: MethodRequest,
  context: HandlerContext,
): AsyncGenerator<Message> {
  const report = (error: unknown) => registry.runtime.onError?.(error);
  let call: MethodCall;
  try {
    call = methodCallOf(registry, request, context);
  } catch (error) {
    throw errorToConnectError(error, report);
  }
  const out = new Outbox(registry, call, context.signal);
  const running = runMethod(registry, call, out, out).then(
    (result) => out.push({ kind: { case: "result", value: toJsonObject(result) } }),
    (error: unknown) => out.fail(errorToConnectError(error, report)),
  ).finally(() => out.end());
  try {
    yield* out.messages(); // what Connect throws in (a write to a stream the client reset) is its own: not reported
  } finally {
    out.close(); // the client left mid-stream (Connect returned this generator), or it ended: the method stops
    void running; // not awaited: Connect's return() does not wait on a method slow to stop
  }
}

/** What a streaming call sends, queued until Connect reads it; its signal; and its hold (SEP-3415 "Push"). */
class Outbox implements WireStream {
  readonly #registry: Registry;
  readonly #call: MethodCall;
  readonly #queue: Message[] = [];
  /** Aborts when the generator is left: the client went away, or the stream ended. */
  readonly #left = new AbortController();
  #signal: AbortSignal;
  #wake: () => void = () => {};
  #done = false;
  #error: { error: ConnectError } | undefined;
  #held: { readonly caller: string; readonly id: string } | undefined;
  #closed!: () => void;
  /** Resolves once the stream was left: what the server's drain waits for. */
  readonly #over = new Promise<void>((resolve) => this.#closed = resolve);

  constructor(registry: Registry, call: MethodCall, signal: AbortSignal) {
    this.#registry = registry;
    this.#call = call;
    this.#signal = AbortSignal.any([signal, this.#left.signal]);
  }

  /** The method's signal: the client's cancel or deadline, and once held the server's drain. */
  get signal(): AbortSignal {
    return this.#signal;
  }

  notify(method: string, params: Readonly<Record<string, unknown>>): void {
    this.push({ kind: { case: "notification", value: toJsonObject({ method, params }) } });
  }

  holdOpen(auth: Parameters<WireStream["holdOpen"]>[0]): { readonly caller: string; readonly id: string } {
    if (this.#held !== undefined) return this.#held;
    const { drained, caller } = holdRequest(this.#registry, this.#call.host, auth, null, this.#over);
    this.#signal = AbortSignal.any([this.#signal, drained]);
    // gRPC has no request id: each stream gets one of its own, which names it in its notifications (SEP-3415).
    return this.#held = { caller, id: crypto.randomUUID() };
  }

  push(message: Message): void {
    this.#queue.push(message);
    this.#wake();
  }

  fail(error: ConnectError): void {
    this.#error = { error };
  }

  /** The method ended: its result (or failure) is the last message. */
  end(): void {
    this.#done = true;
    this.#wake();
  }

  /** The stream was left: the method's signal aborts, and a drain waiting on it goes on. */
  close(): void {
    this.#left.abort();
    this.#closed();
  }

  async *messages(): AsyncGenerator<Message> {
    for (;;) {
      while (this.#queue.length > 0) yield this.#queue.shift()!;
      if (this.#done) break;
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    if (this.#error !== undefined) throw this.#error.error;
  }
}
