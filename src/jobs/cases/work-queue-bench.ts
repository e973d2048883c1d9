/**
 * The bench of each `workQueueCases()` case: its own queue's handles and takers (closed when it ends), what it saw,
 * waits each bounded at the kit's `waitMs`, and the checks of what was delivered. Internal to
 * `workQueueCases()`.
 *
 * @module
 */
import type { RunAgain, WorkQueue } from "../work-queue.ts";
import { canonicalJson } from "../../internal/canonical-json.ts";
import { settlesWithin, sleep } from "../../internal/sleep.ts";

/** A job of a case: its id, and its data (the id, a space, then what it carries). */
export interface Job {
  readonly id: string;
  readonly data: string;
}

/** The id a job's data starts with. */
export const idOf = (data: string) => data.slice(0, data.indexOf(" "));

/** What a case saw, in order, and a wait until it has seen enough, bounded at `waitMs`. Made by `Bench.seen()`. */
export class Seen<T> {
  readonly items: T[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #waitMs: number;

  constructor(waitMs: number) {
    this.#waitMs = waitMs;
  }

  /** Records `item` and wakes the waits. */
  add(item: T): void {
    this.items.push(item);
    for (const check of this.#waiters) check();
  }

  /**
   * Resolves once `ready` holds; rejects when `ready` throws (the queue did something it must not) or after
   * `waitMs`, saying `what` did not happen.
   */
  until(ready: (items: readonly T[]) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const end = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      const check = () => {
        try {
          if (!ready(this.items)) return;
          end();
          resolve();
        } catch (error) {
          end();
          reject(error);
        }
      };
      const timer = setTimeout(() => {
        end();
        reject(new Error(`${what}: not within ${this.#waitMs} ms`));
      }, this.#waitMs);
      this.#waiters.add(check);
      check();
    });
  }
}

/** How many times each id was delivered. */
function counts(deliveries: readonly string[]): Map<string, number> {
  const byId = new Map<string, number>();
  for (const data of deliveries) byId.set(idOf(data), (byId.get(idOf(data)) ?? 0) + 1);
  return byId;
}

/** Fails the case unless each of `jobs` was delivered exactly `times` times, and nothing else was. */
export function deliveredExactly(
  deliveries: readonly string[],
  jobs: readonly Job[],
  times: number,
  what: string,
): void {
  const byId = counts(deliveries);
  for (const job of jobs) {
    const n = byId.get(job.id) ?? 0;
    if (n !== times) throw new Error(`${what}: job ${job.id} was delivered ${n} times, not ${times}`);
  }
  const strangers = [...byId.keys()].filter((id) => !jobs.some((job) => job.id === id));
  if (strangers.length > 0) throw new Error(`${what}: delivered jobs never added: ${strangers.join(", ")}`);
}

/** A check for `Seen.until`: throws when a delivery's data is not that of any of `jobs` as added. */
export function intact(jobs: readonly Job[]): (deliveries: readonly string[]) => void {
  return (deliveries) => {
    for (const data of deliveries) {
      if (jobs.some((job) => job.data === data)) continue;
      const shown = data.length > 80 ? `${data.slice(0, 80)}… (${data.length} characters)` : data;
      throw new Error(`a job was delivered with data it was not added with: ${JSON.stringify(shown)}`);
    }
  };
}

/** Fails the case when `actual` is not `expected`, as JSON (keys in any order). */
export function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [actual, expected].map(canonicalJson);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Whether every one of `jobs` is among `deliveries`. */
export const allOf = (jobs: readonly Job[]) => (deliveries: readonly string[]) =>
  jobs.every((job) => deliveries.includes(job.data));

/** A case's own queue, its handles and takers, closed when the case ends. */
export class Bench {
  readonly #open: (name: string) => WorkQueue | Promise<WorkQueue>;
  readonly #name: string;
  #jobs = 0;
  readonly #handles = new Set<WorkQueue>();
  readonly #takers: { close(): Promise<void> }[] = [];
  readonly #holds = new Set<(ended: "done" | "again") => void>();
  /** Deliveries whose start was not `expected` (every case's runs are starts that ended), or said first wrongly. */
  readonly miscounted: string[] = [];
  /** The jobs delivered so far: a later delivery of one is never its first. */
  readonly #delivered = new Set<string>();
  /** Aborts when the case ends: runs that loop stop. */
  readonly ended = new AbortController();
  /** The bound of each of the case's waits, in ms (the kit's `waitMs`). */
  readonly waitMs: number;

  constructor(open: (name: string) => WorkQueue | Promise<WorkQueue>, name: string, waitMs: number) {
    this.#open = open;
    this.#name = name;
    this.waitMs = waitMs;
  }

  /** What the case will see, its waits bounded at `waitMs`. */
  seen<T>(): Seen<T> {
    return new Seen<T>(this.waitMs);
  }

  /** What `read` gives once it gives something, asked again every 50 ms; fails the case after `waitMs`. */
  async poll<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const found = await read();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${this.waitMs} ms`);
      await sleep(50);
    }
  }

  /** Fails the case unless `promise` settles within `waitMs`, saying `what` did not resolve. */
  async settles(promise: Promise<unknown>, what: string): Promise<void> {
    if (!await settlesWithin(promise, this.waitMs)) throw new Error(`${what} did not resolve in ${this.waitMs} ms`);
  }

  /** A new handle on the case's queue (what a web instance or a worker process opens). */
  async handle(): Promise<WorkQueue> {
    const queue = await this.#open(this.#name);
    this.#handles.add(queue);
    return queue;
  }

  /** A new job, its data carrying `payload`. */
  job(payload = "job"): Job {
    const id = `${this.#name}-${++this.#jobs}`;
    return { id, data: `${id} ${payload}` };
  }

  /**
   * Starts taking jobs on `queue`; the case closes the taker at its end, if it has not. No run of a case dies
   * or stalls, so every delivery must be a job's first start: one that is not is recorded in `miscounted`, as is
   * a later delivery said to be the job's first.
   */
  take(
    queue: WorkQueue,
    run: (
      data: string,
      again?: RunAgain,
    ) => Promise<"done" | "again" | { readonly delayMs: number } | { readonly failed: string }>,
    concurrency: number,
  ): { close(): Promise<void> } {
    const taker = queue.take((data, start, first, again) => {
      if (start !== 1) this.miscounted.push(`${idOf(data)} delivered as start ${start}`);
      // `first` may be left out, never wrong: a job said first after a run of it began would run journaled steps again.
      if (first === true && this.#delivered.has(data)) {
        this.miscounted.push(`${idOf(data)} delivered again as its first`);
      }
      this.#delivered.add(data);
      return run(data, again);
    }, { concurrency });
    let closing: Promise<void> | undefined;
    const once = { close: () => closing ??= taker.close() };
    this.#takers.push(once);
    return once;
  }

  /** A run's ending that the case chooses later: what the run awaits, and the choice. */
  hold(): { ended: Promise<"done" | "again">; end(ended: "done" | "again"): void } {
    let end!: (ended: "done" | "again") => void;
    const ended = new Promise<"done" | "again">((resolve) => end = resolve);
    this.#holds.add(end);
    return { ended, end };
  }

  /** Ends what the case left running: held runs, takers, then the handles that have a `close()`. */
  async close(): Promise<void> {
    this.ended.abort();
    for (const end of this.#holds) end("done");
    const closing = Promise.all(this.#takers.map((taker) => taker.close()));
    await this.settles(closing, "a taker's close()");
    await closing;
    for (const queue of this.#handles) await (queue as { close?(): Promise<void> }).close?.();
  }
}
