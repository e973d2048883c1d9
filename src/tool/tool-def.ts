/**
 * The finished tool definition that `defineTool()` produces, and the types inferred from it.
 *
 * @module
 */
import type { CallContext } from "../core/call-context.ts";
import type { ContentBlock, ToolResult } from "../core/result.ts";
import type { CompiledSchema, JsonSchema } from "./schema.ts";

/** MCP's tool annotations: hints about behaviour, never trusted for security. */
export interface ToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** The tool may make destructive updates. */
  destructiveHint?: boolean;
  /** Calling the tool twice with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool talks to an open world of external entities. */
  openWorldHint?: boolean;
  /** Other hints. */
  [key: string]: unknown;
}

/** What a handler may return: the output value, a string, content blocks or a complete result. */
export type HandlerReturn<TOut> = TOut | ToolResult | ContentBlock | ContentBlock[] | string | void;

/** A plain handler. */
export type ToolHandler<TArgs, TOut> = (
  args: TArgs,
  ctx: CallContext,
) => HandlerReturn<TOut> | Promise<HandlerReturn<TOut>>;

/** A streaming handler: each yielded value is a partial; the return value, if any, is the final result. */
export type StreamHandler<TArgs, TOut> = (
  args: TArgs,
  ctx: CallContext,
) => AsyncIterable<unknown> | AsyncGenerator<unknown, HandlerReturn<TOut>, undefined>;

/** The types a tool carries for inference; never present at run time. */
export interface ToolTypes<TInput, TArgs, TOutput> {
  /** What the caller sends (the input schema's input type). */
  readonly input: TInput;
  /** What the handler receives (the input schema's output type). */
  readonly args: TArgs;
  /** What the caller gets back as structured content. */
  readonly output: TOutput;
}

/**
 * A finished tool, ready to be registered with `server.tool()`.
 *
 * @typeParam TName The tool name.
 * @typeParam TInput What the caller sends.
 * @typeParam TArgs What the handler receives.
 * @typeParam TOutput The structured result.
 */
export interface Tool<TName extends string = string, TInput = unknown, TArgs = unknown, TOutput = unknown> {
  /** The tool name. */
  readonly name: TName;
  /** The MCP-lite `@type` category. */
  readonly category: string | undefined;
  /** A human-readable title. */
  readonly title: string | undefined;
  /** What the tool does, for the model. */
  readonly description: string | undefined;
  /** The input schema, compiled. */
  readonly input: CompiledSchema;
  /** The output schema, compiled, if declared. */
  readonly output: CompiledSchema | undefined;
  /** MCP annotations. */
  readonly annotations: ToolAnnotations | undefined;
  /** Free-form metadata sent as the tool's `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /** `"handle"` for a plain handler, `"stream"` for a streaming one. */
  readonly mode: "handle" | "stream";
  /** The handler. */
  readonly run: ToolHandler<unknown, unknown> | StreamHandler<unknown, unknown>;
  /** Phantom types for inference. */
  readonly "~types"?: ToolTypes<TInput, TArgs, TOutput>;
}

/** Any tool, whatever its types. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<string, any, any, any>;

/** The arguments a caller sends to a tool. */
export type InferToolInput<T extends AnyTool> = NonNullable<T["~types"]>["input"];

/** The arguments a tool's handler receives. */
export type InferToolArgs<T extends AnyTool> = NonNullable<T["~types"]>["args"];

/** The structured result a tool gives back. */
export type InferToolOutput<T extends AnyTool> = NonNullable<T["~types"]>["output"];

/** A tool's description as listed to clients (MCP `Tool`, plus MCP-lite's `@type`). */
export interface ToolDescriptor {
  /** The tool name. */
  name: string;
  /** The MCP-lite category. */
  "@type"?: string;
  /** A human-readable title. */
  title?: string;
  /** What the tool does. */
  description?: string;
  /** The JSON Schema of the arguments. */
  inputSchema: JsonSchema;
  /** The JSON Schema of the structured result. */
  outputSchema?: JsonSchema;
  /** MCP annotations. */
  annotations?: ToolAnnotations;
  /** Free-form metadata. */
  _meta?: Record<string, unknown>;
}

/**
 * Describes a tool as `tools/list` shows it. Runs once per tool, at registration.
 *
 * @param tool The tool.
 * @param withCategory Whether to include MCP-lite's `@type`.
 * @returns The descriptor.
 */
export function describeTool(tool: AnyTool, withCategory: boolean): ToolDescriptor {
  const d = { name: tool.name } as ToolDescriptor;
  if (withCategory && tool.category !== undefined) d["@type"] = tool.category;
  if (tool.title !== undefined) d.title = tool.title;
  if (tool.description !== undefined) d.description = tool.description;
  d.inputSchema = tool.input.jsonSchema;
  if (tool.output) d.outputSchema = tool.output.jsonSchema;
  if (tool.annotations) d.annotations = tool.annotations;
  if (tool.meta) d._meta = tool.meta;
  return d;
}
