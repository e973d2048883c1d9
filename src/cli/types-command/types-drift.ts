/**
 * What `mcplite types --check` says when the file no longer matches the server: the tools added,
 * removed or changed (with the declarations that changed), read from the file as `mcplite types`
 * writes it.
 *
 * @module
 */
import { REMOTE_TYPE, type TypesModule } from "./types-module.ts";

const DECLARED = /^export (?:interface|type) ([A-Za-z_$][\w$]*)/m;
const ENTRY = /^ {4}(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$][\w$]*)): \{/gm;

/**
 * Lists how a module differs from the one the server's tools give now.
 *
 * @param current The file's text.
 * @param fresh The module written from the server's tools.
 * @returns One line per difference (empty when the texts are equal).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { typesModule } from "./types-module.ts";
 * import { typesDrift } from "./types-drift.ts";
 * const before = typesModule([{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } } }]);
 * const after = typesModule([{ name: "add", inputSchema: { type: "object", properties: { a: { type: "string" } } } }]);
 * assert.deepEqual(typesDrift(before.text, after), ['tool "add" changed (AddInput)']);
 * ```
 */
export function typesDrift(current: string, fresh: TypesModule): string[] {
  if (current === fresh.text) return [];
  const old = declarations(current);
  const now = declarations(fresh.text);
  const oldTools = entries(old.get(REMOTE_TYPE) ?? "");
  const newTools = entries(now.get(REMOTE_TYPE) ?? "");
  const lines: string[] = [];
  for (const name of newTools.keys()) if (!oldTools.has(name)) lines.push(`tool ${JSON.stringify(name)} added`);
  for (const name of oldTools.keys()) if (!newTools.has(name)) lines.push(`tool ${JSON.stringify(name)} removed`);
  for (const [name, entry] of newTools) {
    if (!oldTools.has(name)) continue;
    const changed = reached(fresh.owners.get(name) ?? [], now).filter((decl) => old.get(decl) !== now.get(decl));
    if (changed.length > 0 || oldTools.get(name) !== entry) {
      lines.push(`tool ${JSON.stringify(name)} changed${changed.length > 0 ? ` (${changed.join(", ")})` : ""}`);
    }
  }
  if (lines.length === 0) lines.push("the file differs from what the tools give (not in any tool's types)");
  return lines;
}

/** The module's declarations by name: each one's text (its JSDoc included). */
function declarations(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const block of text.split(/\n\n+/)) {
    const name = DECLARED.exec(block)?.[1];
    if (name !== undefined) found.set(name, block.trim());
  }
  return found;
}

/** The tools of the `Remote` type's `tools`, each with its entry's text. */
function entries(remote: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of remote.matchAll(ENTRY)) {
    const name = match[1] === undefined ? match[2] : JSON.parse(`"${match[1]}"`) as string;
    // One line (`name: { input: …; output: … };`), or up to its own closing `};`.
    found.set(name, /^[\s\S]*?\};$/m.exec(remote.slice(match.index))?.[0] ?? "");
  }
  return found;
}

/** The declarations `names` are made of: themselves and every declared name they mention, transitively. */
function reached(names: string[], all: Map<string, string>): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || !all.has(name) || name === REMOTE_TYPE) return;
    seen.add(name);
    for (const word of all.get(name)!.matchAll(/[A-Za-z_$][\w$]*/g)) visit(word[0]);
  };
  names.forEach(visit);
  return [...seen];
}
