/**
 * The tokens of a server without input-round support (`@mcplite/sdk/lite` given no `inputRounds`, which passes them):
 * nothing is signed, so a handler that asks the client (`ctx.elicit()`, `ctx.sample()`, `ctx.roots()`)
 * fails naming the fix, and a `requestState` it could not have issued is refused as any invalid one
 * (MCP 2026-07-28, multi round-trip requests). The token codec is then left out of the bundle.
 *
 * @module
 */
import type { TokenCodec } from "../../codec/token.ts";
import { TokenError } from "../../codec/token-error.ts";
import type { Tokens } from "./tokens.ts";

const codec: TokenCodec = {
  maxBytes: 16_384,
  now: () => Date.now(),
  sign: () =>
    Promise.reject(
      new TypeError(
        'ctx.elicit(), sample() and roots() need createServer({ ..., inputRounds }) from "@mcplite/sdk/lite"',
      ),
    ),
  verify: () => Promise.reject(new TokenError("bad_mac")),
};

/** Tokens that sign nothing and accept nothing. */
export const NO_TOKENS: Tokens = { codec, promiseTtlMs: 0, inputTtlMs: 0, retryAfterMs: 1000 };
