/**
 * Who observes the requests a server's edge refuses before any method runs (a Host or Origin refused, a
 * token refused, a budget spent): request middleware never sees them, so telemetry (`otel()`) observes
 * them here, through the gate every carrier reports each refusal to. Without an observer a refusal
 * costs nothing more: carriers call `gate.refused?.(…)`, which builds no argument when none is set.
 *
 * @module
 */
import type { ProtocolError } from "../core/error.ts";
import type { Gate } from "./gate.ts";

/** What an edge observer reads of a refused request: its method, URL and headers (its body is not read). */
export interface RefusedRequest {
  /** The HTTP method (`POST`). */
  readonly method: string;
  /** The URL as requested. */
  readonly url: string;
  /** The request headers (a `traceparent` among them). */
  readonly headers: Headers;
}

/**
 * Observes a request the edge refused, once its answer is made.
 *
 * @param error What it was refused with (its `code` names the failure: `unauthenticated`, `forbidden`…).
 * @param request The refused request.
 * @param status The HTTP status it was answered with (a gRPC listener answers 200 with the status in its trailers).
 */
export type EdgeObserver = (error: ProtocolError, request: RefusedRequest, status: number) => void;

/**
 * A request middleware that observes the edge too carries its observer under this symbol: the server
 * hands it to its gate when the middleware is added (`server.use()`), as `otel()` does.
 */
export const OBSERVES_EDGE: unique symbol = Symbol.for("mcplite.observesEdge");

/** A request middleware that observes the edge too. */
export interface EdgeObserving {
  /** The observer of the requests the edge refuses. */
  readonly [OBSERVES_EDGE]?: EdgeObserver;
}

/**
 * Adds an observer of the requests a gate refuses, after those it has.
 *
 * @param gate The server's gate.
 * @param observer The observer.
 */
export function observeEdge(gate: Gate, observer: EdgeObserver): void {
  const before = gate.refused;
  gate.refused = before === undefined ? observer : (error, request, status) => {
    before(error, request, status);
    observer(error, request, status);
  };
}
