/**
 * The messages between the worker executor and a program's thread: a program and its limits going in, its tool
 * calls coming out and their results going back as JSON text, its outcome coming out; pings to tell a thread that
 * computes from one that waits.
 *
 * @module
 */
import type { CodeExecutor } from "../executor.ts";

/** A program's limits, as the executor contract names them. */
type Limits = Parameters<CodeExecutor["execute"]>[0]["limits"];

/**
 * What a program's thread is sent. `run` numbers the program, so that a late answer for another is dropped; `stop`
 * is the thread's stop flag (stop-flag.ts), shared.
 */
export type ToThread =
  | {
    readonly type: "run";
    readonly run: number;
    readonly source: string;
    readonly limits: Limits;
    readonly stop: Int32Array;
  }
  | { readonly type: "settle"; readonly run: number; readonly id: number; readonly json: string | undefined }
  | { readonly type: "reject"; readonly run: number; readonly id: number; readonly message: string }
  | { readonly type: "ping" };

/**
 * What a program's thread sends: `ready` with its id where it has one (its CPU clock, for the parent's watchdog);
 * `done` with whether its program ran long (past LONG_MS of CPU: the thread then serves no more).
 */
export type FromThread =
  | { readonly type: "ready"; readonly tid: number | undefined }
  | { readonly type: "pong" }
  | { readonly type: "call"; readonly run: number; readonly id: number; readonly name: string; readonly args: unknown }
  | {
    readonly type: "done";
    readonly run: number;
    readonly outcome: Awaited<ReturnType<CodeExecutor["execute"]>>;
    readonly long: boolean;
  }
  | { readonly type: "broken"; readonly message: string };
