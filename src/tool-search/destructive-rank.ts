/**
 * Destructive tools after their constructive siblings: a query that names no removal ("leave a
 * comment", "store a secret") wants `create-comment`, not `delete-comment`, though both hold its
 * words equally. A tool is destructive by its annotation (MCP 2025-11-25, Tools, `ToolAnnotations`:
 * `destructiveHint` true, meaningful only when `readOnlyHint` is not) or by its action's verb
 * (`DeleteMessages`, `issues_remove-label`).
 *
 * @module
 */
import type { SearchableTool } from "./tool-fields.ts";
import { searchTokens } from "./search-tokens.ts";

/** How much a destructive tool's score is kept when the query asks for no removal. */
export const DESTRUCTIVE_FACTOR = 0.25;

/** The verbs of removal, as written. */
const REMOVAL_VERBS = "delete remove destroy revoke erase purge discard trash drop cancel unsubscribe uninstall";

let removal: ReadonlySet<string> | undefined;

/** The verbs of removal as search terms (stemmed), made on first use (no module-level call: tree-shaken when unused). */
function removalTerms(): ReadonlySet<string> {
  return removal ??= new Set(searchTokens(REMOVAL_VERBS));
}

/**
 * Whether a tool removes something: its annotation says so, or its action (its name's last segment) has a
 * removal verb.
 *
 * @param tool The tool.
 * @param action Its action's terms.
 * @returns True when it is destructive.
 */
export function isDestructive(tool: SearchableTool, action: readonly string[]): boolean {
  const hints = tool.annotations;
  if (hints?.destructiveHint === true && hints.readOnlyHint !== true) return true;
  const terms = removalTerms();
  return action.some((term) => terms.has(term));
}

/**
 * Whether a query asks for a removal: one of its terms, its own or a synonym's (remove → delete), is a
 * removal verb.
 *
 * @param terms The query's terms.
 * @returns True when destructive tools keep their scores.
 */
export function asksRemoval(terms: ReadonlyMap<string, number>): boolean {
  const removals = removalTerms();
  for (const term of terms.keys()) if (removals.has(term)) return true;
  return false;
}
