/**
 * MCP-lite's wire format (MCP-lite spec v0.042 §3–§4, Appendix A): the `_meta` block and the list body.
 *
 * @module
 */
import {
  asksOnlyForResources,
  type AuthInfo,
  CacheSlot,
  type CallOutcome,
  type ContentBlock,
  describeTool,
  type InputRequest,
  type Registry,
  scoping,
} from "../../core/mod.ts";
import { assertNever } from "../../internal/assert-never.ts";
import { isoNow } from "../../internal/clock.ts";
import { resultHead } from "../jsonrpc.ts";
import { utf8Encoder as encoder } from "../../internal/utf8.ts";

/** A feature's MCP-lite part that adds to the `/listtools` body (`extensions`, E5). */
type Listing = { readonly listed?: (body: Record<string, unknown>) => void };

/** The `/listtools` bodies, per scope set. */
const LIST = new CacheSlot<string>("mcplite:list");
/** The same, encoded. */
const LIST_BYTES = new CacheSlot<Uint8Array<ArrayBuffer>>("mcplite:list:bytes");

/** MCP-lite response types (MCP-lite spec v0.042 §3.3). */
export type ResponseType = "answer" | "promise" | "elicitation" | "failure" | "request-for-more-resource";

/** The `_meta` block of every MCP-lite result. */
export interface LiteMeta {
  /** What kind of response this is. */
  response_type: ResponseType;
  /** When the response was made, ISO 8601. */
  timestamp: string;
  /** How long the call took on the server. */
  processing_time_ms: number;
  /** The server's version. */
  server_version: string;
  /** `promise`: the token to pass to the `redeem` tool. */
  promise_token?: string;
  /** `promise`: when to redeem, in milliseconds. */
  retry_after_ms?: number;
  /** `promise`: when the work should be done, ISO 8601, if the tool said. */
  estimated_completion?: string;
  /** `promise`: when the token expires, ISO 8601 (an extension of the spec's fields). */
  expires_at?: string;
  /**
   * `elicitation` and `request-for-more-resource`: what the client must answer, by key (`{ method,
   * params }`, as MCP's `inputRequests`).
   */
  input_requests?: Record<string, InputRequest>;
  /** `elicitation` and `request-for-more-resource`: the signed state to send back, unchanged, as `params.requestState`. */
  request_state?: string;
}

/** An MCP-lite result: content for answers and failures, only `_meta` for promises and elicitations. */
export interface LiteResult {
  /** The content (answers and failures). */
  content?: ContentBlock[];
  /** The structured result, if any. */
  structuredContent?: Record<string, unknown>;
  /** Set on failures. */
  isError?: boolean;
  /** The response type and its fields. */
  _meta: LiteMeta;
}

/**
 * Builds the `/listtools` body once per change of the tool table (and, when tools require scopes, per
 * set of scopes the caller holds: it sees only what it may call).
 *
 * @param registry The tools.
 * @param auth The caller.
 * @returns The JSON text `{"tools":[…]}` (and `"extensions":{…}` when the server serves one).
 */
export function listBody(registry: Registry, auth?: AuthInfo): string {
  const visible = scoping.visibleTools(registry, auth, "mcplite:list");
  return registry.cached(
    LIST,
    visible.key,
    () => {
      const body = { tools: visible.tools().map((t) => describeTool(t, true)) };
      // Served extensions add their settings beside the tools (this SDK's MCP-lite extension E5; `extensionOnLite()`):
      // a key the spec's client skips.
      for (const feature of registry.features) (feature.mcplite as Listing | undefined)?.listed?.(body);
      return JSON.stringify(body);
    },
  );
}

const CLOSE_BRACE = 0x7d;

/**
 * Returns the `/listtools` body as UTF-8 bytes, encoded once per change of the tool table: a response
 * then copies bytes instead of encoding the whole list again.
 *
 * @param registry The tools.
 * @param auth The caller.
 * @returns The bytes of `{"tools":[…]}`; never modified (a `Response` copies what it is given).
 */
export function listBytes(registry: Registry, auth?: AuthInfo): Uint8Array<ArrayBuffer> {
  const key = scoping.visibleTools(registry, auth, "mcplite:list:bytes").key;
  return registry.cached(LIST_BYTES, key, () => encoder.encode(listBody(registry, auth)));
}

/**
 * Builds the JSON-RPC answer to a listing (`tools/list`, `prompts/list`) around its encoded body: only the
 * short head carrying the id is encoded per request.
 *
 * @param list The encoded body (`{"tools":[…]}`).
 * @param id The request id.
 * @returns The bytes of the JSON-RPC response whose result is the list.
 */
export function listMessage(list: Uint8Array<ArrayBuffer>, id: string | number | null): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(resultHead(id));
  const out = new Uint8Array(head.byteLength + list.byteLength + 1);
  out.set(head);
  out.set(list, head.byteLength);
  out[out.byteLength - 1] = CLOSE_BRACE;
  return out;
}

/**
 * Shapes an outcome as MCP-lite's result with its `_meta` (MCP-lite spec v0.042 §3.3–§3.5, A.3): an answer or failure
 * keeps its content; a promise carries `promise_token`, `retry_after_ms`, `estimated_completion` and
 * `expires_at`; an input round is `response_type: "elicitation"` with `input_requests` and the
 * `request_state` to send back.
 *
 * @param outcome The outcome.
 * @param started `Date.now()` when the call began: one clock read serves both the timestamp and the
 *   processing time (on Deno `performance.now()` costs twice as much, and was read twice).
 * @param version The server version.
 * @returns The result to send.
 */
export function resultWithMeta(outcome: CallOutcome, started: number, version: string): LiteResult {
  const now = Date.now();
  const meta: LiteMeta = {
    response_type: "answer",
    timestamp: isoNow(now),
    processing_time_ms: Math.max(0, now - started), // the wall clock may step back
    server_version: version,
  };
  switch (outcome.kind) {
    case "answer":
    case "failure": {
      meta.response_type = outcome.kind;
      const { content, structuredContent, isError, _meta: extra } = outcome.result;
      // A handler's own keys (`ctx.resultMeta()`); MCP-lite's (§3.3) win over them.
      // Serialised: JSON leaves out an undefined member, here and in the promise's `estimated_completion`.
      return {
        content,
        _meta: extra === undefined ? meta : { ...extra, ...meta },
        structuredContent,
        isError: isError === true || undefined,
      };
    }
    case "promise":
      meta.response_type = "promise";
      meta.promise_token = outcome.token;
      meta.retry_after_ms = outcome.retryAfterMs;
      meta.estimated_completion = outcome.estimatedCompletion;
      meta.expires_at = outcome.expiresAt;
      return { _meta: meta };
    case "input_required":
      // A round that asks only for resources is a request for more resource (the README's extension of §3.3).
      meta.response_type = asksOnlyForResources(outcome.requests) ? "request-for-more-resource" : "elicitation";
      meta.input_requests = outcome.requests;
      meta.request_state = outcome.requestState;
      return { _meta: meta };
    default:
      return assertNever(outcome);
  }
}
