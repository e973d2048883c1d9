/**
 * Discovery and the 2025 lifecycle: `server/discover`, `initialize`, `ping`.
 *
 * @module
 */
import type { ServerCore } from "../../server/server-core.ts";
import { LEGACY_VERSIONS, MODERN_VERSIONS } from "./envelope.ts";
import type { McpMethod } from "./request.ts";

/**
 * Describes what the server can do; capabilities follow the registered handlers.
 *
 * @param core The server.
 * @returns The capabilities object.
 */
export function serverCapabilities(core: ServerCore): Record<string, unknown> {
  return core.registry.memo("mcp:capabilities", () => ({ tools: {} }));
}

/**
 * `server/discover` (2026-07-28): versions, capabilities, instructions and caching hints.
 *
 * @param core The server.
 * @returns The result.
 */
export const discover: McpMethod = (core) => {
  const result: Record<string, unknown> = {
    supportedVersions: MODERN_VERSIONS,
    capabilities: serverCapabilities(core),
  };
  if (core.options.instructions !== undefined) result.instructions = core.options.instructions;
  result.ttlMs = 0;
  result.cacheScope = "public";
  return { result };
};

/**
 * `initialize` (2025 era): echoes a supported version, or offers the newest one.
 *
 * @param core The server.
 * @param request The request.
 * @returns The result.
 */
export const initialize: McpMethod = (core, request) => {
  const asked = request.rpc.params.protocolVersion;
  const protocolVersion = typeof asked === "string" && LEGACY_VERSIONS.includes(asked) ? asked : LEGACY_VERSIONS[0];
  const { name, version, title, instructions } = core.options;
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities: serverCapabilities(core),
    serverInfo: title === undefined ? { name, version } : { name, version, title },
  };
  if (instructions !== undefined) result.instructions = instructions;
  return { result };
};

/**
 * `ping` (2025 era): an empty result.
 *
 * @returns The result.
 */
export const ping: McpMethod = () => ({ result: {} });
