/**
 * The types of a server's in-process calls (`server.call()`): the tools it carries, the names and
 * arguments it takes, and its options.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import type { RedeemArgs } from "../jobs/redeem.ts";
import type { AnyTool, InferToolInput } from "../core/definitions/tool.ts";
import type { HeadersLike } from "../internal/headers-like.ts";

/** The tools a server carries, by name; the typed client reads this from `typeof server`. */
export type ToolMap = { [name: string]: AnyTool };

/** The arguments `server.call()` takes, by name: each tool's input, and `redeem`'s. */
export type CallArguments<TTools extends ToolMap> = { [K in keyof TTools]: InferToolInput<TTools[K]> } & {
  redeem: RedeemArgs;
};

/** Options of {@link Server.call}. */
export interface ServerCallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Receives the partials of a streaming tool. */
  onPartial?: (partial: unknown) => void;
  /** Headers the handler sees as `ctx.meta.headers`. */
  headers?: HeadersLike;
  /** The caller, as `ctx.auth` (promise tokens and `requestState` are bound to its `subject`). */
  auth?: AuthInfo;
  /** The answers to an `input_required` outcome's requests, by key. */
  inputResponses?: Record<string, unknown>;
  /** The `requestState` of that outcome, echoed as is. */
  requestState?: string;
}
