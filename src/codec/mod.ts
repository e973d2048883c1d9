/**
 * The token codec: HMAC-SHA256 tokens, AES-GCM-sealed by default, for promise tokens, `requestState`
 * and task ids, verifiable by any instance that holds the secret.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTokenCodec, TokenError } from "./mod.ts";
 *
 * const codec = createTokenCodec({ secret: ["the new secret, at least 32 bytes long", "the old one, also 32 bytes or more"] });
 * const token = await codec.sign({ kind: "promise", scope: "report", state: { page: 2 }, ttlMs: 60_000 });
 * await assert.rejects(codec.verify(token + "x", { kind: "promise" }), TokenError);
 * assert.deepEqual((await codec.verify(token, { kind: "promise" })).state, { page: 2 });
 * ```
 *
 * @module
 */
export { createTokenCodec } from "./token.ts";
export type { TokenClaims, TokenCodec, TokenCodecOptions, TokenExpectation, TokenInput } from "./token.ts";
export { TokenError } from "./token-error.ts";
export type { TokenFailure } from "./token-error.ts";
