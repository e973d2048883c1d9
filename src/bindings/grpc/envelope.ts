/**
 * The gRPC binding's wire format (MCP-lite spec v0.042 §5.2, A.1–A.4): outcomes become `ToolResponse` messages, the
 * tool table a `ToolsList`. A complete response carries `meta`; a stream partial carries none and a
 * result `{"partial": …}`. Redeeming is an ordinary `CallTool` of the `redeem` tool.
 *
 * @module
 */
import type { JsonObject, JsonValue, MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import { withoutProto } from "../../internal/proto-keys.ts";
import {
  asksOnlyForResources,
  type AuthInfo,
  CacheSlot,
  type CallOutcome,
  type describePrompt,
  describeTool,
  type Registry,
  scoping,
} from "../../core/mod.ts";
import {
  type PromptResponseSchema,
  type PromptsList,
  PromptsListSchema,
  type ResourceResponseSchema,
  type ResponseMetaSchema,
  ResponseType,
  ResponseTypeSchema,
  type ToolResponseSchema,
  type ToolsList,
  ToolsListSchema,
} from "../../gen/mcplite/mcplite_pb.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { isObject } from "../../internal/is-object.ts";
import { servedExtensions } from "../extension-feature.ts";

type PromptDescriptor = ReturnType<typeof describePrompt>;

/** The `ToolsList` messages, per scope set. */
const LIST = new CacheSlot<ToolsList>("grpc:tools");

/** The init shape of a `ToolResponse`, which Connect serialises without an intermediate message. */
export type ToolResponseInit = MessageInitShape<typeof ToolResponseSchema>;
type ResponseMetaInit = MessageInitShape<typeof ResponseMetaSchema>;

/** The extensions served, as a `Struct`, or unset when there is none. */
function extensionsOf(registry: Registry): JsonObject | undefined {
  const served = servedExtensions(registry);
  return served === undefined ? undefined : toJsonObject(served);
}

/**
 * Builds the `GetTools` answer once per change of the tool table (and, when tools require scopes, per
 * set of scopes the caller holds: it lists only what the caller may call).
 *
 * @param registry The tools.
 * @param auth The caller.
 * @returns The list message, shared by every call (of the same scope set) until the table changes.
 */
export function toolsList(registry: Registry, auth?: AuthInfo): ToolsList {
  const visible = scoping.visibleTools(registry, auth, "grpc:tools");
  return registry.cached(LIST, visible.key, () =>
    create(ToolsListSchema, {
      tools: visible.tools().map((tool) => {
        const d = describeTool(tool, true); // the same descriptor MCP-lite's /listtools sends
        return {
          name: d.name,
          type: d["@type"] ?? "",
          description: d.description ?? "",
          inputSchema: toJsonObject(d.inputSchema),
          title: d.title ?? "",
          outputSchema: d.outputSchema === undefined ? undefined : toJsonObject(d.outputSchema),
          annotations: d.annotations === undefined ? undefined : toJsonObject(d.annotations),
        };
      }),
      // The extensions served, as MCP-lite's /listtools lists them (this SDK's MCP-lite extension E5).
      extensions: extensionsOf(registry),
    }));
}

/** The init shape of a `PromptResponse`. */
export type PromptResponseInit = MessageInitShape<typeof PromptResponseSchema>;

/** The init shape of a `ResourceResponse` (this SDK's MCP-lite extension E4). */
export type ResourceResponseInit = MessageInitShape<typeof ResourceResponseSchema>;

/**
 * Builds the `GetPrompts` answer from the prompts' descriptors (those MCP-lite's `/prompts` lists).
 *
 * @param prompts The descriptors.
 * @returns The list message.
 */
export function promptsList(prompts: readonly PromptDescriptor[]): PromptsList {
  return create(PromptsListSchema, {
    prompts: prompts.map((d) => ({
      name: d.name,
      title: d.title ?? "",
      description: d.description ?? "",
      arguments: (d.arguments ?? []).map((a) => ({
        name: a.name,
        title: a.title ?? "",
        description: a.description ?? "",
        required: a.required ?? false,
      })),
      meta: d._meta === undefined ? undefined : toJsonObject(d._meta),
    })),
  });
}

/**
 * Builds the complete response for an outcome (MCP-lite spec v0.042 §5.2, A.2–A.3): an answer or a failure carries its
 * result as MCP-lite's HTTP binding sends it (`content`, `structuredContent`, `isError`); a promise an
 * empty result and `promise_token`; an input round (ELICITATION) an empty result, the `input_requests`
 * by key and the signed `request_state` to send back.
 *
 * @param outcome The outcome.
 * @param started `performance.now()` when the call began.
 * @param version The server version.
 * @returns The response.
 */
export function responseFromOutcome(outcome: CallOutcome, started: number, version: string): ToolResponseInit {
  const meta: ResponseMetaInit = {
    responseType: ResponseType.ANSWER,
    timestamp: BigInt(Date.now()),
    processingTimeMs: Math.round(performance.now() - started),
    serverVersion: version,
  };
  switch (outcome.kind) {
    case "answer":
    case "failure": {
      const { content, structuredContent, isError } = outcome.result;
      const result: JsonObject = { content: toJsonValue(content) };
      if (structuredContent !== undefined) result.structuredContent = toJsonObject(structuredContent);
      if (isError === true) result.isError = true;
      if (outcome.kind === "failure") meta.responseType = ResponseType.FAILURE;
      return { result, meta };
    }
    case "promise":
      meta.responseType = ResponseType.PROMISE;
      meta.promiseToken = outcome.token;
      meta.retryAfterMs = outcome.retryAfterMs;
      meta.expiresAt = epochMs(outcome.expiresAt);
      if (outcome.estimatedCompletion !== undefined) meta.estimatedCompletion = epochMs(outcome.estimatedCompletion);
      return { result: {}, meta };
    case "input_required":
      meta.responseType = asksOnlyForResources(outcome.requests)
        ? ResponseType.REQUEST_FOR_MORE_RESOURCE
        : ResponseType.ELICITATION;
      meta.inputRequests = toJsonObject(outcome.requests);
      meta.requestState = outcome.requestState;
      return { result: {}, meta };
    default:
      return assertNever(outcome);
  }
}

function epochMs(iso: string): bigint {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0n : BigInt(ms);
}

/**
 * Serialises a `ToolResponse` init to its protobuf JSON form: the text that
 * `toJsonString(ToolResponseSchema, create(ToolResponseSchema, response))` gives, without building the
 * message. Fields go in field-number order; defaults are left out, 64-bit integers are strings and the
 * response type its name; the `Struct`s are plain JSON already ({@link toJsonValue}).
 *
 * @param response A response from {@link responseFromOutcome} or {@link partialResponse}.
 * @returns The JSON text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { partialResponse, toolResponseJson } from "./envelope.ts";
 * assert.equal(toolResponseJson(partialResponse("x")), '{"result":{"partial":"x"}}');
 * ```
 */
export function toolResponseJson(response: ToolResponseInit): string {
  const json: Record<string, unknown> = {};
  if (response.result !== undefined) json.result = response.result;
  const m = response.meta;
  if (m !== undefined) {
    const meta: Record<string, unknown> = {};
    if (m.responseType) meta.responseType = RESPONSE_TYPE_NAMES[m.responseType] ?? m.responseType;
    if (m.promiseToken) meta.promiseToken = m.promiseToken;
    if (m.timestamp) meta.timestamp = String(m.timestamp);
    if (m.processingTimeMs) meta.processingTimeMs = m.processingTimeMs;
    if (m.serverVersion) meta.serverVersion = m.serverVersion;
    if (m.requestState) meta.requestState = m.requestState;
    if (m.inputRequests !== undefined) meta.inputRequests = m.inputRequests;
    if (m.retryAfterMs) meta.retryAfterMs = m.retryAfterMs;
    if (m.expiresAt) meta.expiresAt = String(m.expiresAt);
    if (m.estimatedCompletion) meta.estimatedCompletion = String(m.estimatedCompletion);
    json.meta = meta;
  }
  return JSON.stringify(json);
}

/** The JSON names of the response types, by number. */
const RESPONSE_TYPE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  ResponseTypeSchema.values.map((v) => [v.number, v.name]),
);

/**
 * Builds a stream partial: no meta, and the partial under `result.partial` (MCP-lite spec v0.042 A.4).
 *
 * @param partial What the handler yielded.
 * @returns The response.
 */
export function partialResponse(partial: unknown): ToolResponseInit {
  return { result: { partial: toJsonValue(partial) } };
}

/**
 * Builds a progress message of a stream that follows deferred work (MCP-lite spec v0.042 §5.3, pushed
 * updates; the README's extension): no meta, as a partial, and `result.progress` instead of `partial`.
 *
 * @param progress The progress so far.
 * @param total The total, if known.
 * @param message A message, if any.
 * @returns The message.
 */
export function progressResponse(progress: number, total?: number, message?: string): ToolResponseInit {
  const update: JsonObject = { progress };
  if (total !== undefined) update.total = total;
  if (message !== undefined) update.message = message;
  return { result: { progress: update } };
}

/**
 * Returns a value as JSON, the way `JSON.stringify` would see it, so a `Struct` carries what the HTTP
 * wires carry (no `undefined` keys turned into `null`, dates as ISO strings). A value that is plain
 * JSON already, as nearly every result is, is returned as is, after one walk and no copy.
 *
 * @param value The value.
 * @returns The JSON value.
 */
export function toJsonValue(value: unknown): JsonValue {
  if (isPlainJson(value, 0)) return value as JsonValue;
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

/**
 * Converts an object to a `google.protobuf.Struct`'s JSON (values that are not JSON are dropped, as `JSON.stringify` does).
 *
 * @param value The object.
 * @returns The JSON object.
 */
export function toJsonObject(value: object): JsonObject {
  const json = toJsonValue(value);
  return isObject(json) ? json as JsonObject : {};
}

/** Tells whether a value survives `JSON.stringify` → `JSON.parse` unchanged (bounded depth). */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || "toJSON" in value) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A request's `google.protobuf.Struct` as the pipeline takes it: plain data. protobuf-es keeps a
 * `__proto__` key of the Struct's map as an own property, which the JSON wires never pass on
 * (`parseJson`); dropped here alike, for every gRPC wire (Connect, gRPC-Web, gRPC).
 *
 * @param struct The request's Struct, if it has one.
 * @returns The same data without `__proto__` keys.
 */
export function structOf<T extends JsonObject>(struct: T | undefined): T | undefined {
  return struct === undefined ? undefined : withoutProto(struct) as T;
}
