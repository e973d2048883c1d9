/**
 * A remote's icons (MCP 2025-11-25 and 2026-07-28, `Icon`; SEP-973) on its tools, prompts, resources and
 * templates, served as ours: each icon passes the check our own definitions' icons pass (`../core/definitions/icon.ts`),
 * because a client fetches or renders what the gateway lists; one that fails it (`javascript:`, `http:` off
 * loopback) is left out, never the definition it is on.
 *
 * @module
 */
import { checkIcons, type Icon } from "../core/definitions/icon.ts";

/**
 * The icons of a remote definition that may be served.
 *
 * @param listed The `icons` the remote listed (anything: it is the remote's JSON).
 * @returns The icons that pass the check, frozen; `undefined` when none does.
 */
export function servableIcons(listed: unknown): readonly Icon[] | undefined {
  if (!Array.isArray(listed)) return undefined;
  const kept = listed.flatMap((icon) => {
    try {
      return checkIcons([icon as Icon], "remote");
    } catch {
      return [];
    }
  });
  return kept.length === 0 ? undefined : kept;
}
