/**
 * Reading a `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1) on the client side.
 *
 * @module
 */

/** What a `Bearer` challenge tells the client. */
export interface BearerChallenge {
  /** The protected resource metadata URL (RFC 9728 §5.1). */
  readonly resourceMetadata?: string;
  /** The scopes the request needs (space-separated). */
  readonly scope?: string;
  /** `invalid_token`, `insufficient_scope`, … (RFC 6750 §3.1). */
  readonly error?: string;
}

/**
 * Reads the `Bearer` or `DPoP` challenge of a `WWW-Authenticate` header (other schemes are skipped).
 *
 * @param header The header value, or `null`.
 * @returns The challenge's parameters (empty when there is none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBearerChallenge } from "./read-challenge.ts";
 * assert.deepEqual(
 *   parseBearerChallenge('Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource"'),
 *   { error: "insufficient_scope", scope: "a b", resourceMetadata: "https://x/.well-known/oauth-protected-resource" },
 * );
 * assert.deepEqual(parseBearerChallenge('DPoP error="use_dpop_nonce", resource_metadata="https://x/m"'), {
 *   error: "use_dpop_nonce",
 *   resourceMetadata: "https://x/m",
 * });
 * ```
 */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  if (header === null) return {};
  // RFC 9449 §7.1: a DPoP challenge carries the same parameters.
  const scheme = /(^|[\s,])(bearer|dpop)(\s|$)/i.exec(header);
  if (scheme === null) return {};
  const params: Record<string, string> = {};
  // auth-param = token BWS "=" BWS ( token / quoted-string ) (RFC 9110 §11.2); stop at the next scheme.
  const re = /\s*,?\s*([A-Za-z0-9_!#$%&'*+.^`|~-]+)\s*(=\s*("((?:[^"\\]|\\.)*)"|[^\s,]*))?/y;
  re.lastIndex = scheme.index + scheme[1].length + scheme[2].length;
  for (let m = re.exec(header); m !== null && re.lastIndex <= header.length; m = re.exec(header)) {
    if (m[2] === undefined) break; // a bare token: the next scheme begins
    params[m[1].toLowerCase()] = m[4] !== undefined ? m[4].replace(/\\(.)/g, "$1") : m[3];
    if (re.lastIndex === header.length) break;
  }
  const out: { resourceMetadata?: string; scope?: string; error?: string } = {};
  if (params.error !== undefined) out.error = params.error;
  if (params.scope !== undefined) out.scope = params.scope;
  if (params.resource_metadata !== undefined) out.resourceMetadata = params.resource_metadata;
  return out;
}

/**
 * Names the authentication schemes a `WWW-Authenticate` header challenges with, lower-cased: a
 * resource that takes bearer and DPoP tokens names both, one that takes DPoP-bound tokens only names
 * `dpop` alone (RFC 9449 §7.1).
 *
 * @param header The header value, or `null`.
 * @returns The schemes, e.g. `{"bearer", "dpop"}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { challengeSchemes } from "./read-challenge.ts";
 * assert.deepEqual(challengeSchemes('DPoP algs="ES256 PS256", error="invalid_token"'), new Set(["dpop"]));
 * assert.deepEqual(challengeSchemes('Bearer realm="a, b", DPoP algs="ES256"'), new Set(["bearer", "dpop"]));
 * ```
 */
export function challengeSchemes(header: string | null): Set<string> {
  const schemes = new Set<string>();
  if (header === null) return schemes;
  // RFC 9110 §11.6.1: challenges and their auth-params are comma-separated; a piece that opens with a
  // token not followed by "=" opens a challenge. Quoted strings may hold commas: drop them first.
  for (const piece of header.replace(/"(?:[^"\\]|\\.)*"/g, '""').split(",")) {
    const m = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)(\s*=)?/.exec(piece);
    if (m !== null && m[2] === undefined) schemes.add(m[1].toLowerCase());
  }
  return schemes;
}
