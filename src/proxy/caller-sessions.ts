/**
 * The remote sessions a proxy keeps, one per caller: a remote keeps state per MCP 2025 session (its logging, its
 * subscriptions, what a caller was asked to do first; MCP 2025-11-25, Transports: Session Management), so two
 * callers never go through one. Bounded (`max`, the least recently used let go first) and expiring (`idleMs` after
 * its last use), but never one a call in flight or a subscription holds: with every one held, the table grows
 * past `max` rather than break a caller. A session let go is closed (`DELETE` at the remote) and never used again.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import { MAX_TIMER_MS } from "../internal/timer-ms.ts";

/**
 * How a proxy keeps its callers' own sessions at an MCP 2025 remote over HTTP (`ProxyOptions.sessions`): how many
 * at most, and for how long unused. Never one a call in flight or a subscription holds: with every one held, more
 * than `max` are kept rather than break a caller's call.
 *
 * @example
 * ```ts
 * import type { ProxySessionsOptions } from "@mcplite/sdk/proxy";
 * import { proxy } from "@mcplite/sdk/proxy";
 * const sessions: ProxySessionsOptions = { max: 500, idleMs: 300_000 };
 * // Aborted at once here: the example shows the options only.
 * await proxy("https://mcp.example.com/mcp", { sessions, signal: AbortSignal.abort() }).catch(() => {});
 * ```
 */
export interface ProxySessionsOptions {
  /**
   * The most callers' sessions kept at once; past it, the least recently used one no call or subscription holds
   * is closed (default 100).
   */
  readonly max?: number;
  /**
   * How long a caller's session is kept after its last use, in ms (default 600 000: ten minutes; `Infinity`:
   * until `max` evicts it); one a resource subscription holds is kept until that ends.
   */
  readonly idleMs?: number;
}

/** The default bound of {@link ProxySessionsOptions.max}. */
const DEFAULT_MAX = 100;
/** The default of {@link ProxySessionsOptions.idleMs}. */
const DEFAULT_IDLE_MS = 600_000;

interface Entry {
  readonly client: Client;
  /** How many calls in flight and subscriptions hold it. */
  holds: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Let go (closed): what still holds it sends nothing more there. */
  dropped: boolean;
}

/** A session held: its client, whether it was let go meanwhile (only by `close()`), and the release. */
export interface Held {
  readonly client: Client;
  readonly dropped: () => boolean;
  readonly release: () => void;
}

/** A bounded, expiring table of clients, each its own remote session. */
export class CallerSessions {
  readonly #open: (key: string) => Client;
  readonly #max: number;
  readonly #idleMs: number;
  /** In order of use, the least recent first. */
  readonly #entries = new Map<string, Entry>();
  #closed = false;

  /**
   * Creates the table.
   *
   * @param open Makes the client of a key (its session opens on its first request).
   * @param options The bound and the idle time.
   * @throws {RangeError} When `max` or `idleMs` is not a positive number.
   */
  constructor(open: (key: string) => Client, options: ProxySessionsOptions = {}) {
    const { max = DEFAULT_MAX, idleMs = DEFAULT_IDLE_MS } = options;
    if (!(Number.isInteger(max) && max > 0)) throw new RangeError(`proxy(): sessions.max must be a positive integer`);
    if (!(idleMs > 0)) throw new RangeError(`proxy(): sessions.idleMs must be a positive number`);
    this.#open = open;
    this.#max = max;
    this.#idleMs = idleMs;
  }

  /**
   * The client of a key, made if needed; its idle time starts again.
   *
   * @param key The caller's key.
   * @returns Its client.
   */
  get(key: string): Client {
    return this.#use(key).client;
  }

  /**
   * Keeps a key's session, made if needed, until released: neither evicted nor expired meanwhile (a call in flight,
   * a subscription made in it). Its idle time starts again once released.
   *
   * @param key The caller's key.
   * @returns Its client, whether it was let go meanwhile, and the release.
   */
  hold(key: string): Held {
    const entry = this.#use(key);
    entry.holds++;
    this.#idle(key, entry); // no idle time while held
    let released = false;
    return {
      client: entry.client,
      dropped: () => entry.dropped,
      release: () => {
        if (released) return;
        released = true;
        entry.holds--;
        if (this.#entries.get(key) === entry) this.#idle(key, entry);
        // Let go while held (the table closed): what the holder sent meanwhile may have opened it again.
        else if (entry.holds === 0) void entry.client.close().catch(() => {});
      },
    };
  }

  /** The entry of a key, made if needed (the least recently used one not held let go past `max`). */
  #use(key: string): Entry {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      if (this.#entries.size >= this.#max) {
        for (const [other, { holds }] of this.#entries) {
          if (holds > 0) continue;
          this.#drop(other);
          break;
        }
      }
      entry = { client: this.#open(key), holds: 0, timer: undefined, dropped: this.#closed };
      if (this.#closed) return entry; // after close(): used once, closed when released
    } else {
      this.#entries.delete(key); // to the end: the most recently used
    }
    this.#entries.set(key, entry);
    this.#idle(key, entry);
    return entry;
  }

  /** Closes every session; one held is closed again once released (see {@link hold}). */
  async close(): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      entry.dropped = true;
      clearTimeout(entry.timer);
      await entry.client.close().catch(() => {});
    }
  }

  /** Starts a key's idle time again (none while a subscription holds it). */
  #idle(key: string, entry: Entry): void {
    clearTimeout(entry.timer);
    // Past `setTimeout`'s longest delay (about 24.8 days; `Infinity`) a session is kept until evicted.
    const forever = entry.holds > 0 || this.#idleMs > MAX_TIMER_MS;
    entry.timer = forever
      ? undefined
      : unrefTimer(setTimeout(() => entry.holds === 0 && this.#drop(key), this.#idleMs));
  }

  /** Lets a key's session go, and ends it at the remote. */
  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    entry.dropped = true;
    clearTimeout(entry.timer);
    void entry.client.close().catch(() => {});
  }
}
