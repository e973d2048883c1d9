/**
 * Webtools metadata (`GET {base}/`): one document per version of the tool set, its canonical form and
 * the SHA-256 hash of that form, which is the strong `ETag` a pinned client compares.
 *
 * @module
 */
import { configDefaults } from "../../core/config.ts";
import { canonicalHash } from "../../internal/canonical-json.ts";
import type { CompiledSchema, JsonSchema } from "../../core/schema.ts";
import type { AnyTool } from "../../core/tool.ts";

/** One action of a webtool: a tool, as the spec lists it. */
export interface WebtoolAction {
  /** The action (tool) name. */
  name: string;
  /** What the action does, for the model. */
  description: string;
  /** The JSON Schema of `request` (the tool's input schema). */
  requestSchema: JsonSchema;
  /** The JSON Schema of `data` (the tool's output schema, or {@link UNSTRUCTURED_RESPONSE_SCHEMA}). */
  responseSchema: JsonSchema;
}

/** A webtool's metadata, as `GET {base}/` and `GET {base}/{version}` return it. */
export interface WebtoolsMetadata {
  /** The webtool name. */
  name: string;
  /** What the webtool does. */
  description: string;
  /** The version of the tool set these actions belong to. */
  version: string;
  /** The actions, one per tool, in registration order. */
  actions: WebtoolAction[];
  /** The JSON Schema of `config`: the server's and every tool's `.config()`, less the fixed settings. */
  configSchema: JsonSchema;
  /** The defaults the config schemas declare, applied before validation. */
  defaultConfig: Record<string, unknown>;
}

/** The name, description and version a metadata document is built with. */
export interface WebtoolsInfo {
  /** The webtool name. */
  readonly name: string;
  /** What the webtool does. */
  readonly description: string;
  /** The version. */
  readonly version: string;
}

/**
 * The `responseSchema` of a tool without an output schema: `data` is then its JSON value, its text, or
 * `{ content: [...] }` when it returned media.
 */
export const UNSTRUCTURED_RESPONSE_SCHEMA: JsonSchema = Object.freeze({
  description: "Unstructured result: the tool's JSON value, its text, or { content: [...] } for media blocks",
});

/**
 * Builds the metadata of one version of the tool set.
 *
 * @param info The name, description and version.
 * @param tools The tools, in order.
 * @param serverConfig The server-level config schema, if any.
 * @param settings The server's settings: their keys are fixed, so they are left out of `configSchema`.
 * @returns The metadata.
 */
export function buildMetadata(
  info: WebtoolsInfo,
  tools: Iterable<AnyTool>,
  serverConfig: CompiledSchema | undefined,
  settings: Readonly<Record<string, unknown>>,
): WebtoolsMetadata {
  const actions: WebtoolAction[] = [];
  const schemas: JsonSchema[] = serverConfig === undefined ? [] : [serverConfig.jsonSchema];
  for (const tool of tools) {
    actions.push({
      name: tool.name,
      description: tool.description ?? tool.title ?? "",
      requestSchema: tool.input.jsonSchema,
      responseSchema: tool.output?.jsonSchema ?? UNSTRUCTURED_RESPONSE_SCHEMA,
    });
    if (tool.config !== undefined) schemas.push(tool.config.jsonSchema);
  }
  const configSchema = mergeConfigSchemas(schemas, settings);
  return {
    name: info.name,
    description: info.description,
    version: info.version,
    actions,
    configSchema,
    defaultConfig: configDefaults(configSchema),
  };
}

/**
 * Merges config schemas into one object schema: the first declaration of a property wins, `required`
 * is the union; properties fixed by the server's settings are left out (the caller cannot set them).
 */
function mergeConfigSchemas(schemas: JsonSchema[], settings: Readonly<Record<string, unknown>>): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const fixed = (key: string) => Object.hasOwn(settings, key) && settings[key] !== undefined;
  for (const schema of schemas) {
    for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
      if (!fixed(key) && !Object.hasOwn(properties, key)) properties[key] = property;
    }
    if (Array.isArray(schema.required)) { for (const key of schema.required) if (!fixed(key)) required.add(key); }
  }
  const merged: JsonSchema = { type: "object", properties };
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/**
 * Hashes metadata: the lowercase hex SHA-256 of its canonical JSON (object keys sorted at every depth).
 * This is the value inside the metadata's `ETag`, and the hash a client pins.
 *
 * @param metadata The metadata (or any JSON value).
 * @returns The hex digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metadataHash } from "./metadata.ts";
 * assert.equal(await metadataHash({ a: 1, b: 2 }), await metadataHash({ b: 2, a: 1 }));
 * ```
 */
export function metadataHash(metadata: unknown): Promise<string> {
  return canonicalHash(metadata);
}
