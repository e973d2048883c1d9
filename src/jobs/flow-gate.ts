/**
 * Per-key concurrency and rate limits of queued jobs (`.longRunning({ concurrency, rateLimit })`), held in the shared
 * result store with its one atomic write (an ended entry is written only where none is): a rate is `limit` tokens
 * that each live `periodMs`; a slot is a chain of such claims, one per half lease, renewed ahead by its holder, so a
 * killed worker's slot lapses within a lease. BullMQ's own limiter is per queue, and its groups are BullMQ Pro's.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/host.ts";
import type { LongRunningOptions } from "../core/definitions/tool.ts";
import type { ResultStore } from "./stored-result.ts";

/** How long a job over its key's limit waits before it is delivered again, in ms, at least (jittered up to twice). */
const WAIT_MS = 100;

/** What a job that may start holds: its slot, released when its run ends (or sleeps). */
export interface FlowPass {
  release(): Promise<void>;
}

/** The store, clock and lease length a gate works with. */
export interface FlowStore {
  readonly results: ResultStore;
  readonly now: () => number;
  readonly leaseMs: number;
}

/**
 * Lets a job start within its tool's concurrency and rate limit, or says how long it waits.
 *
 * @param store The shared store, clock and lease.
 * @param tool The tool's name.
 * @param options Its long-running options.
 * @param input The call's arguments.
 * @param auth The caller.
 * @returns Its pass (nothing to hold when the tool has no limits), or how long to wait before it is tried again.
 */
export async function enterFlow(
  store: FlowStore,
  tool: string,
  options: LongRunningOptions,
  input: unknown,
  auth: AuthInfo | undefined,
): Promise<FlowPass | { readonly delayMs: number }> {
  const { concurrency, rateLimit } = options;
  const keyOf = (key: ((input: never, auth: AuthInfo | undefined) => string) | undefined) =>
    encodeURIComponent(key === undefined ? "" : key(input as never, auth));
  let slot: FlowPass | undefined;
  if (concurrency !== undefined) {
    slot = await takeSlot(store, `flow:${tool}:c:${keyOf(concurrency.key)}`, concurrency.limit);
    if (slot === undefined) return { delayMs: WAIT_MS * (1 + Math.random()) };
  }
  if (rateLimit !== undefined) {
    const base = `flow:${tool}:r:${keyOf(rateLimit.key)}`;
    if (!await claimOne(store.results, base, rateLimit.limit, rateLimit.periodMs, store.now())) {
      await slot?.release();
      // A token frees within a period: tried again a share of it later, so that starts spread over the period.
      return { delayMs: Math.max(WAIT_MS, rateLimit.periodMs / rateLimit.limit) * (1 + Math.random()) };
    }
  }
  return slot ?? { release: () => Promise.resolve() };
}

/** Claims one of `count` tokens `base:0`, `base:1`, … for `ttlMs` (one round trip per token tried). */
async function claimOne(results: ResultStore, base: string, count: number, ttlMs: number, at: number) {
  for (let i = 0; i < count; i++) {
    if (await results.set(`${base}:${i}`, { status: "cancelled", at }, ttlMs)) return true;
  }
  return false;
}

/**
 * Takes one of a key's `limit` slots, or none. A slot is held by claims of its epochs (a half lease each): its holder
 * claims the epoch it is in and the next, and each next before it begins; a newcomer claims the epoch it is in, which
 * no holder of the slot left unclaimed. A holder that dies claims no more, and the slot is free an epoch later.
 */
async function takeSlot(store: FlowStore, base: string, limit: number): Promise<FlowPass | undefined> {
  const epochMs = Math.max(1, Math.floor(store.leaseMs / 2));
  const key = (slot: number, epoch: number) => `${base}:${slot}:${epoch}`;
  const claim = (slot: number, epoch: number) =>
    store.results.set(key(slot, epoch), { status: "cancelled", at: store.now() }, 3 * epochMs);
  for (let slot = 0; slot < limit; slot++) {
    const epoch = Math.floor(store.now() / epochMs);
    if (!await claim(slot, epoch)) continue;
    const held = [epoch];
    const renewing = new Set<number>();
    if (await claim(slot, epoch + 1)) held.push(epoch + 1);
    // Renewed ahead: every third of an epoch, the epoch after the current one claimed, if not yet.
    const renew = setInterval(() => {
      const next = Math.floor(store.now() / epochMs) + 1;
      if (held.includes(next) || renewing.has(next)) return;
      renewing.add(next);
      // Only what it claimed is deleted at its end. Out of reach, or lost: the slot lapses, as a dead worker's would.
      claim(slot, next).then((won) => won && held.push(next), () => {}).finally(() => renewing.delete(next));
    }, Math.max(1, Math.floor(epochMs / 3)));
    (renew as { unref?: () => void }).unref?.();
    return {
      release: async () => {
        clearInterval(renew);
        await Promise.all(held.map((epoch) => store.results.delete(key(slot, epoch)).catch(() => {})));
      },
    };
  }
  return undefined;
}
