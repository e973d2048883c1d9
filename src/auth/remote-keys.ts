/**
 * The issuer's signing keys, fetched from its `jwks_uri` (RFC 7517 §5; RFC 8414 §2) and kept through its outages:
 * one bounded fetch at a time, backoff after a failure, the last good set used past its age while the issuer is down
 * (stale-if-error, RFC 5861 §4). No usable keys is `unavailable` (503, gRPC `UNAVAILABLE`), never "invalid token";
 * an unknown `kid` (a key rotated in, RFC 7517 §4.5) is `unavailable` until a refetch, at most one per cooldown, and
 * invalid only once a set fetched after it still lacks it. Why: docs/guides/authorization.md ("Keys and rotation").
 * Without a `jwks_uri`, it is read from the issuer's metadata (RFC 8414 §3, else OpenID Connect Discovery 1.0 §4).
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters } from "jose";
import { createLocalJWKSet, errors, type LocalJWKSet } from "jose";
import { ProtocolError } from "../errors/error.ts";

/** How {@link remoteKeys} fetches and keeps the keys; every duration in milliseconds. */
export interface RemoteKeysOptions {
  /** How long one fetch (connection, headers and body) may take. */
  readonly timeoutMs: number;
  /** How long a key set is fresh; after it, the next token refetches it (in the background). */
  readonly maxAgeMs: number;
  /** How long past `maxAgeMs` a key set still verifies tokens while every refetch fails. */
  readonly staleIfErrorMs: number;
  /** The least time between two fetches for a token signed with a key the set does not hold. */
  readonly cooldownMs: number;
  /** The wait after a failed fetch; it doubles with each failure in a row, up to `maxBackoffMs`. */
  readonly backoffMs: number;
  /** The longest wait between two failed fetches. */
  readonly maxBackoffMs: number;
}

/** The numbers `jwtAuth({ jwksUri })` uses (documented in the README, Authorization). */
export const REMOTE_KEYS_DEFAULTS: Readonly<RemoteKeysOptions> = Object.freeze({
  timeoutMs: 3_000,
  maxAgeMs: 10 * 60_000,
  staleIfErrorMs: 60 * 60_000,
  cooldownMs: 30_000,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
});

/** Resolves the key of a token's protected header, as `jwtVerify` asks for it. */
export type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => ReturnType<LocalJWKSet>;

/**
 * Creates the key resolver of a remote key set.
 *
 * @param url The issuer's `jwks_uri`.
 * @param options The timeout, ages, cooldown and backoff (default {@link REMOTE_KEYS_DEFAULTS}).
 * @returns The resolver, for `jwtVerify`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { remoteKeys } from "./remote-keys.ts";
 * // Nothing listens on port 9 of the loopback: the refusal says the keys are unavailable, with when to retry.
 * const keys = remoteKeys(new URL("http://127.0.0.1:9/jwks"));
 * const refusal = await keys({ alg: "ES256", kid: "k1" }, { payload: "", signature: "" }).catch((e) => e);
 * assert.equal(refusal.code, "unavailable");
 * assert.equal(typeof refusal.data.retryAfterMs, "number");
 * ```
 */
export function remoteKeys(url: URL, options: RemoteKeysOptions = REMOTE_KEYS_DEFAULTS): KeyResolver {
  let keys: LocalJWKSet | undefined;
  let fetchedAt = -Infinity;
  // When the fetch that brought `keys` went out: a kid first seen before it and absent from it is unknown.
  let keysFrom = -Infinity;
  let attemptedAt = -Infinity;
  let failures = 0;
  let retryAt = -Infinity;
  let inflight: Promise<void> | undefined;

  // One fetch at a time: every token that needs the keys waits on the same one.
  const refresh = (): Promise<void> => {
    if (inflight !== undefined) return inflight;
    const now = Date.now();
    if (now < retryAt) return Promise.reject(unavailable(retryAt - now));
    attemptedAt = now;
    inflight = fetchKeySet(url, options.timeoutMs).then(
      (set) => {
        keys = set;
        keysFrom = now;
        fetchedAt = Date.now();
        failures = 0;
        retryAt = -Infinity;
      },
      (cause) => {
        const backoff = Math.min(options.backoffMs * 2 ** failures, options.maxBackoffMs);
        failures++;
        retryAt = Date.now() + backoff;
        throw unavailable(backoff, cause);
      },
    ).finally(() => {
      inflight = undefined;
    });
    return inflight;
  };

  const seenAt = firstSeen();
  return async function resolveKey(header, token) {
    const arrived = Date.now();
    const age = arrived - fetchedAt;
    if (age > options.maxAgeMs) {
      // Stale keys keep verifying while a refetch runs (or fails); none usable: wait for the fetch.
      if (age <= options.maxAgeMs + options.staleIfErrorMs) refresh().catch(() => {});
      else await refresh();
    }
    const held = keys!;
    try {
      return await held(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // An unknown key may be a rotated-in one: wait for the fetch under way, or refetch once the
      // cooldown allows; until then the answer is "retry then", not "your token is invalid".
      const seen = seenAt(header.kid ?? "", arrived);
      if (inflight !== undefined) await inflight;
      else if (keys === held && seen > keysFrom) {
        const wait = attemptedAt + options.cooldownMs - Date.now();
        if (wait > 0) throw notYetPublished(wait);
        await refresh();
      }
      try {
        return await keys!(header, token);
      } catch (again) {
        // A key set fetched after the kid was first seen still lacks it: the token is bad.
        if (!(again instanceof errors.JWKSNoMatchingKey) || seen <= keysFrom) throw again;
        throw notYetPublished(attemptedAt + options.cooldownMs - Date.now());
      }
    }
  };
}

/**
 * Creates the key resolver of an issuer known by its name only: its metadata (RFC 8414 §3.1, the
 * well-known path inserted before the issuer's path; else OpenID Connect Discovery 1.0 §4) is read at
 * the first token, its `issuer` checked (RFC 8414 §3.3), and its `jwks_uri` then kept by
 * {@link remoteKeys}. Until the metadata is read a token gets `unavailable` (503), with the same backoff.
 *
 * @param issuer The issuer identifier, exactly as tokens carry it in `iss`.
 * @param options The timeout, ages, cooldown and backoff (default {@link REMOTE_KEYS_DEFAULTS}).
 * @returns The resolver, for `jwtVerify`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { issuerKeys } from "./remote-keys.ts";
 * // Nothing listens on port 9 of the loopback: no metadata, so the keys are unavailable, with when to retry.
 * const keys = issuerKeys("http://127.0.0.1:9/tenant");
 * const refusal = await keys({ alg: "ES256", kid: "k1" }, { payload: "", signature: "" }).catch((e) => e);
 * assert.equal(refusal.code, "unavailable");
 * ```
 */
export function issuerKeys(issuer: string, options: RemoteKeysOptions = REMOTE_KEYS_DEFAULTS): KeyResolver {
  let keys: KeyResolver | undefined;
  let inflight: Promise<KeyResolver> | undefined;
  let failures = 0;
  let retryAt = -Infinity;
  const discover = (): Promise<KeyResolver> => {
    if (inflight !== undefined) return inflight;
    const now = Date.now();
    if (now < retryAt) return Promise.reject(unavailable(retryAt - now));
    inflight = fetchJwksUri(issuer, options.timeoutMs).then(
      (uri) => keys = remoteKeys(uri, options),
      (cause) => {
        const backoff = Math.min(options.backoffMs * 2 ** failures++, options.maxBackoffMs);
        retryAt = Date.now() + backoff;
        throw unavailable(backoff, cause);
      },
    ).finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
  // Once discovered, a token costs one function call more than with `jwksUri` given.
  return (header, token) => keys !== undefined ? keys(header, token) : discover().then((found) => found(header, token));
}

/** The issuer's `jwks_uri`, from its RFC 8414 metadata or else its OpenID configuration, each within the timeout. */
async function fetchJwksUri(issuer: string, timeoutMs: number): Promise<URL> {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, ""); // RFC 8414 §3.1: without its terminating "/"
  const wellKnown = [
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    new URL(`${path}/.well-known/openid-configuration`, url.origin),
  ];
  let failure: unknown;
  for (const where of wellKnown) {
    try {
      const metadata = await getJson(where, "application/json", timeoutMs) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) throw new Error(`${where} is the metadata of another issuer`);
      if (typeof metadata.jwks_uri !== "string") throw new Error(`${where} has no jwks_uri`);
      return new URL(metadata.jwks_uri);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/** The most unknown kids remembered; past it the oldest is forgotten (and waits one cooldown more). */
const MAX_UNKNOWN_KIDS = 1024;

/** Remembers when each unknown kid was first seen, bounded; returns the time for a kid. */
function firstSeen(): (kid: string, now: number) => number {
  const seen = new Map<string, number>();
  return (kid, now) => {
    const at = seen.get(kid);
    if (at !== undefined) return at;
    if (seen.size >= MAX_UNKNOWN_KIDS) seen.delete(seen.keys().next().value!);
    seen.set(kid, now);
    return now;
  };
}

/** Fetches and parses a key set, within the timeout; rejects for a network error, a non-2xx or garbage. */
async function fetchKeySet(url: URL, timeoutMs: number): Promise<LocalJWKSet> {
  const keys = await getJson(url, "application/json, application/jwk-set+json", timeoutMs);
  return createLocalJWKSet(keys as JSONWebKeySet); // throws JWKSInvalid for anything but { keys: [...] }
}

/**
 * GETs a JSON document the issuer names (its metadata, its keys) within the timeout, following no redirect; rejects
 * for a network error, a non-2xx (its body cancelled, naming the URL) or a body that is not JSON.
 */
async function getJson(url: URL, accept: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept },
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${url} answered ${response.status}`);
  }
  return await response.json();
}

function unavailable(retryAfterMs: number, cause?: unknown): ProtocolError {
  return refusal("Service unavailable: the issuer's keys could not be read", retryAfterMs, cause);
}

function notYetPublished(retryAfterMs: number): ProtocolError {
  return refusal("Service unavailable: the token's key is not in the issuer's key set yet", retryAfterMs);
}

function refusal(message: string, retryAfterMs: number, cause?: unknown): ProtocolError {
  return new ProtocolError("unavailable", message, {
    data: { retryAfterMs: Math.max(1000, Math.ceil(retryAfterMs)) },
    cause,
  });
}
