/**
 * A flow-control key's line of waiting jobs (first come first served, issue 100, item 4): a set in the store's `flow`
 * namespace whose members sort by arrival, each waiter live while its mark lasts and its job's entry has not ended.
 * `flow-gate.ts` lets the first ones in line try for a slot, and wakes them as a slot is released.
 *
 * @module
 */
import type { StoreSpace } from "../store/store-space.ts";

/** A key's line of waiting jobs, in the store. */
export class Line {
  readonly key: string;
  readonly #ended: ((id: string) => Promise<boolean>) | undefined;
  readonly #claims: StoreSpace<number>;
  readonly #base: string;

  /**
   * Opens the line of a key.
   *
   * @param claims The store's `flow` namespace.
   * @param base The key's slots' base name.
   * @param ended Whether a job's entry has ended (or is gone): such a waiter leaves the line.
   */
  constructor(claims: StoreSpace<number>, base: string, ended?: (id: string) => Promise<boolean>) {
    this.#ended = ended;
    this.#claims = claims;
    this.#base = base;
    this.key = `${base}:line`;
  }

  /** Where a waiter's mark is kept. */
  mark(waiter: string): string {
    return `${this.#base}:waits:${idOf(waiter)}`;
  }

  /** Takes a waiter out of the line, its mark with it. */
  async leave(waiter: string): Promise<void> {
    await Promise.all([this.#claims.removeMember(this.key, waiter), this.#claims.delete(this.mark(waiter))]);
  }

  /** Whether a waiter still waits: its mark lasts, and its job's entry has not ended; one that does not leaves. */
  async #live(waiter: string): Promise<boolean> {
    const [marked, ended] = await Promise.all([
      this.#claims.get(this.mark(waiter)),
      this.#ended?.(idOf(waiter)) ?? false,
    ]);
    if (marked !== undefined && !ended) return true;
    await this.leave(waiter);
    return false;
  }

  /** How many live waiters are ahead of `me`, counted up to `limit`. */
  async liveAhead(waiting: readonly string[], me: string, limit: number): Promise<number> {
    let ahead = 0;
    for (const waiter of [...waiting].sort()) {
      if (waiter === me || ahead >= limit) break;
      if (await this.#live(waiter)) ahead++;
    }
    return ahead;
  }

  /** Wakes the first `limit` live waiters (their queue delivers them now). */
  async wakeFirst(limit: number, wake: ((id: string) => Promise<void>) | undefined): Promise<void> {
    if (wake === undefined) return;
    let woken = 0;
    for (const waiter of [...await this.#claims.members(this.key)].sort()) {
      if (woken >= limit) break;
      if (!await this.#live(waiter)) continue;
      woken++;
      await wake(idOf(waiter)).catch(() => {}); // out of reach: its safety poll wakes it
    }
  }
}

/** The job id of a waiter. */
const idOf = (waiter: string) => waiter.slice(waiter.indexOf("|") + 1);
