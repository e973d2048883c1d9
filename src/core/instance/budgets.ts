/**
 * How much one caller may hold of each budget (`limits.perCaller`); `Infinity`: the instance's whole budget.
 *
 * @example
 * ```ts
 * import { createServer } from "../../../mod.ts";
 * import type { CallerShare } from "../../types.ts";
 *
 * // One caller: at most 20 calls running and 2 held open at once, whatever the instance's budgets.
 * const perCaller: CallerShare = { calls: 20, heldStreams: 2 };
 * createServer({ name: "shared", version: "1.0.0", limits: { perCaller } });
 * ```
 */
export interface CallerShare {
  /** The bytes of request bodies one caller may have being read at once (default: half of the instance's). */
  bodyBytes?: number;
  /**
   * The calls one caller may have running at once (default: three quarters of the instance's, so that one
   * client multiplexing calls on one connection, as gRPC and HTTP/2 clients do, is not refused while a
   * quarter stays for the others).
   */
  calls?: number;
  /** The calls one caller may have held open at once (default: a quarter of the instance's). */
  heldStreams?: number;
  /** The deferred jobs one caller may have running at once (default: a quarter of the instance's). */
  jobs?: number;
}

/**
 * The server's budgets across requests: how much of the instance its requests may hold at once (the
 * bytes of request bodies being read, the calls running, the calls held open while deferred work is
 * followed, the deferred jobs), and each caller's share of it, so that no one caller takes the
 * instance. A carrier asks {@link Budgets.take} before it reads anything a request sends and gives the
 * amount back with {@link Budgets.give}: two counters, no allocation while a caller is known.
 *
 * @module
 */
import type { AuthInfo } from "../call/host.ts";
import { ProtocolError } from "../../errors/error.ts";

/** What a server's budgets count. */
export type BudgetName = "bodyBytes" | "calls" | "heldStreams" | "jobs";

/** The budgets' names, in the order they are documented and reported. */
export const BUDGET_NAMES: readonly BudgetName[] = ["bodyBytes", "calls", "heldStreams", "jobs"];

/** A value for each budget. */
export type BudgetValues = Readonly<Record<BudgetName, number>>;

/**
 * The server's budgets across requests (`createServer({ limits })`): each bounds what all requests
 * together hold at once, and `perCaller` what one caller holds. Past a budget a request is refused
 * before its body is read: 503 with `Retry-After` past the instance's, 429 with `Retry-After` past the
 * caller's share (`RESOURCE_EXHAUSTED` on gRPC, a JSON-RPC error -32029 on sockets); a call that would be
 * held is answered its promise at once instead; a call that would start a deferred job fails with
 * `rate_limited`. Each takes a positive number, or `Infinity` for no bound.
 *
 * @example
 * ```ts
 * import { createServer } from "../../../mod.ts";
 * const server = createServer({
 *   name: "busy",
 *   version: "1.0.0",
 *   // A larger machine: 64 MiB of bodies in flight, 2 000 calls; one caller at most 10% of each.
 *   limits: { bodyBytes: 64 * 1024 * 1024, calls: 2_000, perCaller: { bodyBytes: 6_710_886, calls: 200 } },
 * });
 * ```
 */
export interface Limits {
  /**
   * The bytes of request bodies being read and handled at once (default 16 MiB: four bodies of the default `maxBodyBytes`): a request counts the
   * `Content-Length` it declares, or `maxBodyBytes` when it declares none (it may be that large),
   * from before its body is read until its answer is ready.
   */
  bodyBytes?: number;
  /**
   * The calls running at once (default 512): HTTP requests from before their body is read until their
   * answer is complete (a streamed answer's last event included), calls in flight on a WebSocket or
   * stdio, gRPC calls.
   */
  calls?: number;
  /**
   * The calls held open at once while the server follows the deferred work they started (default 256;
   * `holdMs`: MCP-lite SSE, WebSocket, stdio and gRPC `CallToolStream` pushing a job's updates, MCP calls
   * of clients without tasks). Past it, the call answers its promise at once (the client redeems it).
   */
  heldStreams?: number;
  /**
   * The deferred jobs (`ctx.defer()`) running at once in this process (default 256). Past it, the call
   * that would start one fails with `rate_limited` and `retryAfterMs`, and starts nothing.
   */
  jobs?: number;
  /**
   * One caller's share of each budget (default: half of `bodyBytes`, three quarters of `calls`, a quarter of the
   * others), or `false` for none (one caller may
   * take the instance's whole budget). A caller is the authenticated subject (and client), else the
   * client's address as the listener saw it (`serve()`, `nodeHandler()`, `Deno.serve` and `Bun.serve`
   * handing `server.fetch` their own second argument), else one anonymous caller.
   */
  perCaller?: CallerShare | false;
  /**
   * Who a request's caller is, for `perCaller`: e.g. the first `X-Forwarded-For` address behind a proxy
   * you trust (otherwise every caller is the proxy). Return `undefined` for the default.
   */
  callerKey?: (request: Request, auth: AuthInfo | undefined) => string | undefined;
  /** The wait a refusal asks for, in ms (default 1 000): `Retry-After` in whole seconds, `data.retryAfterMs`. */
  retryAfterMs?: number;
}

/** The defaults, sized for a 2-core machine with 24 GB: see docs/guides/limits.md. */
export const LIMIT_DEFAULTS: BudgetValues = { bodyBytes: 16 * 1024 * 1024, calls: 512, heldStreams: 256, jobs: 256 };

/** One caller's default share of each budget, as a fraction of the instance's. */
const SHARE_OF: BudgetValues = { bodyBytes: 1 / 2, calls: 3 / 4, heldStreams: 1 / 4, jobs: 1 / 4 };

/** What one caller (or the instance) holds now. */
type Held = Record<BudgetName, number>;

const nothingHeld = (): Held => ({ bodyBytes: 0, calls: 0, heldStreams: 0, jobs: 0 });

/** Callers kept while idle, so that one that comes back is not allocated anew; idle ones past it are dropped. */
const IDLE_CALLERS = 1024;

/** The key of the caller whose requests come with no identity (in process, an unknown listener). */
export const ANONYMOUS = "";

/**
 * A server's budgets and what is held of them. One per server (its runtime's `budgets`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Budgets } from "./budgets.ts";
 * const budgets = new Budgets({ calls: 2, perCaller: { calls: 1 } });
 * assert.equal(budgets.take("calls", 1, "ada"), undefined);
 * assert.equal(budgets.take("calls", 1, "ada")?.data.scope, "caller"); // 429
 * assert.equal(budgets.take("calls", 1, "grace"), undefined);
 * assert.equal(budgets.take("calls", 1, "alan")?.data.scope, "instance"); // 503
 * budgets.give("calls", 1, "ada");
 * assert.equal(budgets.inUse.calls, 1);
 * ```
 */
export class Budgets {
  /** The instance's budgets. */
  declare readonly limits: BudgetValues;
  /** One caller's share; `undefined` when callers are not told apart. */
  declare readonly share: BudgetValues | undefined;
  /** The wait a refusal asks for, in ms. */
  declare readonly retryAfterMs: number;
  /** Who a request's caller is, when the server says (`limits.callerKey`). */
  declare readonly callerKey: Limits["callerKey"];
  readonly #used = nothingHeld();
  readonly #refused = nothingHeld();
  #aborted = 0;
  readonly #callers = new Map<string, Held>();

  /**
   * Resolves the budgets from the server's `limits`.
   *
   * @param limits The option.
   * @throws {TypeError} For a budget that is not a positive number (or `Infinity`), a negative `retryAfterMs`.
   */
  constructor(limits: Limits = {}) {
    const own = {} as Held;
    const share = {} as Held;
    const perCaller = limits.perCaller;
    for (const name of BUDGET_NAMES) {
      const limit = own[name] = positive(limits[name] ?? LIMIT_DEFAULTS[name], name);
      // Half of the body budget (two bodies of the default largest size: a chunked one, which counts as
      // the largest, does not hold up its caller's next request); three quarters of the calls (one backend
      // client's multiplexed calls, a quarter kept for the others); a quarter of the held streams and jobs.
      const part = Math.max(1, Math.floor(limit * SHARE_OF[name]));
      if (perCaller !== false) share[name] = Math.min(limit, positive(perCaller?.[name] ?? part, `perCaller.${name}`));
    }
    this.limits = own;
    this.share = perCaller === false ? undefined : share;
    const retryAfterMs = this.retryAfterMs = limits.retryAfterMs ?? 1_000;
    if (!(retryAfterMs >= 0 && retryAfterMs < Infinity)) {
      throw new TypeError("limits.retryAfterMs must be a number ≥ 0");
    }
    this.callerKey = limits.callerKey;
  }

  /**
   * Takes `amount` of a budget for a caller, or says why not.
   *
   * @param name The budget.
   * @param amount How much (1 for a call; a body's bytes).
   * @param caller The caller's key ({@link ANONYMOUS} when unknown).
   * @returns `undefined` when taken (give it back with {@link Budgets.give}); the refusal otherwise,
   *   nothing taken: `rate_limited` with `data.scope` `"instance"` (503) or `"caller"` (429).
   */
  take(name: BudgetName, amount: number, caller: string): BudgetRefusal | undefined {
    const used = this.#used;
    if (used[name] + amount > this.limits[name] && used[name] > 0) return this.#refuse(name, "instance");
    const share = this.share;
    if (share === undefined || caller === ANONYMOUS) { // an unknown caller has the instance's budget
      used[name] += amount;
      return undefined;
    }
    let own = this.#callers.get(caller);
    if (own === undefined) this.#callers.set(caller, own = nothingHeld());
    // A single body larger than the share still passes alone: `maxBodyBytes` bounds it.
    if (own[name] + amount > share[name] && own[name] > 0) return this.#refuse(name, "caller");
    own[name] += amount;
    used[name] += amount;
    return undefined;
  }

  /**
   * Admits a request: takes a call, and the bytes of its body, for a caller.
   *
   * @param caller The caller's key.
   * @param bytes The bytes its body may hold (0 for none).
   * @returns `undefined` when admitted (give both back); the refusal otherwise, nothing taken.
   */
  admit(caller: string, bytes: number): BudgetRefusal | undefined {
    const refusal = this.take("calls", 1, caller);
    if (refusal !== undefined || bytes === 0) return refusal;
    const tooMany = this.take("bodyBytes", bytes, caller);
    if (tooMany !== undefined) this.give("calls", 1, caller);
    return tooMany;
  }

  /**
   * Gives back what {@link Budgets.admit} took.
   *
   * @param caller The caller's key.
   * @param bytes The bytes it took for the body.
   * @param calls The calls it still holds: 1, or 0 once the request was exempted (a push stream, SEP-3415 "Push").
   */
  release(caller: string, bytes: number, calls: number): void {
    this.give("calls", calls, caller);
    if (bytes > 0) this.give("bodyBytes", bytes, caller);
  }

  /**
   * Gives back what {@link Budgets.take} took.
   *
   * @param name The budget.
   * @param amount How much.
   * @param caller The caller's key, as taken.
   */
  give(name: BudgetName, amount: number, caller: string): void {
    this.#used[name] -= amount;
    if (this.share === undefined) return;
    const callers = this.#callers;
    const own = callers.get(caller);
    if (own === undefined) return;
    own[name] -= amount;
    if (callers.size > IDLE_CALLERS && own.bodyBytes + own.calls + own.heldStreams + own.jobs === 0) {
      callers.delete(caller);
    }
  }

  /** What all requests hold now, by budget (read by the OpenTelemetry gauges). */
  get inUse(): BudgetValues {
    return this.#used;
  }

  /** How many requests each budget refused since the server started (read by the OpenTelemetry counters). */
  get refused(): BudgetValues {
    return this.#refused;
  }

  /** How many calls their callers gave up on (cancelled, disconnected) since the server started (an OpenTelemetry counter). */
  get aborted(): number {
    return this.#aborted;
  }

  /** Counts a call its caller gave up on: counted, not reported to `onError` (a caller can abort at will). */
  callAborted(): void {
    this.#aborted++;
  }

  #refuse(name: BudgetName, scope: "instance" | "caller"): BudgetRefusal {
    this.#refused[name]++;
    const retryAfterMs = this.retryAfterMs;
    return new ProtocolError(
      "rate_limited",
      `Too busy (limits.${scope === "caller" ? "perCaller." : ""}${name}); retry in ${
        Math.ceil(retryAfterMs / 1000)
      } s`,
      { data: { limit: name, scope, retryAfterMs, processed: false } },
    ) as BudgetRefusal;
  }
}

/** A request refused for a budget: `rate_limited`, sent again after `data.retryAfterMs`. */
export type BudgetRefusal = ProtocolError & {
  readonly data: {
    /** The budget that was full. */
    readonly limit: BudgetName;
    /** Whose: the whole instance's (HTTP 503) or the caller's share (HTTP 429). */
    readonly scope: "instance" | "caller";
    /** When to send it again, in ms. */
    readonly retryAfterMs: number;
    /** Always `false`: nothing of the request was run, so any request may be sent again. */
    readonly processed: false;
  };
};

function positive(value: number, name: string): number {
  if (typeof value !== "number" || !(value > 0)) {
    throw new TypeError(`limits.${name} must be a positive number (Infinity: no limit)`);
  }
  return value;
}
