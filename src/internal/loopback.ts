/**
 * Loopback addresses, as a socket reports its peer: the only peers that reach a server bound to the
 * loopback interface, and the only ones a local tool's page trusts, whatever `Host` they send.
 *
 * @module
 */

/**
 * Whether an address is a loopback one: 127.0.0.0/8 and `::1` (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3),
 * also as IPv4-mapped IPv6 (RFC 4291 §2.5.5.2), which a dual-stack socket reports for an IPv4 peer.
 *
 * @param address The address, as a socket reports it (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`).
 * @returns `true` for a loopback address.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopbackAddress } from "./loopback.ts";
 * assert.equal(isLoopbackAddress("127.0.0.1"), true);
 * assert.equal(isLoopbackAddress("::ffff:127.0.0.2"), true);
 * assert.equal(isLoopbackAddress("198.51.100.2"), false);
 * ```
 */
export function isLoopbackAddress(address: string): boolean {
  const ip = address.trim().toLowerCase();
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}
