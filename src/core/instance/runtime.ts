/**
 * The server-wide runtime every binding reads beside the definitions: the two middleware chains, the
 * error reporter, the tokens, the long-running support (deferred work) if any, the server's settings and
 * its configuration schema. One per server; the registries forked from the server's (Webtools' older
 * versions) share it.
 *
 * @module
 */
import { Budgets } from "./budgets.ts";
import type { JobEngine } from "../long-running/job-engine.ts";
import { type ErrorReplacement, ProtocolError, replacementError } from "../../errors/error.ts";
import type { Tokens } from "./tokens.ts";
import type { ServerLogger } from "./logger.ts";
import type { Middleware, ToolCall, ToolMiddleware } from "../call/middleware.ts";
import type { CompiledSchema } from "../schema.ts";
import { Masked } from "../results/masking.ts";
import type { TokenError } from "../../codec/token-error.ts";
import { boundedReports } from "./bounded-reports.ts";
import { noop } from "../../internal/noop.ts";

/**
 * Receives errors that were masked or turned into failures, with the tool call that raised them, if
 * any (its `ctx.meta.requestId` is the request's JSON-RPC id). It may return `{ code, message, data }`
 * for an error it recognises: the request then fails with that error (`code` a JSON-RPC code or an
 * `ErrorCode`) instead of the masked internal error or the tool failure; return nothing for the default.
 * `report` comes with a report that a caller can repeat at will (a forged, expired or foreign promise token,
 * `requestState` or task id): each kind goes out at most once per 5 seconds, and `report.repeated` counts those of
 * its kind held back since the last one that went out. Under `maskErrors`, it comes with an unexpected error of a
 * call: `report.reference` is the reference the caller was given in place of the error's message.
 */
// Returns `unknown`, not `ErrorReplacement | void`: a reporter written as an expression (`(e) => seen.push(e)`)
// keeps compiling; only a `{ code, message }` object replaces the answer.
export type ErrorReporter = (
  error: unknown,
  call?: ToolCall,
  report?: { readonly repeated: number; readonly reference?: string },
) => ErrorReplacement | unknown;

/** The server-wide state a runtime starts with. */
export interface RuntimeOptions {
  /** Where masked errors go (none by default: `createServer()` gives its own, `error-log.ts`). */
  readonly onError?: ErrorReporter;
  /** Whether an unexpected error of a call is answered "Internal error" with a reference, not its message. */
  readonly maskErrors?: boolean;
  /** Where `ctx.log()` records and the server's own warnings go besides the wire. */
  readonly logger?: ServerLogger;
  /**
   * The server's tokens (default: the continuations'; `createTokens()` makes a set from `MCPLITE_SECRET`). A server
   * always gives one or the other (a lite one without `inputRounds`: `NO_TOKENS`, which signs nothing, so that input
   * rounds fail naming the fix); a runtime made with neither, a pipeline's alone, has none.
   */
  readonly tokens?: Tokens;
  /** The deferred-work machinery of the server's long-running support, if it has one. */
  readonly continuations?: JobEngine;
  /** The server's own configuration values (`settings`). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The server's budgets across requests (`limits`; default: {@link LIMIT_DEFAULTS}). */
  readonly budgets?: Budgets;
}

/** A server's budgets across requests (`limits`), which every carrier takes from; set by {@link Runtime}'s static block. */
export let budgetsOf: (runtime: Runtime) => Budgets;

/**
 * A server's runtime: what every call needs besides the definition it calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Runtime } from "./runtime.ts";
 *
 * const runtime = new Runtime({ settings: { region: "eu" } });
 * let changed = 0;
 * runtime.onConfigChange(() => changed++);
 * runtime.setConfig(undefined);
 * assert.equal(changed, 1);
 * assert.equal(runtime.settings.region, "eu");
 * ```
 */
export class Runtime {
  readonly #middleware: Middleware[] = [];
  readonly #toolMiddleware: ToolMiddleware[] = [];
  /** Where masked errors go. */
  declare readonly onError: ErrorReporter | undefined;
  readonly #maskErrors: boolean;
  readonly #admit = boundedReports();
  /** Where `ctx.log()` records and the server's own warnings go besides the wire, if anywhere. */
  declare readonly logger: ServerLogger | undefined;
  /** The server's tokens: every one it issues (promises, `requestState`, task ids) is signed by their codec. */
  declare readonly tokens: Tokens;
  readonly #continuations: JobEngine | undefined;
  /** The server's own settings: the configuration values on MCP and MCP-lite, fixed on Webtools. */
  declare readonly settings: Readonly<Record<string, unknown>>;
  /**
   * The hold a binding sets for its wire's calls (`mcpLiteBinding({ holdMs })`, …), by wire, over the server's
   * `holdMs`: written when the binding is mounted, read by every carrier of that wire (`hold-setting.ts`).
   */
  declare readonly holds: Map<string, number>;
  readonly #budgets: Budgets;
  static {
    budgetsOf = (runtime) => runtime.#budgets;
  }
  #config: CompiledSchema | undefined;
  readonly #configListeners = new Set<() => void>();
  /** The long-lived streams open, each by what ends it with its last frame; none once the server drains. */
  #held: Set<() => unknown> | undefined = new Set();
  #drained: Promise<void> | undefined;

  /**
   * Creates a runtime.
   *
   * @param options The error reporter, logger, tokens, continuations and settings.
   */
  constructor(options: RuntimeOptions = {}) {
    this.onError = options.onError;
    this.logger = options.logger;
    this.#maskErrors = options.maskErrors === true;
    this.#continuations = options.continuations;
    this.tokens = (options.tokens ?? options.continuations)!; // a server's runtime has one (`serverRuntime()`)
    this.settings = Object.freeze({ ...options.settings });
    this.holds = new Map();
    this.#budgets = options.budgets ?? new Budgets();
  }

  /**
   * Reports a token a caller sent that does not verify (forged, expired, foreign): at most once per
   * kind of failure every 5 seconds, with how many were held back (`report.repeated`), since anyone
   * can send them by the thousand.
   *
   * @param error The token's failure.
   */
  readonly reportRefusedToken = (error: TokenError): void => {
    if (this.onError === undefined) return;
    const repeated = this.#admit(error.reason);
    if (repeated !== undefined) this.onError(error, undefined, { repeated });
  };

  /**
   * Reports an unexpected error of a call (its handler's bug, a result its output schema refuses) to
   * `onError`, once, with the call; under `maskErrors`, with a new reference, which it answers for the caller
   * to be given in place of the error's message.
   *
   * @param error What the call's tool code threw, or the output schema's refusal.
   * @param call The call, where there is one.
   * @returns What `onError` returned (the error to answer instead, if it names one), else the {@link Masked}
   *   reference under `maskErrors`.
   */
  reportUnexpected(error: unknown, call?: ToolCall): unknown {
    if (!this.#maskErrors) return this.onError?.(error, call);
    const masked = new Masked();
    const answer = this.onError?.(error, call, { repeated: 0, reference: masked.reference });
    return replacementError(error, answer) === undefined ? masked : answer;
  }

  /**
   * The deferred-work machinery of the long-running support.
   *
   * @throws {ProtocolError} `invalid_params` on a server without long-running support: no promise,
   *   task or deferred result of it exists to be read.
   */
  get continuations(): JobEngine {
    const continuations = this.#continuations;
    if (continuations === undefined) {
      throw new ProtocolError("invalid_params", "This server has no long-running tools", {
        data: { reason: "result_not_found" },
      });
    }
    return continuations;
  }

  /** The request middleware chain (around every method), outermost first. */
  get middleware(): readonly Middleware[] {
    return this.#middleware;
  }

  /** The tool middleware chain (around tool handlers), outermost first. */
  get toolMiddleware(): readonly ToolMiddleware[] {
    return this.#toolMiddleware;
  }

  /**
   * Adds a request middleware at the end of its chain (innermost).
   *
   * @param middleware The middleware.
   */
  use(middleware: Middleware): void {
    this.#middleware.push(middleware);
  }

  /**
   * Adds a tool middleware at the end of its chain (innermost).
   *
   * @param middleware The middleware.
   */
  useTool(middleware: ToolMiddleware): void {
    this.#toolMiddleware.push(middleware);
  }

  /** The server-level configuration schema (`server.config()`), merged into every tool's. */
  get config(): CompiledSchema | undefined {
    return this.#config;
  }

  /**
   * Sets the server-level configuration schema, and tells every registry of the server, so that what
   * they derived from it (list bodies, resolved configurations) is derived again.
   *
   * @param schema The compiled schema.
   */
  setConfig(schema: CompiledSchema | undefined): void {
    this.#config = schema;
    for (const listener of this.#configListeners) listener();
  }

  /**
   * Subscribes to changes of the configuration schema.
   *
   * @param listener Called after each change.
   */
  onConfigChange(listener: () => void): void {
    this.#configListeners.add(listener);
  }

  /**
   * Holds a long-lived stream open (`subscriptions/listen`, a held extension request such as `events/stream`) until
   * it ends by itself or the server drains ({@link drain}); one that opens while the server drains is ended at once.
   *
   * @param end Ends the stream with its last frame; what it returns (a promise) is awaited by {@link drain}.
   * @returns Lets the stream go (it ended by itself).
   */
  hold(end: () => unknown): () => void {
    const held = this.#held;
    // At once, but once the stream is open (its first frames written: an acknowledgement).
    if (held) held.add(end);
    else queueMicrotask(end);
    return () => held?.delete(end);
  }

  /**
   * Ends every stream held open, each with its last frame, and from now on those that open at once.
   *
   * @returns Resolves once each stream open when it was first called has ended.
   */
  drain(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    return this.#drained ??= Promise.all([...held!].map((end) => end())).then(noop);
  }
}
