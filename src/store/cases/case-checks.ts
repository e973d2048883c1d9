/**
 * The checks every kit of conformance cases (`sharedStoreCases()`, `resultStoreCases()`, `journalStoreCases()`) fails a
 * case with: values compared as JSON, a write refused for its size, and what a short lifetime leaves.
 *
 * @module
 */
import { canonicalJson } from "../../internal/canonical-json.ts";
import { sleep } from "../../internal/sleep.ts";

/**
 * The lifetime of what the expiry cases write, in ms: short, so that a kit's run waits little for it to pass. A store
 * that rounds lifetimes up (to whole seconds, as Redis's `EX` does) still passes, within {@link EXPIRY_BOUND_MS}.
 */
export const SHORT_LIFETIME_MS = 500;
/** How long an expiry case waits for a short lifetime to pass, at most, in ms. */
export const EXPIRY_BOUND_MS = 15_000;
/** How far a store's clock may be from the case's at the read after a write, in ms (whole ms against fractions). */
const CLOCK_SLACK_MS = 10;

/**
 * Writes what `present` reads with a lifetime of {@link SHORT_LIFETIME_MS}, fails the case when it is not there at
 * once (a read that came back after the lifetime had passed, on a loaded machine, says nothing), then waits until it
 * is gone, failing the case after {@link EXPIRY_BOUND_MS}.
 *
 * @param write Writes it, for the lifetime given.
 * @param present Whether it is there (throwing when what is there is wrong).
 * @param what What was written, for the messages.
 */
export async function expiresAfterItsLifetime(
  write: (ttlMs: number) => Promise<unknown>,
  present: () => Promise<boolean>,
  what: string,
): Promise<void> {
  const written = performance.now();
  await write(SHORT_LIFETIME_MS);
  // A store times lifetimes by its own clock, in whole ms (`Date.now()`): a read that came back just short of the
  // lifetime by this clock (a machine that stalled) may find it passed by the store's.
  if (!await present() && performance.now() - written < SHORT_LIFETIME_MS - CLOCK_SLACK_MS) {
    throw new Error(`${what} with a ${SHORT_LIFETIME_MS} ms lifetime was gone at once`);
  }
  const deadline = performance.now() + EXPIRY_BOUND_MS;
  while (await present()) {
    if (performance.now() > deadline) {
      throw new Error(`${what} was still there ${EXPIRY_BOUND_MS / 1000} s after its ${SHORT_LIFETIME_MS} ms lifetime`);
    }
    await sleep(50);
  }
}

/**
 * Fails the case when `actual` is not `expected`, as JSON (what a store keeps is JSON).
 *
 * @param actual What the store answered.
 * @param expected What the contract says.
 * @param what What was read, for the message.
 */
export function same(actual: unknown, expected: unknown, what: string): void {
  const [a, e] = [actual, expected].map((value) => value === undefined ? "undefined" : canonicalJson(value));
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/**
 * Fails the case unless `promise` rejects with a `RangeError`.
 *
 * @param promise The write.
 * @param what What was written, for the message.
 */
export async function refusedWithRangeError(promise: Promise<unknown>, what: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RangeError) return;
    throw new Error(`${what}: expected a RangeError, got ${error}`);
  }
  throw new Error(`${what}: expected a RangeError, but it was written`);
}
