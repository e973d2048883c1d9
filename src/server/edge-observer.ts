/**
 * Who observes the requests a server's edge refuses before any method runs (a Host or Origin refused, a
 * token refused, a budget spent): request middleware never sees them, so telemetry (`otel()`) observes
 * them here, through the gate every carrier reports each refusal to. Without an observer a refusal
 * costs nothing more: carriers call `gate.refused?.(…)`, which builds no argument when none is set.
 *
 * @module
 */
import type { Gate } from "./gate.ts";

/**
 * Observes a request the edge refused, once its answer is made: what it was refused with (its `code`
 * names the failure), the request's method, URL and headers, and the HTTP status it was answered with.
 */
export type EdgeObserver = NonNullable<Gate["refused"]>;

/**
 * A request middleware that observes the edge too carries, under this symbol, what installs its observer
 * on a gate (with {@link observeEdge}): the server calls it with its gate when the middleware is added
 * (`server.use()`), as `otel()` asks. A server that is given no such middleware bundles no observer code.
 */
export const OBSERVES_EDGE: unique symbol = Symbol.for("mcplite.edge");

/** A request middleware that observes the edge too. */
export interface EdgeObserving {
  /** Installs the middleware's observer on the server's gate. */
  readonly [OBSERVES_EDGE]?: (gate: Gate) => void;
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
