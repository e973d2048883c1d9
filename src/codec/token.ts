/**
 * The token codec: every opaque string the server hands out (promise tokens, `requestState`, task ids) is made and
 * checked here, as `mcl1.` + base64url of flags · key id · payload · HMAC-SHA256. The payload is sealed by default
 * (AES-256-GCM, a random IV: NIST SP 800-38D §8.3 bounds a secret to 2^32 tokens) and the MAC is checked in constant
 * time before any of it is read, so any instance holding the secret verifies without a server-side session. Crypto
 * runs through `node:crypto` where the runtime has it, Web Crypto elsewhere (`key-primitives.ts`), same bytes.
 * Why: docs/concepts/long-running.md ("Tokens").
 *
 * @module
 */
import { sha256 } from "../internal/sha256.ts";
import { base64urlDecode, base64urlEncode } from "./base64url.ts";
import { TAG_BYTES } from "./key-primitives.ts";
import { importKeys, processRandomSecret, resolveSecrets, SECRET_ENV, secretsFromEnv, type TokenKey } from "./keys.ts";
import { TokenError, type TokenFailure } from "./token-error.ts";
import { strictUtf8 as decoder, utf8Encoder as encoder } from "../internal/utf8.ts";

/** The prefix of every token of this format version. */
export const TOKEN_PREFIX = "mcl1.";

/**
 * The `cause` of a `bad_mac` {@link TokenError} for a token whose key id is none of this codec's secrets: signed with
 * a secret it does not hold (another deployment's, a rollout that changes it), not a made-up MAC for one it does.
 */
export const UNKNOWN_KEY = "unknown key";

/** The default bound on a token's length, in characters (= bytes: tokens are ASCII). */
export const DEFAULT_MAX_TOKEN_BYTES = 16_384;

const ID_BYTES = 4;
const HEADER_BYTES = 1 + ID_BYTES;
const MAC_BYTES = 32;
const IV_BYTES = 12;
const NONCE_BYTES = 16;
const SEALED = 1;
/**
 * How many of its own latest tokens a codec remembers (those whose payload is at most {@link MINTED_BYTES}):
 * a token redeemed on the instance that made it, the usual case, is checked by string equality with
 * one it made, instead of decoding, MACing and decrypting it again (the crypto of a redeem, about a
 * fifth of a promise → redeem round trip). Its payload is parsed afresh each time, as a decoded one is.
 */
const MINTED_KEPT = 256;
const MINTED_BYTES = 2048;
/**
 * A remembered token is found by its last 22 characters (132 bits of its MAC, random to whoever lacks the key),
 * then compared whole: hashing a short key, not a whole token of some 300 characters, on every sign and verify.
 */
const MINTED_KEY_CHARS = 22;
/**
 * Random bytes for nonces and IVs, drawn from the CSPRNG {@link RANDOM_TOKENS} tokens at a time and each
 * byte handed out once, then overwritten (as Node's `randomUUID` batches its entropy): on Deno a
 * `getRandomValues` call costs about 2.3 µs whatever its size, two per sealed token.
 */
const RANDOM_TOKENS = 64;
const RANDOM_BYTES = NONCE_BYTES + IV_BYTES;
const randomPool = new Uint8Array(RANDOM_TOKENS * RANDOM_BYTES);
let randomAt = randomPool.byteLength;
let warnedThisProcess = false;

/** Options of {@link createTokenCodec}. */
export interface TokenCodecOptions {
  /**
   * The secret (≥ 32 bytes), or a list for rotation: the first signs, any verifies. Defaults to
   * `MCPLITE_SECRET` (comma-separated for rotation); with neither, a random key for this process. A secret is text
   * (its UTF-8 bytes) or raw bytes.
   */
  secret?: string | Uint8Array | readonly (string | Uint8Array)[];
  /**
   * Encrypts payloads with AES-256-GCM, so clients cannot read the tool, the state or the job ids
   * (default `true`: MCP-lite spec v0.042 §3.5 makes promise tokens opaque to clients). `false` only
   * signs them. Either way the codec verifies both kinds, so turning it on or off breaks no token.
   */
  seal?: boolean;
  /** The longest token made or accepted, in characters (default 16 384). */
  maxBytes?: number;
  /** The clock, in milliseconds since the epoch (default `Date.now`); tests inject one. */
  now?: () => number;
  /** Receives the one warning given when no secret is configured (default `console.warn`, once per process). */
  warn?: (message: string) => void;
  /**
   * Where `MCPLITE_SECRET` comes from when neither `secret` nor the process environment gives one: asked
   * once, when the first token is signed or checked (a Worker's `env.MCPLITE_SECRET` arrives with its
   * first request). Comma-separated for rotation.
   */
  secretFallback?: () => string | undefined;
}

/** What a token is issued for. */
export interface TokenInput {
  /** What the token is: `"promise"`, `"input"`, `"task"`… A token of one kind never passes for another. */
  kind: string;
  /** The tool (or method) it belongs to. */
  scope: string;
  /** The continuation state: any JSON value. */
  state: unknown;
  /** How long it stays valid, in milliseconds. */
  ttlMs: number;
  /** The caller it is bound to (e.g. the auth subject); only a hash of it goes in the token. */
  caller?: string;
}

/** What a token must match to be accepted. */
export interface TokenExpectation {
  /** The kind it must have. */
  kind: string;
  /** The tool (or method) it must belong to; any when absent. */
  scope?: string;
  /** The current caller; a token bound to a caller is refused for any other (or for none). */
  caller?: string;
}

/** What a valid token says. */
export interface TokenClaims {
  /** The kind. */
  readonly kind: string;
  /** The tool (or method). */
  readonly scope: string;
  /** The continuation state. */
  readonly state: unknown;
  /** When it was issued, ms since the epoch. */
  readonly issuedAt: number;
  /** When it expires, ms since the epoch. */
  readonly expiresAt: number;
  /** Its 128-bit random nonce, base64url: unique per token. */
  readonly nonce: string;
  /** Whether it is bound to a caller. */
  readonly bound: boolean;
}

/** Makes and checks tokens. Keys are imported once, on first use. */
export interface TokenCodec {
  /** The longest token made or accepted. */
  readonly maxBytes: number;
  /** The codec's clock, in ms since the epoch. */
  now(): number;
  /**
   * Signs and seals a token (signs only, with `seal: false`).
   *
   * @throws {RangeError} When the token would exceed `maxBytes`: a state too large is the tool's error.
   * @throws {TypeError} When the state is not JSON-serialisable.
   */
  sign(input: TokenInput): Promise<string>;
  /**
   * Checks a token and returns its claims.
   *
   * @throws {TokenError} With the reason: `malformed`, `bad_mac`, `expired`, `wrong_kind`, `wrong_tool`, `wrong_caller`.
   */
  verify(token: unknown, expect: TokenExpectation): Promise<TokenClaims>;
}

/** A token this codec made, and its payload's JSON. */
interface Minted {
  token: string;
  text: string;
}

interface Payload {
  v: 1;
  k: string;
  t: string;
  iat: number;
  exp: number;
  n: string;
  c?: string;
  s?: unknown;
}

/**
 * Creates a token codec. Secrets are checked now; keys are derived and imported once, on first use.
 *
 * @param options The secret, sealing, size bound and clock.
 * @returns The codec.
 * @throws {TypeError} When a secret is shorter than 32 bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTokenCodec } from "./token.ts";
 *
 * const codec = createTokenCodec({ secret: "an example secret of at least 32 bytes!" });
 * const token = await codec.sign({ kind: "promise", scope: "analyze", state: { job: 7 }, ttlMs: 60_000 });
 * assert.ok(token.startsWith("mcl1."));
 * const claims = await codec.verify(token, { kind: "promise", scope: "analyze" });
 * assert.deepEqual(claims.state, { job: 7 });
 * ```
 */
export function createTokenCodec(options: TokenCodecOptions = {}): TokenCodec {
  const secrets = resolveSecrets(options.secret);
  const seal = options.seal !== false;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TOKEN_BYTES;
  if (!(maxBytes >= 64)) throw new TypeError("maxBytes must be at least 64");
  const now = options.now ?? Date.now;
  let keys: Promise<TokenKey[]> | undefined;
  let loaded: TokenKey[] | undefined; // the keys once imported: no await per token after the first
  /** This codec's latest tokens and their payload JSON, by their last characters (see {@link MINTED_KEPT}). */
  const minted = new Map<string, Minted>();
  const mintedOrder: (string | undefined)[] = new Array(MINTED_KEPT); // the keys, a ring: the oldest is overwritten
  let mintedAt = 0;

  const load = (): Promise<TokenKey[]> => {
    if (keys !== undefined) return keys;
    const configured = secrets ?? secretsFromEnv(options.secretFallback?.(), `the platform's ${SECRET_ENV}`);
    if (configured === undefined) {
      const message = `mcplite: no secret configured (the secret option or ${SECRET_ENV}); tokens are signed ` +
        `with a random key of this process and redeem only on this instance, until it restarts`;
      if (options.warn) options.warn(message);
      else if (!warnedThisProcess) {
        warnedThisProcess = true;
        console.warn(message);
      }
    }
    return keys = importKeys(configured ?? [processRandomSecret()]).then((k) => loaded = k);
  };

  async function sign(input: TokenInput): Promise<string> {
    const [key] = loaded ?? await load();
    const issuedAt = now();
    const payload: Payload = {
      v: 1,
      k: input.kind,
      t: input.scope,
      iat: issuedAt,
      exp: issuedAt + input.ttlMs,
      n: base64urlEncode(freshRandom(NONCE_BYTES)),
    };
    if (input.caller !== undefined) payload.c = await callerTag(input.caller);
    payload.s = input.state;
    const text = JSON.stringify(payload);
    const json = encoder.encode(text);
    const bodyBytes = HEADER_BYTES + (seal ? IV_BYTES + json.byteLength + TAG_BYTES : json.byteLength) + MAC_BYTES;
    const length = TOKEN_PREFIX.length + encodedLength(bodyBytes);
    if (length > maxBytes) {
      throw new RangeError(
        `the ${input.kind} state of "${input.scope}" makes a token of ${length} bytes, over the limit of ${maxBytes}: ` +
          `keep large data on the server and put a reference in the state`,
      );
    }
    const bytes = new Uint8Array(bodyBytes);
    bytes[0] = seal ? SEALED : 0;
    bytes.set(key.id, 1);
    if (seal) {
      const iv = freshRandom(IV_BYTES);
      bytes.set(iv, HEADER_BYTES);
      const sealed = key.ops.seal(iv, bytes.subarray(0, HEADER_BYTES), json);
      bytes.set(sealed instanceof Promise ? await sealed : sealed, HEADER_BYTES + IV_BYTES);
    } else {
      bytes.set(json, HEADER_BYTES);
    }
    const mac = key.ops.mac(bytes.subarray(0, bodyBytes - MAC_BYTES));
    bytes.set(mac instanceof Promise ? await mac : mac, bodyBytes - MAC_BYTES);
    const token = TOKEN_PREFIX + base64urlEncode(bytes);
    if (json.byteLength <= MINTED_BYTES) {
      const tail = token.slice(-MINTED_KEY_CHARS);
      const oldest = mintedOrder[mintedAt];
      if (oldest !== undefined) minted.delete(oldest);
      mintedOrder[mintedAt] = tail;
      mintedAt = (mintedAt + 1) % MINTED_KEPT;
      minted.set(tail, { token, text });
    }
    return token;
  }

  async function verify(token: unknown, expect: TokenExpectation): Promise<TokenClaims> {
    if (typeof token !== "string" || token.length > maxBytes || !token.startsWith(TOKEN_PREFIX)) {
      throw fail("malformed");
    }
    const hit = minted.get(token.slice(-MINTED_KEY_CHARS));
    const known = hit !== undefined && hit.token === token ? hit.text : undefined; // made here: authentic, its payload at hand
    return await check(known !== undefined ? JSON.parse(known) as Payload : await decoded(token), expect);
  }

  /** The payload of a token this codec did not just make: its MAC checked, then decrypted and parsed. */
  async function decoded(token: string): Promise<Payload> {
    const bytes = base64urlDecode(token.slice(TOKEN_PREFIX.length));
    if (bytes === undefined || bytes.byteLength < HEADER_BYTES + 2 + MAC_BYTES || bytes[0] > SEALED) {
      throw fail("malformed");
    }
    const key = (loaded ?? await load()).find((k) => sameId(k.id, bytes));
    if (key === undefined) throw fail("bad_mac", UNKNOWN_KEY);
    const end = bytes.byteLength - MAC_BYTES;
    const checked = key.ops.checkMac(bytes.subarray(end), bytes.subarray(0, end));
    if (!(checked instanceof Promise ? await checked : checked)) throw fail("bad_mac");
    let json: Uint8Array;
    if (bytes[0] === SEALED) {
      if (end - HEADER_BYTES < IV_BYTES + TAG_BYTES) throw fail("malformed");
      try {
        const iv = bytes.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
        // The MAC above covered the IV, the ciphertext and its tag: decrypting needs no second check.
        const opened = key.ops.decrypt !== undefined
          ? key.ops.decrypt(iv, bytes.subarray(HEADER_BYTES + IV_BYTES, end - TAG_BYTES))
          : key.ops.open(iv, bytes.subarray(0, HEADER_BYTES), bytes.subarray(HEADER_BYTES + IV_BYTES, end));
        json = opened instanceof Promise ? await opened : opened;
      } catch (cause) {
        throw fail("bad_mac", cause);
      }
    } else json = bytes.subarray(HEADER_BYTES, end);
    return parsePayload(json);
  }

  async function check(payload: Payload, expect: TokenExpectation): Promise<TokenClaims> {
    if (now() >= payload.exp) throw fail("expired");
    if (payload.k !== expect.kind) throw fail("wrong_kind");
    if (expect.scope !== undefined && payload.t !== expect.scope) throw fail("wrong_tool");
    if (payload.c !== undefined && (expect.caller === undefined || await callerTag(expect.caller) !== payload.c)) {
      throw fail("wrong_caller");
    }
    return {
      kind: payload.k,
      scope: payload.t,
      state: payload.s,
      issuedAt: payload.iat,
      expiresAt: payload.exp,
      nonce: payload.n,
      bound: payload.c !== undefined,
    };
  }

  return { maxBytes, now: () => now(), sign, verify };
}

/**
 * `n` bytes from the CSPRNG, never handed out before: a copy, since a sign that awaits may outlive the
 * pool's refill (a view would then read bytes a later token is given too).
 */
function freshRandom(n: number): Uint8Array {
  if (randomAt + n > randomPool.byteLength) {
    crypto.getRandomValues(randomPool);
    randomAt = 0;
  }
  return randomPool.slice(randomAt, randomAt += n);
}

function fail(reason: TokenFailure, cause?: unknown): TokenError {
  return new TokenError(reason, cause === undefined ? undefined : { cause });
}

function parsePayload(json: Uint8Array): Payload {
  let payload: unknown;
  try {
    payload = JSON.parse(decoder.decode(json));
  } catch (cause) {
    throw fail("malformed", cause);
  }
  const p = payload as Partial<Payload> | null;
  if (
    typeof p !== "object" || p === null || p.v !== 1 || typeof p.k !== "string" || typeof p.t !== "string" ||
    typeof p.iat !== "number" || typeof p.exp !== "number" || typeof p.n !== "string" ||
    (p.c !== undefined && typeof p.c !== "string")
  ) {
    throw fail("malformed");
  }
  return p as Payload;
}

function sameId(id: Uint8Array, bytes: Uint8Array): boolean {
  for (let i = 0; i < ID_BYTES; i++) if (id[i] !== bytes[1 + i]) return false;
  return true;
}

/** The length of the unpadded base64url encoding of `n` bytes. */
function encodedLength(n: number): number {
  return Math.floor(n / 3) * 4 + (n % 3 === 0 ? 0 : n % 3 + 1);
}

/** A 128-bit hash of the caller: binds the token without putting the subject in it. */
async function callerTag(caller: string): Promise<string> {
  const digest = await sha256(encoder.encode(`mcplite caller\u0000${caller}`));
  return base64urlEncode(digest.subarray(0, 16));
}
