/**
 * Signals: declared work that waits for the outside world (`work.waitFor(name)`) and what answers it (`server.signal()`,
 * a POST to `work.signalUrl(name)`). A signal is an entry of the job's journal (`~signal:<name>`, first writer wins:
 * one answer per name, kept when it comes before the wait), and the wait's end another (`~got:<name>`), so every later
 * start of the job reads the same answer; a queued wait hands its job back to the queue until its deadline, which a
 * signal brings forward (`WorkQueue.wake`). Why: docs/concepts/long-running.md, "Waiting for the outside world".
 *
 * @module
 */
import type { CallMeta } from "../core/call/call-meta.ts";
import { compileSchema, type InferSchemaOutput, type JsonSchema } from "../core/schema.ts";
import type { SignalUrlOptions, WaitOptions, WaitSchema } from "../core/long-running/work-context.ts";
import { WaitTimeoutError } from "../errors/wait-timeout-error.ts";
import type { TokenCodec } from "../codec/token.ts";
import type { WorkContext } from "../core/long-running/work-context.ts";
import type { JournalStore } from "./journal-store.ts";
import type { ResultStore } from "./result-store.ts";
import type { WorkQueue } from "./work-queue.ts";
import { isUnavailable } from "./guarded-store.ts";
import type { Journal } from "./journal.ts";
import type { JournalEntry } from "./journal-store.ts";
import { hasEnded } from "./result-store.ts";
import { stepJson } from "./step-json.ts";

/** The token kind of a signal URL: never accepted as a promise, task, input or job token. */
export const SIGNAL_KIND = "signal";

/**
 * How a signal was taken (`server.signal()`): kept for the job's wait (`"taken"`), or refused as a second one of its
 * name (`"signalled"`), after its wait timed out (`"timed_out"`), or for a job that ended or that the store does not
 * hold (`"ended"`).
 *
 * @example
 * ```ts
 * import type { SignalDelivery } from "@mcplite/sdk";
 * const answers: Record<SignalDelivery, number> = { taken: 202, signalled: 409, timed_out: 410, ended: 410 };
 * ```
 */
export type SignalDelivery = "taken" | "signalled" | "timed_out" | "ended";

/** What a signal's slot in the journal holds: the payload (`p`) and its sender's id (`i`), or the mark of a wait that timed out (`t`). */
interface Slot {
  readonly p?: unknown;
  readonly i?: string;
  readonly t?: 1;
}

/** What signals read of the server's engine (`Continuations`, which holds them). */
export interface SignalEngine {
  readonly codec: TokenCodec;
  readonly results: ResultStore;
  readonly journals: JournalStore;
  readonly queue: WorkQueue | undefined;
  readonly promiseTtlMs: number;
  readonly retryAfterMs: number;
  /** Set where the store is shared by instances (without a queue, a wait then looks at its journal again). */
  readonly leaseMs: number | undefined;
}

/** The job and the start of it that a wait belongs to (`WorkStart`). */
interface Start {
  readonly id: string;
  readonly expiresAt: number;
  readonly queued: boolean;
}

/** How often an in-process wait reads its journal again where the store is shared (another instance may signal). */
const SHARED_POLL_MS = 1_000;

/** The signals of one server's jobs: sending them, and the waits of the jobs running here. */
export class JobSignals {
  readonly #c: SignalEngine;
  readonly #url: (meta: CallMeta) => string;
  readonly #onError: (error: unknown) => void;
  readonly #schemas: Readonly<Record<string, WaitSchema>>;
  /** The waits of the jobs running in this process, by job and name: a signal sent here wakes them at once. */
  readonly #waiting = new Map<string, Set<() => void>>();

  /**
   * Makes the signals of a server.
   *
   * @param c The server's engine: its codec, stores and queue.
   * @param url The URL of the signal route (ending in `/`), for a job started by a call with this metadata.
   * @param onError Receives what failed as a queued job was woken (the job still wakes at its deadline).
   * @param schemas The server's schemas of signals, by name (`signals({ schemas })`): a wait's default.
   */
  constructor(
    c: SignalEngine,
    url: (meta: CallMeta) => string,
    onError: (error: unknown) => void,
    schemas: Readonly<Record<string, WaitSchema>> = {},
  ) {
    this.#c = c;
    this.#url = url;
    this.#onError = onError;
    this.#schemas = schemas;
  }

  /**
   * Signals a job: keeps the payload in its journal (first writer wins) and wakes its wait.
   *
   * @param id The job's id.
   * @param name The signal's name.
   * @param payload Its payload: JSON.
   * @param ttlMs How long the signal is kept for a wait that has not begun (default: the promise lifetime).
   * @returns How it was taken.
   * @throws {TypeError} For a payload with no JSON form.
   */
  async send(id: string, name: string, payload: unknown, ttlMs = this.#c.promiseTtlMs): Promise<SignalDelivery> {
    const json = stepJson(`signal "${name}"`, payload);
    const entry = await this.#c.results.get(id);
    // Its own id: a store answers the entry it keeps as read back (Redis: parsed), not the very object given it.
    const slot: Slot = { ...json === undefined ? {} : { p: JSON.parse(json) }, i: crypto.randomUUID() };
    const mine: JournalEntry = { name: `~signal:${name}`, position: 0, value: slot, at: this.#c.codec.now() };
    // A job that ended: a signal it took says so (a replay), else it ended (nothing written for a job that is gone).
    const kept = entry === undefined || hasEnded(entry)
      ? (await this.#c.journals.load(id)).find((each) => each.name === mine.name)
      : await this.#c.journals.append(id, mine, ttlMs);
    if (kept === undefined) return "ended";
    if ((kept.value as Slot).i !== slot.i) return (kept.value as Slot).t === 1 ? "timed_out" : "signalled";
    for (const wake of this.#waiting.get(`${id}\n${name}`) ?? []) wake();
    // A queued job asleep until its deadline runs now; one still running meets the signal in its journal.
    this.#c.queue?.wake?.(id).catch(this.#onError);
    return "taken";
  }

  /**
   * Gives one run's work context its `waitFor()` and `signalUrl()`.
   *
   * @param work The context.
   * @param journal The run's journal.
   * @param start The job and this start of it.
   * @param meta The metadata of the call that started the job (its `Host`, for the signal URL).
   */
  attach(work: WorkContext, journal: Journal, start: Start, meta: CallMeta): void {
    const c = this.#c;
    const now = c.codec.now;
    Object.assign(work, {
      waitFor: async <S extends WaitSchema>(name: string, options: WaitOptions<S> = {}) => {
        checkName(name);
        const { timeoutMs = start.expiresAt - now() - 1_000, schema } = options;
        if (!(timeoutMs >= 0) || now() + timeoutMs >= start.expiresAt) {
          throw new RangeError("work.waitFor(): the job expires first; give the tool a longer .longRunning({ ttlMs })");
        }
        // The wait's deadline, and the JSON Schema of its own schema where it has one (`waitShape`): an instance that
        // answers the signal's POST without running the work checks the payload against it before taking it.
        const recorded = await journal.step(`~wait:${name}`, () => waitRecord(now() + timeoutMs, schema, name));
        const until = typeof recorded === "number" ? recorded : recorded.u;
        let waited = false; // this run took the wait's end (not its journal): its task no longer says it waits
        const slot = await journal.step(`~got:${name}`, () => {
          waited = true;
          return this.#arrival(journal, start, name, until, work.signal);
        }) as Slot;
        if (waited) await this.#say(start, undefined);
        if (slot.t === 1) throw new WaitTimeoutError(name, timeoutMs);
        return await valid(name, slot.p, schema ?? this.#schemas[name]) as InferSchemaOutput<S>;
      },
      signalUrl: async (name: string, options: SignalUrlOptions = {}) => {
        checkName(name);
        const ttlMs = Math.min(options.ttlMs ?? Infinity, start.expiresAt - now());
        const token = await c.codec.sign({ kind: SIGNAL_KIND, scope: name, state: { d: start.id }, ttlMs });
        return this.#url(meta) + token;
      },
    });
  }

  /**
   * Says in the job's entry what it waits for (its MCP task's `statusMessage`), or that it waits no longer. A
   * running job's entry is `working` (an end written meanwhile stands: first writer wins); a failure here fails nothing.
   */
  async #say(start: Start, waiting: string | undefined): Promise<true> {
    const entry = { status: "working" as const, ...waiting === undefined ? {} : { waiting }, at: this.#c.codec.now() };
    await this.#c.results.set(start.id, entry, Math.max(1, start.expiresAt - entry.at))
      .catch((error) => isUnavailable(error) || this.#onError(error)); // an outage: told once, by the store's guard
    return true;
  }

  /**
   * What ends a wait: the signal's slot once it is filled, else the mark of its timeout (written first writer wins,
   * so a signal that raced it stands instead). Queued, the run suspends until the deadline (a signal wakes it
   * sooner); in process it waits here, for a signal sent here, its deadline, or (a shared store) a signal another
   * instance wrote.
   */
  async #arrival(journal: Journal, start: Start, name: string, until: number, signal: AbortSignal): Promise<Slot> {
    const c = this.#c, now = c.codec.now, key = `${start.id}\n${name}`;
    let said = false;
    for (;;) {
      let slot: Slot | undefined, down = false;
      try {
        slot = (await c.journals.load(start.id)).find((e) => e.name === `~signal:${name}`)?.value as Slot | undefined;
        if (slot === undefined && now() >= until) {
          const mark: JournalEntry = { name: `~signal:${name}`, position: 0, value: { t: 1 }, at: now() };
          slot = (await c.journals.append(start.id, mark, Math.max(1, start.expiresAt - now()))).value as Slot;
        }
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        if (start.queued) return await journal.suspension.suspend(now() + c.retryAfterMs);
        // In process the run waits on and looks again once the store may be back: ended here, as a step's outage
        // ends it, a job without `retry` would end as stopped, though a signal its URL took meanwhile is kept.
        down = true;
      }
      if (slot !== undefined) return slot;
      if (!said && !down) said = await this.#say(start, `Waiting for the signal "${name}"`);
      if (start.queued) return await journal.suspension.suspend(until);
      // In process: a signal sent here, the deadline, or (a shared store) the next look at the journal.
      const left = down ? c.retryAfterMs : Math.min(until - now(), c.leaseMs === undefined ? Infinity : SHARED_POLL_MS);
      await new Promise<void>((resolve, reject) => {
        const waits = this.#waiting.get(key) ?? this.#waiting.set(key, new Set()).get(key)!;
        const done = () => {
          clearTimeout(timer);
          waits.delete(done);
          if (waits.size === 0) this.#waiting.delete(key);
          signal.removeEventListener("abort", done);
          if (signal.aborted) reject(signal.reason);
          else resolve();
        };
        const timer = setTimeout(done, Math.max(0, left));
        waits.add(done);
        signal.addEventListener("abort", done);
      });
    }
  }
}

/** What a wait records at its start: its deadline, and the JSON Schema of its payload (`s`) where it has one. */
type WaitRecord = number | { readonly u: number; readonly s?: JsonSchema };

/** The largest JSON Schema a wait records, in bytes of JSON: a bigger one is checked by the wait alone. */
const MAX_SHAPE_BYTES = 16 * 1024;

/**
 * A wait's record: its deadline alone (as jobs that began waiting before shapes were recorded have it) when its schema
 * has no JSON Schema form (a Standard Schema without `~standard.jsonSchema`, a check JSON Schema cannot say) or one
 * over {@link MAX_SHAPE_BYTES}; the schema still checks the payload as the wait takes it.
 */
function waitRecord(until: number, schema: WaitSchema | undefined, name: string): WaitRecord {
  if (schema === undefined) return until;
  let shape: JsonSchema;
  try {
    shape = compileSchema(schema, `work.waitFor("${name}")`).jsonSchema;
  } catch {
    return until;
  }
  return JSON.stringify(shape).length > MAX_SHAPE_BYTES ? until : { u: until, s: shape };
}

/**
 * The JSON Schema of the payload a job's wait for a signal declared (recorded in its `~wait:<name>` step), once that
 * wait began; `undefined` before it, or for a wait without a schema.
 *
 * @param journals The server's journal store.
 * @param id The job's id.
 * @param name The signal's name.
 * @returns The JSON Schema, or `undefined`.
 */
export async function waitShape(journals: JournalStore, id: string, name: string): Promise<JsonSchema | undefined> {
  const wait = (await journals.load(id)).find((entry) => entry.name === `~wait:${name}`)?.value as WaitRecord;
  return typeof wait === "object" && wait !== null ? wait.s : undefined;
}

/** Refuses a signal name that is empty or too long (it is a journal entry's name, and a token's scope). */
function checkName(name: string): void {
  if (!(typeof name === "string" && /^.{1,200}$/s.test(name))) {
    throw new TypeError("work.waitFor(): a signal's name is 1–200 characters");
  }
}

/** A payload as the wait's schema gives it back; refused with its issues. */
async function valid(name: string, payload: unknown, schema: WaitSchema | undefined): Promise<unknown> {
  const checked = await checkPayload(schema, payload);
  if (!("issues" in checked)) return checked.value;
  throw new TypeError(`work.waitFor(): signal "${name}" has a payload its schema refuses: ${checked.issues}`);
}

/**
 * Checks a signal's payload against a schema (none: any payload).
 *
 * @param schema The schema.
 * @param payload The payload.
 * @returns Its value as the schema gives it back, or the schema's issues, in one line.
 */
export async function checkPayload(
  schema: WaitSchema | undefined,
  payload: unknown,
): Promise<{ readonly value: unknown } | { readonly issues: string }> {
  if (schema === undefined) return { value: payload };
  const result = await schema["~standard"].validate(payload);
  return result.issues === undefined
    ? { value: result.value }
    : { issues: result.issues.map((issue) => issue.message).join("; ") };
}
