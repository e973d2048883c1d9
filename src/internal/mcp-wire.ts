/**
 * MCP wire facts that the server binding and the client share: the revisions, the `_meta` keys, the
 * SEP-2243 headers with their `=?base64?…?=` encoding, and the rules for `x-mcp-header`. One copy, so
 * the two sides cannot drift apart.
 *
 * @module
 */
import { isObject } from "./is-object.ts";
import { strictUtf8, utf8Encoder as encoder } from "./utf8.ts";

/** The stateless revision. */
export const MODERN_VERSION = "2026-07-28";
/** Modern revisions, newest first. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION];
/** The 2025-era revisions (the `initialize` handshake), newest first. */
export const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/** The `_meta` keys of the 2026-07-28 envelope and results. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/**
 * The `_meta` key of an `isError` result that answers an error of the call (MCP 2025-11-25, Tools: Error
 * Handling: invalid arguments go to the model as a result): the server's `ErrorCode` (`invalid_arguments`),
 * which the client's `ToolError.code` carries.
 */
export const RESULT_ERROR_CODE = "io.mcplite/errorCode";

/**
 * The JSON-RPC error codes MCP 2026-07-28 adds (Base Protocol, Error codes), by name: what client and
 * server both read and write.
 */
export const McpErrorCode = {
  /** A mirrored header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) disagrees with the body. */
  HeaderMismatch: -32020,
  /** The request needs a client capability it did not declare (e.g. the tasks extension). */
  MissingCapability: -32021,
  /** The protocol version is not one the server speaks (`data.supported` lists those it does). */
  UnsupportedVersion: -32022,
} as const;

/** The tasks extension's capability key. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * Tells whether a client declared the tasks extension (SEP-2663) in its capabilities.
 *
 * @param capabilities The client's capabilities (a request's, or its session's).
 * @returns `true` when `extensions["io.modelcontextprotocol/tasks"]` is an object.
 */
export function declaresTasks(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/**
 * Tells whether MCP answers a caller's long-running call with a task (MCP 2026-07-28, Tasks): a request of that
 * revision that declared the extension. Other callers wait while the call is held, then get a promise to redeem. The MCP
 * binding answers by it (`bindings/mcp/tools.ts`), and task events read it from a call's metadata
 * (`events/task-ends.ts`: that caller holds the task id, handed over as the task is made).
 *
 * @param caller A request's MCP envelope, or a call's `CallMeta` (whose `wire` must then be MCP).
 * @returns `true` when the call becomes a task.
 */
export function becomesTask(caller: {
  readonly wire?: string;
  readonly protocolVersion?: string | undefined;
  readonly clientCapabilities?: Record<string, unknown> | undefined;
}): boolean {
  return (caller.wire ?? "mcp") === "mcp" && (caller.protocolVersion ?? "") >= MODERN_VERSION &&
    declaresTasks(caller.clientCapabilities);
}

/**
 * The request `_meta` key by which a caller of a streaming tool asks for its partials. MCP has no
 * partial results, and a partial sent as progress would take a value of the author's own progress,
 * which MUST increase (MCP 2025-11-25, Progress): a request that sets this key to `true` (and carries a
 * `progressToken`) receives each partial as a {@link PARTIAL_NOTIFICATION} instead. Others get none;
 * the final result still holds every part.
 */
export const PARTIALS_META = "io.mcplite/partials";

/**
 * The notification carrying one partial, `{progressToken, partial}`, tied to its request by the
 * progress token as progress is (the name MCP-lite over stdio gives its partials, tied there by
 * `requestId`).
 */
export const PARTIAL_NOTIFICATION = "notifications/partial";

/** The skills extension's capability key (SEP-2640). */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The protocol version header. */
export const PROTOCOL_VERSION_HEADER = "mcp-protocol-version";
/** The method header. */
export const METHOD_HEADER = "mcp-method";
/** The name header. */
export const NAME_HEADER = "mcp-name";
/** The prefix of the parameter headers. */
export const PARAM_HEADER_PREFIX = "mcp-param-";
/** The `inputSchema` keyword that mirrors a property into a header. */
export const X_MCP_HEADER = "x-mcp-header";

/** Which params field `Mcp-Name` mirrors, per method. */
export const NAME_SOURCES: ReadonlyMap<string, string> = /* @__PURE__ */ new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
const PLAIN = /^[\x20-\x7E]*$/;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Encodes a header value: plain visible ASCII goes as is; anything else (non-ASCII, control
 * characters, leading or trailing spaces, or a value that itself looks like the sentinel) as
 * `=?base64?<base64 of the UTF-8>?=`.
 *
 * @param value The value.
 * @returns The header value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeHeaderValue } from "./mcp-wire.ts";
 * assert.equal(encodeHeaderValue("us-west1"), "us-west1");
 * assert.equal(encodeHeaderValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
 * ```
 */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  if (PLAIN.test(value) && value.trim() === value && !looksEncoded) return value;
  let binary = "";
  for (const byte of encoder.encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * Decodes a header value: `=?base64?…?=` carries base64 UTF-8; anything else (including a value with
 * only one of the markers) is literal. Surrounding spaces and tabs are dropped first.
 *
 * @param raw The header value.
 * @returns The value, or `undefined` when the sentinel holds invalid base64 or UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeHeaderValue } from "./mcp-wire.ts";
 * assert.equal(decodeHeaderValue("=?base64?SGVsbG8=?="), "Hello");
 * assert.equal(decodeHeaderValue("=?base64?SGVsbG8?="), undefined);
 * assert.equal(decodeHeaderValue("  us-west1 "), "us-west1");
 * ```
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = trimOws(raw);
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX) || value.length < 11) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function trimOws(value: string): string {
  let start = 0, end = value.length;
  while (start < end && (value.charCodeAt(start) === 32 || value.charCodeAt(start) === 9)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 32 || value.charCodeAt(end - 1) === 9)) end--;
  return value.slice(start, end);
}

/** A tool argument mirrored into an `Mcp-Param-{header}` header. */
export interface HeaderParam {
  /** The property names from the schema root down to the annotated property. */
  readonly path: readonly string[];
  /** The header name suffix as declared (`Region` → `Mcp-Param-Region`). */
  readonly header: string;
}

/** The `x-mcp-header` declarations of a schema, or the first rule one of them breaks. */
export type HeaderParamsResult =
  | { readonly ok: true; readonly params: readonly HeaderParam[] }
  | { readonly ok: false; readonly path: readonly string[]; readonly problem: string };

/** RFC 9110 `token`: no spaces, delimiters, controls or non-ASCII. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = /* @__PURE__ */ new Set(["string", "integer", "boolean"]);
/** Keywords whose values are data, not schemas: never searched for annotations. */
const DATA_KEYWORDS = /* @__PURE__ */ new Set(["const", "default", "enum", "examples"]);

/**
 * Finds a schema's `x-mcp-header` declarations and checks them. A declaration is valid only on a
 * string, integer or boolean property (optionally nullable) reached from the root through
 * `properties` alone (never under `items`, `anyOf`, `if`, `$defs`, …), with a non-empty RFC 9110
 * token as its value, unique (case-insensitively) within the schema.
 *
 * @param schema A tool's input JSON Schema.
 * @returns The declarations in schema order, or the first problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findHeaderParams } from "./mcp-wire.ts";
 * const schema = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
 * assert.deepEqual(findHeaderParams(schema), { ok: true, params: [{ path: ["region"], header: "Region" }] });
 * ```
 */
export function findHeaderParams(schema: unknown): HeaderParamsResult {
  const params: HeaderParam[] = [];
  const seen = new Map<string, string>();
  let failure: HeaderParamsResult | undefined;
  const fail = (path: string[], problem: string): false => {
    failure = { ok: false, path, problem };
    return false;
  };
  const walk = (node: unknown, path: string[], reachable: boolean): boolean => {
    if (Array.isArray(node)) return node.every((item) => walk(item, path, false));
    if (typeof node !== "object" || node === null) return true;
    const s = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(s)) {
      if (key === X_MCP_HEADER) {
        if (!reachable || path.length === 0) {
          return fail(path, 'must be on a property reached through "properties" alone');
        }
        if (typeof value !== "string" || !TOKEN.test(value)) {
          return fail(path, `${JSON.stringify(value)} must be an HTTP token (RFC 9110 §5.6.2)`);
        }
        if (!isHeaderType(s.type)) {
          return fail(path, `needs a string, integer or boolean property (got ${JSON.stringify(s.type)})`);
        }
        const prior = seen.get(value.toLowerCase());
        if (prior !== undefined) return fail(path, `"${value}" repeats "${prior}" (names are case-insensitive)`);
        seen.set(value.toLowerCase(), value);
        params.push({ path, header: value });
      } else if (key === "properties" && isObject(value)) {
        for (const [name, property] of Object.entries(value)) {
          if (!walk(property, [...path, name], reachable)) return false;
        }
      } else if (!DATA_KEYWORDS.has(key) && typeof value === "object" && value !== null) {
        if (!walk(value, [...path, `<${key}>`], false)) return false;
      }
    }
    return true;
  };
  return walk(schema, [], true) ? { ok: true, params } : failure!;
}

function isHeaderType(type: unknown): boolean {
  if (typeof type === "string") return HEADER_TYPES.has(type);
  if (!Array.isArray(type)) return false;
  const types = type.filter((t) => t !== "null");
  return types.length > 0 && types.every((t) => typeof t === "string" && HEADER_TYPES.has(t));
}
