/**
 * The server's tokens: the codec that signs (and by default seals) every token it issues, and their
 * lifetimes. Every server has them: an input round's `requestState` is one (MCP 2026-07-28, multi
 * round-trip requests), whether or not the server runs long-running tools; the promise machinery
 * (`Continuations`) adds deferred work and its store on top.
 *
 * @module
 */
import { createTokenCodec, type TokenCodec, type TokenCodecOptions } from "../../codec/token.ts";

/** The codec and the lifetimes of a server's tokens. */
export interface Tokens {
  /** Signs and checks every token. */
  readonly codec: TokenCodec;
  /** How long promise tokens last, in ms. */
  readonly promiseTtlMs: number;
  /** How long `requestState` lasts, in ms. */
  readonly inputTtlMs: number;
  /** The default `retry_after_ms`. */
  readonly retryAfterMs: number;
}

/** Options of {@link createTokens}: the codec's, plus the lifetimes. */
export interface TokensOptions extends TokenCodecOptions {
  /** How long promise tokens (and deferred results) last, in ms (default one hour). */
  promiseTtlMs?: number;
  /** How long an input round's `requestState` lasts, in ms (default ten minutes). */
  inputTtlMs?: number;
  /** The default `retry_after_ms` of a promise (default 1 000). */
  retryAfterMs?: number;
}

/**
 * Creates a server's tokens from its options.
 *
 * @param options The secret, sealing, bounds and lifetimes.
 * @returns The codec and the lifetimes.
 * @throws {TypeError} When a secret is shorter than 32 bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTokens } from "./tokens.ts";
 *
 * const tokens = createTokens({ secret: "s".repeat(32), inputTtlMs: 60_000 });
 * assert.equal(tokens.inputTtlMs, 60_000);
 * assert.equal(tokens.promiseTtlMs, 60 * 60 * 1000);
 * const token = await tokens.codec.sign({ kind: "input", scope: "t", state: { n: 1 }, ttlMs: 1000 });
 * assert.deepEqual((await tokens.codec.verify(token, { kind: "input", scope: "t" })).state, { n: 1 });
 * ```
 */
export function createTokens(options: TokensOptions = {}): Tokens {
  return {
    codec: createTokenCodec(options),
    promiseTtlMs: options.promiseTtlMs ?? 60 * 60 * 1000,
    inputTtlMs: options.inputTtlMs ?? 10 * 60 * 1000,
    retryAfterMs: options.retryAfterMs ?? 1000,
  };
}
