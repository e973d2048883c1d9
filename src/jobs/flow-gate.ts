/**
 * Per-key concurrency and rate limits of queued jobs (`.longRunning({ concurrency, rateLimit })`), held in the shared
 * store's `flow` namespace, each claim taken once (`putIfAbsent`): a rate is `limit` places,
 * each given back a period after a job took it; a slot is a chain of such claims, one per third of a lease, renewed ahead by its holder,
 * so a killed worker's slot lapses within a lease. BullMQ's own limiter is per queue, and its groups are BullMQ Pro's.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/host.ts";
import type { LongRunningOptions } from "../core/definitions/tool.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../store/store-space.ts";
import type { WorkQueue } from "./work-queue.ts";
import { MAX_TIMER_MS } from "../internal/timer-ms.ts";
import { Line } from "./flow-line.ts";

/** The last priority BullMQ takes (2^21). */
const MAX_PRIORITY = 2 ** 21;

/** How long a job over its key's rate waits before it is delivered again, in ms, at least (jittered up to twice). */
const WAIT_MS = 100;

/**
 * How long a job waiting its turn for a key's slot sleeps unless a release wakes it, in ms: a safety poll for a wake
 * that was lost (a worker that died between its release and the wake), not the way turns pass.
 */
const TURN_SAFETY_MS = 5_000;

/** What a job that may start holds: its slot, released when its run ends (or sleeps). */
export interface FlowPass {
  /** Called as the work begins: a rate's place is given back a period after it (not after the pass was given). */
  begin?(): void;
  release(): Promise<void>;
}

/** The store, clock and lease length a gate works with. */
export interface FlowStore {
  readonly store: SharedStore;
  readonly now: () => number;
  readonly leaseMs: number;
  /** Whether a job's entry has ended (or is gone): a job waiting its turn that ended leaves its key's line. */
  readonly ended?: (id: string) => Promise<boolean>;
}

/**
 * Reads how a job is ordered and deduplicated in its queue (`WorkQueue.add`'s `flow`), as a queue with `flowControl`
 * does: its priority, and its dedupe id (the tool's name and its key) with how long it holds.
 *
 * @param tool The job's tool.
 * @param flow Its flow control, and the call's arguments and caller.
 * @returns Its priority and dedupe, where the tool has them.
 * @throws {RangeError} For a priority out of BullMQ's range (1 to 2^21), or a key or priority function that threw.
 */
export function readFlow(
  tool: string,
  flow: Parameters<WorkQueue["add"]>[3],
): { priority?: number; dedupe?: { id: string; ttlMs?: number } } {
  const { priority, dedupe } = flow?.options ?? {};
  let order: number | undefined, key: string | undefined;
  try {
    order = typeof priority === "function" ? priority(flow!.input) : priority;
    key = dedupe?.key(flow!.input, flow!.auth);
  } catch (error) {
    throw new RangeError(`tool "${tool}": its priority or dedupe key failed on these arguments`, { cause: error });
  }
  if (order !== undefined && !within(order, 1, MAX_PRIORITY)) {
    throw new RangeError(`tool "${tool}": priority ${order} is not an integer from 1 (first) to ${MAX_PRIORITY}`);
  }
  return {
    ...(order === undefined ? {} : { priority: order }),
    ...(key === undefined
      ? {}
      : { dedupe: { id: `${tool}:${key}`, ...(dedupe!.ttlMs ? { ttlMs: dedupe!.ttlMs } : {}) } }),
  };
}

/**
 * Lets a job start within its tool's concurrency and rate limit, or says how long it waits.
 *
 * @param store The shared store, clock and lease.
 * @param tool The tool's name.
 * @param options Its long-running options.
 * @param input The call's arguments.
 * @param auth The caller.
 * @param job The job's id, and how long it lives: a job counts once against its rate, however often it is delivered
 *   again (woken from a sleep, retried, restarted).
 * @returns Its pass (nothing to hold when the tool has no limits), or how long to wait before it is tried again.
 */
export async function enterFlow(
  store: FlowStore,
  tool: string,
  options: LongRunningOptions,
  input: unknown,
  auth: AuthInfo | undefined,
  job: FlowJob,
): Promise<FlowPass | { readonly delayMs: number }> {
  const { concurrency, rateLimit } = options;
  const keyOf = (key: ((input: never, auth: AuthInfo | undefined) => string) | undefined) =>
    encodeURIComponent(key === undefined ? "" : key(input as never, auth));
  const claims = storeSpace<number>(store.store, "flow"); // each claim: when it was taken
  let slot: FlowPass | undefined;
  if (concurrency !== undefined) {
    const turn = await takeInTurn(store, claims, `${tool}:c:${keyOf(concurrency.key)}`, concurrency.limit, job);
    if ("delayMs" in turn) return turn;
    slot = turn;
  }
  const counted = `counted:${job.id}`;
  if (rateLimit !== undefined && await claims.get(counted) === undefined) {
    const place = await takePlace(store, claims, `${tool}:r:${keyOf(rateLimit.key)}`, rateLimit);
    if (place === undefined) {
      await slot?.release();
      // A place frees within a period: tried again a share of it later, so that starts spread over the period.
      return { delayMs: Math.max(WAIT_MS, rateLimit.periodMs / rateLimit.limit) * (1 + Math.random()) };
    }
    claims.putIfAbsent(counted, store.now(), job.ttlMs).catch(() => {}); // counted once
    return {
      begin: place.giveBack,
      release: () => (place.giveBack(), slot?.release() ?? Promise.resolve()), // a work that never began: a period from now
    };
  }
  return slot ?? { release: () => Promise.resolve() };
}

/** The job a gate lets in: its id, how long it lives, when it arrived, and how a turn that passes wakes another. */
export interface FlowJob {
  readonly id: string;
  readonly ttlMs: number;
  /** When its call queued it, in ms since the epoch (fractional: calls within a millisecond keep their order). */
  readonly arrived: number;
  /** Delivers a job waiting asleep now (`WorkQueue.wake`): a slot released wakes the key's next in line. */
  readonly wake?: (id: string) => Promise<void>;
}

/** A waiter of a key's line: its arrival, sortable as text, then its job's id. */
const waiterOf = (job: FlowJob) => `${job.arrived.toFixed(3).padStart(20, "0")}|${job.id}`;

/**
 * Takes one of a key's `limit` slots in turn, first come first served (issue 100, item 4): a job that finds fewer than
 * `limit` live waiters ahead of it in the key's line (a set of the store, its members sortable by arrival) tries for a
 * slot; any other, or one that found none free, stays in the line and sleeps until a release wakes the first ones in it
 * (a long safety poll otherwise). A waiter is live while its job's entry has not ended (a job cancelled or finished as
 * it waited leaves the line as the next job meets it) and its mark, renewed at each of its tries, lasts (a job its
 * queue lost leaves it within three safety polls).
 */
async function takeInTurn(
  store: FlowStore,
  claims: StoreSpace<number>,
  base: string,
  limit: number,
  job: FlowJob,
): Promise<FlowPass | { readonly delayMs: number }> {
  const line = new Line(claims, base, store.ended);
  const me = waiterOf(job);
  await claims.put(line.mark(me), store.now(), 3 * TURN_SAFETY_MS);
  const waiting = await claims.members(line.key);
  if (!waiting.includes(me)) await claims.addMember(line.key, me, job.ttlMs);
  if (await line.liveAhead(waiting, me, limit) < limit) {
    const slot = await takeSlot(store, claims, base, limit);
    if (slot !== undefined) {
      await line.leave(me);
      return {
        release: async () => {
          await slot.release();
          // The next in line, woken now rather than at their safety poll (out of reach: that poll wakes them).
          await line.wakeFirst(limit, job.wake).catch(() => {});
        },
      };
    }
  }
  // Woken by a release where the queue can wake a job; else tried again shortly, as before there was a line.
  return { delayMs: job.wake === undefined ? WAIT_MS * (1 + Math.random()) : TURN_SAFETY_MS };
}

/**
 * Takes one of a rate's `limit` places `base:0`, `base:1`, … (one round trip per place tried), claimed for two periods,
 * or none. Its `giveBack()` (the first call counts) gives it back a period after it is called, as the work begins (a
 * store write, or a loaded machine, may stand between the pass and it), and a twentieth more (50 ms at most: the way
 * to the work's first line, a timer firing early), as this worker's clock tells, not the store's, so that the service
 * the work calls counts what the limit says; a worker that dies leaves the claim to lapse twice as late. Never after
 * the claim lapses, and only while it is still this job's: a late give-back must not take another job's claim.
 */
async function takePlace(
  store: FlowStore,
  claims: StoreSpace<number>,
  base: string,
  { limit, periodMs }: { readonly limit: number; readonly periodMs: number },
): Promise<{ giveBack(): void } | undefined> {
  const from = performance.now();
  const at = store.now();
  let place: string | undefined;
  for (let i = 0; i < limit && place === undefined; i++) {
    if (await claims.putIfAbsent(`${base}:${i}`, at, 2 * periodMs)) place = `${base}:${i}`;
  }
  if (place === undefined) return undefined;
  let armed = false;
  return {
    giveBack() {
      if (armed) return;
      armed = true;
      const lapses = from + 2 * periodMs - periodMs / 20 - performance.now();
      const timer = setTimeout(async () => {
        const held = await claims.get(place).catch(() => undefined);
        if (held === at) await claims.delete(place).catch(() => {});
      }, Math.max(0, Math.min(periodMs + Math.min(50, periodMs / 20), lapses)));
      (timer as { unref?: () => void }).unref?.();
    },
  };
}

/**
 * Takes one of a key's `limit` slots, or none. A slot is held by claims of its epochs (a third of a lease each): its
 * holder claims the epoch it is in and the two after, and renews two ahead; a newcomer claims the epoch it is in, which
 * a live holder claimed an epoch or two before (slack for a slow store). A holder that dies claims no more, and the slot
 * is free within a lease. A take that did not get all three (a slow store let the epochs move on) gives them back.
 */
async function takeSlot(
  store: FlowStore,
  claims: StoreSpace<number>,
  base: string,
  limit: number,
): Promise<FlowPass | undefined> {
  const epochMs = Math.max(1, Math.floor(store.leaseMs / 3));
  const key = (slot: number, epoch: number) => `${base}:${slot}:${epoch}`;
  const claim = (slot: number, epoch: number) => claims.putIfAbsent(key(slot, epoch), store.now(), 4 * epochMs);
  const current = () => Math.floor(store.now() / epochMs);
  for (let slot = 0; slot < limit; slot++) {
    const epoch = current();
    if (!await claim(slot, epoch)) continue;
    const held = [epoch];
    const free = () => Promise.all(held.map((each) => claims.delete(key(slot, each)).catch(() => {})));
    for (const ahead of [epoch + 1, epoch + 2]) if (await claim(slot, ahead)) held.push(ahead);
    if (held.length < 3 || current() > epoch + 1) {
      await free();
      continue;
    }
    const renewing = new Set<number>();
    // Renewed ahead: every third of an epoch, the two epochs after the current one claimed, if not yet.
    const renew = setInterval(() => {
      for (const next of [current() + 1, current() + 2]) {
        if (held.includes(next) || renewing.has(next)) continue;
        renewing.add(next);
        // Only what it claimed is deleted at its end. Out of reach, or lost: the slot lapses, as a dead worker's would.
        claim(slot, next).then((won) => won && held.push(next), () => {}).finally(() => renewing.delete(next));
      }
    }, Math.max(1, Math.floor(epochMs / 3)));
    (renew as { unref?: () => void }).unref?.();
    return {
      release: async () => {
        clearInterval(renew);
        await free();
      },
    };
  }
  return undefined;
}

/** Whether `n` is an integer from `min` to `max`. */
const within = (n: unknown, min: number, max: number) =>
  Number.isInteger(n) && (n as number) >= min && (n as number) <= max;

/**
 * Checks a tool's flow control as a worker starts (the web instance reads only `dedupe` and `priority`, and the
 * queue refuses what it cannot take): its limits within their ranges, its keys functions.
 *
 * @param name The tool's name, for the messages.
 * @param options Its long-running options.
 * @param queue The worker's queue.
 * @throws {RangeError} For a limit, period, ttl or priority out of its range; a `TypeError` for a key that is no
 *   function, or `dedupe` or `priority` on a queue without `flowControl`.
 */
export function checkFlow(
  name: string,
  { concurrency, rateLimit, dedupe, priority }: LongRunningOptions,
  queue: WorkQueue,
): void {
  const tool = `tool "${name}"`;
  if ((dedupe ?? priority) !== undefined && queue.flowControl !== true) {
    throw new TypeError(`${tool}: dedupe and priority need a queue that orders and deduplicates (flowControl)`);
  }
  const keyed = (what: string, key: unknown, required = false) => {
    if (key === undefined ? required : typeof key !== "function") {
      throw new TypeError(`${tool}: ${what}.key must be a function of the arguments and caller that returns a string`);
    }
  };
  if (concurrency !== undefined) {
    if (!within(concurrency.limit, 1, 1_000)) throw new RangeError(`${tool}: concurrency.limit must be from 1 to 1000`);
    keyed("concurrency", concurrency.key);
  }
  if (rateLimit !== undefined) {
    if (!within(rateLimit.limit, 1, 1_000) || !within(rateLimit.periodMs, 1, 86_400_000)) {
      throw new RangeError(`${tool}: rateLimit needs a limit from 1 to 1000 and a periodMs from 1 to 86400000`);
    }
    keyed("rateLimit", rateLimit.key);
  }
  if (dedupe !== undefined) {
    keyed("dedupe", dedupe.key, true);
    if (dedupe.ttlMs !== undefined && !within(dedupe.ttlMs, 1, MAX_TIMER_MS)) {
      throw new RangeError(`${tool}: dedupe.ttlMs must be from 1 to ${MAX_TIMER_MS}`);
    }
  }
  if (priority !== undefined && typeof priority !== "function" && !within(priority, 1, MAX_PRIORITY)) {
    throw new RangeError(`${tool}: priority must be from 1 (first) to ${MAX_PRIORITY}, or a function of the arguments`);
  }
}
