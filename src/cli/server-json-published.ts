/**
 * The `mcpName` of a published npm package, read as the MCP Registry reads it when a `server.json` is
 * published (its npm validator: `GET <registry>/<name>/<version>`, the version's `package.json`), so that
 * `mcplite server-json --check` finds a mismatch before `mcp-publisher publish` does.
 *
 * @module
 */

/** npm's registry, the only one the MCP Registry takes npm packages from. */
export const NPM_REGISTRY = "https://registry.npmjs.org";

/** How long the registry gets to answer before the check is skipped. */
const LOOKUP_TIMEOUT_MS = 10_000;

/** What the registry said of the published version. */
export type Published =
  | { readonly kind: "found"; readonly mcpName: string | undefined }
  | { readonly kind: "missing" }
  | { readonly kind: "unreachable"; readonly reason: string };

/**
 * Reads the published version's `mcpName`.
 *
 * @param registry The npm registry's base URL (npm's, or `npm_config_registry`'s).
 * @param name The package's name.
 * @param version The version.
 * @returns Its `mcpName`; `missing` for a version not published (yet); `unreachable` with the reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { publishedMcpName } from "./server-json-published.ts";
 * const nowhere = await publishedMcpName("http://127.0.0.1:9", "weather-mcp", "1.0.0");
 * assert.equal(nowhere.kind, "unreachable");
 * ```
 */
export async function publishedMcpName(registry: string, name: string, version: string): Promise<Published> {
  const url = `${registry.replace(/\/+$/, "")}/${name}/${encodeURIComponent(version)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: "unreachable", reason: (error as Error).message };
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return { kind: "missing" };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { kind: "unreachable", reason: `HTTP ${response.status}` };
  }
  try {
    const manifest = await response.json();
    const mcpName = typeof manifest?.mcpName === "string" && manifest.mcpName !== "" ? manifest.mcpName : undefined;
    return { kind: "found", mcpName };
  } catch (error) {
    return { kind: "unreachable", reason: `not JSON: ${(error as Error).message}` };
  }
}
