/**
 * Finds the steps of a tool's declared work that are not safe to run again: `checkIdempotent()` runs the work once,
 * then once per step crashing right after it (its effect done, its value lost), and once per step crashing after its
 * value was journaled (what runs outside steps runs again), each resumed from the journal; a run whose effects or
 * value differ from the clean run's names its step. Durable engines run a step again after a death (at-least-once).
 *
 * @module
 */
import type { AnyTool } from "../core/definitions/tool.ts";
import { canonicalJson } from "../internal/canonical-json.ts";
import { durableRun, type DurableRunOptions } from "./durable-run.ts";

/**
 * Options of {@link checkIdempotent}: {@link durableRun}'s (but `crashAfter`), and how to read the work's effects.
 *
 * @example A ledger the check reads, emptied before each run
 * ```ts
 * import type { IdempotenceOptions } from "@mcplite/sdk/testing";
 * const ledger: string[] = [];
 * const options: IdempotenceOptions = {
 *   input: { cents: 500 },
 *   effects: () => [...ledger],
 *   reset: () => void ledger.splice(0),
 * };
 * ```
 */
export interface IdempotenceOptions extends Omit<DurableRunOptions, "crashAfter"> {
  /**
   * What the work did outside the journal (rows written, calls made to a fake API), read after each run and
   * compared as JSON with the clean run's: a counter, a list. Without it, only the work's values are compared.
   */
  readonly effects?: () => unknown;
  /** Puts the effects back before each run (a test's fakes emptied); without it, `effects` must read one run's. */
  readonly reset?: () => unknown;
}

/** A crash after which the work's effects, or its value, differed from a run with no crash. */
export interface NotIdempotent {
  /** The step the run crashed after. */
  readonly step: string;
  /**
   * Whether its value was journaled before the crash: `false`, the step itself ran again (make it idempotent: use
   * its key, `work.step(name, (key) => …)`, as an idempotency key); `true`, what runs outside steps ran again
   * (move it into a step).
   */
  readonly journaled: boolean;
  /** What the run without a crash did: its effects and value. */
  readonly expected: { readonly effects: unknown; readonly value: unknown };
  /** What the run that crashed there did. */
  readonly actual: { readonly effects: unknown; readonly value: unknown };
  /** The same, in a sentence naming the step. */
  readonly message: string;
}

/**
 * What {@link checkIdempotent} found.
 *
 * @example
 * ```ts
 * import type { IdempotenceReport } from "@mcplite/sdk/testing";
 * const offending = (report: IdempotenceReport) => report.notIdempotent.map((found) => found.step);
 * ```
 */
export interface IdempotenceReport {
  /** The steps and sleeps the work took, in order: each was crashed after, twice. */
  readonly checked: readonly string[];
  /** Each crash after which the run did not do what it does without one; empty when every step is safe to run again. */
  readonly notIdempotent: readonly NotIdempotent[];
}

/**
 * Crashes the work after each of its steps in turn and resumes it (with {@link durableRun}), comparing what it did
 * with a run that never crashed: a step that charges twice, sends two emails or appends two rows when it runs
 * again is named. The tool needs a `retry` of at least 2 attempts (a job without one is not started again after
 * a death: nothing of it runs twice).
 *
 * @param tool The tool, with declared work (`.defer()`).
 * @param options The input, the effects to compare, and {@link durableRun}'s mocks and answers.
 * @returns The steps checked, and the crashes after which the run differed.
 * @throws {TypeError} When the tool's `retry` allows no second start, or it declares no work; what the run without
 *   a crash threw, when it failed.
 *
 * @example A step that is not idempotent, found
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineTool } from "@mcplite/sdk";
 * import { checkIdempotent } from "@mcplite/sdk/testing";
 *
 * const sent: string[] = [];
 * const welcome = defineTool("welcome")
 *   .input(v.object({ to: v.string() }))
 *   .longRunning({ retry: { attempts: 2 } })
 *   .defer(async ({ to }, work) => {
 *     const user = await work.step("user", () => ({ to }));
 *     await work.step("email", () => void sent.push(user.to)); // sends again when it runs again
 *     return "sent";
 *   });
 * const report = await checkIdempotent(welcome, {
 *   input: { to: "a@example.com" },
 *   effects: () => sent.length,
 *   reset: () => void sent.splice(0),
 * });
 * assert.deepEqual(report.checked, ["user", "email"]);
 * assert.deepEqual(report.notIdempotent.map((found) => found.step), ["email"]);
 * ```
 */
export async function checkIdempotent(tool: AnyTool, options: IdempotenceOptions): Promise<IdempotenceReport> {
  const attempts = tool.longRunning?.retry?.attempts ?? 1;
  if (attempts < 2) {
    throw new TypeError(
      `checkIdempotent(): tool "${tool.name}" is not started again after a death (no retry of 2 attempts or more)`,
    );
  }
  const { effects, reset, ...run } = options;
  const once = async (crashAfter?: { step: string; journaled: boolean }) => {
    await reset?.();
    const report = await durableRun(tool, { ...run, crashAfter });
    if (report.error !== undefined && crashAfter === undefined) throw report.error;
    const value = report.error === undefined ? report.value : { error: String(report.error) };
    return { report, did: { effects: await effects?.(), value } };
  };
  const clean = await once();
  const checked = clean.report.journal.filter((entry) => entry.position > 0).map((entry) => entry.name);
  const expected = canonicalJson(clean.did);
  const notIdempotent: NotIdempotent[] = [];
  for (const step of checked) {
    for (const journaled of [false, true]) {
      const { did } = await once({ step, journaled });
      if (canonicalJson(did) === expected) continue;
      const which = journaled
        ? `the work ran again from its top after a crash after "${step}" (journaled): what runs outside its steps did it again`
        : `step "${step}" ran again after a crash before its value was journaled, and did it again (or work outside steps before it did)`;
      const message = `tool "${tool.name}": ${which}: expected ${expected}, got ${canonicalJson(did)}`;
      notIdempotent.push({ step, journaled, expected: clean.did, actual: did, message });
    }
  }
  return { checked, notIdempotent };
}
