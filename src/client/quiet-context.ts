/**
 * The request context for the requests a call makes on the side (wire probes, lists, handshakes):
 * without progress or streaming, which they never report.
 *
 * @module
 */
import type { RequestContext } from "./transport.ts";

/**
 * Gives the context without progress, partials or streaming.
 *
 * @param ctx The caller's context.
 * @returns The quiet context, sharing its signal, handlers and capabilities.
 */
export function quietContext(ctx: RequestContext): RequestContext {
  return { ...ctx, stream: false, onProgress: undefined, onPartial: undefined };
}
