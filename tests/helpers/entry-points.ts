/**
 * The package's entry points as a user's import map names them: `@mcplite/sdk` and each subpath
 * jsr.json exports, pointed at this checkout's sources.
 */
import { readFileSync } from "node:fs";
import { ROOT } from "./process.ts";

/** `{ "@mcplite/sdk": "file:///…/mod.ts", "@mcplite/sdk/client": "file:///…/src/client/mod.ts", … }`. */
export function entryPointImports(): Record<string, string> {
  const jsr = JSON.parse(readFileSync(`${ROOT}jsr.json`, "utf8"));
  const imports: Record<string, string> = {};
  for (const [entry, file] of Object.entries<string>(jsr.exports)) {
    imports[entry === "." ? jsr.name : `${jsr.name}/${entry.slice(2)}`] = new URL(file, `file://${ROOT}`).href;
  }
  return imports;
}
