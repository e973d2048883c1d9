/**
 * The trace context a request runs in, as telemetry middleware (`otel()` from `@mcplite/sdk/otel`)
 * hands it to the core: the W3C `traceparent` of the request's span (W3C Trace Context §3.2), which
 * `ctx.log()` records carry and promise tokens keep, and the `traceparent` of the call that issued the
 * promise a redeem or task poll continues, which the middleware links to; and the id of a job the request
 * queued, which the middleware records. The core never depends on
 * OpenTelemetry: all three are plain strings.
 *
 * @module
 */
/** A `ContextKey` (`context-key.ts`) of a string, spelled out so that the two files do not import each other. */
interface StringKey {
  /** The key's identity. */
  readonly id: symbol;
  /** None until set. */
  readonly defaultValue: string | undefined;
}

/** The `traceparent` of the request's own span, set by telemetry middleware (absent without one). */
export const TRACE_PARENT: StringKey = { id: Symbol("traceparent"), defaultValue: undefined };

/** The `traceparent` of the call that issued the promise (or task) this request continues. */
export const ISSUED_BY: StringKey = { id: Symbol("issued by"), defaultValue: undefined };

/**
 * The id of the job a call added to the server's queue (`queued-job.ts`), for telemetry to record the
 * enqueue on the call's span; the worker's span carries the same id.
 */
export const QUEUED_JOB: StringKey = { id: Symbol(), defaultValue: undefined };

/** The version-00 `traceparent` shape (W3C Trace Context §3.2.2). */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Reads the trace id, parent (span) id and flags of a version-00 `traceparent`.
 *
 * @param traceparent The header value.
 * @returns Its fields, or `undefined` when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTraceparent } from "./trace-context.ts";
 * const parsed = parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
 * assert.deepEqual(parsed, { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 });
 * assert.equal(parseTraceparent("garbage"), undefined);
 * ```
 */
export function parseTraceparent(
  traceparent: string,
): { traceId: string; spanId: string; traceFlags: number } | undefined {
  const match = TRACEPARENT.exec(traceparent);
  return match === null ? undefined : { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16) };
}

/**
 * Adds a `traceparent`'s ids to a log record, under the names of the OpenTelemetry log data model
 * (`trace_id`, `span_id`, `trace_flags`), as pino's and other loggers' OpenTelemetry integrations do.
 *
 * @param fields The record's fields.
 * @param traceparent The request's `traceparent`, if it has one.
 * @returns The fields.
 */
export function withTraceIds(
  fields: Record<string, unknown>,
  traceparent: string | undefined,
): Record<string, unknown> {
  const parsed = traceparent === undefined ? undefined : parseTraceparent(traceparent);
  if (parsed !== undefined) {
    fields.trace_id = parsed.traceId;
    fields.span_id = parsed.spanId;
    fields.trace_flags = traceparent!.slice(53);
  }
  return fields;
}
