/**
 * A `WorkQueue` kept in a server's shared store: a queue without a queue server, for instances that share a store and
 * nothing else (issue 100, item 2). A job is a record (waiting, active under a taker's claim until its lease ends, or
 * asleep until a time) and a place in the queue's set; claims are compare-and-set writes, so one taker wins a job on
 * any number of instances. Every taker sweeps as it polls: a job whose claim lapsed is delivered again as its next
 * start, whoever reads its result, or nobody.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { storeSpace } from "../store/store-space.ts";
import type { QueueItem, WorkQueue } from "./work-queue.ts";
import { MAX_TIMER_MS } from "../internal/timer-ms.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";

/** Options of {@link storeQueue}. */
export interface StoreQueueOptions {
  /** The queue's name: handles of one name on one store share its jobs (default `"jobs"`). */
  readonly name?: string;
  /**
   * How long a taker's claim on a job lasts unless renewed, in ms (default 5,000): a job whose process died is
   * delivered again within about two of these (the claim lapsed, then found so a whole lease more, so that a store
   * out of reach for a while is no death), plus a poll. The taker renews it every third of that while the job runs.
   */
  readonly leaseMs?: number;
  /** How often a taker with room looks for a job, in ms (default 250). */
  readonly pollMs?: number;
  /** How long a job is kept from its last change (default 30 days): past it, a job nobody ran is gone. */
  readonly keepMs?: number;
}

/** A job's record: its data, where it is, and how its deliveries went. */
interface Held {
  readonly data: string;
  /** Gone: done, removed or given up (kept a minute, so a late claim fails); failed: its run said so (kept for operators). */
  readonly state: "waiting" | "active" | "asleep" | "gone" | "failed";
  /** The deliveries of it whose run never settled (their claim lapsed): its next start is one more. */
  readonly lapsed: number;
  /** A run of it began: no later delivery is its first. */
  readonly begun?: true;
  /** When its claim lapses (active), or when it wakes (asleep), in ms since the epoch. */
  readonly until?: number;
  /** The claim that holds it (active). */
  readonly claim?: string;
  /** Woken while it ran (`wake`): handed back asleep, it is delivered again at once. */
  readonly woken?: true;
  /** Its runs that rejected in a row: the next waits longer. */
  readonly rejected?: number;
  /** Its tool and the id of the call that queued it, as `add` was told (for operators: `inspect`). */
  readonly tool?: string;
  readonly callId?: string | number;
  /** When it was added, ms since the epoch. */
  readonly addedAt?: number;
  /** When it failed, and why (its run's `{ failed }`). */
  readonly finishedAt?: number;
  readonly failedReason?: string;
}

/** How many runs of a job may reject in a row before the queue gives it up (as BullMQ does after 20). */
const MAX_REJECTED = 20;
/** A rejected run's job is delivered again after this, doubling with each rejection in a row, up to 30 s. */
const BACKOFF_MS = 500;
/** How long the record of a job that left the queue stays, so that a late claim on it fails. */
const GONE_MS = 60_000;
/** How often a changed record is read again before a write on it gives up. */
const TRIES = 8;

/** How many jobs added in this process wait to be claimed from what their add wrote; past it, takers look them up. */
const FRESH_KEPT = 1_024;

/** Where a store carries this process's takers of each of its queues, by name: woken at once by what happens here. */
const TAKERS: unique symbol = Symbol("mcplite.storeQueueTakers");

/**
 * This process's takers of one queue (each woken with whether it should look through the queue, or only at the fresh
 * jobs), and the jobs added here not claimed yet, in the order added, with the record their add wrote: a taker claims
 * one by a single compare-and-set from that record, where a look through the queue reads its set and its records.
 */
interface Local {
  readonly takers: Set<(look: boolean) => void>;
  readonly fresh: Map<string, Held>;
}

/** The takers of `name` on `store` in this process, carried by the store object (every handle opened on it). */
function localOf(store: SharedStore, name: string): Local {
  const carrier = store as SharedStore & { [TAKERS]?: Map<string, Local> };
  const byName = carrier[TAKERS] ??= new Map();
  return byName.get(name) ?? byName.set(name, { takers: new Set(), fresh: new Map() }).get(name)!;
}

/** A record less its fields that are `undefined` (what the store keeps of it, as JSON). */
function held(record: { [K in keyof Held]: Held[K] | undefined }): Held {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as Held;
}

/**
 * A positive whole number of ms up to `most` (a timer's longest delay, for what becomes one), or the default; a
 * `RangeError` naming the option otherwise.
 */
function positive(value: number | undefined, fallback: number, what: string, most = MAX_TIMER_MS): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > most) {
    throw new RangeError(`storeQueue(): ${what} must be a whole number of ms from 1 to ${most}, not ${value}`);
  }
  return value;
}

/**
 * A job queue kept in a shared store: what a server's instances use when they share a store and no queue server, and
 * any number of takers on any instance share (`runWorker()` on each). It keeps the `WorkQueue` contract
 * (`workQueueCases()` checks it), with `inspect` for operators (`mcplite jobs list` and `show`: the jobs in the queue,
 * by the tool and call `add` was told of) and without its other optional parts (progress, logs, an operator's retry),
 * nor flow control's priority and deduplication (per-key concurrency and rate limits need no more of a queue).
 *
 * What it costs: a job added in a process with a taker is claimed there by one compare-and-set from the record its
 * add wrote; a taker with room reads the queue's set, and the records it may claim, every `pollMs` (and when woken); a
 * job asleep or claimed elsewhere is read again at its time only (a `wake()` on any instance marks it, so that it is
 * read at once). A job added, woken or handed back in this process wakes this process's takers at once. A store wrapped by a
 * server (a guarded one) is another object than the one given: open every handle of one process on the same object.
 *
 * @param store The store every instance shares (a result store's `store`: Redis, PostgreSQL, Deno KV, a Durable
 *   Object, or the memory one of one process).
 * @param options The queue's name, the claims' lease, how often takers look, how long jobs are kept.
 * @returns The queue (one handle; open one per process).
 * @throws {RangeError} An option out of range.
 * @example Two instances' takers share a queue on one store (here in memory, in one process)
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryResultStore } from "../../mod.ts";
 * import { storeQueue } from "./store-queue.ts";
 *
 * const store = createMemoryResultStore().store!;
 * const [a, b] = [storeQueue(store), storeQueue(store)];
 * const ran: string[] = [];
 * const taker = b.take((data) => (ran.push(data), Promise.resolve("done")), { concurrency: 1 });
 * await a.add("job-1", "data of job 1");
 * for (let i = 0; i < 100 && ran.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
 * await taker.close();
 * assert.deepEqual(ran, ["data of job 1"]);
 * ```
 */
export function storeQueue(store: SharedStore, options: StoreQueueOptions = {}): WorkQueue {
  const name = options.name ?? "jobs";
  const leaseMs = positive(options.leaseMs, 5_000, "leaseMs");
  const pollMs = positive(options.pollMs, 250, "pollMs");
  // A store's lifetime, not a timer's: no timer's bound.
  const keepMs = positive(options.keepMs, 30 * 24 * 60 * 60 * 1000, "keepMs", Number.MAX_SAFE_INTEGER);
  const space = storeSpace<Held>(store, "queue");
  const jobKey = (id: string) => `${name}:job:${id}`;
  const JOBS = `${name}:jobs`, WOKEN = `${name}:woken`, FAILED = `${name}:failed`;
  const local = localOf(store, name);
  /** Wakes this process's takers: to look through the queue (`look`), or only at the jobs added here. */
  const kick = (look = true) => local.takers.forEach((wake) => wake(look));

  /**
   * Changes the record of job `id` from `from` by `change` (`undefined`: leave it), reading it again as long as
   * another writer changed it first and `still` holds of what was read; the record written, or `undefined`.
   */
  async function update(
    id: string,
    from: Held | undefined,
    change: (record: Held) => Held | undefined,
    still: (record: Held) => boolean = () => true,
  ): Promise<Held | undefined> {
    let record = from;
    for (let n = 0; n < TRIES && record !== undefined && still(record); n++) {
      const next = change(record);
      if (next === undefined) return undefined;
      if (await space.compareAndSet(jobKey(id), record, next, next.state === "gone" ? GONE_MS : keepMs)) return next;
      record = await space.get(jobKey(id));
    }
    return undefined;
  }

  /** Takes job `id` out of the queue's sets once its record says it is gone (or the store no longer holds it). */
  const forget = async (id: string) =>
    void await Promise.all([space.removeMember(JOBS, id), space.removeMember(WOKEN, id)]);

  return {
    async add(id, data, about) {
      const record = held({
        data,
        state: "waiting",
        lapsed: 0,
        tool: about?.tool,
        callId: about?.callId,
        addedAt: Date.now(),
      });
      if (!await space.putIfAbsent(jobKey(id), record, keepMs)) return;
      await space.addMember(JOBS, id, keepMs);
      // A taker here claims it from this record; with none, or too many waiting so, takers find it in the queue's set.
      const kept = local.takers.size > 0 && local.fresh.size < FRESH_KEPT;
      if (kept) local.fresh.set(id, record);
      kick(!kept);
    },
    async remove(id) {
      const gone = await update(
        id,
        await space.get(jobKey(id)),
        (record) => held({ ...record, state: "gone" }),
        (record) => record.state === "waiting" || record.state === "asleep",
      );
      if (gone === undefined) return false;
      await forget(id);
      return true;
    },
    async inspect({ id, states, limit = 20 }) {
      // The jobs in the queue (waiting, active, asleep) and those whose run failed; one done or removed is kept a minute
      // as `gone`, then not at all: its result store entry says how it ended.
      const ids = id === undefined
        ? [...new Set([...await space.members(JOBS), ...await space.members(FAILED)])]
        : [id];
      const items: QueueItem[] = [];
      const records = await Promise.all(ids.map((found) => space.get(jobKey(found)))); // at once, not one by one
      for (const [i, found] of ids.entries()) {
        const record = records[i];
        if (record === undefined && id === undefined) await space.removeMember(FAILED, found); // expired since
        if (record === undefined || (states !== undefined && !states.includes(record.state))) continue;
        items.push({
          id: found,
          state: record.state,
          ...(record.tool === undefined ? {} : { tool: record.tool }),
          ...(record.callId === undefined ? {} : { callId: record.callId }),
          ...(record.begun === true ? { attempt: record.lapsed + 1 } : {}),
          ...(record.addedAt === undefined ? {} : { addedAt: record.addedAt }),
          ...(record.finishedAt === undefined ? {} : { finishedAt: record.finishedAt }),
          ...(record.failedReason === undefined ? {} : { failedReason: record.failedReason }),
        });
      }
      return items.sort((x, y) => (y.addedAt ?? 0) - (x.addedAt ?? 0)).slice(0, id === undefined ? limit : 1);
    },
    async wake(id) {
      // Asleep: waiting now. Running: delivered again at once when its run hands it back asleep.
      const woken = await update(
        id,
        await space.get(jobKey(id)),
        (record) =>
          record.state === "asleep"
            ? held({ ...record, state: "waiting", until: undefined })
            : held({ ...record, woken: true }),
        (record) => record.state === "asleep" || (record.state === "active" && !record.woken),
      );
      if (woken === undefined) return;
      // Takers on other instances passed over it while it slept: the mark has them read it again.
      await space.addMember(WOKEN, id, keepMs);
      kick();
    },
    take(run, { concurrency, warn }) {
      if (!Number.isInteger(concurrency) || concurrency < 1) {
        throw new RangeError(`storeQueue(): concurrency must be a positive whole number, not ${concurrency}`);
      }
      const now = () => Date.now();
      let open = true;
      /** The runs in progress, until the queue acted on their end. */
      const runs = new Set<Promise<void>>();
      /** Jobs not to read again before a time: asleep, or claimed on another instance. */
      const passed = new Map<string, number>();
      /** The claims found lapsed, by job: which claim, and since when (this taker's clock). */
      const lapsedSince = new Map<string, { readonly mark: string; readonly at: number }>();
      let idle: (() => void) | undefined;
      /** Something happened while the loop was not idle: it looks again before it sleeps. */
      let kicked = false;
      /** A look through the queue is due: the first, each poll, and what may have left a job there to take. */
      let look = true;
      const wake = (through = true) => {
        if (through) look = true;
        if (idle) idle();
        else kicked = true;
      };
      local.takers.add(wake);
      let warned = false;
      const warnOnce = (error: unknown) => {
        if (!warned) (warn ?? console.warn)(`storeQueue: the store is out of reach (${error}); the queue waits for it`);
        warned = true;
      };

      /** Runs a job claimed as `record` (start `start`), renewing the claim meanwhile; then hands it on. */
      async function runClaimed(id: string, record: Held, start: number, first: boolean): Promise<void> {
        let mine: Held | undefined = record;
        const claim = record.claim;
        const ours = (r: Held) => r.state === "active" && r.claim === claim;
        // The queue's timers keep no process alive: a worker keeps itself (`runWorker()`), a web instance its listener.
        const renew = unrefTimer(setInterval(() => {
          if (mine === undefined) return;
          update(id, mine, (r) => held({ ...r, until: now() + leaseMs }), ours)
            .then((renewed) => mine = renewed, () => {}); // out of reach: kept as it was, lapsing if that lasts
        }, leaseMs / 3));
        let ended: Awaited<ReturnType<typeof run>> | { rejected: true };
        try {
          ended = await run(record.data, start, first);
        } catch {
          ended = { rejected: true };
        } finally {
          clearInterval(renew);
        }
        const next = (r: Held): Held => {
          const settled = { ...r, claim: undefined, until: undefined, woken: undefined };
          if (ended === "again") return held({ ...settled, state: "waiting", rejected: undefined });
          if (typeof ended === "object" && "delayMs" in ended) {
            return r.woken
              ? held({ ...settled, state: "waiting", rejected: undefined })
              : held({ ...settled, state: "asleep", until: now() + ended.delayMs, rejected: undefined });
          }
          if (typeof ended === "object" && "failed" in ended) {
            return held({ ...settled, state: "failed", failedReason: ended.failed, finishedAt: now() });
          }
          if (typeof ended === "object" && "rejected" in ended) {
            const rejected = (r.rejected ?? 0) + 1;
            if (rejected >= MAX_REJECTED) return held({ ...settled, state: "gone" });
            const backoff = Math.min(30_000, BACKOFF_MS * 2 ** (rejected - 1));
            return held({ ...settled, state: "asleep", until: now() + backoff, rejected });
          }
          return held({ ...settled, state: "gone" }); // done or refused: never again
        };
        // Handed on, or tried again every third of a lease while the store is out of reach, the claim renewed with it:
        // an outage is no death, and the job is not delivered again as its next start for it. A taker closed meanwhile
        // leaves it to lapse (its process goes).
        // The record as its last renewal wrote it stands for a read: a write that finds it changed reads it then.
        let known: Held | undefined = mine;
        for (;;) {
          try {
            const written = await update(id, known ?? await space.get(jobKey(id)), next, ours);
            if (written?.state === "gone") await forget(id);
            // Failed: out of the queue, kept where operators list it (`inspect`), never delivered again.
            if (written?.state === "failed") await Promise.all([forget(id), space.addMember(FAILED, id, keepMs)]);
            if (written?.state === "waiting") kick();
            return;
          } catch (error) {
            known = undefined;
            warnOnce(error);
            if (!open) return;
            await new Promise((resolve) => unrefTimer(setTimeout(resolve, leaseMs / 3)));
          }
        }
      }

      /** Starts the run of job `id`, claimed as `claimed`, counted until the queue acted on its end. */
      function started(id: string, claimed: Held, first: boolean): true {
        const running: Promise<void> = runClaimed(id, claimed, claimed.lapsed + 1, first)
          .finally(() => (runs.delete(running), passed.delete(id), wake(false)));
        runs.add(running);
        return true;
      }

      /** Claims a job added in this process from the record its add wrote, and starts its run; whether it did. */
      async function claimFresh(): Promise<boolean> {
        for (const [id, record] of local.fresh) {
          local.fresh.delete(id);
          const at = now();
          const claimed = held({
            ...record,
            state: "active",
            begun: true,
            until: at + leaseMs,
            claim: crypto.randomUUID(),
          });
          // Another taker took it first (here or elsewhere), or it was removed: the next one.
          if (!await space.compareAndSet(jobKey(id), record, claimed, keepMs)) continue;
          passed.set(id, at + leaseMs); // a look through the queue passes over it while its claim holds
          return started(id, claimed, true);
        }
        return false;
      }

      /** Claims one job this taker may run, and starts its run; whether it did. */
      async function claimNext(): Promise<boolean> {
        const [ids, woken] = await Promise.all([space.members(JOBS), space.members(WOKEN)]);
        for (const id of woken) passed.delete(id);
        const at = now();
        for (const [id, until] of passed) if (until <= at) passed.delete(id); // jobs that left the queue meanwhile too
        for (const id of ids) {
          if ((passed.get(id) ?? 0) > at) continue;
          const record = await space.get(jobKey(id));
          if (record === undefined || record.state === "gone" || record.state === "failed") {
            // Gone, or expired: out of the set (a job being added has its record before its place in the set).
            lapsedSince.delete(id);
            await forget(id);
            continue;
          }
          if (record.state !== "waiting" && (record.until ?? 0) > at) {
            lapsedSince.delete(id);
            passed.set(id, record.until!);
            continue;
          }
          // A claim found lapsed is taken only once it stayed so a whole lease more: a store that was out of reach
          // (its holder's renewals refused meanwhile) lets a live holder renew it first, as a lease's mark does.
          if (record.state === "active") {
            const seen = lapsedSince.get(id), mark = `${record.claim}@${record.until}`;
            if (seen?.mark !== mark) lapsedSince.set(id, { mark, at });
            if (seen?.mark !== mark || at - seen.at < leaseMs) {
              passed.set(id, (seen?.mark === mark ? seen.at : at) + leaseMs);
              continue;
            }
          }
          lapsedSince.delete(id);
          // A claim that lapsed was a start that never settled: this delivery is the next start.
          const lapsed = record.state === "active" ? record.lapsed + 1 : record.lapsed;
          const claimed = held({
            ...record,
            state: "active",
            lapsed,
            begun: true,
            until: at + leaseMs,
            claim: crypto.randomUUID(),
            woken: undefined,
          });
          if (!await space.compareAndSet(jobKey(id), record, claimed, keepMs)) continue; // another taker won it
          passed.delete(id);
          local.fresh.delete(id);
          if (woken.includes(id)) space.removeMember(WOKEN, id).catch(() => {});
          return started(id, claimed, record.begun !== true);
        }
        return false;
      }

      const loop = (async () => {
        while (open) {
          let claimed = false;
          if (runs.size < concurrency) {
            try {
              // The jobs added here first, by one write each; a look through the queue when one is due, and again
              // after each it claimed (more may wait there).
              claimed = await claimFresh();
              if (!claimed && look) {
                look = false;
                claimed = look = await claimNext();
              }
              warned = false;
            } catch (error) {
              look = true;
              warnOnce(error);
            }
          }
          if (claimed || !open || kicked) {
            kicked = false;
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = unrefTimer(setTimeout(() => (look = true, resolve()), pollMs));
            idle = () => (clearTimeout(timer), resolve());
          });
          idle = undefined;
        }
      })();
      return {
        async close() {
          open = false;
          local.takers.delete(wake);
          if (local.takers.size === 0) local.fresh.clear(); // in the queue's set still, for takers elsewhere
          wake();
          await loop;
          await Promise.all(runs);
        },
      };
    },
  };
}
