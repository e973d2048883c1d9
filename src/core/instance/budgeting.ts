/**
 * A server's budgets as carriers and telemetry see them: the class, its names, the anonymous caller's
 * key, the refusal, and `of()` to reach a runtime's. Reached as the core facade's `budgeting` namespace.
 *
 * @module
 */
export { ANONYMOUS, BUDGET_NAMES, type BudgetName, type BudgetRefusal, Budgets } from "./budgets.ts";
export { budgetsOf as of } from "./runtime.ts";
