/**
 * MCP wire constants the client speaks, and the handling of what arrives on a call's SSE stream
 * before its reply (progress, partials, log messages, and, on the 2025 revisions, server requests).
 *
 * @module
 */
import {
  LEGACY_VERSIONS,
  META,
  MODERN_VERSION,
  MODERN_VERSIONS,
  NAME_SOURCES,
  PARTIAL_NOTIFICATION,
  PARTIALS_META,
  TASKS_EXTENSION,
} from "../../internal/mcp-wire.ts";
import type { StreamMessage } from "../http.ts";
import type { RequestContext } from "../transport.ts";

export { LEGACY_VERSIONS, META, MODERN_VERSION, MODERN_VERSIONS, TASKS_EXTENSION };
/** The params field each method mirrors into `Mcp-Name`. */
export const NAME_FIELDS: ReadonlyMap<string, string> = NAME_SOURCES;

/**
 * The `_meta` fields a request adds to hear what arrives before its reply: a progress token when the
 * caller listens to progress or streams, and, when it streams, the ask for partials (MCP has none of
 * its own; our server sends them as `notifications/partial`, apart from the tool's own progress).
 *
 * @param ctx The request context.
 * @param id The request's JSON-RPC id, which makes the token unique.
 * @returns The progress token, if any, and the fields to merge into `params._meta`.
 */
export function streamMetaOf(
  ctx: RequestContext,
  id: number,
): { progressToken: string | undefined; meta: Record<string, unknown> } {
  if (ctx.onProgress === undefined && !ctx.stream) return { progressToken: undefined, meta: {} };
  const progressToken = `p-${id}`;
  return { progressToken, meta: ctx.stream ? { progressToken, [PARTIALS_META]: true } : { progressToken } };
}

/**
 * Handles a message that arrived on a call's stream before its reply: progress for this request goes
 * to `onProgress`, its partials (when the caller streams) to `onPartial`, log messages to `onLog`,
 * any other notification (an extension's) to `onNotification`; server requests to `onRequest`.
 *
 * @param message The JSON-RPC message.
 * @param ctx The request context.
 * @param progressToken The request's progress token.
 * @param onRequest Answers a server→client request (2025 revisions); absent on 2026-07-28, where
 *   servers must not send any.
 */
export async function handleStreamMessage(
  message: StreamMessage,
  ctx: RequestContext,
  progressToken: string | undefined,
  onRequest?: (id: string | number, method: string, params: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const method = message.method;
  if (typeof method !== "string") return;
  const params = (typeof message.params === "object" && message.params !== null ? message.params : {}) as Record<
    string,
    unknown
  >;
  const id = message.id;
  if (typeof id === "string" || typeof id === "number") {
    await onRequest?.(id, method, params);
    return;
  }
  if (method === "notifications/progress") {
    if (progressToken === undefined || params.progressToken !== progressToken || typeof params.progress !== "number") {
      return;
    }
    ctx.activity();
    const text = typeof params.message === "string" ? params.message : undefined;
    ctx.onProgress?.({
      progress: params.progress,
      ...(typeof params.total === "number" ? { total: params.total } : {}),
      ...(text === undefined ? {} : { message: text }),
    });
  } else if (method === PARTIAL_NOTIFICATION) {
    if (progressToken === undefined || params.progressToken !== progressToken) return;
    ctx.activity();
    if (ctx.stream) ctx.onPartial?.(params.partial);
  } else if (method === "notifications/elicitation/complete") {
    if (typeof params.elicitationId === "string") ctx.onElicitationComplete?.(params.elicitationId);
  } else if (method === "notifications/message") {
    ctx.activity();
    ctx.onLog?.({
      level: typeof params.level === "string" ? params.level : "info",
      data: params.data,
      ...(typeof params.logger === "string" ? { logger: params.logger } : {}),
    });
  } else ctx.onNotification?.(method, params);
}
