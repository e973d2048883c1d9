/**
 * The MCP revisions this SDK serves, as data, and the `protocolVersions` option that narrows them for
 * one server (mcp-lite exports its own as `SUPPORTED_MCP_PROTOCOL_VERSIONS`).
 *
 * @module
 */
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "../internal/mcp-wire.ts";

/** An MCP revision this SDK serves. */
export type ProtocolVersion = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";

/**
 * Every MCP revision the MCP binding serves, newest first: 2026-07-28 natively (stateless, per-request
 * `_meta` envelope), the 2025 revisions and 2024-11-05 through the `initialize` handshake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SUPPORTED_PROTOCOL_VERSIONS } from "../../mod.ts";
 * assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
 * ```
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = Object.freeze(
  [...MODERN_VERSIONS, ...LEGACY_VERSIONS] as ProtocolVersion[],
);

/** The revisions one server serves, by era, newest first. */
export interface ServedVersions {
  /** Revisions of the stateless era (2026-07-28). */
  readonly modern: readonly string[];
  /** Revisions negotiated by `initialize` (2025 and 2024-11-05). */
  readonly legacy: readonly string[];
}

/**
 * Checks the `protocolVersions` option and splits it by era.
 *
 * @param versions The option (default: every supported revision).
 * @returns The served revisions by era, newest first.
 * @throws {TypeError} When the list is empty or names a revision this SDK does not serve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveProtocolVersions } from "./protocol-versions.ts";
 * assert.deepEqual(resolveProtocolVersions(["2025-06-18", "2026-07-28"]), { modern: ["2026-07-28"], legacy: ["2025-06-18"] });
 * assert.throws(() => resolveProtocolVersions(["2023-01-01" as never]), TypeError);
 * ```
 */
export function resolveProtocolVersions(versions?: readonly ProtocolVersion[]): ServedVersions {
  if (versions === undefined) return { modern: MODERN_VERSIONS, legacy: LEGACY_VERSIONS };
  if (!Array.isArray(versions) || versions.length === 0) {
    throw new TypeError("protocolVersions must list at least one MCP revision");
  }
  for (const version of versions) {
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new TypeError(
        `protocolVersions: ${JSON.stringify(version)} is not a served MCP revision (${
          SUPPORTED_PROTOCOL_VERSIONS.join(", ")
        })`,
      );
    }
  }
  const served = new Set<string>(versions);
  return Object.freeze({
    modern: MODERN_VERSIONS.filter((v) => served.has(v)),
    legacy: LEGACY_VERSIONS.filter((v) => served.has(v)),
  });
}
