/**
 * The client's types: tool names, arguments and results inferred from a server's type (no codegen),
 * the options of a call, and what a call returns.
 *
 * @module
 */
import type { ToolMap } from "../server/server.ts";
import type { AnyTool, InferToolInput, InferToolOutput, Tool } from "../core/definitions/tool.ts";
import type { CallResult } from "./read-result.ts";
import type { LogEntry, Progress, TaskStatus } from "./transport.ts";
import type { InputHandlers } from "./input.ts";
import type { ProbedName } from "./tool-proxy.ts";

/**
 * The tools of a client's type parameter: a server type's (its phantom `"~tools"`), or a plain description
 * of the tools, `{ tools: { [name]: { input: {…}; output: {…} } } }`, for a server whose code is not at hand
 * (what `mcplite types <url>` writes; `output` is the `structuredContent`, `unknown` for a tool without an
 * output schema). For anything else (`ToolsOf<unknown>`), the tool map of a client without a server type:
 * any name, any object of arguments, an unknown result.
 *
 * @typeParam S The server type (`typeof server`), or a description of its tools.
 *
 * @example
 * ```ts
 * import { createClient } from "./mod.ts";
 *
 * interface Weather {
 *   tools: { get_forecast: { input: { city: string; days?: number }; output: { summary: string } } };
 * }
 * const client = createClient<Weather>("http://localhost:8000/mcp");
 * async function forecast(): Promise<string> {
 *   const { summary } = await client.call("get_forecast", { city: "Oslo" });
 *   return summary;
 * }
 * void forecast;
 * ```
 */
export type ToolsOf<S> = [{ [name: string]: Tool<string, Record<string, unknown>, unknown, unknown> }] extends
  [infer Untyped] ? (
    unknown extends S ? Untyped
      : "~tools" extends keyof S ? (
          [NonNullable<S extends { readonly "~tools"?: infer M } ? M : never>] extends [infer M] ? (
              [M] extends [never] ? Untyped
                : M extends ToolMap ? (string extends keyof M ? Untyped : M)
                : Untyped
            )
            : Untyped
        )
      : S extends { readonly tools: infer D extends { [name: string]: { input: object; output?: unknown } } } ? (
          string extends keyof D ? Untyped : {
            [N in keyof D & string]: Tool<
              N,
              D[N]["input"],
              D[N]["input"],
              D[N] extends { output: infer O } ? O : unknown
            >;
          }
        )
      : Untyped
  )
  : never;

/** The tool map of a client without a server type: any name, any object of arguments, an unknown result. */
export type UntypedTools = ToolsOf<unknown>;

/**
 * The tool names of a tool map. The client's methods spell their constraint out (`keyof T & string`)
 * rather than naming this alias, so that a wrong name's type error lists the names themselves
 * (`'"nope"' is not assignable to parameter of type '"search" | "add"'`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient, type ToolName, type ToolsOf } from "./mod.ts";
 *
 * const ping = defineTool("ping").describe("Answers pong").handle(() => "pong");
 * const server = createServer({ name: "docs", version: "1.0.0" }).tool(ping);
 * type Tools = ToolsOf<typeof server>;
 * // A helper of your own over any of the server's tools, typed by their names.
 * const callLogged = (name: ToolName<Tools>) => createClient(server).callTool(name, {});
 * assert.equal((await callLogged("ping")).content[0].type, "text");
 * ```
 */
export type ToolName<T> = keyof T & string;

/** What a caller sends to tool `N`. */
export type ToolInput<T, N extends keyof T> = T[N] extends AnyTool ? InferToolInput<T[N]> : never;

/** What tool `N` gives back: its output schema's type, or `unknown` when it declares none. */
export type ToolOutput<T, N extends keyof T> = T[N] extends AnyTool ? InferToolOutput<T[N]> : never;

/** Options of every request. */
export interface RequestOptions {
  /** Cancels the request (and, for a task, sends `tasks/cancel`). */
  signal?: AbortSignal;
  /**
   * Fails the request when nothing (a result, progress, a partial) arrives for this long, in ms.
   * Progress resets it; waiting for a promise or task between polls does not count. Default: the
   * client's `timeoutMs` (60 000); 0 disables it.
   */
  timeoutMs?: number;
  /** Fails the request after this long in total, however lively, in ms. Default: the client's, or none. */
  maxTimeoutMs?: number;
  /**
   * The W3C Trace Context fields (`traceparent`, `tracestate`) the request continues, sent as headers and in
   * `_meta` (W3C Trace Context §3; MCP SEP-414) when the client has no `telemetry` of its own (which sends its
   * span's): a gateway passes its caller's on, so that both hops are one trace.
   */
  traceContext?: Readonly<Record<string, string>>;
  /**
   * Hears the notifications the server sends on this request's own stream (an extension's, SEP-2133), after the
   * handlers of `client.onNotification()`: a gateway passes them on to its own caller.
   */
  onNotification?: (method: string, params: Record<string, unknown>) => void;
}

/**
 * Options of a list request (`client.listTools()`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient, type ListOptions } from "./mod.ts";
 *
 * const ping = defineTool("ping").describe("Answers pong").handle(() => "pong");
 * const server = createServer({ name: "docs", version: "1.0.0" }).tool(ping);
 * const fresh: ListOptions = { fresh: true, timeoutMs: 5_000 }; // past the cache, within 5 s
 * const tools = await createClient(server).listTools(fresh);
 * assert.deepEqual(tools.map((tool) => tool.name), ["ping"]);
 * ```
 */
export interface ListOptions extends RequestOptions {
  /** Bypass the cache (tools only). */
  fresh?: boolean;
}

/** Options of a tool call. */
export interface CallOptions extends RequestOptions {
  /** Receives progress reports (their presence asks the server for them); each resets the idle timeout. */
  onProgress?: (progress: Progress) => void;
  /** Receives partial results of a streaming tool. */
  onPartial?: (partial: unknown) => void;
  /** Receives the server's log messages for this call. */
  onLog?: (entry: LogEntry) => void;
  /**
   * The MCP log level to ask for on this call, in place of the client's `logLevel` (MCP 2026-07-28: the request's
   * `_meta`): e.g. a gateway asking for its own caller's.
   */
  logLevel?: string;
  /**
   * Answers the elicitations of this call in place of the client's `onElicit` (which declares the capability):
   * e.g. a gateway asking its own caller.
   */
  onElicit?: InputHandlers["onElicit"];
  /** Answers the sampling requests of this call in place of the client's `onSample` (which declares the capability). */
  onSample?: InputHandlers["onSample"];
  /** Answers the roots requests of this call in place of the client's `onRoots` (which declares the capability). */
  onRoots?: InputHandlers["onRoots"];
  /**
   * Capabilities this call declares over the client's, where each request declares its own (MCP 2026-07-28:
   * `_meta["io.modelcontextprotocol/clientCapabilities"]`): each key given replaces the client's, one given as
   * `undefined` is not declared (`{ sampling: undefined }`: this call cannot be asked to sample); the others stay. An
   * MCP 2025 session keeps what it declared at `initialize`. E.g. a gateway declaring what its own caller can answer.
   */
  capabilities?: Record<string, unknown>;
  /**
   * `false`: return a promise token or task handle at once instead of redeeming or polling it; resume
   * it later with `client.resume()`.
   */
  wait?: boolean;
  /** `"value"`: return a failed tool's `ToolError` instead of throwing it. Default `"throw"`. */
  failure?: "throw" | "value";
}

/**
 * A call that has not finished, returned by `{ wait: false }`: the complete result when the server answered at once,
 * else its promise, whichever wire carried it (MCP-lite's promise token, MCP's task). `client.resume(handle)`
 * finishes it.
 *
 * @typeParam TOutput The tool's result type.
 */
export type CallHandle<TOutput = unknown> =
  | {
    /** The server answered at once. */
    readonly kind: "complete";
    /** The tool. */
    readonly tool: string;
    /** The result. */
    readonly result: CallResult<TOutput>;
  }
  | {
    /** The server will answer later: `client.resume(handle)` redeems the promise. */
    readonly kind: "promise";
    /** The tool. */
    readonly tool: string;
    /** What redeems it: MCP-lite's promise token, or the id of MCP's task. */
    readonly token: string;
    /** When to come back, in ms (MCP-lite's `retry_after_ms`, a task's `pollIntervalMs`). */
    readonly retryAfterMs?: number;
    /** When the work should be done, ISO 8601. */
    readonly estimatedCompletion?: string;
    /** When the promise token expires, ISO 8601 (MCP-lite's `expires_at`). */
    readonly expiresAt?: string;
    /**
     * The work's status when the handle was made, where the wire reports one (an MCP task's); a handle with a
     * status is followed as the task it is (`tasks/get`), one without redeemed (`redeem`).
     */
    readonly status?: TaskStatus;
  };

/**
 * A streamed call: iterate it for the partials; `result` resolves with the final value.
 *
 * @typeParam TOutput The tool's result type.
 */
export interface ToolStream<TOutput> extends AsyncIterable<unknown> {
  /** The final value, once the call is done (rejects as the call does). */
  readonly result: Promise<TOutput>;
}

/**
 * The typed shortcut `client.tools.<name>(args, options)`, for every tool but those whose names libraries read to tell
 * what an object is (`then`, `toJSON`, `toString`, `constructor`, `inspect`…, and any name that starts with `_`): call
 * those with `client.call(name, args)`.
 *
 * @typeParam T The tool map.
 */
export type ToolProxy<T> = {
  readonly [N in ToolName<T> as N extends ProbedName ? never : N]: (
    args: ToolInput<T, N>,
    options?: CallOptions,
  ) => Promise<ToolOutput<T, N>>;
};
