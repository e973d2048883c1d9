/**
 * Tool results and content blocks, as MCP defines them, with the helpers handlers use to build them.
 *
 * A handler may return a plain value (it becomes `structuredContent` plus a text block with its JSON),
 * a string (a text block), one content block, an array of content blocks, or a full result from
 * {@link toolResult} / {@link fail}.
 *
 * @module
 */
import type { Icon } from "../definitions/icon.ts";
import { isObject } from "../../internal/is-object.ts";

/** Annotations a content block may carry (audience, priority, last modification). */
export interface ContentAnnotations {
  /** Who the block is meant for. */
  audience?: ("user" | "assistant")[];
  /** How important the block is, from 0 to 1. */
  priority?: number;
  /** When the underlying data last changed, as an ISO 8601 string. */
  lastModified?: string;
}

/** Fields every content block may have. */
export interface ContentBlockBase {
  /** Optional annotations. */
  annotations?: ContentAnnotations;
  /** Optional free-form metadata. */
  _meta?: Record<string, unknown>;
}

/** A text content block. */
export interface TextContent extends ContentBlockBase {
  /** The block type. */
  type: "text";
  /** The text. */
  text: string;
}

/** An image content block (base64 data). */
export interface ImageContent extends ContentBlockBase {
  /** The block type. */
  type: "image";
  /** The base64-encoded image. */
  data: string;
  /** The MIME type, e.g. `image/png`. */
  mimeType: string;
}

/** An audio content block (base64 data). */
export interface AudioContent extends ContentBlockBase {
  /** The block type. */
  type: "audio";
  /** The base64-encoded audio. */
  data: string;
  /** The MIME type, e.g. `audio/wav`. */
  mimeType: string;
}

/** The contents of a resource: text or a base64 blob. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/** An embedded resource content block. */
export interface EmbeddedResource extends ContentBlockBase {
  /** The block type. */
  type: "resource";
  /** The resource itself. */
  resource: ResourceContents;
}

/** A static resource as `resources/list` shows it (MCP's `Resource`), and what a resource link names. */
export interface ResourceDescriptor extends ContentBlockBase {
  /** The resource URI. */
  uri: string;
  /** The resource name. */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the resource is. */
  description?: string;
  /** The MIME type. */
  mimeType?: string;
  /** The size in bytes, if known. */
  size?: number;
  /**
   * Icons a client may show for it (MCP 2025-11-25, `Icon`; SEP-973): the shape the server, tools,
   * prompts and templates take too.
   */
  icons?: readonly Icon[];
}

/** A link to a resource the client may read later (MCP's `ResourceLink` extends `Resource`). */
export interface ResourceLink extends ResourceDescriptor {
  /** The block type. */
  type: "resource_link";
}

/** Any content block. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** A complete tool result, as MCP's `CallToolResult`. */
export interface ToolResult {
  /** The content blocks. */
  content: ContentBlock[];
  /** The structured result, matching the tool's output schema when it has one. */
  structuredContent?: Record<string, unknown>;
  /** `true` for a business failure. */
  isError?: boolean;
  /** Per-call metadata (`ctx.resultMeta()`); each wire that carries `_meta` adds its own keys over these. */
  _meta?: Record<string, unknown>;
}

const RESULT: unique symbol = Symbol.for("mcplite.result");
const BLOCK: unique symbol = Symbol.for("mcplite.block");

/** Marks an object as built by these helpers, so a plain value shaped alike is never mistaken for one. */
function brand<T extends object>(value: T, mark: symbol): T {
  Object.defineProperty(value, mark, { value: true });
  return value;
}

/**
 * Creates a text content block.
 *
 * @param value The text.
 * @returns A text block.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { text } from "./result.ts";
 * assert.deepEqual(text("hi"), { type: "text", text: "hi" });
 * ```
 */
export function text(value: string): TextContent {
  return brand({ type: "text", text: value }, BLOCK);
}

/**
 * Creates an image content block.
 *
 * @param data The image, base64-encoded, or its bytes.
 * @param mimeType The MIME type, e.g. `image/png`.
 * @returns An image block.
 */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return brand({ type: "image", data: toBase64(data), mimeType }, BLOCK);
}

/**
 * Creates an audio content block.
 *
 * @param data The audio, base64-encoded, or its bytes.
 * @param mimeType The MIME type, e.g. `audio/wav`.
 * @returns An audio block.
 */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return brand({ type: "audio", data: toBase64(data), mimeType }, BLOCK);
}

/**
 * Creates an embedded resource block, with text or binary contents.
 *
 * @param uri The resource URI.
 * @param contents The text, or the bytes (sent as a base64 `blob`).
 * @param mimeType The MIME type.
 * @returns An embedded resource block.
 */
export function embeddedResource(uri: string, contents: string | Uint8Array, mimeType?: string): EmbeddedResource {
  const body: ResourceContents = typeof contents === "string"
    ? { uri, text: contents, ...(mimeType ? { mimeType } : {}) }
    : { uri, blob: toBase64(contents), ...(mimeType ? { mimeType } : {}) };
  return brand({ type: "resource", resource: body }, BLOCK);
}

/**
 * Creates a link to a resource.
 *
 * @param uri The resource URI.
 * @param name The resource name.
 * @param extra The title, description, MIME type and size.
 * @returns A resource link block.
 */
export function resourceLink(
  uri: string,
  name: string,
  extra: Omit<ResourceLink, "type" | "uri" | "name"> = {},
): ResourceLink {
  return brand({ type: "resource_link", uri, name, ...extra }, BLOCK);
}

/**
 * Creates a complete result, for handlers that want to set every field themselves.
 *
 * @param result The content, structured content and error flag.
 * @returns The result, returned by the handler as is.
 */
export function toolResult(result: ToolResult): ToolResult {
  return brand({ ...result }, RESULT);
}

/**
 * Creates a business-failure result (`isError: true`), the non-throwing twin of `ToolError`.
 *
 * @param message The message shown to the caller (and the model).
 * @param structuredContent Optional structured details.
 * @returns A failure result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fail } from "./result.ts";
 * assert.equal(fail("no such city").isError, true);
 * ```
 */
export function fail(message: string, structuredContent?: Record<string, unknown>): ToolResult {
  const result: ToolResult = { content: [text(message)], isError: true };
  if (structuredContent) result.structuredContent = structuredContent;
  return brand(result, RESULT);
}

/**
 * Tells whether a value was built by {@link toolResult} or {@link fail}.
 *
 * @param value The value to test.
 * @returns `true` for a complete result.
 */
export function isToolResult(value: unknown): value is ToolResult {
  return isObject(value) && RESULT in value;
}

/**
 * Tells whether a value is a content block built by these helpers.
 *
 * @param value The value to test.
 * @returns `true` for a content block.
 */
export function isContentBlock(value: unknown): value is ContentBlock {
  return isObject(value) && BLOCK in value;
}

/**
 * Turns whatever a handler returned into a result. This is on the hot path: a plain object costs one
 * `JSON.stringify`.
 *
 * @param value The handler's return value.
 * @returns The result to send.
 */
export function resultFromValue(value: unknown): ToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === "object") {
    if (RESULT in value) return value as unknown as ToolResult;
    if (BLOCK in value) return { content: [value as unknown as ContentBlock] };
    if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
    const json = JSON.stringify(value);
    // structuredContent must be an object on the 2025 revisions; other JSON values travel as text only.
    return Array.isArray(value)
      ? { content: [{ type: "text", text: json }] }
      : { content: [{ type: "text", text: json }], structuredContent: value as Record<string, unknown> };
  }
  return { content: [{ type: "text", text: JSON.stringify(value) }] };
}

/**
 * Creates the failure result for a message.
 *
 * @param message The message.
 * @returns A result with `isError: true`.
 */
export function failureResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function toBase64(data: string | Uint8Array): string {
  if (typeof data === "string") return data;
  let binary = "";
  for (let i = 0; i < data.length; i += 0x8000) {
    binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
