/**
 * The argument half of `transformTool()`: the advertised JSON Schema with arguments renamed, described,
 * defaulted or hidden, and the mapping of a caller's arguments back to the original tool's.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { JsonSchema, ValidationIssue } from "../core/schema.ts";
import { isObject } from "../internal/is-object.ts";
import { setOwn } from "../internal/proto-keys.ts";

/**
 * How `transformTool()` changes one argument: shown under another name, description or default
 * (`{ name, description, default, examples }`), or hidden from callers (`{ hide: true, value }`): left
 * out of the advertised schema, refused when sent, and given `value` on every call (omitted when there
 * is none, which only an optional argument allows).
 *
 * @typeParam T The argument's type, as the original tool takes it.
 */
export type ArgTransform<T = unknown> =
  | {
    /** Not hidden. */
    readonly hide?: false;
    /** The name callers use instead (1-64 characters; unique among the tool's arguments). */
    readonly name?: string;
    /** The description the JSON Schema shows for it. */
    readonly description?: string;
    /** The value it takes when the caller omits it: the argument becomes optional, its schema shows `default`. */
    readonly default?: T;
    /** Example values the JSON Schema shows (`examples`, JSON Schema 2020-12 §9.5). */
    readonly examples?: readonly T[];
  }
  | {
    /** Hidden. */
    readonly hide: true;
    /**
     * Its value: a fixed one, or a function of the call's context (`ctx.auth?.subject`, a header of
     * `ctx.meta.headers`, `ctx.config`), run before the original tool validates its arguments.
     */
    readonly value?: T | ((ctx: CallContext) => T | Promise<T>);
  };

/** An argument callers still see. */
type ShownArg = Exclude<ArgTransform, { readonly hide: true }>;
/** An argument callers never see. */
type HiddenArg = Extract<ArgTransform, { readonly hide: true }>;

/** What the transformed tool needs to turn a caller's arguments into the original tool's. */
export interface ArgPlan {
  /** The advertised input schema. */
  readonly jsonSchema: JsonSchema;
  /** New name → original name, for the renamed arguments. */
  readonly toOriginal: ReadonlyMap<string, string>;
  /** Original name → new name, for issue paths. */
  readonly toShown: ReadonlyMap<string, string>;
  /** Names callers may not send (hidden arguments; old names of renamed ones), with the reason. */
  readonly refused: ReadonlyMap<string, string>;
  /** Shown name → default. */
  readonly defaults: ReadonlyMap<string, unknown>;
  /** Original name → how its value is found. */
  readonly hidden: ReadonlyMap<string, HiddenArg>;
}

const ARG_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Plans the argument transforms over the original input schema, checking them against it.
 *
 * @param schema The original tool's input JSON Schema.
 * @param args The transforms, by original argument name.
 * @param where The tool, for messages.
 * @returns The plan.
 * @throws {TypeError} For an argument the schema does not have, an invalid or clashing new name, or a
 *   required argument hidden without a value.
 */
export function planArgs(schema: JsonSchema, args: Record<string, ArgTransform | undefined>, where: string): ArgPlan {
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const toOriginal = new Map<string, string>();
  const toShown = new Map<string, string>();
  const refused = new Map<string, string>();
  const defaults = new Map<string, unknown>();
  const hidden = new Map<string, HiddenArg>();
  for (const [key, change] of Object.entries(args)) {
    if (change === undefined) continue;
    if (!Object.hasOwn(properties, key)) {
      const known = Object.keys(properties).join(", ") || "none";
      throw new TypeError(`${where}: no argument "${key}" to transform (its arguments: ${known})`);
    }
    if (change.hide === true) {
      if (required.has(key) && change.value === undefined) {
        throw new TypeError(`${where}: argument "${key}" is required: hide it with a value`);
      }
      hidden.set(key, change);
      refused.set(key, "it is not an argument of this tool");
      continue;
    }
    const shown = (change as ShownArg).name ?? key;
    if (typeof shown !== "string" || !ARG_NAME.test(shown)) {
      throw new TypeError(`${where}: invalid name ${JSON.stringify(shown)} for argument "${key}"`);
    }
    if (shown !== key) {
      toOriginal.set(shown, key);
      toShown.set(key, shown);
      refused.set(key, `it is now called "${shown}"`);
    }
    if ("default" in change && change.default !== undefined) defaults.set(shown, change.default);
  }
  const taken = new Set<string>();
  for (const key of Object.keys(properties)) {
    if (hidden.has(key)) continue;
    const shown = toShown.get(key) ?? key;
    if (taken.has(shown)) throw new TypeError(`${where}: two arguments would be called "${shown}"`);
    taken.add(shown);
    refused.delete(shown); // an argument renamed to a name another gave up is that name's again
  }
  return {
    jsonSchema: advertised(schema, properties, required, args, toShown, hidden),
    toOriginal,
    toShown,
    refused,
    defaults,
    hidden,
  };
}

function advertised(
  schema: JsonSchema,
  properties: Record<string, unknown>,
  required: ReadonlySet<string>,
  args: Record<string, ArgTransform | undefined>,
  toShown: ReadonlyMap<string, string>,
  hidden: ReadonlyMap<string, HiddenArg>,
): JsonSchema {
  const shownProperties: Record<string, unknown> = {};
  const shownRequired: string[] = [];
  for (const [key, property] of Object.entries(properties)) {
    if (hidden.has(key)) continue;
    const shown = toShown.get(key) ?? key;
    const change = args[key] as ShownArg | undefined;
    const next: Record<string, unknown> = isObject(property) ? { ...property } : {};
    if (change?.description !== undefined) next.description = change.description;
    if (change?.default !== undefined) next.default = change.default;
    if (change?.examples !== undefined) next.examples = [...change.examples];
    shownProperties[shown] = isObject(property) || change !== undefined ? next : property;
    if (required.has(key) && change?.default === undefined) shownRequired.push(shown);
  }
  const result: JsonSchema = { ...schema, properties: shownProperties };
  if (shownRequired.length > 0) result.required = shownRequired;
  else delete result.required;
  return result;
}

/**
 * A caller's arguments under the shown names, with the defaults filled in; the names it may not send
 * are issues.
 *
 * @param plan The plan.
 * @param value The caller's arguments.
 * @returns The arguments, or the issues.
 */
export function shownArgs(
  plan: ArgPlan,
  value: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] } {
  if (!isObject(value)) return { ok: false, issues: [{ path: "", message: "Expected an object" }] };
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(value)) {
    const why = plan.refused.get(key);
    if (why !== undefined) issues.push({ path: key, message: `Unknown argument: ${why}` });
  }
  if (issues.length > 0) return { ok: false, issues };
  const args: Record<string, unknown> = { ...value }; // spread defines own properties, `__proto__` too
  for (const [key, fallback] of plan.defaults) {
    // Own keys only: `constructor` and friends are inherited by every object.
    if (!Object.hasOwn(args, key) || args[key] === undefined) setOwn(args, key, structuredClone(fallback));
  }
  return { ok: true, value: args };
}

/**
 * The original tool's arguments: the shown ones under their original names, and the hidden ones'
 * values (computed from the call's context where they are functions).
 *
 * @param plan The plan.
 * @param args The caller's arguments, checked by {@link shownArgs}.
 * @param ctx The call's context.
 * @returns The arguments, a promise when a hidden value is one.
 */
export function originalArgs(
  plan: ArgPlan,
  args: Record<string, unknown>,
  ctx: CallContext,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  // Every key is set as an own property: a caller's `__proto__` key assigned would become the copy's
  // prototype, through which the original's validation would read a hidden argument the caller set.
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) setOwn(out, plan.toOriginal.get(key) ?? key, value);
  const waiting: Promise<void>[] = [];
  for (const [key, arg] of plan.hidden) {
    const value = typeof arg.value === "function" ? (arg.value as (ctx: CallContext) => unknown)(ctx) : arg.value;
    if (value instanceof Promise) waiting.push(value.then((settled) => setOwn(out, key, settled)));
    else if (value !== undefined) setOwn(out, key, structuredClone(value));
  }
  return waiting.length === 0 ? out : Promise.all(waiting).then(() => out);
}

/**
 * An issue of the original tool's validation, its path under the shown name.
 *
 * @param plan The plan.
 * @param issue The issue.
 * @returns The issue as the caller sees it.
 */
export function shownIssue(plan: ArgPlan, issue: ValidationIssue): ValidationIssue {
  const [head, ...rest] = issue.path.split(".");
  const shown = plan.toShown.get(head);
  return shown === undefined ? issue : { path: [shown, ...rest].join("."), message: issue.message };
}
