/**
 * `transformTool()`: a new tool made from any tool (defined, imported from OpenAPI, proxied), renamed,
 * described anew, with arguments renamed, defaulted or hidden, extra validation, mapped output and scopes.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import { checkScopes } from "../core/definitions/scopes.ts";
import { compileSchema } from "../core/schema.ts";
import type {
  CompiledSchema,
  SchemaInput,
  StandardSchemaV1,
  ValidationIssue,
  ValidationResult,
} from "../core/schema.ts";
import { formatIssues, validateStandard } from "../core/definitions/standard-result.ts";
import { resultFromValue } from "../core/results/result.ts";
import { assertToolName } from "../core/definitions/tool.ts";
import type {
  AnyTool,
  InferToolInput,
  InferToolOutput,
  StreamHandler,
  Tool,
  ToolAnnotations,
  ToolHandler,
} from "../core/definitions/tool.ts";
import { finishTool, type ToolFields } from "./finish-tool.ts";
import { type ArgPlan, type ArgTransform, originalArgs, planArgs, shownArgs, shownIssue } from "./transform-args.ts";

export type { ArgTransform } from "./transform-args.ts";

/**
 * Options of {@link transformTool}.
 *
 * @typeParam T The original tool.
 * @typeParam N The new name.
 * @typeParam A The argument transforms.
 * @typeParam R The new output.
 */
export interface ToolTransform<T extends AnyTool, N extends string, A, R> {
  /** The new name (default: the original's). */
  readonly name?: N;
  /** The new title. */
  readonly title?: string;
  /** The new description, the one the model reads. */
  readonly description?: string;
  /** Annotations set over the original's (`{ readOnlyHint: true }`). */
  readonly annotations?: ToolAnnotations;
  /** Metadata set over the original's `_meta`. */
  readonly meta?: Record<string, unknown>;
  /**
   * OAuth scopes required on top of the original's: a caller without them does not see the tool in
   * lists and its call is refused (403 `insufficient_scope`), as `.scopes()` does.
   */
  readonly scopes?: readonly string[];
  /** The argument transforms, by original argument name. */
  readonly args?:
    & A
    & { readonly [K in keyof InferToolInput<T>]?: ArgTransform<InferToolInput<T>[K]> }
    & { readonly [K in Exclude<keyof A, keyof InferToolInput<T>>]: never };
  /**
   * An extra check of the caller's arguments (under their new names, defaults filled in), run before
   * the original tool's validation, failing as invalid arguments: a Standard Schema (a valibot schema)
   * that must accept them (it checks, never changes them), or a function that returns what is wrong (a
   * message, or issues), nothing when they are fine.
   */
  readonly validate?:
    | StandardSchemaV1
    | ((args: TransformedInput<InferToolInput<T>, A>) => string | readonly ValidationIssue[] | undefined | void);
  /** Maps the result (not for streaming or long-running tools). */
  readonly output?: {
    /**
     * Maps the original's output value (its `structuredContent`, or what its handler returned when that
     * is not an object) to the new tool's; a failure of the original is passed on unmapped.
     */
    readonly map: (value: InferToolOutput<T>, ctx: CallContext) => R | Promise<R>;
    /** The new output schema (listed as `outputSchema`, enforced like any tool's); without it none is listed. */
    readonly schema?: SchemaInput;
  };
}

/**
 * What callers send to a transformed tool: the original's input, hidden arguments left out, renamed
 * ones under their new names, defaulted ones optional (one object type, as editors show it).
 *
 * @typeParam I The original's input.
 * @typeParam A The argument transforms.
 */
export type TransformedInput<I, A> =
  & {
    [
      K in keyof I as K extends keyof A ? A[K] extends { readonly hide: true } ? never
        : A[K] extends { readonly default: NonNullable<unknown> } ? never
        : A[K] extends { readonly name: infer M extends string } ? M
        : K
        : K
    ]: I[K];
  }
  & {
    [
      K in keyof I as K extends keyof A ? A[K] extends { readonly hide: true } ? never
        : A[K] extends { readonly default: NonNullable<unknown> }
          ? A[K] extends { readonly name: infer M extends string } ? M
          : K
        : never
        : never
    ]?: I[K];
  } extends infer S ? { [K in keyof S]: S[K] } : never;

/**
 * Makes a new tool from any tool: one of `defineTool()`, one `toolsFromOpenAPI()` imported, a proxied
 * one. The new tool is listed on every wire with its own name, description and input schema; a call
 * maps its arguments back to the original's, runs the original's validation and handler, and maps the
 * result. The original is left as it was (register either, or both under different names). Inspired by
 * FastMCP's `Tool.from_tool()` and `ArgTransform`.
 *
 * - `args`: by original name, `{ name, description, default, examples }` to show an argument anew, or
 *   `{ hide: true, value }` to hide it (refused when a caller sends it) and give it a fixed value or
 *   one computed from the call's context.
 * - `validate`: a schema or a check of the arguments callers send; a failure is `invalid_arguments`,
 *   as the original's own validation failures are (their paths under the new names).
 * - `output`: `{ map, schema }` maps the original's output value.
 * - `scopes`: required on top of the original's; callers without them neither see nor call it.
 *
 * @param tool The original tool.
 * @param options What changes.
 * @returns The new tool; its input and output types follow the transforms.
 * @throws {TypeError} For an invalid name, an argument the tool lacks, two arguments shown under one
 *   name, a required argument hidden without a value, a malformed scope, or an output map on a
 *   streaming or long-running tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, transformTool } from "../../mod.ts";
 *
 * const search = defineTool("search_v2")
 *   .input(v.object({ q: v.string(), limit: v.number(), tenant: v.string() }))
 *   .output(v.object({ hits: v.array(v.string()) }))
 *   .handle(({ q, limit, tenant }) => ({ hits: [`${tenant}:${q}`].slice(0, limit) }));
 * const find = transformTool(search, {
 *   name: "find",
 *   description: "Finds documents by keyword",
 *   args: {
 *     q: { name: "query", description: "Keywords" },
 *     limit: { default: 10 },
 *     tenant: { hide: true, value: (ctx) => ctx.auth?.subject ?? "public" },
 *   },
 *   output: { map: ({ hits }) => ({ first: hits[0] ?? null, count: hits.length }) },
 * });
 * const server = createServer({ name: "docs", version: "1.0.0" }).tool(find);
 * const outcome = await server.call("find", { query: "mcp" });
 * assert.ok(outcome.kind === "answer");
 * assert.deepEqual(outcome.result.structuredContent, { first: "public:mcp", count: 1 });
 * ```
 */
export function transformTool<
  T extends AnyTool,
  const N extends string = T["name"],
  const A extends { readonly [K in keyof InferToolInput<T>]?: ArgTransform<InferToolInput<T>[K]> } = Record<
    never,
    never
  >,
  R = InferToolOutput<T>,
>(
  tool: T,
  options: ToolTransform<T, N, A, R>,
): Tool<
  N,
  TransformedInput<InferToolInput<T>, A>,
  TransformedInput<InferToolInput<T>, A>,
  R,
  T extends Tool<string, unknown, unknown, unknown, infer S> ? S : never
> {
  const name: string = options.name ?? tool.name;
  assertToolName(name);
  const where = `transformTool("${tool.name}")`;
  const plan = planArgs(tool.input.jsonSchema, (options.args ?? {}) as Record<string, ArgTransform>, where);
  const map = options.output?.map;
  if (map !== undefined && typeof map !== "function") throw new TypeError(`${where}: output.map must be a function`);
  if (map !== undefined && (tool.mode === "stream" || tool.longRunning !== undefined)) {
    throw new TypeError(`${where}: the output of a streaming or long-running tool cannot be mapped`);
  }
  let output: CompiledSchema | undefined = map === undefined ? tool.output : undefined;
  if (options.output?.schema !== undefined) {
    output = compileSchema(options.output.schema, `tool "${name}" output`);
    if (output.jsonSchema.type !== "object") {
      throw new TypeError(`tool "${name}" output: MCP requires an object schema (type "object")`);
    }
  }
  const scopes = options.scopes === undefined
    ? tool.scopes
    : checkScopes([...(tool.scopes ?? []), ...options.scopes], `tool "${name}"`);
  const { redeem: _redeem, cancel: _cancel, ...fields } = tool;
  const transformed: ToolFields = {
    ...fields,
    name,
    title: options.title ?? tool.title,
    description: options.description ?? tool.description,
    annotations: options.annotations === undefined ? tool.annotations : { ...tool.annotations, ...options.annotations },
    meta: options.meta === undefined ? tool.meta : { ...tool.meta, ...options.meta },
    input: { jsonSchema: plan.jsonSchema, validate: inputValidator(plan, options.validate, where) },
    output,
    ...(scopes === undefined ? {} : { scopes }),
    run: tool.mode === "stream" ? streamed(tool, plan, name) : handled(tool, plan, name, map),
  };
  return finishTool(transformed) as unknown as Tool<
    N,
    TransformedInput<InferToolInput<T>, A>,
    TransformedInput<InferToolInput<T>, A>,
    R,
    T extends Tool<string, unknown, unknown, unknown, infer S> ? S : never
  >;
}

/** Checks what the caller sent: no hidden or renamed-away argument, then the extra check. */
function inputValidator(
  plan: ArgPlan,
  check: StandardSchemaV1 | ((args: never) => unknown) | undefined,
  where: string,
): (value: unknown) => ValidationResult | Promise<ValidationResult> {
  if (check !== undefined && typeof check !== "function" && !("~standard" in check)) {
    throw new TypeError(`${where}: validate must be a Standard Schema (a valibot schema) or a function`);
  }
  return (value) => {
    const shown = shownArgs(plan, value);
    if (!shown.ok || check === undefined) return shown;
    const args = shown.value;
    if (typeof check === "function") {
      const found = (check as (args: unknown) => string | readonly ValidationIssue[] | undefined)(args);
      if (found === undefined || (Array.isArray(found) && found.length === 0)) return shown;
      return { ok: false, issues: typeof found === "string" ? [{ path: "", message: found }] : [...found] };
    }
    // The schema checks; it never changes what is passed on (a valibot object would drop other arguments).
    const checked = validateStandard(check, args);
    const keep = (c: ValidationResult): ValidationResult => c.ok ? shown : c;
    return checked instanceof Promise ? checked.then(keep) : keep(checked);
  };
}

/** The original's arguments for a call, validated as the original validates them. */
async function prepared(plan: ArgPlan, tool: AnyTool, name: string, args: unknown, ctx: CallContext): Promise<unknown> {
  const checked = await tool.input.validate(await originalArgs(plan, args as Record<string, unknown>, ctx));
  if (checked.ok) return checked.value;
  const ofHidden = checked.issues.filter((issue) => plan.hidden.has(issue.path.split(".")[0]));
  if (ofHidden.length > 0) {
    // The server's value, not the caller's mistake: a failure reported to onError, not invalid arguments.
    const paths = ofHidden.map((issue) => issue.path).join(", ");
    throw new TypeError(`tool "${name}": the value of hidden argument ${paths} is invalid for tool "${tool.name}"`);
  }
  const issues = checked.issues.map((issue) => shownIssue(plan, issue));
  const detail = formatIssues(issues);
  throw new ProtocolError("invalid_arguments", `Invalid arguments for tool ${name}: ${detail}`, {
    data: { tool: name, issues },
  });
}

function handled(
  tool: AnyTool,
  plan: ArgPlan,
  name: string,
  map: ((value: never, ctx: CallContext) => unknown) | undefined,
): ToolHandler<unknown, unknown> {
  const run = tool.run as ToolHandler<unknown, unknown>;
  return async (args, ctx) => {
    const value = await run(await prepared(plan, tool, name, args, ctx), ctx);
    if (map === undefined) return value;
    const result = resultFromValue(value);
    if (result.isError === true) return result;
    return await (map as (value: unknown, ctx: CallContext) => unknown)(result.structuredContent ?? value, ctx);
  };
}

function streamed(tool: AnyTool, plan: ArgPlan, name: string): StreamHandler<unknown, unknown> {
  const run = tool.run as StreamHandler<unknown, unknown>;
  return async function* (args, ctx) {
    return yield* run(await prepared(plan, tool, name, args, ctx), ctx);
  };
}
