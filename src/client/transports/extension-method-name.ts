/**
 * Which methods the MCP-lite and gRPC transports send as an extension's (this SDK's MCP-lite extension E5: `/rpc`,
 * `CallMethod`): those under a reverse-DNS vendor prefix (a `.` before the first `/`, as SEP-2133 asks), and MCP
 * Events' (`events/…`, SEP-3415's `io.modelcontextprotocol/events`, whose methods carry no prefix).
 *
 * @module
 */

/**
 * Whether a method is sent as an extension's.
 *
 * @param method The method.
 * @returns Whether it is an extension's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isExtensionMethod } from "./extension-method-name.ts";
 * assert.equal(isExtensionMethod("org.example/ledger/get"), true);
 * assert.equal(isExtensionMethod("events/stream"), true);
 * assert.equal(isExtensionMethod("tasks/get"), false);
 * ```
 */
export function isExtensionMethod(method: string): boolean {
  return /^[^/]*\.|^events\//.test(method);
}
