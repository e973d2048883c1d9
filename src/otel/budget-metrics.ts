/**
 * The server's budgets across requests (`limits`) as OpenTelemetry metrics, read when the metrics are
 * collected (observable instruments): nothing is added to a request's path. For each budget, what is in
 * use and its limit (`mcplite.server.budget.{body_bytes,calls,held_streams,jobs}.usage` and `.limit`),
 * one counter of the requests refused, by budget (`mcplite.server.budget.refused`, attribute
 * `mcplite.budget`), and one of the calls their callers gave up on (`mcplite.server.calls.aborted`), which
 * `onError` does not hear of.
 *
 * @module
 */
import { metrics, type ObservableResult } from "@opentelemetry/api";
import { budgeting } from "../core/mod.ts";
import { SCOPE } from "./conventions.ts";

type BudgetName = budgeting.BudgetName;

/** Each budget's name in the metrics, and the unit of its values (UCUM, as the conventions use). */
const METRICS: Readonly<Record<BudgetName, { readonly name: string; readonly unit: string; readonly what: string }>> = {
  bodyBytes: { name: "body_bytes", unit: "By", what: "bytes of request bodies being read and handled" },
  calls: { name: "calls", unit: "{call}", what: "calls running" },
  heldStreams: { name: "held_streams", unit: "{call}", what: "calls held open while deferred work is followed" },
  jobs: { name: "jobs", unit: "{job}", what: "deferred jobs running" },
};

/**
 * Observes a server's budgets on a meter.
 *
 * @param budgets The server's budgets.
 * @returns Stops observing.
 */
export function observeBudgets(budgets: budgeting.Budgets): () => void {
  const meter = metrics.getMeterProvider().getMeter(SCOPE);
  const stops: (() => void)[] = [];
  for (const budget of budgeting.BUDGET_NAMES) {
    const { name, unit, what } = METRICS[budget];
    const usage = meter.createObservableUpDownCounter(`mcplite.server.budget.${name}.usage`, {
      unit,
      description: `The ${what} at once (limits.${budget})`,
    });
    const limit = meter.createObservableUpDownCounter(`mcplite.server.budget.${name}.limit`, {
      unit,
      description: `The most ${what} at once (limits.${budget}); past it requests are refused`,
    });
    const observeUsage = (result: ObservableResult) => result.observe(budgets.inUse[budget]);
    const observeLimit = (result: ObservableResult) => {
      const value = budgets.limits[budget];
      if (Number.isFinite(value)) result.observe(value);
    };
    usage.addCallback(observeUsage);
    limit.addCallback(observeLimit);
    stops.push(() => usage.removeCallback(observeUsage), () => limit.removeCallback(observeLimit));
  }
  const refused = meter.createObservableCounter("mcplite.server.budget.refused", {
    unit: "{request}",
    description: "Requests refused (or calls not held) past a budget of the server (limits), by budget",
  });
  const observeRefused = (result: ObservableResult) => {
    for (const budget of budgeting.BUDGET_NAMES) {
      result.observe(budgets.refused[budget], { "mcplite.budget": METRICS[budget].name });
    }
  };
  refused.addCallback(observeRefused);
  stops.push(() => refused.removeCallback(observeRefused));
  const aborted = meter.createObservableCounter("mcplite.server.calls.aborted", {
    unit: "{call}",
    description:
      "Calls their callers gave up on (cancelled, disconnected, past their deadline); not reported to onError",
  });
  const observeAborted = (result: ObservableResult) => result.observe(budgets.aborted);
  aborted.addCallback(observeAborted);
  stops.push(() => aborted.removeCallback(observeAborted));
  return () => {
    for (const stop of stops) stop();
  };
}
