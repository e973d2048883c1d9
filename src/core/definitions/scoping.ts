/**
 * The scope checks bindings, carriers and apps use (MCP 2025-11-25, Authorization, Scope Challenge
 * Handling), reached as the core facade's `scoping` namespace: bundlers resolve `scoping.check` to the
 * function itself, so the namespace costs neither bytes nor a lookup per call.
 *
 * @module
 */
export {
  checkScopes as check,
  holdsScopes as holds,
  requireScopes as require,
  scopeKey as key,
  toolScopes as ofTools,
  visibleTo,
  visibleTools,
} from "./scopes.ts";
