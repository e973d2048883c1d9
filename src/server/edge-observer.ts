/**
 * Who observes the requests a server's edge refuses before any method runs (a Host or Origin refused, a
 * token refused, a budget spent): request middleware never sees them, so telemetry (`otel()`) observes
 * them here, through the gate every carrier reports each refusal to. Without an observer a refusal
 * costs nothing more: carriers call `gate.refused?.(…)`, which builds no argument when none is set.
 *
 * @module
 */
import type { ProtocolError } from "../errors/error.ts";

/**
 * Observes a request the edge refused, once its answer is made (the type of `Gate.refused`).
 *
 * @param error What it was refused with: its `code` names the failure (`unauthenticated`, `forbidden`…).
 * @param request The refused request's method, URL and headers (its body is not read).
 * @param status The HTTP status it was answered with.
 */
export type EdgeObserver = (
  error: ProtocolError,
  request: { readonly method: string; readonly url: string; readonly headers: Headers },
  status: number,
) => void;

/** What carriers report refusals to: the server's gate (`Gate.refused`). */
export interface ObservedEdge {
  /** The observer, when one is set. */
  refused?: EdgeObserver;
}

/**
 * A request middleware that observes the edge too carries, under this symbol, what installs its observer
 * on a gate (with {@link observeEdge}): the server calls it with its gate when the middleware is added
 * (`server.use()`), as `otel()` asks. A server that is given no such middleware bundles no observer code.
 */
export const OBSERVES_EDGE: unique symbol = Symbol.for("mcplite.edge");

/** A request middleware that observes the edge too. */
export interface EdgeObserving {
  /** Installs the middleware's observer on the server's gate. */
  readonly [OBSERVES_EDGE]?: (gate: ObservedEdge) => void;
}

/**
 * Adds an observer of the requests a gate refuses, after those it has.
 *
 * @param gate The server's gate.
 * @param observer The observer.
 */
export function observeEdge(gate: ObservedEdge, observer: EdgeObserver): void {
  const before = gate.refused;
  gate.refused = before === undefined ? observer : (error, request, status) => {
    before(error, request, status);
    observer(error, request, status);
  };
}
