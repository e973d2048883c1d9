/**
 * A decoded tool call: what a binding hands the call pipeline (`runCall`, `callNow`, `streamCall`).
 *
 * @module
 */
import type { CallMeta, SignalSource } from "./call-context.ts";
import type { CallSink } from "./call-sink.ts";
import type { Host } from "./host.ts";

/** A decoded tool call, as a binding hands it to `runCall`. */
export interface CallRequest {
  /** The tool name. */
  readonly name: string;
  /** The arguments, as sent (validated by the pipeline). */
  readonly arguments: unknown;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it (the `Request`): read only if a handler asks. */
  readonly signal: AbortSignal | SignalSource;
  /** Where progress, logs and (on wires that ask mid-call, such as MCP 2025) questions for the client go. */
  readonly sink?: CallSink;
  /**
   * On wires that ask by answering "input required" and being called again (MCP-lite, MCP 2026-07-28,
   * gRPC, in process): what this request carried. Absent where the wire cannot ask this way.
   */
  readonly round?: { readonly inputResponses: unknown; readonly requestState: unknown };
  /** Configuration the caller supplied, on wires that carry it (Webtools `config`); the server's settings win. */
  readonly config?: Record<string, unknown>;
  /**
   * What came with the request, whole: the caller the server's gate verified (`ctx.auth`), the
   * platform's values (`ctx.env`), and its `waitUntil`, which keeps deferred work (`ctx.defer()`)
   * alive past the response where the platform needs it (a Worker's `ctx.waitUntil`).
   */
  readonly host?: Host;
  /**
   * Receives each partial of a streaming tool as it comes. When it returns a promise, the next
   * partial is not pulled before it settles (back-pressure for wires whose streams are pulled).
   */
  readonly onPartial?: (partial: unknown) => void | Promise<void>;
}
