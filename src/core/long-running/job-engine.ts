/**
 * The long-running engine as the core holds it: a server's runtime keeps the engine its long-running support made
 * (`LongRunning.continuations`) and hands it on, typed by this contract; the engine itself is the jobs layer's
 * (`src/jobs/continuations.ts`), which reads it back whole (`continuationsOf()`). The core calls none of its work.
 *
 * @module
 */
import type { Tokens } from "../instance/tokens.ts";

/** The engine of a server's deferred work: its tokens (it signs them), whether it queues, how much runs here. */
export interface JobEngine extends Tokens {
  /** Where deferred work goes to be run by workers (`createServer({ queue })`), if anywhere. */
  readonly queue?: object;
  /** How many deferred jobs are running in this process. */
  readonly running: number;
}
