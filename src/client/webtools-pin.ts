/**
 * Lock-in for Webtools (the spec's security note): a client stores the `version` and hash of metadata
 * it has reviewed, and refuses to use metadata that no longer matches, so changed descriptions or
 * schemas cannot slip new instructions into the model's context. The hash is the one inside the
 * server's `ETag`: the SHA-256 of the canonical metadata.
 *
 * @module
 */
import { canonicalHash } from "../internal/canonical-json.ts";
import { byClient, McpliteError } from "../errors/error.ts";

/** A reviewed version of a webtool's metadata. */
export interface WebtoolsPin {
  /** The pinned version, e.g. `"2.0.0"`. */
  readonly version: string;
  /** The hex SHA-256 of the canonical metadata (the server's `ETag`, without quotes). */
  readonly hash: string;
}

/** Thrown when served metadata does not match the pin: the client refuses to call. */
export class WebtoolsPinError extends McpliteError {
  /** The pin. */
  readonly expected: WebtoolsPin;
  /** What was served. */
  readonly actual: WebtoolsPin;

  /**
   * Creates the error.
   *
   * @param expected The pin.
   * @param actual The version and hash that were served.
   */
  constructor(expected: WebtoolsPin, actual: WebtoolsPin) {
    super(
      "protocol",
      expected.version !== actual.version
        ? `webtool version ${actual.version} was served, but ${expected.version} is pinned`
        : `the metadata of webtool version ${expected.version} changed (hash ${actual.hash}, pinned ${expected.hash}); ` +
          `review it and pin the new hash before calling`,
      { data: { expected, actual } },
    );
    this.name = "WebtoolsPinError";
    byClient(this); // the client\'s own condition
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * Computes the pin of metadata, to store after reviewing it.
 *
 * @typeParam M The metadata's type.
 * @param metadata The metadata, as `GET {base}/{version}` returned it.
 * @returns Its version and hash.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pinOf } from "./webtools-pin.ts";
 * const pin = await pinOf({ name: "w", version: "1.0.0", actions: [] });
 * assert.equal(pin.version, "1.0.0");
 * assert.match(pin.hash, /^[0-9a-f]{64}$/);
 * ```
 */
export async function pinOf<M extends { readonly version: string }>(metadata: M): Promise<WebtoolsPin> {
  return { version: metadata.version, hash: await canonicalHash(metadata) };
}

/**
 * Checks served metadata against a pin.
 *
 * @typeParam M The metadata's type.
 * @param metadata The metadata that was served.
 * @param pin The pin.
 * @returns The metadata, unchanged, when it matches.
 * @throws {WebtoolsPinError} When the version or the hash differs.
 */
export async function checkPin<M extends { readonly version: string }>(metadata: M, pin: WebtoolsPin): Promise<M> {
  const actual = await pinOf(metadata);
  if (actual.version !== pin.version || actual.hash !== pin.hash.toLowerCase()) throw new WebtoolsPinError(pin, actual);
  return metadata;
}
