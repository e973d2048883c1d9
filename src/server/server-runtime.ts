/**
 * What a server's calls run in, built once from its options: error reporting and logging (their defaults
 * applied), tokens signed with the `secret` given (else a Worker's `env.MCPLITE_SECRET`, from its first request),
 * the long-running work and input rounds `createServer()` assembled, and the request budgets.
 *
 * @module
 */
import { SECRET_ENV } from "../codec/keys.ts";
import { Budgets } from "../core/instance/budgets.ts";
import { serverLogging } from "../core/instance/error-log.ts";
import { Runtime } from "../core/instance/runtime.ts";
import type {
  AssembledServerOptions,
  InputRoundsSupport,
  LongRunningSupport,
  ServerOptions,
} from "./server-options.ts";

/** A server's runtime, with what its registry and its `fetch` are built from. */
export interface ServerRuntime {
  /** The runtime. */
  readonly runtime: Runtime;
  /** The long-running work, if `createServer()` assembled it. */
  readonly longRunning: ReturnType<LongRunningSupport> | undefined;
  /** The request budgets. */
  readonly budgets: Budgets;
  /** Learns a Worker's secret from its `env`, the first time one holds it. */
  readonly learnSecret: (env: Record<string, unknown>) => void;
}

/**
 * Builds a server's runtime.
 *
 * @param options The server's options, with the capabilities `createServer()` assembled beside them.
 * @returns The runtime.
 */
export function serverRuntime(options: ServerOptions): ServerRuntime {
  const assembled = options as AssembledServerOptions; // createServer() passes its capabilities beside the options
  let platformSecret: string | undefined; // a Worker's env.MCPLITE_SECRET, from its first request
  const { onError, logger } = serverLogging(options.onError, options.logger); // their defaults applied
  const tokenOptions = {
    secret: options.secret,
    ...options.tokens,
    results: options.resultStore,
    journals: options.journalStore,
    queue: options.queue,
    leaseMs: options.leaseMs,
    server: options.name,
    onError,
    secretFallback: () => platformSecret,
    ...(logger === undefined ? {} : { warn: (message: string) => logger.warn(message) }),
  };
  // The opaque capabilities are what long-running-support.ts and input-rounds-support.ts built.
  const longRunning = (assembled.longRunning as LongRunningSupport | undefined)?.(tokenOptions);
  const continuations = longRunning?.continuations; // they carry the tokens; without them, tokens alone
  const tokens = continuations ?? (assembled.inputRounds as InputRoundsSupport | undefined)?.(tokenOptions);
  const budgets = new Budgets(options.limits);
  const runtime = new Runtime({ ...options, onError, logger, tokens, continuations, budgets });
  const learnSecret = (env: Record<string, unknown>) => {
    const secret = env[SECRET_ENV];
    if (platformSecret === undefined && typeof secret === "string") platformSecret = secret;
  };
  return { runtime, longRunning, budgets, learnSecret };
}
