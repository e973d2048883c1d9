/**
 * One use per assertion (RFC 7523 §3 item 7; the ID-JAG's required `jti`): a `jti` is remembered in the
 * server's shared store until its assertion expires, taken once (`putIfAbsent`, atomic in every store), so every
 * instance sharing the store, and the next
 * process over it, refuse a second use. A store that came back empty has forgotten what it took: an
 * assertion issued before its memory began (`dpop-epoch.ts`'s marker) is refused, so none is taken twice.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { storeSpace } from "../store/store-space.ts";
import { memoryStart } from "../server/dpop-epoch.ts";
import { TokenError } from "./oauth-error.ts";

/**
 * Remembers an assertion's use, refusing a second one.
 *
 * @param store The server's shared store (used assertions in its `assertion-jti` namespace).
 * @param assertion The assertion's issuer, `jti`, `iat` (if it has one) and `exp` (seconds).
 * @param toleranceSec The clock skew tolerated past `exp`.
 * @throws {TokenError} `invalid_grant` for an assertion used already, or issued before the store's memory
 *   began; `temporarily_unavailable` (503) when the store is down.
 */
export async function useOnce(
  store: SharedStore,
  assertion: { readonly issuer: string; readonly jti: string; readonly iat: number | undefined; readonly exp: number },
  toleranceSec: number,
): Promise<void> {
  let first: boolean;
  try {
    // `iat` is whole seconds: one issued in the second the memory began may be the one it forgot. Without
    // `iat` (a client assertion may lack it, RFC 7523 §3), the check cannot be made: its `exp` bounds it.
    if (assertion.iat !== undefined && assertion.iat < Math.floor(await memoryStart(store) / 1000)) {
      throw new TokenError(
        "invalid_grant",
        "the assertion was issued before this server's memory of used assertions began: get a new one",
      );
    }
    const ttlMs = Math.max(1, assertion.exp + toleranceSec) * 1000 - Date.now();
    first = await storeSpace<true>(store, "assertion-jti").putIfAbsent(
      `${assertion.issuer}\n${assertion.jti}`,
      true,
      Math.max(1000, ttlMs),
    );
  } catch (error) {
    if (error instanceof TokenError) throw error;
    throw storeDown(error);
  }
  if (!first) throw new TokenError("invalid_grant", "the assertion was used already (its jti is known)");
}

/**
 * The refusal when the result store cannot be read or written (RFC 6749 §5.2 leaves 5xx to the server; the
 * client retries).
 *
 * @param cause What the store threw.
 * @returns `temporarily_unavailable`, 503.
 */
export function storeDown(cause: unknown): TokenError {
  return new TokenError("temporarily_unavailable", "the replay store is unreachable; retry", {
    status: 503,
    headers: { "retry-after": "1" },
    cause,
  });
}
