/**
 * What the `Server` constructor assembles from its options before it mounts anything: the runtime (tokens,
 * long-running support, budgets) and, once the core exists, the routes of its bindings. Kept apart from `server.ts`
 * so that the class reads as its public methods.
 *
 * @module
 */
import type { Definitions, LongRunningSupport } from "../core/registry.ts";
import { Runtime } from "../core/runtime.ts";
import { Budgets } from "../core/budgets.ts";
import { SECRET_ENV } from "../codec/keys.ts";
import type { Route, ServerCore } from "./binding-contract.ts";
import {
  type AssembledServerOptions,
  type InputRoundsSupport,
  prefixed,
  type ServerOptions,
  tokenOptionsOf,
} from "./server-options.ts";

/**
 * Builds a server's runtime from its options and the capabilities `createServer()` assembled beside them.
 *
 * @param options The options.
 * @returns The runtime, the long-running support (if any), the budgets, and what learns a Worker's
 *   `env.MCPLITE_SECRET` from its first request.
 */
export function assembleRuntime(options: ServerOptions): {
  runtime: Runtime;
  longRunning: ReturnType<LongRunningSupport> | undefined;
  budgets: Budgets;
  learnSecret: (env: Record<string, unknown>) => void;
} {
  const assembled = options as AssembledServerOptions; // createServer() passes its capabilities beside the options
  const { onError, logger, settings } = options;
  let platformSecret: string | undefined; // a Worker's env.MCPLITE_SECRET, from its first request
  const tokenOptions = tokenOptionsOf(options, () => platformSecret);
  // The opaque capabilities are what long-running-support.ts and input-rounds-support.ts built.
  const longRunning = (assembled.longRunning as LongRunningSupport | undefined)?.(tokenOptions);
  const continuations = longRunning?.continuations; // they carry the tokens; without them, tokens alone
  const tokens = continuations ?? (assembled.inputRounds as InputRoundsSupport | undefined)?.(tokenOptions);
  const budgets = new Budgets(options.limits);
  const runtime = new Runtime({ onError, logger, tokens, continuations, settings, budgets });
  const learnSecret = (env: Record<string, unknown>) => {
    const secret = env[SECRET_ENV];
    if (platformSecret === undefined && typeof secret === "string") platformSecret = secret;
  };
  return { runtime, longRunning, budgets, learnSecret };
}

/**
 * Mounts the bindings: each one's routes under the base path, and its check of a tool.
 *
 * @param options The options, with the bindings.
 * @param core The server's core.
 * @param registry Its registry, which keeps the bindings' checks.
 * @returns The routes, by path.
 * @throws {TypeError} When two bindings claim one path.
 */
export function mountRoutes(options: ServerOptions, core: ServerCore, registry: Definitions): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const binding of options.bindings ?? []) {
    const mounted = binding(core);
    for (const [own, route] of mounted.routes) {
      const path = prefixed(core.options.basePath, own);
      if (routes.has(path)) throw new TypeError(`two bindings serve ${path}`);
      routes.set(path, route);
    }
    if (mounted.checkTool !== undefined) registry.checks.push(mounted.checkTool);
  }
  return routes;
}
