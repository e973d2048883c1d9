/**
 * What a server without `signals()` answers `server.signal()`, `work.waitFor()` and `work.signalUrl()`: the fix, named.
 *
 * @module
 */

/**
 * A rejection naming `createServer({ signals: signals() })`.
 *
 * @param what What was called.
 * @param E The error's class: a `TypeError` for the server's caller, a `ToolError` for the work (the tool's failure).
 * @returns The rejected promise.
 */
export function needsSignals(what: string, E: new (message: string) => Error = TypeError): Promise<never> {
  return Promise.reject(new E(`${what} needs createServer({ signals: signals() })`));
}
