/**
 * Token keys: secrets from the `secret` option or `MCPLITE_SECRET`, checked once, and the keys derived
 * from each (a MAC key, a sealing key and a key id) through HKDF (RFC 5869), once per secret.
 *
 * @module
 */
import { env } from "../runtime/env.ts";
import { type KeyPrimitives, keyPrimitives } from "./key-primitives.ts";
import { utf8Encoder as encoder } from "../internal/utf8.ts";

/** One secret: text (its UTF-8 bytes) or raw bytes, at least {@link MIN_SECRET_BYTES} long. */
export type Secret = string | Uint8Array;

/** A secret, or a list of them for rotation: the first signs, any of them verifies. */
export type SecretInput = Secret | readonly Secret[];

/** The shortest secret accepted, in bytes. */
export const MIN_SECRET_BYTES = 32;

/** The environment variable read when no `secret` option is given; commas separate rotated secrets. */
export const SECRET_ENV = "MCPLITE_SECRET";

/** The keys derived from one secret. */
export interface TokenKey {
  /** Four bytes that name the secret inside a token, so verification tries one key. */
  readonly id: Uint8Array;
  /** Its HMAC-SHA256 and AES-256-GCM (for sealed tokens) operations. */
  readonly ops: KeyPrimitives;
}

const SALT = /* @__PURE__ */ encoder.encode("mcplite token v1");
let processSecret: Uint8Array | undefined;

/**
 * Resolves the configured secrets: the option if given, else `MCPLITE_SECRET` (comma-separated for
 * rotation), else none.
 *
 * @param input The `secret` option.
 * @returns The secrets as bytes, newest first, or `undefined` when none is configured.
 * @throws {TypeError} When a secret is shorter than 32 bytes or the list is empty.
 */
export function resolveSecrets(input: SecretInput | undefined): Uint8Array[] | undefined {
  if (input === undefined) return secretsFromEnv(env(SECRET_ENV), SECRET_ENV);
  return checkSecrets(typeof input === "string" || input instanceof Uint8Array ? [input] : input, "the secret option");
}

/**
 * Reads secrets from an environment variable's value: comma-separated for rotation, newest first.
 *
 * @param value The variable's value (`MCPLITE_SECRET` of the process, or of a platform such as a Worker's `env`).
 * @param from Names where it came from, in errors.
 * @returns The secrets as bytes, or `undefined` when the value is missing or blank.
 * @throws {TypeError} When a secret is shorter than 32 bytes.
 */
export function secretsFromEnv(value: string | undefined, from: string): Uint8Array[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return checkSecrets(value.split(",").map((s) => s.trim()).filter((s) => s !== ""), from);
}

function checkSecrets(list: readonly Secret[], from: string): Uint8Array[] {
  if (list.length === 0) throw new TypeError(`${from} lists no secret`);
  return list.map((secret, i) => {
    const bytes = typeof secret === "string" ? encoder.encode(secret) : secret;
    if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_SECRET_BYTES) {
      throw new TypeError(
        `${from}${list.length > 1 ? ` (entry ${i})` : ""} must be at least ${MIN_SECRET_BYTES} bytes; ` +
          `generate one with: openssl rand -base64 48`,
      );
    }
    return bytes;
  });
}

/**
 * Returns this process's random secret, made on first use, for servers with none configured.
 *
 * @returns 32 random bytes, the same for the life of the process.
 */
export function processRandomSecret(): Uint8Array {
  return processSecret ??= crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES));
}

/**
 * Derives and imports the keys of each secret. Runs once per codec.
 *
 * @param secrets The secrets, newest first.
 * @returns The keys, in the same order.
 */
export function importKeys(secrets: readonly Uint8Array[]): Promise<TokenKey[]> {
  return Promise.all(secrets.map(importKey));
}

async function importKey(secret: Uint8Array): Promise<TokenKey> {
  const base = await crypto.subtle.importKey("raw", secret as BufferSource, "HKDF", false, ["deriveBits"]);
  const derive = (info: string, bits: number) =>
    crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: SALT, info: encoder.encode(info) }, base, bits);
  const [id, mac, seal] = await Promise.all([derive("key id", 32), derive("mac", 256), derive("seal", 256)]);
  return { id: new Uint8Array(id), ops: await keyPrimitives(new Uint8Array(mac), new Uint8Array(seal)) };
}
