/**
 * A server's webhook delivery: its settings (timeouts, the retry schedule, suspension, the callbacks allowed), what
 * it delivers with (the store, the token codec, the queue, `fetch`, the resolver), its budget of deliveries in
 * flight, its observer, and the in-process retries' timers, which `close()` cancels. One per server, made by the
 * events runtime and handed to `deliver()`, `verifyCallback()` and the worker (the `deps` of the seam).
 *
 * @module
 */
import type { TokenCodec } from "../../codec/token.ts";
import type { WorkQueue } from "../../jobs/work-queue.ts";
import { unrefTimer } from "../../runtime/unref-timer.ts";
import type { Lookup } from "./callback-check.ts";
import { type DeliveryObserver, deliveryObserverOf } from "./delivery-observer.ts";
import type { Subscription } from "./subscription.ts";
import type { SharedStore } from "../../store/shared-store.ts";

/** The retry schedule by default, in ms (SEP-3415: retries over about 15 minutes): 1 s, 5 s, 30 s, 2 min, 10 min. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];

/** The settings of delivery (the events option's, each with its default). */
export interface DeliveryOptions {
  /** Origins whose callbacks are taken as they are (http and loopback allowed): development and tests. */
  readonly allowCallbacks?: readonly string[];
  /** How long an attempt (or the challenge) waits for its answer, in ms (default 10 000). */
  readonly timeoutMs?: number;
  /** The waits before each retry, in ms (default {@link DEFAULT_RETRY_DELAYS_MS}); then it failed for good. */
  readonly retryDelaysMs?: readonly number[];
  /** The longest `Retry-After` honoured, in ms (default the longest retry delay). */
  readonly maxRetryAfterMs?: number;
  /** After how many deliveries failed for good in a row a subscription is suspended (default 5). */
  readonly suspendAfter?: number;
  /** The most delivery attempts in flight at once on this server in this process (default 64); more wait. */
  readonly maxInFlight?: number;
  /** The `fetch` deliveries are sent with (default the global one). */
  readonly fetch?: typeof fetch;
  /** Resolves a callback's host (default `node:dns/promises`' `lookup`, all addresses). */
  readonly lookup?: Lookup;
}

/** What a server delivers with, besides the settings. */
export interface DeliveryConfig extends DeliveryOptions {
  /** The server's shared store: subscriptions, and a queued delivery's attempt count. */
  readonly store: SharedStore;
  /** The server's token codec: a queued delivery's job is sealed with it. */
  readonly codec: TokenCodec;
  /** The server's queue: with one, every delivery is a job its workers run. */
  readonly queue?: WorkQueue;
  /** The server's request middleware, read when a delivery starts: telemetry's observer is found there. */
  readonly middleware?: () => readonly unknown[];
  /** Where failures no caller hears of go (the store out of reach while recording an outcome). */
  readonly onError?: (error: unknown) => void;
  /** Told when delivery ended or suspended a subscription (its entry is already written). */
  readonly changed?: (sub: Subscription, change: "ended" | "suspended") => void;
}

/** A server's delivery state. */
export class Deliveries {
  /** The store. */
  readonly store: SharedStore;
  /** The token codec. */
  readonly codec: TokenCodec;
  /** The queue, if any. */
  readonly queue: WorkQueue | undefined;
  /** The allow-listed origins. */
  readonly allow: readonly string[];
  /** An attempt's time limit, in ms. */
  readonly timeoutMs: number;
  /** The retry schedule, in ms. */
  readonly retryDelaysMs: readonly number[];
  /** The longest `Retry-After` honoured, in ms. */
  readonly maxRetryAfterMs: number;
  /** Failures in a row that suspend. */
  readonly suspendAfter: number;
  /** The `fetch`. */
  readonly fetch: typeof fetch;
  /** The resolver, when one was given. */
  readonly lookup: Lookup | undefined;
  /** Where unheard failures go. */
  readonly onError: (error: unknown) => void;
  /** Told of subscriptions ended or suspended. */
  readonly changed: DeliveryConfig["changed"];
  readonly #middleware: () => readonly unknown[];
  readonly #maxInFlight: number;
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #closed = new AbortController();
  #observed: { make: () => DeliveryObserver; observer: DeliveryObserver } | undefined;

  /**
   * Creates a server's delivery state.
   *
   * @param config The store, codec, queue and settings.
   * @throws {RangeError} For a setting out of range.
   */
  constructor(config: DeliveryConfig) {
    this.store = config.store;
    this.codec = config.codec;
    this.queue = config.queue;
    this.allow = config.allowCallbacks ?? [];
    this.timeoutMs = config.timeoutMs ?? 10_000;
    this.retryDelaysMs = config.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.maxRetryAfterMs = config.maxRetryAfterMs ?? Math.max(0, ...this.retryDelaysMs);
    this.suspendAfter = config.suspendAfter ?? 5;
    this.#maxInFlight = config.maxInFlight ?? 64;
    this.fetch = config.fetch ?? ((input, init) => fetch(input, init));
    this.lookup = config.lookup;
    this.onError = config.onError ?? (() => {});
    this.changed = config.changed;
    this.#middleware = config.middleware ?? (() => []);
    if (!(this.timeoutMs > 0)) throw new RangeError("timeoutMs must be positive");
    if (!this.retryDelaysMs.every((ms) => ms >= 0)) throw new RangeError("retryDelaysMs must not be negative");
    if (!(Number.isInteger(this.suspendAfter) && this.suspendAfter > 0)) {
      throw new RangeError("suspendAfter must be a positive integer");
    }
    if (!(Number.isInteger(this.#maxInFlight) && this.#maxInFlight > 0)) {
      throw new RangeError("maxInFlight must be a positive integer");
    }
  }

  /** How many attempts an occurrence gets in all: the first, and one per retry delay. */
  get attempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** Aborts when the server's deliveries are closed. */
  get signal(): AbortSignal {
    return this.#closed.signal;
  }

  /** The clock (the codec's), ms since the epoch. */
  now(): number {
    return this.codec.now();
  }

  /** The observer of telemetry among the server's middleware now, made once per server. */
  observer(): DeliveryObserver | undefined {
    const make = deliveryObserverOf(this.#middleware());
    if (make === undefined) return undefined;
    if (this.#observed?.make !== make) this.#observed = { make, observer: make() };
    return this.#observed.observer;
  }

  /**
   * Takes a slot of the budget of attempts in flight, waiting while it is spent.
   *
   * @returns Gives the slot back (once).
   */
  async slot(): Promise<() => void> {
    while (this.#inFlight >= this.#maxInFlight) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.#closed.signal.throwIfAborted();
    }
    this.#inFlight++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#inFlight--;
      this.#waiting.shift()?.();
    };
  }

  /**
   * Waits, without keeping the process alive (an in-process retry's backoff).
   *
   * @param ms How long.
   * @returns `true` when the wait is over, `false` when `close()` cut it short.
   */
  wait(ms: number): Promise<boolean> {
    if (this.#closed.signal.aborted) return Promise.resolve(false);
    const closed = this.#closed.signal;
    return new Promise((resolve) => {
      const onClose = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = unrefTimer(setTimeout(() => {
        closed.removeEventListener("abort", onClose);
        resolve(true);
      }, ms));
      closed.addEventListener("abort", onClose, { once: true });
    });
  }

  /** Stops in-process deliveries: pending retries are dropped, attempts in flight aborted. */
  close(): void {
    this.#closed.abort(new Error("the server's deliveries were closed"));
    for (const wake of this.#waiting.splice(0)) wake();
  }
}
