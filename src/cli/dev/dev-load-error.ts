/**
 * Where a server module failed to load: the file and line the runtime names, in whichever form it
 * names them (Node's and Deno's stack lines, `file:///…:3:10`; Bun's build messages, with positions),
 * a file of the module's graph preferred over the SDK's own frames.
 *
 * @module
 */

/** Why the server is not serving. */
export interface LoadFailure {
  /** One line: the error's name and message. */
  readonly message: string;
  /** `path:line:column` (or `path:line`) of the cause, when the runtime names one. */
  readonly location?: string;
  /** The rest the runtime said (its stack, or the code frame), for the terminal and the dev page. */
  readonly detail?: string;
}

/** The child's own file (its frame is where the import happened, not what failed). */
const CHILD = new URL("./dev-child.", import.meta.url).pathname;
const FRAME = /(?:file:\/\/)?(\/[^\s:()'"`]+\.(?:[cm]?[jt]sx?|json)):(\d+)(?::(\d+))?/g;

/**
 * Finds the location of a load failure.
 *
 * @param report What the child reported: the message, the stack, Bun's positions.
 * @param graph The module's local files (preferred over other frames).
 * @returns The failure, located where the runtime says.
 */
export function locateFailure(
  report: { message: string; stack?: string; positions?: readonly Record<string, unknown>[] },
  graph: ReadonlySet<string>,
): LoadFailure {
  const detail = report.stack ?? report.message;
  const firstLine = report.message.split("\n")[0];
  const position = report.positions?.find((p) => typeof p.file === "string" && typeof p.line === "number");
  if (position !== undefined) {
    const lines = report.positions!.map((p) => `${p.file}:${p.line}:${p.column}  ${p.lineText ?? ""}`.trimEnd());
    return {
      message: firstLine,
      location: `${position.file}:${position.line}:${position.column}`,
      detail: lines.join("\n"),
    };
  }
  const frames = [...`${report.message}\n${detail}`.matchAll(FRAME)]
    .map((m) => ({ file: decodeURIComponent(m[1]), at: m[3] === undefined ? `${m[2]}` : `${m[2]}:${m[3]}` }))
    .filter((f) => !f.file.includes("/node_modules/") && !f.file.startsWith(CHILD));
  const frame = frames.find((f) => graph.has(f.file)) ?? frames[0];
  return { message: firstLine, location: frame && `${frame.file}:${frame.at}`, detail };
}

/**
 * Writes a path relative to the working directory when it is under it.
 *
 * @param location A path, maybe with `:line:column`.
 * @param cwd The working directory.
 * @returns The shorter form.
 */
export function relativeTo(location: string, cwd: string): string {
  const dir = cwd.endsWith("/") ? cwd : `${cwd}/`;
  return location.startsWith(dir) ? location.slice(dir.length) : location;
}
