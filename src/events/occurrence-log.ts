/**
 * The occurrence log of a server's events (SEP-3415 "Events Extension": poll, and replay from a cursor or `maxAgeMs`):
 * each occurrence of an event kept in the server's shared store at a position of its own, `evocc:<name>:<life>:<n>`,
 * taken once (`putIfAbsent`), so instances sharing a store number one log alike.
 * Kept `events.retainMs` and at most `events.maxOccurrences` per event. A cursor is a position sealed with an HMAC.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../store/store-space.ts";
import { recordOf } from "../store/store-of.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
import type { Occurrence } from "./delivery/mod.ts";
import type { Place } from "./delivery/watermark.ts";

/** How long a log's life (its numbering) lasts without an occurrence: a year. */
const LIFE_MS = 366 * 24 * 3_600_000;
/** The slots one read looks at, at most: a poll past them answers `hasMore`. */
const SCAN = 1_000;
/** The slots read at once. */
const BATCH = 50;

/** A position in a log: its life (new when the store forgot the log) and the occurrence's number in it. */
type Position = { readonly life: string; readonly n: number };

/** What a read of the log answers: the occurrences kept, each with its position's cursor, and where it stopped. */
export interface LogRead {
  /** The occurrences, oldest first, each with the cursor just past it. */
  readonly events: readonly (Occurrence & { readonly cursor: string })[];
  /** The cursor just past the last slot read. */
  readonly cursor: string;
  /** Whether occurrences the cursor or `maxAgeMs` asked for are gone (past retention or the count). */
  readonly truncated: boolean;
  /** Whether more were kept than this read looked at. */
  readonly hasMore: boolean;
  /** The position read up to, `<life>.<n>`, as {@link OccurrenceLog.head} gives a head. */
  readonly at: string;
}

/** How to read: from a cursor (`null`: from now), how far back, how many, which ones. */
export interface ReadOptions {
  readonly cursor: string | null;
  readonly maxAgeMs?: number;
  readonly limit: number;
  readonly match: (occurrence: Occurrence) => boolean | Promise<boolean>;
}

/** The log of one server's events in its store. */
export class OccurrenceLog {
  /** Each event's life (`evlog:<name>`), taken once. */
  readonly #lives: StoreSpace<unknown>;
  /** Each event's head (`evhead:<name>`), where the last writer left it. */
  readonly #heads: StoreSpace<unknown>;
  /** The occurrences, each at its position (`evocc:<name>:<life>:<n>`), taken once. */
  readonly #slots: StoreSpace<unknown>;
  readonly #key: Promise<CryptoKey>;
  readonly #retainMs: number;
  readonly #max: number;
  readonly #now: () => number;

  /**
   * @param store The server's shared store.
   * @param key The HMAC key cursors are sealed with (the server's first secret).
   * @param limits How long an occurrence is kept, how many per event, and the clock.
   */
  constructor(store: SharedStore, key: Promise<CryptoKey>, limits: { retainMs: number; max: number; now(): number }) {
    this.#lives = storeSpace(store, "evlog");
    this.#heads = storeSpace(store, "evhead");
    this.#slots = storeSpace(store, "evocc");
    this.#key = key;
    this.#retainMs = limits.retainMs;
    this.#max = limits.max;
    this.#now = limits.now;
  }

  /** The log's life: the first writer's, or a new one when the store holds none. */
  async #life(name: string): Promise<string> {
    for (let tries = 0; tries < 3; tries++) {
      const kept = lifeOf(await this.#lives.get(name));
      if (kept !== undefined) return kept;
      const life = base64urlEncode(crypto.getRandomValues(new Uint8Array(9)));
      if (await this.#lives.putIfAbsent(name, { life }, LIFE_MS)) return life;
    }
    throw new Error(`the occurrence log of "${name}" has no life the store keeps`);
  }

  /** The highest position written, as the last writer left it (every slot up to it was claimed). */
  async #head(name: string, life: string): Promise<number> {
    const state = recordOf(await this.#heads.get(name));
    return isObject(state) && state.life === life && Number.isSafeInteger(state.n) ? state.n as number : 0;
  }

  #slot = (name: string, at: Position) => `${name}:${at.life}:${at.n}`;

  async #seal(name: string, at: Position): Promise<string> {
    const signed = new TextEncoder().encode(`${name}\n${at.life}\n${at.n}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.#key, signed)).slice(0, 16);
    return `${at.life}.${at.n}.${base64urlEncode(mac)}`;
  }

  async #open(name: string, cursor: string): Promise<Position> {
    const [life, n, mac] = cursor.split(".");
    const at = { life, n: Number(n) };
    if (mac !== undefined && Number.isSafeInteger(at.n) && at.n >= 0 && (await this.#seal(name, at)) === cursor) {
      return at;
    }
    throw new ProtocolError("invalid_params", `Invalid params: the cursor is not one this server gave for "${name}"`);
  }

  /**
   * Where the log's head stands: its life and last position, as the last writer left them (two reads of the store).
   * A change means occurrences were appended, by any instance sharing the store.
   *
   * @param name The event's name (its own).
   * @returns The head, `<life>.<n>` as {@link LogRead.at} gives a position (`""` when the store keeps no log of it).
   */
  async head(name: string): Promise<string> {
    const life = lifeOf(await this.#lives.get(name));
    return life !== undefined ? `${life}.${await this.#head(name, life)}` : "";
  }

  /**
   * The place of the occurrence just before a cursor this server gave (one a read or an append answered with it): its
   * order key and the cursors around it, for a webhook delivery's watermark (./delivery/watermark.ts).
   *
   * @param name The event's name (its own).
   * @param after The cursor just past the occurrence.
   * @returns Its place.
   * @throws {ProtocolError} `invalid_params` for a cursor this server did not give for this event.
   */
  async placeOf(name: string, after: string): Promise<Place> {
    const { life, n } = await this.#open(name, after);
    const before = await this.#seal(name, { life, n: Math.max(0, n - 1) });
    return { key: `${life}.${n.toString(36).padStart(11, "0")}`, before, after };
  }

  /**
   * Appends an occurrence: claims the next position (first writer wins), then moves the head and drops the slot
   * past the count.
   *
   * @param name The event's name (its own).
   * @param occurrence The occurrence.
   * @returns The cursor just past it.
   */
  async append(name: string, occurrence: Occurrence): Promise<string> {
    const life = await this.#life(name);
    const from = await this.#head(name, life);
    for (let n = from + 1; n <= from + SCAN; n++) {
      if (!(await this.#slots.putIfAbsent(this.#slot(name, { life, n }), occurrence, this.#retainMs))) continue;
      await this.#heads.put(name, { life, n }, LIFE_MS);
      if (n > this.#max) await this.#slots.delete(this.#slot(name, { life, n: n - this.#max }));
      return await this.#seal(name, { life, n });
    }
    throw new Error(`the occurrence log of "${name}": no free position within ${SCAN} of its head`);
  }

  /**
   * Reads an event's occurrences after a cursor (`null`: from now, or `maxAgeMs` back), those `match` takes.
   *
   * @param name The event's name (its own).
   * @param options The cursor, how far back, how many, which.
   * @returns The occurrences and the cursor past them.
   * @throws {ProtocolError} `invalid_params` for a cursor this server did not give for this event.
   */
  async read(name: string, options: ReadOptions): Promise<LogRead> {
    const given = options.cursor === null ? undefined : await this.#open(name, options.cursor);
    const life = await this.#life(name);
    const head = await this.#head(name, life);
    const oldest = Math.max(1, head - this.#max + 1);
    const floor = options.maxAgeMs === undefined ? -Infinity : this.#now() - options.maxAgeMs;
    // A cursor of another life: the store forgot the log it points in (everything before is gone).
    let truncated = given !== undefined && (given.life !== life || given.n + 1 < oldest);
    let n = given === undefined
      ? (options.maxAgeMs === undefined ? head + 1 : oldest)
      : given.life === life
      ? Math.max(given.n + 1, oldest)
      : oldest;
    const events: (Occurrence & { cursor: string })[] = [];
    let read = n - 1;
    let seen = false;
    scan: for (const last = n + SCAN; n < last && events.length < options.limit;) {
      // Up to the head, every slot was written: one missing is gone. Past it, one may be landing: stop there.
      const size = n <= head ? Math.min(BATCH, head - n + 1) : 1;
      const slots = await Promise.all(
        Array.from({ length: size }, (_, i) => this.#slots.get(this.#slot(name, { life, n: n + i }))),
      );
      for (const entry of slots) {
        const occurrence = recordOf(entry) as Occurrence | undefined;
        if (occurrence === undefined) {
          if (n > head) break scan;
          // Gone before the first kept: truncated when a cursor asked for it, or when it may be within maxAgeMs.
          if (!seen && (given !== undefined || options.maxAgeMs !== undefined)) truncated = true;
        } else if (Date.parse(occurrence.timestamp) < floor) {
          if (given !== undefined) truncated = true; // older than maxAgeMs: left out
        } else if (events.length < options.limit && (await options.match(occurrence))) {
          seen = true;
          events.push({ ...occurrence, cursor: await this.#seal(name, { life, n }) });
        } else seen = true;
        if (events.length >= options.limit) {
          read = n;
          break scan;
        }
        read = n++;
      }
    }
    return {
      events,
      at: `${life}.${read}`,
      cursor: await this.#seal(name, { life, n: read }),
      truncated,
      hasMore: read < head || (await this.#slots.get(this.#slot(name, { life, n: read + 1 }))) !== undefined,
    };
  }
}

/** The life a log's record names (`{ life }`; of before the store contract, as a completed entry), if any. */
function lifeOf(value: unknown): string | undefined {
  const record = recordOf(value);
  return isObject(record) && typeof record.life === "string" ? record.life : undefined;
}
