/**
 * The server a module exports, loaded for a command that runs beside the web instances (`mcplite worker`,
 * `mcplite jobs`): the same module, so the same tools, secret, result store and queue.
 *
 * @module
 */
import { serverOf } from "./dev/dev-messages.ts";

/** The exit code of a module that cannot be run: it did not load, or exports no server. */
export const NOT_RUNNABLE = 3;

const g = globalThis as unknown as { Deno?: { cwd(): string }; process?: { cwd(): string } };

/**
 * Loads the server `path` (relative to the working directory) exports.
 *
 * @param path The module's path, as typed.
 * @param usage Writes a usage error (exit 2) naming the problem.
 * @param say Writes a line of the command's own.
 * @returns The server, or the exit code: 2 for no such file, 3 for a module that does not load or exports no server.
 */
export async function loadServer(
  path: string,
  usage: (problem: string) => Promise<number>,
  say: (line: string) => Promise<void>,
): Promise<object | number> {
  const cwd = g.Deno ? g.Deno.cwd() : g.process!.cwd();
  const url = new URL(path, `file://${cwd}/`);
  const { stat } = await import("node:fs/promises");
  const file = decodeURIComponent(url.pathname);
  if (!(await stat(file).catch(() => undefined))?.isFile()) return await usage(`no file ${path}`);
  let exports: Record<string, unknown>;
  try {
    exports = await import(url.href);
  } catch (error) {
    return (await say(`${path} did not load: ${(error as Error)?.message ?? error}`), NOT_RUNNABLE);
  }
  const found = serverOf(exports);
  if (typeof found === "string") return (await say(found), NOT_RUNNABLE);
  return found;
}
