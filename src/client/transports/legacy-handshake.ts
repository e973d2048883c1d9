/**
 * How a client meets a server over a pipe whose era it does not know yet: the `server/discover` probe raced with
 * the 2025 `initialize`, and which revisions are the 2025 ones.
 *
 * @module
 */
import type { RequestContext } from "../transport.ts";
import type { LegacySession } from "./mcp-legacy.ts";
import { LEGACY_VERSIONS } from "./mcp-client-wire.ts";

/**
 * Races a `server/discover` probe a server over a pipe left unanswered (a 2025 server that ignores
 * unknown requests, or one still starting) with `initialize`: the first answer that decides wins: a
 * late discover result (the server locked 2026-07-28; its -32022 to `initialize` is moot), a
 * successful `initialize`, or a late discover error followed by `initialize`'s own outcome.
 *
 * @param judged The probe's verdict: `modern`, or a 2025 revision.
 * @param session The session to open.
 * @param ctx The request context.
 * @returns The era that won.
 */
export function raceHandshake(
  judged: Promise<"modern" | string>,
  session: LegacySession,
  ctx: RequestContext,
): Promise<"modern" | "legacy"> {
  return new Promise((resolve, reject) => {
    let discoverSaidLegacy = false;
    let openFailed: { error: unknown } | undefined;
    judged.then((verdict) => {
      if (verdict === "modern") return resolve("modern");
      discoverSaidLegacy = true;
      if (openFailed !== undefined) reject(openFailed.error);
    }, reject);
    session.open(ctx).then(() => resolve("legacy"), (error) => {
      openFailed = { error };
      if (discoverSaidLegacy) reject(error);
    });
  });
}

/**
 * Tells whether a revision is one of the 2025-era ones this client speaks.
 *
 * @param version The revision.
 * @returns `true` for a legacy revision.
 */
export function isLegacyVersion(version: string): boolean {
  return LEGACY_VERSIONS.includes(version);
}
