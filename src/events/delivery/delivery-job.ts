/**
 * A delivery as a queued job (`createServer({ queue })`): id `dlv:<subscriptionId>:<eventId>`, data sealed with the
 * server's token codec like a tool's job, run by the same workers, one attempt per run; a retry is `{ delayMs }` (a
 * durable wait, no slot held). The queue does not count such waits as starts, so the attempts made are counted in
 * the shared store under the job's id, a record made final once the occurrence is done with (a late duplicate then
 * skips).
 *
 * @module
 */
import { isTokenError } from "../../codec/token-error.ts";
import { UNKNOWN_KEY } from "../../codec/token.ts";
import { type JobOutcome, type JobWatch, registerJobKind } from "../../core/long-running/job-kinds.ts";
import type { SharedStore } from "../../store/shared-store.ts";
import { type StoreSpace, storeSpace } from "../../store/store-space.ts";
import { recordOf } from "../../store/store-of.ts";
import { isObject } from "../../internal/is-object.ts";
import type { Deliveries } from "./deliveries.ts";
import type { DeliveryOutcome } from "./delivery-observer.ts";
import { attemptAndSettle } from "./settle.ts";
import { type Occurrence, readSubscription, type Subscription } from "./subscription.ts";
import { registryOf } from "../../core/definitions/registry.ts";
import { attachListener } from "../../server/listener.ts";

/** The token kind of a queued delivery: never accepted as any other token. */
const DELIVERY_KIND = "delivery";

/** The job kind of a queued delivery, which its data starts with (`dlv.` and its sealed token): a worker runs it. */
const DELIVERY_JOB_KIND = "dlv";

/** What a queued delivery's data starts with. */
const DELIVERY_JOB_PREFIX = `${DELIVERY_JOB_KIND}.`;

/** How long past its retry schedule a queued delivery's job (and its count) lasts, in ms. */
const JOB_SLACK_MS = 3_600_000;

/** What a queued delivery carries, sealed. */
interface DeliveryState {
  /** The subscription's id. */
  readonly s: string;
  /** The occurrence's id. */
  readonly e: string;
  /** The occurrence, when it fits in the token (else it waits in the store under `evocc:<eventId>`). */
  readonly o?: Occurrence;
  /** The emit's `traceparent`. */
  readonly t?: string;
  /** The life of the subscription it was emitted to (`Subscription.life`). */
  readonly l?: string;
}

/** The job id of an occurrence's delivery to a subscription. */
function jobId(subscriptionId: string, eventId: string): string {
  return `dlv:${subscriptionId}:${eventId}`;
}

/**
 * The attempt counts of queued deliveries, by subscription and event id (`dlv:<subscription>:<event>`, as the job's
 * id): `{ n }` while it is tried, final once it is done with, so that a delivery queued again finds it done.
 */
const attemptCounts = (store: SharedStore): StoreSpace<{ n: number }> => storeSpace(store, "dlv");

/** The occurrences too large for their jobs' tokens, by event id (`evocc:<eventId>`). */
const largeOccurrences = (store: SharedStore): StoreSpace<Occurrence> => storeSpace(store, "evocc");

const FINAL = { final: true } as const;

/**
 * Adds an occurrence's delivery to a subscription to the server's queue.
 *
 * @param d The server's deliveries, with a queue.
 * @param sub The subscription.
 * @param occ The occurrence.
 * @param emit The emit's `traceparent`.
 * @throws What the queue's `add` or the store rejects with: the delivery is not queued.
 */
export async function enqueueDelivery(d: Deliveries, sub: Subscription, occ: Occurrence, emit?: string): Promise<void> {
  const ttlMs = d.retryDelaysMs.reduce((sum, ms) => sum + ms, 0) + d.attempts * d.timeoutMs + JOB_SLACK_MS;
  const state: DeliveryState = { s: sub.id, e: occ.eventId, o: occ, t: emit, l: sub.life };
  const sign = (s: DeliveryState) => d.codec.sign({ kind: DELIVERY_KIND, scope: occ.name, state: s, ttlMs });
  let token: string;
  try {
    token = await sign(state);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // Over the token's bound (`tokens.maxBytes`): the occurrence waits in the store, the job names it.
    await largeOccurrences(d.store).put(occ.eventId, occ, ttlMs);
    token = await sign({ ...state, o: undefined });
  }
  await d.queue!.add(jobId(sub.id, occ.eventId), DELIVERY_JOB_PREFIX + token, { tool: `event:${occ.name}` });
}

/**
 * Registers the server's queued deliveries as a job kind of its own, which a worker (`runWorker()`) runs.
 *
 * @param server The server.
 * @param d Its deliveries.
 */
export function attachDeliveries(server: object, d: Deliveries): void {
  const { runtime } = registryOf(attachListener(server).core);
  registerJobKind(runtime, DELIVERY_JOB_KIND, (data, run) => runDeliveryJob(d, data, run.stop, run.watch));
}

/**
 * Runs a queued delivery on a worker: one attempt, its end recorded.
 *
 * @param d The server's deliveries.
 * @param data The job's data, as queued.
 * @param stop Aborts as the worker shuts down: the job is given back.
 * @param watch What the worker's telemetry hears of the job.
 * @returns `"done"` when the occurrence is done with, `{ delayMs }` for the next attempt, `"again"` when the worker
 *   stopped it, `{ failed }` when it was given up (why), `"refused"` when it is no delivery of this server's.
 * @throws The token's error when it was signed with a secret this worker lacks, or the store's: delivered again later.
 */
export async function runDeliveryJob(
  d: Deliveries,
  data: string,
  stop: AbortSignal,
  watch?: JobWatch,
): Promise<"done" | "refused" | "again" | { readonly delayMs: number } | { readonly failed: string }> {
  let name: string, state: DeliveryState, issuedAt: number, expiresAt: number;
  try {
    const claims = await d.codec.verify(data.slice(DELIVERY_JOB_PREFIX.length), { kind: DELIVERY_KIND });
    ({ scope: name, issuedAt, expiresAt } = claims);
    state = claims.state as DeliveryState;
  } catch (error) {
    if (!isTokenError(error)) throw error;
    if (error.reason === "expired") return ended(watch, "skipped");
    if (error.reason === "bad_mac" && error.cause === UNKNOWN_KEY) throw error; // a worker with the secret may run it
    watch?.end("failed", undefined, error);
    return "refused";
  }
  const id = jobId(state.s, state.e);
  const own = watch?.read({ id, tool: `event:${name}`, queuedAt: issuedAt, traceparent: state.t });
  const ttlMs = Math.max(1, expiresAt - d.now());
  const counts = attemptCounts(d.store);
  const key = `${state.s}:${state.e}`;
  const n = attemptsOf(await counts.get(key)) + 1;
  // Before the POST: an attempt cut short by a crash still counts. A final count stands: done with already.
  if (!await counts.put(key, { n }, ttlMs)) return ended(watch, "skipped");
  const sub = await readSubscription(d.store, state.s);
  const occ = state.o ?? occurrenceOf(await largeOccurrences(d.store).get(state.e));
  if (sub === undefined || sub.status !== "active" || sub.life !== state.l || occ === undefined) {
    await counts.put(key, { n }, ttlMs, FINAL);
    return ended(watch, "skipped", n);
  }
  const settled = await attemptAndSettle(d, sub, occ, n, { emit: state.t, parent: own, job: id }, stop);
  if (settled.outcome === "skipped") { // stopped by the worker's shutdown: this attempt is made again
    await counts.put(key, { n: n - 1 }, ttlMs);
    watch?.end("again", n);
    return "again";
  }
  if (settled.delayMs !== undefined) {
    watch?.end("delayed", n);
    return { delayMs: settled.delayMs };
  }
  await counts.put(key, { n }, ttlMs, FINAL);
  const done = ended(watch, jobOutcomeOf(settled.outcome), n);
  return settled.givenUp === undefined ? done : { failed: settled.givenUp }; // a failed job, for boards
}

/** Tells telemetry the job ended, and the queue it is done with. */
function ended(watch: JobWatch | undefined, outcome: JobOutcome, attempt?: number): "done" {
  watch?.end(outcome, attempt, outcome === "failed" ? new Error("the delivery failed") : undefined);
  return "done";
}

/** A job's outcome for a delivery's: sent and answered as SEP-3415 reads it (2xx, 410, 413) is completed. */
function jobOutcomeOf(outcome: DeliveryOutcome): JobOutcome {
  return outcome === "delivered" || outcome === "ended" || outcome === "dropped" ? "completed" : "failed";
}

/** The attempts a count records (of before the store contract: a running entry holding it). */
function attemptsOf(value: unknown): number {
  const count = recordOf(value);
  return isObject(count) && typeof count.n === "number" ? count.n : 0;
}

/** The occurrence a record holds (of before the store contract: a running entry holding it). */
function occurrenceOf(value: unknown): Occurrence | undefined {
  const occ = recordOf(value);
  return isObject(occ) && typeof occ.eventId === "string" ? occ as unknown as Occurrence : undefined;
}
