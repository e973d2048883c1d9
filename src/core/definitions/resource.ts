/**
 * The finished resource definition that `defineResource()` produces, how it is listed, and how what a
 * read handler returns becomes MCP `contents`.
 *
 * @module
 */
import { base64Encode } from "../../codec/base64url.ts";
import type { CallContext } from "../call/call-context.ts";
import { ProtocolError } from "../../errors/error.ts";
import type { ContentAnnotations, ContentBlockBase, ResourceContents, ResourceDescriptor } from "../results/result.ts";
import type { Icon } from "./icon.ts";
import type { Completer } from "./completer.ts";
import type { UriTemplate } from "./uri-template.ts";
import { echoed } from "../../internal/echo.ts";

/** A caching hint (MCP SEP-2549): how long a result stays fresh, and who may share a cached copy. */
export interface CacheHint {
  /** Freshness in milliseconds, like `max-age`; 0 means revalidate every time. */
  readonly ttlMs: number;
  /** `"public"`: shareable across callers; `"private"`: only within the same authorisation context. */
  readonly scope: "public" | "private";
}

/** One entry a read handler may return: text or binary, with the URI and MIME type optional. */
export type ResourceContentsInput =
  | { uri?: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri?: string; mimeType?: string; blob: string | Uint8Array; _meta?: Record<string, unknown> };

/**
 * Reads a resource. It returns a string (text), bytes (a base64 `blob`), one contents entry or several;
 * `undefined`, `null` or an empty array mean "no such resource".
 *
 * @param variables The template's variables, decoded (empty for a static resource).
 * @param ctx The call context (signal, logging, progress, elicitation on the 2025 revisions).
 * @param uri The URI being read.
 */
export type ReadHandler<TVars> = (
  variables: TVars,
  ctx: CallContext,
  uri: string,
) =>
  | string
  | Uint8Array
  | ResourceContentsInput
  | ResourceContentsInput[]
  | null
  | undefined
  | Promise<string | Uint8Array | ResourceContentsInput | ResourceContentsInput[] | null | undefined>;

/** What a read handler may return, awaited. */
export type ReadValue = Awaited<ReturnType<ReadHandler<unknown>>>;

/** A finished resource (static URI) or resource template, ready for `server.resource()`. */
export interface Resource<TUri extends string = string> {
  /** What the definition brings to the wires that serve it (e.g. the MCP methods that serve resources), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /** The URI, or the template for a template resource. */
  readonly uri: TUri;
  /** The parsed template; `undefined` for a static resource. */
  readonly template: UriTemplate | undefined;
  /** The programmatic name. */
  readonly name: string;
  /** A human-readable title. */
  readonly title: string | undefined;
  /** What the resource holds. */
  readonly description: string | undefined;
  /** The MIME type of its contents. */
  readonly mimeType: string | undefined;
  /** The size in bytes, when known (static resources only). */
  readonly size: number | undefined;
  /** Audience, priority and last modification. */
  readonly annotations: ContentAnnotations | undefined;
  /** Free-form metadata listed as `_meta`. */
  readonly meta: Record<string, unknown> | undefined;
  /** The icons a client may show for it (`.icons()`), checked. */
  readonly icons?: readonly Icon[];
  /** How long a read stays fresh; `undefined` uses the server's default. */
  readonly cache: CacheHint | undefined;
  /** Completers for template variables. */
  readonly completers: ReadonlyMap<string, Completer> | undefined;
  /** The OAuth scopes a caller must hold to see, read and complete it (`.scopes()`), if any. */
  readonly scopes?: readonly string[];
  /** The read handler. */
  readonly read: ReadHandler<Record<string, string>>;
}

/** Any resource. */
export type AnyResource = Resource<string>;

/** A template as `resources/templates/list` shows it. */
export interface ResourceTemplateDescriptor extends ContentBlockBase {
  /** The RFC 6570 template. */
  uriTemplate: string;
  /** The name. */
  name: string;
  /** The title. */
  title?: string;
  /** The description. */
  description?: string;
  /** The MIME type. */
  mimeType?: string;
  /** Icons (MCP 2025-11-25, `Icon`). */
  icons?: readonly Icon[];
}

/**
 * Describes a resource as the lists show it. Runs once per resource, when a list body is built.
 *
 * @param resource The resource.
 * @returns Its descriptor (a template descriptor for a template).
 */
export function describeResource(resource: AnyResource): ResourceDescriptor | ResourceTemplateDescriptor {
  const d: Record<string, unknown> = resource.template === undefined
    ? { uri: resource.uri, name: resource.name }
    : { uriTemplate: resource.uri, name: resource.name };
  if (resource.title !== undefined) d.title = resource.title;
  if (resource.description !== undefined) d.description = resource.description;
  if (resource.mimeType !== undefined) d.mimeType = resource.mimeType;
  if (resource.size !== undefined && resource.template === undefined) d.size = resource.size;
  if (resource.annotations !== undefined) d.annotations = resource.annotations;
  if (resource.icons !== undefined) d.icons = resource.icons;
  if (resource.meta !== undefined) d._meta = resource.meta;
  return d as unknown as ResourceDescriptor | ResourceTemplateDescriptor;
}

/**
 * Turns what a read handler returned into MCP `contents`: entries without a URI get the URI read,
 * entries without a MIME type get the resource's, bytes become base64.
 *
 * @param value The handler's return value.
 * @param uri The URI that was read.
 * @param mimeType The resource's MIME type.
 * @returns The contents, never empty.
 * @throws {ProtocolError} `resource_not_found` when the handler returned nothing.
 */
export function contentsFromValue(value: ReadValue, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (typeof value === "string") return [withMime({ uri, text: value }, mimeType)];
  if (value instanceof Uint8Array) return [withMime({ uri, blob: base64Encode(value) }, mimeType)];
  const entries = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  if (entries.length === 0) throw notFound(uri);
  return entries.map((entry) => {
    const out: Record<string, unknown> = { uri: entry.uri ?? uri };
    const mime = entry.mimeType ?? mimeType;
    if (mime !== undefined) out.mimeType = mime;
    if ("text" in entry && typeof entry.text === "string") out.text = entry.text;
    else if ("blob" in entry) out.blob = typeof entry.blob === "string" ? entry.blob : base64Encode(entry.blob);
    else throw new TypeError(`resource ${uri}: a contents entry needs "text" or "blob"`);
    if (entry._meta !== undefined) out._meta = entry._meta;
    return out as ResourceContents;
  });
}

/**
 * Builds the error for a URI no resource answers.
 *
 * @param uri The URI.
 * @returns The error (`resource_not_found`, with `data.uri`).
 */
export function notFound(uri: string): ProtocolError {
  const shown = echoed(uri);
  return new ProtocolError("resource_not_found", `Resource not found: ${shown}`, { data: { uri: shown } });
}

function withMime(
  entry: { uri: string; text: string } | { uri: string; blob: string },
  mimeType?: string,
): ResourceContents {
  return mimeType === undefined ? entry : { ...entry, mimeType };
}

/**
 * Checks a caching hint.
 *
 * @param hint The hint.
 * @param what Names the definition in errors.
 * @returns The hint, frozen.
 * @throws {TypeError} When `ttlMs` is not a non-negative integer or the scope is unknown.
 */
export function checkCacheHint(hint: CacheHint, what: string): CacheHint {
  if (!Number.isSafeInteger(hint?.ttlMs) || hint.ttlMs < 0) {
    throw new TypeError(`${what}: ttlMs must be a non-negative integer`);
  }
  if (hint.scope !== "public" && hint.scope !== "private") {
    throw new TypeError(`${what}: scope must be "public" or "private"`);
  }
  return Object.freeze({ ttlMs: hint.ttlMs, scope: hint.scope });
}
