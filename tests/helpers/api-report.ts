/**
 * The API report (api/, written by `npm run api:report`) as the record of the public surface: each entry
 * point jsr.json exports, with the names its report file records. Tests check rules over it instead of
 * keeping a list of names of their own.
 */
import { existsSync, readFileSync } from "node:fs";
import { readReport, type ReportedEntry, reportFile, specifierOf } from "../../tools/api-report/read-report.ts";
import { ROOT } from "./process.ts";

/** One entry point as the report records it. */
export interface ReportedEntryPoint extends ReportedEntry {
  /** The subpath jsr.json exports (`"."`, `"./client"`, …). */
  readonly subpath: string;
  /** What a user imports (`@mcplite/sdk/client`). */
  readonly specifier: string;
  /** The entry file, relative to the repository's root (`src/client/mod.ts`). */
  readonly source: string;
  /** The report file, relative to the repository's root (`api/client.api.md`). */
  readonly file: string;
}

/** The entry points jsr.json exports, in its order, each with what its report file records. */
export function apiReport(): ReportedEntryPoint[] {
  const jsr = JSON.parse(readFileSync(`${ROOT}jsr.json`, "utf8"));
  return Object.entries<string>(jsr.exports).map(([subpath, source]) => {
    const file = reportFile(subpath);
    if (!existsSync(ROOT + file)) throw new Error(`${file}, the report of ${subpath}, is missing: npm run api:report`);
    return {
      subpath,
      specifier: specifierOf(jsr.name, subpath),
      source: source.replace(/^\.\//, ""),
      file,
      ...readReport(readFileSync(ROOT + file, "utf8")),
    };
  });
}
