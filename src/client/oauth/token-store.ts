/**
 * Where the client keeps what authorization produced: tokens and the client registration, per server.
 *
 * @module
 */
import type { WebCryptoKeyPair } from "./web-crypto-key.ts";

/** Tokens from the authorization server's token endpoint. Never log them. */
export interface StoredTokens {
  /** The access token sent as `Authorization: Bearer` (or `DPoP`, see `tokenType`). */
  readonly accessToken: string;
  /** `"dpop"` for a DPoP-bound token (RFC 9449 §5), else bearer. */
  readonly tokenType?: string;
  /** The refresh token, when one was issued. */
  readonly refreshToken?: string;
  /** When the access token expires, in ms since the epoch. */
  readonly expiresAt?: number;
  /** The scopes granted (space-separated), when the server said. */
  readonly scope?: string;
}

/** A client registration at an authorization server (RFC 7591), or a Client ID Metadata Document URL. */
export interface StoredClient {
  /** The client id. */
  readonly clientId: string;
  /** The client secret, for confidential clients. */
  readonly clientSecret?: string;
  /** The token endpoint authentication method the registration asked for. */
  readonly tokenEndpointAuthMethod?: string;
}

/** What is stored for one protected server. */
export interface StoredAuthorization {
  /** The authorization server the tokens and client came from. */
  readonly issuer: string;
  /** The client identity at that issuer. */
  readonly client?: StoredClient;
  /** The current tokens. */
  readonly tokens?: StoredTokens;
  /** The DPoP key pair the tokens are bound to (RFC 9449), when `dpop` is on. */
  readonly dpopKey?: WebCryptoKeyPair;
}

/** A pluggable store, keyed by the protected server's resource identifier (its URL). */
export interface TokenStore {
  /** Reads what is stored for a server. */
  get(key: string): StoredAuthorization | undefined | Promise<StoredAuthorization | undefined>;
  /** Replaces what is stored for a server. */
  set(key: string, value: StoredAuthorization): void | Promise<void>;
  /** Forgets a server. */
  delete(key: string): void | Promise<void>;
}

/**
 * Creates a store that keeps everything in memory (the default: tokens die with the process).
 *
 * @returns The store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryTokenStore } from "./token-store.ts";
 * const store = memoryTokenStore();
 * await store.set("https://api.example/mcp", { issuer: "https://auth.example" });
 * assert.equal((await store.get("https://api.example/mcp"))?.issuer, "https://auth.example");
 * ```
 */
export function memoryTokenStore(): TokenStore {
  const map = new Map<string, StoredAuthorization>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    delete: (key) => void map.delete(key),
  };
}
