/**
 * A promised program as declared work. In process its job takes the running program over, journaling its calls;
 * on a queue the execute call lets the calls in flight end, stops the program and hands the job its source and calls.
 * A job's later start runs the program again from the top (QuickJS cannot be snapshotted), its recorded calls
 * answered from its input and journal (`work.step()`), so no tool is called twice; a call that differs is refused.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import { JournalMismatch } from "../jobs/journal-mismatch.ts";

/** One call's outcome as a round records it (`ctx.step()`): JSON, so that a later round answers it the same way. */
export type Recorded = { readonly ok: true; readonly value: unknown } | {
  readonly ok: false;
  readonly message: string;
};

/** A call's outcome with its number in the program and the tool's name, as a promised program's job carries it. */
export type RecordedCall = Recorded & { readonly n: number; readonly name: string };

/** What a promised program's job carries (JSON, signed and sealed with the job): its source and its calls so far. */
export interface ProgramJob {
  /** The program as the model wrote it. */
  readonly code: string;
  /** Its `args`, when it was given some (a saved program's, checked against its input schema). */
  readonly args?: unknown;
  /** The outcomes of the calls it made before its promise (on a queue), by call number. */
  readonly calls: readonly RecordedCall[];
  /** In process: the id of the running program handed to the job, which its first start takes over. */
  readonly handed?: string;
}

/** A call a program began, by number and tool, with its outcome to come. */
export interface BegunCall {
  readonly n: number;
  readonly name: string;
  readonly outcome: Promise<Recorded>;
}

/** A running program handed to its job in this process, with the calls it began. */
export interface HandedProgram<P extends { readonly running: Promise<unknown> }> {
  readonly running: P;
  readonly begun: readonly BegunCall[];
  /** When the program ended unclaimed (its job never started: refused by a budget), ms since the epoch. */
  ended?: number;
}

/** How long a program that ended stays to be taken over: its job starts within the call that promised it. */
const UNCLAIMED_MS = 60_000;

/**
 * Hands a running program to the job of this process that its input names.
 *
 * @param handed The tool's programs handed over (programs ended unclaimed long ago are dropped).
 * @param running The program.
 * @param begun The calls it began.
 * @returns The id the job's input carries.
 */
export function hand<P extends { readonly running: Promise<unknown> }>(
  handed: Map<string, HandedProgram<P>>,
  running: P,
  begun: readonly BegunCall[],
): string {
  const now = Date.now();
  for (const [key, each] of handed) if (each.ended !== undefined && now - each.ended > UNCLAIMED_MS) handed.delete(key);
  const id = crypto.randomUUID();
  const entry: HandedProgram<P> = { running, begun };
  const end = () => entry.ended = Date.now();
  running.running.then(end, end);
  handed.set(id, entry);
  return id;
}

/**
 * Takes a handed program over, once.
 *
 * @param handed The tool's programs handed over.
 * @param id The id the job's input names.
 * @returns The program, or `undefined` (a later start of the job, or on another instance).
 */
export function taken<P extends { readonly running: Promise<unknown> }>(
  handed: Map<string, HandedProgram<P>>,
  id: string | undefined,
): HandedProgram<P> | undefined {
  const program = id === undefined ? undefined : handed.get(id);
  if (program !== undefined) handed.delete(id!);
  return program;
}

/**
 * Journals the calls a program began before its job took it over, in the order they began, each as it ends: a later
 * start of the job (after a death, with `retry`) reads them back.
 *
 * @param work The job's context: its `step()` is the journal's.
 * @param begun The calls.
 */
export function journal(work: CallContext, begun: readonly BegunCall[]): void {
  for (const { n, name, outcome } of begun) {
    work.step(`call-${n}-${name}`, () => outcome).catch(() => {}); // a store out of reach: the next start calls it
  }
}

/**
 * The outcomes of the calls a program began, once they ended, for its job's input.
 *
 * @param begun The calls.
 * @returns Their outcomes, by number.
 */
export async function recordedOf(begun: readonly BegunCall[]): Promise<RecordedCall[]> {
  const settled = await Promise.allSettled(begun.map((call) => call.outcome));
  return begun.flatMap(({ n, name }, i) => {
    const each = settled[i];
    return each.status === "fulfilled" ? [{ n, name, ...each.value }] : [];
  }).sort((a, b) => a.n - b.n);
}

/**
 * The recorded outcome of call `n`, when the program calls the same tool there as when it was recorded.
 *
 * @param ctx The job's context (its id names the job in a refusal).
 * @param recorded What was recorded for call `n`.
 * @param n The call's number in the program.
 * @param name The tool the program calls this time.
 * @returns The outcome.
 * @throws {JournalMismatch} When the program calls another tool there: the run is refused, never answered with
 *   another call's outcome.
 */
export function replayedCall(ctx: CallContext, recorded: RecordedCall, n: number, name: string): Recorded {
  if (recorded.name !== name) {
    const job = (ctx as { readonly jobId?: string }).jobId ?? "(not started)";
    throw new JournalMismatch(job, { name: `call-${n}-${name}`, position: n }, {
      name: `call-${n}-${recorded.name}`,
      position: n,
    });
  }
  return recorded.ok ? { ok: true, value: recorded.value } : { ok: false, message: recorded.message };
}

/** A program's calls as the execute call hands them over: held from a point on, those in flight awaited. */
export interface HeldCalls {
  /** The sandbox's `__call`: the inner call, or, while held, a call that waits to start. */
  readonly call: (name: string, input: unknown) => Promise<unknown>;
  /**
   * Holds every later call, and resolves once the calls in flight have ended (their outcomes recorded): not those
   * parked (waiting for the user, or for their turn behind one), which begin nothing before the program stops.
   */
  readonly hold: () => Promise<void>;
  /** Lets the held calls start, and the later ones: the program goes on in this call. */
  readonly release: () => void;
}

/**
 * Wraps a program's calls so that they can be held.
 *
 * @param call The inner call; it parks itself while it waits, and calls what `park` returned to go on.
 * @returns The calls, the hold and its release.
 */
export function heldCalls(
  call: (name: string, input: unknown, park: () => () => void) => Promise<unknown>,
): HeldCalls {
  const inFlight = new Set<Promise<unknown>>();
  const waiting: (() => void)[] = [];
  let held = false;
  const start = (name: string, input: unknown) => {
    let ended = false;
    const parked: { running?: Promise<unknown> } = {};
    const park = () => {
      if (parked.running !== undefined) inFlight.delete(parked.running);
      return () => {
        if (!ended && parked.running !== undefined) inFlight.add(parked.running);
      };
    };
    const running = parked.running = call(name, input, park);
    inFlight.add(running);
    const done = () => {
      ended = true;
      inFlight.delete(running);
    };
    running.then(done, done);
    return running;
  };
  return {
    call: (name, input) =>
      held ? new Promise((resolve) => waiting.push(() => resolve(start(name, input)))) : start(name, input),
    hold: async () => {
      held = true;
      // Until none is in flight: a call whose turn came meanwhile is in flight again, and awaited too.
      while (inFlight.size > 0) await Promise.allSettled(inFlight);
    },
    release: () => {
      held = false;
      for (const go of waiting.splice(0)) go();
    },
  };
}

/** Bytes of a job's token besides its input: the caller, the request's metadata and headers, the token's fields. */
const TOKEN_ROOM = 2_048;

/**
 * Whether a job's input fits the token it travels in (`tokens.maxBytes`), with room for the caller, the request's
 * metadata and the token's own fields: base64url makes 4 characters of 3 bytes.
 *
 * @param job The job's input.
 * @param maxBytes The longest token.
 * @returns `false` when it would not fit.
 */
export function fitsToken(job: ProgramJob, maxBytes: number): boolean {
  return (new TextEncoder().encode(JSON.stringify(job)).length + TOKEN_ROOM) * 4 / 3 <= maxBytes;
}
