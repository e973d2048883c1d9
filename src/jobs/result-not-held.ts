/**
 * The error for deferred work this instance does not hold: it ran in another process without a shared store, or
 * its entry expired.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/**
 * The error for deferred work this instance does not hold (it ran in another, or expired): invalid params with
 * `data.reason: "result_not_found"`, which every wire's callers read, and the advice (a shared `ResultStore`).
 *
 * @param what What was asked for; `kept`: what the work keeps in its process; `serve`: what a shared store allows.
 * @returns The error.
 */
export function resultNotHeld(what: string, kept: string, serve: string): ProtocolError {
  const message = `${what}: work started with ctx.defer() keeps its ${kept} in the process that ran it. To ${serve} ` +
    "on any instance, give every instance a shared ResultStore (the resultStore option).";
  return new ProtocolError("invalid_params", message, { data: { reason: "result_not_found" } });
}
