/**
 * A server's in-process calls (`server.call()`): the tools it carries, the names and arguments it takes, its
 * options, and the run of one call through the same pipeline as every wire, without HTTP; and the schema of the
 * configuration those calls share (`server.config()`), compiled.
 *
 * @module
 */
import type { AuthInfo, CallMeta } from "../core/call/call-context.ts";
import { NEVER_ABORTED } from "../core/call/call-meta.ts";
import type { CallOutcome } from "../core/call/outcome.ts";
import { runCall } from "../core/call/pipeline.ts";
import type { CallTarget } from "../core/definitions/registry.ts";
import { type CompiledSchema, compileSchema, type SchemaInput } from "../core/schema.ts";
import { NO_HOST, withCaller } from "./binding-contract.ts";
import type { RedeemArgs } from "../core/long-running/redeem-args.ts";
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

/**
 * Runs one call in process (`server.call()`).
 *
 * @param registry The server's registry.
 * @param name The tool name (or `redeem`).
 * @param args The arguments.
 * @param options A signal, a partial callback, headers, the caller, and the answers to an input round.
 * @returns The outcome.
 */
export function callInProcess(
  registry: CallTarget,
  name: string,
  args: unknown,
  options: ServerCallOptions,
): Promise<CallOutcome> {
  const meta: CallMeta = { wire: "in-process", headers: new Headers(options.headers) };
  return runCall(registry, {
    name,
    arguments: args,
    meta,
    // Without a caller's signal, one that never aborts is made only if the handler asks for it.
    signal: options.signal ?? NEVER_ABORTED,
    round: { inputResponses: options.inputResponses, requestState: options.requestState },
    host: options.auth === undefined ? undefined : withCaller(NO_HOST, options.auth),
    onPartial: options.onPartial,
  });
}

/**
 * Compiles the schema of the configuration every tool shares (`server.config()`): a JSON Schema object.
 *
 * @param schema The schema.
 * @returns It, compiled.
 * @throws {TypeError} When it cannot be expressed as a JSON Schema object.
 */
export function compileConfig(schema: SchemaInput): CompiledSchema {
  const compiled = compileSchema(schema, "server config");
  if (compiled.jsonSchema.type !== "object") {
    throw new TypeError(`server config: the schema must describe an object (type "object")`);
  }
  return compiled;
}
