/**
 * Tool configuration: the environment-supplied settings a tool declares with `.config()` (and the
 * server with `server.config()`), which the model never generates. This file resolves them for a call:
 * the schema defaults, then what the caller supplied (Webtools only), then the server's own settings,
 * which always win, validated against each schema.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import type { Registry } from "./registry.ts";
import type { CompiledSchema, JsonSchema, ValidationIssue, ValidationResult } from "../schema.ts";
import type { AnyTool } from "./tool.ts";
import { CacheSlot } from "./cache-slot.ts";
import { formatIssues } from "./standard-result.ts";
import { isObject } from "../../internal/is-object.ts";

/** The server's settings resolved against each tool's configuration schema. */
const RESOLVED = new CacheSlot<ReturnType<typeof resolveConfig>>("config");

/**
 * Returns the defaults a configuration schema declares: the `default` of each top-level property.
 *
 * @param schema The JSON Schema.
 * @returns The defaults, by property name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configDefaults } from "./config.ts";
 * const schema = { type: "object", properties: { units: { type: "string", default: "metric" } } };
 * assert.deepEqual(configDefaults(schema), { units: "metric" });
 * ```
 */
export function configDefaults(schema: JsonSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return defaults;
  for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
    if (isObject(property) && "default" in property) {
      defaults[key] = (property as { default: unknown }).default;
    }
  }
  return defaults;
}

/**
 * Tells whether a call to this tool needs a configuration (the tool or the server declares one).
 *
 * @param registry The registry, for the server-level schema.
 * @param tool The tool.
 * @returns `true` when there is something to resolve.
 */
export function hasConfig(registry: Registry, tool: AnyTool): boolean {
  return tool.config !== undefined || registry.runtime.config !== undefined;
}

/**
 * Resolves and validates the configuration of a call: the schema defaults, then `supplied` (the
 * caller's, on Webtools), then the server's `settings`, which always win. Each schema sees only the
 * properties it declares; their outputs are merged (the tool's over the server's).
 *
 * @param registry The registry, for the server-level schema and the settings.
 * @param tool The tool.
 * @param supplied What the caller supplied, if the wire lets it.
 * @returns The validated configuration, or the issues (with their property paths).
 */
export function resolveConfig(
  registry: Registry,
  tool: AnyTool,
  supplied?: Record<string, unknown>,
): ValidationResult | Promise<ValidationResult> {
  const schemas = [registry.runtime.config, tool.config].filter((s): s is CompiledSchema => s !== undefined);
  const results = schemas.map((schema) =>
    schema.validate(pick({ ...defaultsOf(schema), ...supplied, ...registry.runtime.settings }, schema))
  );
  return results.some((r) => r instanceof Promise)
    ? Promise.all(results).then(merge)
    : merge(results as ValidationResult[]);
}

/**
 * Resolves the configuration of a call. From the server's settings it is computed once per tool and
 * shared; where the wire lets the caller supply one (Webtools' `config`), it is resolved with what the
 * caller sent, the server's settings still winning.
 *
 * @param registry The registry, for the schemas and the settings.
 * @param tool The tool.
 * @param supplied What the caller supplied, on wires that carry it.
 * @returns The validated configuration (a promise only for asynchronous schemas).
 * @throws {ProtocolError} `invalid_config` when what the caller supplied does not validate (the issues in `data`).
 * @throws {Error} When the server's own settings do not satisfy the schema: a server bug, masked on the wire.
 */
export function configFor(
  registry: Registry,
  tool: AnyTool,
  supplied: Record<string, unknown> | undefined,
): unknown | Promise<unknown> {
  const resolved = supplied === undefined
    ? registry.cached(RESOLVED, tool.name, () => resolveConfig(registry, tool))
    : resolveConfig(registry, tool, supplied);
  return resolved instanceof Promise
    ? resolved.then((r) => configValue(r, tool, supplied !== undefined))
    : configValue(resolved, tool, supplied !== undefined);
}

function configValue(resolved: ValidationResult, tool: AnyTool, supplied: boolean): unknown {
  if (resolved.ok) return resolved.value;
  const detail = formatIssues(resolved.issues);
  if (supplied) {
    throw new ProtocolError("invalid_config", `Invalid config: ${detail}`, {
      data: { issues: resolved.issues },
    });
  }
  throw new Error(`the server's settings do not satisfy the configuration of tool ${tool.name}: ${detail}`);
}

const DEFAULTS = new WeakMap<CompiledSchema, Record<string, unknown>>();

function defaultsOf(schema: CompiledSchema): Record<string, unknown> {
  let defaults = DEFAULTS.get(schema);
  if (defaults === undefined) DEFAULTS.set(schema, defaults = configDefaults(schema.jsonSchema));
  return defaults;
}

function pick(values: Record<string, unknown>, schema: CompiledSchema): Record<string, unknown> {
  const properties = schema.jsonSchema.properties;
  if (typeof properties !== "object" || properties === null) return values;
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) if (Object.hasOwn(values, key)) picked[key] = values[key];
  return picked;
}

function merge(results: ValidationResult[]): ValidationResult {
  const issues: ValidationIssue[] = [];
  let value: Record<string, unknown> = {};
  for (const result of results) {
    if (result.ok) value = { ...value, ...(result.value as Record<string, unknown>) };
    else issues.push(...result.issues);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: Object.freeze(value) };
}
