/**
 * MCP's wire constants and the per-request envelope of the stateless 2026-07-28 revision.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { type CallMeta, LOG_LEVELS } from "../../core/mod.ts";
import type { JsonRpcRequest } from "../jsonrpc.ts";
import type { ServedVersions } from "../../server/mod.ts";

import {
  LEGACY_VERSIONS,
  META,
  MODERN_VERSION,
  MODERN_VERSIONS,
  PARTIALS_META,
  PROTOCOL_VERSION_HEADER,
} from "../../internal/mcp-wire.ts";
import { echoed } from "../../internal/echo.ts";
import { isObject } from "../../internal/is-object.ts";

type ClientInfo = NonNullable<CallMeta["clientInfo"]>;
type LogLevel = (typeof LOG_LEVELS)[number];

export { LEGACY_VERSIONS, META, MODERN_VERSION, MODERN_VERSIONS, PROTOCOL_VERSION_HEADER };

/** Every revision, when the server does not narrow them. */
const ALL_VERSIONS: ServedVersions = { modern: MODERN_VERSIONS, legacy: LEGACY_VERSIONS };

/** The 2025-era session header (`initialize` issues one; this server keeps no state that needs it). */
export const SESSION_HEADER = "mcp-session-id";

/** What a 2025-era session remembers: set by `initialize` and `logging/setLevel`, per instance. */
export interface LegacySession {
  /** The negotiated version. */
  readonly protocolVersion: string;
  /** The capabilities the client declared in `initialize`. */
  readonly capabilities: Record<string, unknown> | undefined;
  /** The client's self-description. */
  readonly clientInfo: ClientInfo | undefined;
  /** The level `logging/setLevel` chose, if any. */
  logLevel: LogLevel | undefined;
}

/** The era of a request. */
export type Era = "modern" | "legacy";

/** What a request says about its caller, from the envelope (modern) or the headers (legacy). */
export interface Envelope {
  /** The era. */
  readonly era: Era;
  /** The protocol version. */
  readonly protocolVersion: string;
  /** The declared client capabilities (modern: per request; legacy: from the session, when known). */
  readonly clientCapabilities: Record<string, unknown> | undefined;
  /** The client info (modern: per request; legacy: from the session, when known). */
  readonly clientInfo: ClientInfo | undefined;
  /**
   * The least severe level to send; absent means no log messages. Modern requests opt in per request;
   * legacy ones get the session's `logging/setLevel` level, else every level.
   */
  readonly logLevel: LogLevel | undefined;
  /** The progress token, when the request asks for progress. */
  readonly progressToken: string | number | undefined;
  /** Whether the request asks for a streaming tool's partials (`_meta["io.mcplite/partials"]`). */
  readonly partials: boolean;
}

/**
 * Tells whether a request belongs to the modern era: its `_meta` names a protocol version, or its
 * header names one at least as new as 2026-07-28.
 *
 * @param rpc The request.
 * @param headerVersion The `MCP-Protocol-Version` header.
 * @returns `true` for a modern request.
 */
export function isModern(rpc: JsonRpcRequest, headerVersion: string | null): boolean {
  const meta = rpc.params._meta;
  if (isObject(meta) && META.protocolVersion in meta) return true;
  return headerVersion !== null && headerVersion >= MODERN_VERSION && rpc.method !== "initialize";
}

/**
 * Checks a modern request's envelope, in the order the 2026-07-28 revision gives: the `_meta`
 * fields (-32602), the version header (-32020), then the version (-32022).
 *
 * @param rpc The request.
 * @param headerVersion The `MCP-Protocol-Version` header; `undefined` on a carrier without headers (stdio).
 * @param served The revisions the server serves (its `protocolVersions`).
 * @returns The envelope.
 * @throws {ProtocolError} `invalid_envelope`, `header_mismatch` or `unsupported_version`.
 */
export function parseModernEnvelope(
  rpc: JsonRpcRequest,
  headerVersion: string | null | undefined,
  served: ServedVersions = ALL_VERSIONS,
): Envelope {
  const meta = rpc.params._meta;
  if (!isObject(meta)) {
    throw new ProtocolError("invalid_envelope", "Invalid params: params._meta is required");
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") {
    throw new ProtocolError("invalid_envelope", `Invalid params: _meta["${META.protocolVersion}"] is required`);
  }
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) {
    throw new ProtocolError(
      "invalid_envelope",
      `Invalid params: _meta["${META.clientCapabilities}"] must be an object`,
    );
  }
  if (headerVersion !== undefined && (headerVersion === null || headerVersion.trim() !== version)) {
    throw new ProtocolError(
      "header_mismatch",
      `Header mismatch: MCP-Protocol-Version ${headerVersion === null ? "is missing" : `"${headerVersion}"`} ` +
        `but _meta says "${version}"`,
    );
  }
  if (!served.modern.includes(version)) throw unsupportedVersion(version, served.modern, served.legacy);
  const logLevel = logLevelOf(meta[META.logLevel]);
  const info = meta[META.clientInfo];
  return {
    era: "modern",
    protocolVersion: version,
    clientCapabilities: capabilities as Record<string, unknown>,
    clientInfo: isObject(info) ? info as ClientInfo : undefined,
    logLevel,
    progressToken: progressTokenOf(meta),
    partials: meta[PARTIALS_META] === true,
  };
}

/**
 * Reads a legacy request's envelope: the version comes from the header (2025-03-26 when absent), the
 * client's capabilities and log level from the session `initialize` opened, when this instance
 * remembers it. A `_meta` log level (the 2026 key) is honoured on the 2025 revisions too.
 *
 * @param rpc The request.
 * @param headerVersion The `MCP-Protocol-Version` header.
 * @param session What `initialize` and `logging/setLevel` recorded, if known.
 * @param served The revisions the server serves (its `protocolVersions`).
 * @returns The envelope.
 * @throws {ProtocolError} `unsupported_version` for a version header the server does not serve, or
 *   `invalid_params` for an unknown log level.
 */
export function parseLegacyEnvelope(
  rpc: JsonRpcRequest,
  headerVersion: string | null,
  session: LegacySession | undefined,
  served: ServedVersions = ALL_VERSIONS,
): Envelope {
  // `initialize` runs at the version it negotiates (what its result answers), not the header's default.
  const negotiated = rpc.method === "initialize" ? negotiateVersion(rpc.params.protocolVersion, served) : undefined;
  const version = negotiated ?? headerVersion?.trim() ?? session?.protocolVersion ?? "2025-03-26";
  if (headerVersion !== null && rpc.method !== "initialize" && !served.legacy.includes(version)) {
    throw unsupportedVersion(version, served.legacy, served.modern);
  }
  const meta = rpc.params._meta;
  const record = isObject(meta) ? meta : undefined;
  const logLevel = logLevelOf(record?.[META.logLevel]);
  return {
    era: "legacy",
    protocolVersion: version,
    clientCapabilities: session?.capabilities,
    clientInfo: session?.clientInfo,
    logLevel: logLevel ?? session?.logLevel ?? "debug",
    progressToken: record === undefined ? undefined : progressTokenOf(record),
    partials: record?.[PARTIALS_META] === true,
  };
}

/**
 * The version `initialize` answers with (MCP 2025-11-25, Lifecycle, "Version Negotiation"): the one the
 * client asked for when the server serves it, else the newest 2025-era one the server serves.
 *
 * @param asked The `protocolVersion` the client sent.
 * @param served The revisions the server serves.
 * @returns The version, or `undefined` when the server serves no 2025-era revision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LEGACY_VERSIONS, MODERN_VERSIONS, negotiateVersion } from "./envelope.ts";
 * const served = { modern: MODERN_VERSIONS, legacy: LEGACY_VERSIONS };
 * assert.equal(negotiateVersion("2025-06-18", served), "2025-06-18");
 * assert.equal(negotiateVersion("1999-01-01", served), LEGACY_VERSIONS[0]);
 * ```
 */
export function negotiateVersion(asked: unknown, served: ServedVersions): string | undefined {
  return typeof asked === "string" && served.legacy.includes(asked) ? asked : served.legacy[0];
}

/**
 * The error for a revision the server does not serve: -32022 with the revisions of the request's era
 * that it does serve, or, when it serves none of that era, those of the other (a client then falls back).
 *
 * @param version The requested revision.
 * @param era The served revisions of the request's era.
 * @param other Those of the other era.
 * @returns The error.
 */
export function unsupportedVersion(version: string, era: readonly string[], other: readonly string[]): ProtocolError {
  return new ProtocolError("unsupported_version", `Unsupported protocol version: ${echoed(version)}`, {
    data: { supported: era.length > 0 ? era : other, requested: echoed(version) },
  });
}

/**
 * A log level as a request names it (`logging/setLevel`'s `level`, the `_meta` key of MCP 2026-07-28).
 *
 * @param level The level given, if any.
 * @returns It, when it is one of RFC 5424's as MCP names them (Logging).
 * @throws {ProtocolError} `invalid_params`, listing the levels, for any other.
 */
export function logLevelOf(level: unknown): LogLevel | undefined {
  if (level === undefined || LOG_LEVELS.includes(level as LogLevel)) return level as LogLevel | undefined;
  throw new ProtocolError("invalid_params", `Invalid params: unknown log level ${echoed(JSON.stringify(level))}`, {
    data: { levels: LOG_LEVELS },
  });
}

function progressTokenOf(meta: Record<string, unknown>): string | number | undefined {
  const token = meta.progressToken;
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}
