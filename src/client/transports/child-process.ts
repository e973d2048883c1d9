/**
 * A child process with piped stdin, stdout and stderr, on whichever runtime runs the client: each
 * runtime's own way is in `src/runtime/<runtime>/spawn-child.ts` (Node's `node:child_process` loaded
 * only there).
 *
 * @module
 */
import type { ChildProcess, SpawnOptions } from "../../runtime/child-types.ts";
import { spawnChild as onBun } from "../../runtime/bun/spawn-child.ts";
import { spawnChild as onDeno } from "../../runtime/deno/spawn-child.ts";
import { spawnChild as onNode } from "../../runtime/node/spawn-child.ts";

export type { ChildExit, ChildProcess, SpawnOptions } from "../../runtime/child-types.ts";

/**
 * Starts a child process.
 *
 * @param options The command, arguments, environment and directory.
 * @returns The child.
 * @throws {Error} When the program cannot be started (the runtime's error, e.g. not found).
 */
export async function spawnChild(options: SpawnOptions): Promise<ChildProcess> {
  return onDeno(options) ?? onBun(options) ?? await onNode(options);
}
