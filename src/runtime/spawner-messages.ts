/**
 * The messages between a parent and its spawner thread (thread-spawner.ts): a start, with the port the new thread
 * talks to the parent on, and a termination going in; a thread's failure or exit coming out.
 *
 * @module
 */

/** What the spawner is sent: start the module at `url` as thread `id`, handing it `port`; or terminate `id`. */
export type ToSpawner =
  | { readonly type: "start"; readonly id: number; readonly url: string; readonly port: unknown }
  | { readonly type: "terminate"; readonly id: number };

/** What the spawner tells: thread `id` failed (its script did not load, or it threw), or exited. */
export type FromSpawner =
  | { readonly type: "failed"; readonly id: number; readonly message: string }
  | { readonly type: "exit"; readonly id: number; readonly code: number };
