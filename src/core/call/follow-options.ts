/**
 * Following deferred work on a caller's behalf (MCP-lite spec v0.042 §5.3, pushed updates): the options
 * the wires pass to the long-running support (`LongRunning.follow`, in `registry.ts`), and their default.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import type { CallSink } from "./call-sink.ts";

/** How long a streaming MCP-lite call follows deferred work before it answers the promise, by default. */
export const PUSH_MS = 30_000;

/** How a promise is followed on the caller's behalf. */
export interface FollowOptions {
  /** The context of the request that follows it: its signal, caller and, for questions, its sink. */
  readonly caller: CallContext;
  /** How long to follow, in ms; then the promise stands. */
  readonly holdMs: number;
  /** Whether a question the work asks can be put to the client now (on the request's own stream). */
  readonly canAsk?: boolean;
  /**
   * Receives the work's progress and logs (a stream pushing updates, a held MCP call): while it runs in this
   * process, or its progress from a worker when the queue carries it (`WorkQueue.watch`).
   */
  readonly watch?: CallSink;
}
