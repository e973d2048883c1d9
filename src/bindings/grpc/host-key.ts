/**
 * The host in Connect's context values: how the service's handlers reach what the platform handed `server.fetch`
 * besides the request (the caller set by the auth interceptor, `waitUntil`).
 *
 * @module
 */
import { type ContextKey, createContextKey } from "@connectrpc/connect";
import { type Host, NO_HOST } from "../../server/mod.ts";

/**
 * Where Connect's handlers find what the platform handed `server.fetch` besides the request (the
 * gRPC binding on `fetch` sets it; `serveGrpc()` sets what exempts a call from the request budgets).
 */
export const HOST_KEY: ContextKey<Host> = createContextKey<Host>(NO_HOST, { description: "mcplite host" });
