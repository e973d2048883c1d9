/**
 * A job's steps as lines of its own log (BullMQ's `job.log()`, which Bull Board shows beside the job): each step's
 * start and end, its duration and the size of its value as JSON, so an operator reads the job's journal where the
 * job is. A step's error is named by its kind only: its message may hold what `maskErrors` keeps from callers.
 *
 * @module
 */
import { utf8Encoder } from "../internal/utf8.ts";
import type { StepObserver } from "./journal.ts";

/**
 * The observer of a job's steps that writes them to `log`.
 *
 * @param log Writes a line to the job's log (fire and forget).
 * @param attempt Which start of the job this is, from 1: each line names it.
 * @returns The observer, for the journal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepLog } from "./step-log.ts";
 * const lines: string[] = [];
 * const run = stepLog((line) => void lines.push(line), 1)("fetch", () => ({ rows: 2 }));
 * assert.deepEqual(await run("job:fetch"), { rows: 2 });
 * assert.equal(lines[0], 'attempt 1: step "fetch" started');
 * assert.match(lines[1], /^attempt 1: step "fetch" ended after \d+ ms, 10 B of JSON$/);
 * ```
 */
export function stepLog(log: (line: string) => void, attempt: number): StepObserver {
  return (name, run) => async (key) => {
    const about = `attempt ${attempt}: step ${JSON.stringify(name)}`;
    log(`${about} started`);
    const began = performance.now();
    const took = () => `${Math.round(performance.now() - began)} ms`;
    try {
      const value = await run(key);
      const json = value === undefined ? undefined : JSON.stringify(value);
      const size = json === undefined ? "no value" : `${utf8Encoder.encode(json).length} B of JSON`;
      log(`${about} ended after ${took()}, ${size}`);
      return value;
    } catch (error) {
      log(`${about} failed after ${took()} (${error instanceof Error ? error.name : typeof error})`);
      throw error;
    }
  };
}
