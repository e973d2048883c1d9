/**
 * What the `mcplite dev` child tells its parent, one line each on stdout, and which export of the
 * server module is the server.
 *
 * @module
 */
import type { Fetchable } from "../../runtime/listen-types.ts";
import type { ListDigests } from "./dev-lists.ts";

/** The start of the child's message lines; every other line is the module's own output. */
export const DEV_MESSAGE_PREFIX = "@mcplite-dev ";

/** The header that carries the host a request was addressed to, from the dev server to its child. */
export const DEV_HOST_HEADER = "x-mcplite-dev-host";

/** A message from the child. */
export type DevMessage =
  | { readonly type: "waiting" }
  | {
    readonly type: "ready";
    readonly url: string;
    readonly basePath: string;
    /** What it lists, to tell a change across a restart (absent for an app that is not a server). */
    readonly lists?: ListDigests;
  }
  | {
    readonly type: "failed";
    readonly message: string;
    readonly stack?: string;
    /** Bun's build messages' positions (`file`, `line`, `column`, `lineText`), for a syntax error. */
    readonly positions?: readonly Record<string, unknown>[];
  };

/**
 * Reads one line of the child's stdout.
 *
 * @param line The line, without its end.
 * @returns The message, or `undefined` for the module's own output.
 */
export function parseDevMessage(line: string): DevMessage | undefined {
  if (!line.startsWith(DEV_MESSAGE_PREFIX)) return undefined;
  try {
    return JSON.parse(line.slice(DEV_MESSAGE_PREFIX.length)) as DevMessage;
  } catch {
    return undefined;
  }
}

/**
 * Finds the server among a module's exports as `mcplite init`'s projects write it: `export const
 * server`, else `export default` (a Worker's and `deno serve`'s convention); anything with a
 * `fetch(request)` serves.
 *
 * @param exports The module's namespace.
 * @returns The server, or why there is none.
 */
export function serverOf(exports: Record<string, unknown>): Fetchable | string {
  for (const name of ["server", "default"]) {
    const value = exports[name] as { fetch?: unknown } | undefined;
    if (value !== null && typeof value === "object" && typeof value.fetch === "function") return value as Fetchable;
  }
  const names = Object.keys(exports);
  return "the module exports no server: export it as `export const server = createServer(…)` (or `export default`)" +
    `, and serve it under \`if (import.meta.main)\`; it exports ${names.length ? names.join(", ") : "nothing"}`;
}
