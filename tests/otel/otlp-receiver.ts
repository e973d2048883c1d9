/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 for tests: it decodes the JSON export requests the official
 * exporter sends (OTLP specification, "OTLP/HTTP"; ids as hex strings) and keeps every span with its
 * instrumentation scope and `service.name`.
 */
import { serve } from "../../mod.ts";
import { changes } from "../helpers/wait.ts";

/** OTLP's `SpanKind` enum (opentelemetry-proto, trace.proto). */
export const SPAN_KIND_SERVER = 2;
/** OTLP's CLIENT span kind. */
export const SPAN_KIND_CLIENT = 3;

/** An OTLP/JSON span, as far as the tests read it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** OTLP/JSON's `AnyValue`: an int64 may be written as a number or as a decimal string. */
  attributes?: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

/** A span as received, with where it came from. */
export interface ReceivedSpan {
  span: OtlpSpan;
  /** The instrumentation scope's name. */
  scope: string;
  /** The resource's `service.name`. */
  service: string | undefined;
}

interface ExportRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Where exporters send traces (`…/v1/traces`). */
  readonly tracesUrl: string;
  /** Every span received so far. */
  readonly received: ReceivedSpan[];
  /** The `Content-Type` of every export request. */
  readonly contentTypes: (string | null)[];
  /**
   * Waits, at most `timeoutMs` (15 s), for a span that matches among those received after the first `from` (0),
   * checked as each export arrives; `undefined` when none came.
   */
  waitFor(match: (span: OtlpSpan) => boolean, timeoutMs?: number, from?: number): Promise<ReceivedSpan | undefined>;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1, on a free port.
 *
 * @returns The receiver.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const arrivals = changes(); // told of each export request's spans
  const contentTypes: (string | null)[] = [];
  const listener = await serve({
    async fetch(request: Request) {
      if (new URL(request.url).pathname !== "/v1/traces") return new Response(null, { status: 404 });
      contentTypes.push(request.headers.get("content-type"));
      const body = await request.json() as ExportRequest;
      for (const { resource, scopeSpans } of body.resourceSpans) {
        const service = resource.attributes.find((a) => a.key === "service.name")?.value.stringValue;
        for (const { scope, spans } of scopeSpans) {
          for (const span of spans) received.push({ span, scope: scope.name, service });
        }
      }
      arrivals.changed();
      return Response.json({});
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  return {
    tracesUrl: `${listener.url}/v1/traces`,
    received,
    contentTypes,
    async waitFor(match, timeoutMs = 15_000, from = 0) {
      const found = () => received.slice(from).find(({ span }) => match(span));
      await arrivals.until(() => found() !== undefined, "a matching span", timeoutMs).catch(() => {});
      return found();
    },
    close: () => listener.close(),
  };
}
