/**
 * What a registered feature brings to MCP-lite's wires (`feature.mcplite[key]`: its prompts, its
 * resources), found among the registry's features, so that a server without them does not load the
 * code that serves them (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import type { Registry } from "../core/mod.ts";

/**
 * Finds the first feature's MCP-lite part of a kind.
 *
 * @param registry The registry.
 * @param key The part (`"prompts"`, `"resources"`).
 * @returns The part, or `undefined` when no registered feature brought one.
 */
export function litePart<T>(registry: Registry, key: string): T | undefined {
  for (const feature of registry.features) {
    const part = (feature as { readonly mcplite?: Readonly<Record<string, unknown>> }).mcplite?.[key];
    if (part !== undefined) return part as T;
  }
  return undefined;
}
