/**
 * A consumer's type check of the npm package: a module importing every entry point package.json exports, the
 * TypeScript notes' one-line declaration (Getting started, where the README points) for dependencies whose `.d.ts`
 * name DOM-only types, and tsc's diagnostics.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ROOT, run } from "./process.ts";

/** A module that imports every entry point package.json exports, so that tsc reads each one's declarations. */
export function everyEntryPoint(): string {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
  return Object.keys(pkg.exports).map((entry, i) =>
    `export * as entry${i} from "${entry === "." ? pkg.name : `${pkg.name}/${entry.slice(2)}`}";\n`
  ).join("");
}

/**
 * The TypeScript notes' declaration of `HeadersInit` (`@connectrpc/connect`'s declarations name it), in Getting
 * started (docs/getting-started/index.md), where the README's notes point.
 */
export function typescriptNotesShim(): string {
  const notes = readFileSync(`${ROOT}docs/getting-started/index.md`, "utf8");
  const line = notes.split("\n").find((text) => /^\s*type HeadersInit = /.test(text));
  assert.ok(line, "Getting started's TypeScript notes declare HeadersInit for dependencies that need the DOM library");
  return line.trim();
}

/** tsc's diagnostics for a project (`-p config` from `app`), one per line (`file(line,col): error TSnnnn: …`). */
export async function tsc(app: string, config: string): Promise<string[]> {
  const checked = await run("node", [`${ROOT}node_modules/typescript/bin/tsc`, "-p", config], 240_000, app);
  const errors = checked.stdout.split("\n").filter((line) => /: error TS\d+:/.test(line));
  assert.ok(checked.code === 0 || errors.length > 0, checked.stdout + checked.stderr);
  return errors;
}
