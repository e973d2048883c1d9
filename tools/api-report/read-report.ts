/**
 * Reads the API report back: which file holds an entry point's report, and the names (with their kinds) a
 * report file records. The report is the record of the public surface; `tests/exports.test.ts` and
 * `tests/docs/public-api.test.ts` check their rules over what this reads, so no second list of names exists.
 */

/** The report's folder, relative to the repository's root. */
export const REPORT_DIR = "api";

/** `"."` → `api/mod.api.md`, `"./client/grpc"` → `api/client-grpc.api.md`. */
export function reportFile(subpath: string): string {
  return `${REPORT_DIR}/${subpath === "." ? "mod" : subpath.slice(2).replaceAll("/", "-")}.api.md`;
}

/** `"."` → `@mcplite/sdk`, `"./client/grpc"` → `@mcplite/sdk/client/grpc`. */
export function specifierOf(packageName: string, subpath: string): string {
  return subpath === "." ? packageName : `${packageName}${subpath.slice(1)}`;
}

/** The kind of a declaration as the report writes it (tools/api-report/render.ts). */
export type ReportKind = "class" | "interface" | "type" | "function" | "const" | "let" | "var" | "enum" | "namespace";

/** What one report file records. */
export interface ReportedEntry {
  /** The number of names the report's header states. */
  readonly stated: number;
  /** Each exported name with the kinds of its declarations (a name may be a `const` and a `type`). */
  readonly names: ReadonlyMap<string, ReadonlySet<ReportKind>>;
}

// A declaration starts at column 0 (members are indented, a block closes with `}`); see render.ts.
const DECLARATION =
  /^(?:abstract )?(?:async )?(class|interface|type|function\*?|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/;

/**
 * The names a report file records, read from its declarations, and the count its header states.
 *
 * @param text A report file's text (`api/<entry>.api.md`).
 * @returns The stated count and the names with their kinds.
 */
export function readReport(text: string): ReportedEntry {
  const header = text.match(/^`[^`]+` exports (\d+) names?\.$/m);
  if (!header) throw new Error("api-report: no `… exports N names.` line in a report file");
  const start = text.indexOf("```ts\n");
  const end = text.lastIndexOf("\n```");
  const names = new Map<string, Set<ReportKind>>();
  if (start >= 0 && end > start) {
    for (const line of text.slice(start + 6, end).split("\n")) {
      const match = line.match(DECLARATION);
      if (!match) continue;
      const kind = match[1].replace("*", "") as ReportKind;
      const kinds = names.get(match[2]) ?? new Set<ReportKind>();
      names.set(match[2], kinds.add(kind));
    }
  }
  return { stated: Number(header[1]), names };
}
