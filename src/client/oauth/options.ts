/**
 * What `oauth()` and `clientCredentials()` take.
 *
 * @module
 */
import type { TokenStore } from "./token-store.ts";

/** Options shared by {@link oauth} and {@link clientCredentials}. */
export interface AuthOptions {
  /** Where tokens and registrations are kept (default: in memory). Keyed by the server's origin. */
  storage?: TokenStore;
  /** The scope to ask for first, over the challenge's and the metadata's (a step-up adds what a 403 names). */
  scope?: string;
  /** How many times one request may step up on 403 `insufficient_scope` (default 2). */
  maxStepUps?: number;
  /**
   * Allows `http:` authorization servers. Default: only on loopback hosts (localhost, 127.0.0.1, [::1]);
   * OAuth 2.1 §1.5 requires TLS everywhere else.
   */
  allowHttp?: boolean;
}

/** What {@link oauth} needs: the redirect URI, the user-facing callback, and optionally the client's identity. */
export interface OAuthOptions extends AuthOptions {
  /** A pre-registered client id (used before any other identity). */
  clientId?: string;
  /** The pre-registered client's secret (confidential clients). */
  clientSecret?: string;
  /** The pre-registered client's token endpoint auth method (default: what the server supports). */
  tokenEndpointAuthMethod?: "none" | "client_secret_basic" | "client_secret_post";
  /** An HTTPS URL of this client's Client ID Metadata Document, used when the server supports it. */
  clientMetadataUrl?: string;
  /** The name registered through Dynamic Client Registration (default `"@mcplite/sdk client"`). */
  clientName?: string;
  /** The redirect URI the authorization server sends the user back to. */
  redirectUri: string;
  /**
   * Shows the authorization URL to the user (opens a browser, prints it, hands it to an app) and
   * resolves with the URL the server redirected to (with `code`, `state`, `iss`), or just the code.
   */
  onAuthorizationUrl: (url: URL) => string | URL | Promise<string | URL>;
}

/** What {@link clientCredentials} needs: a client id and a secret or a private key. */
export interface ClientCredentialsOptions extends AuthOptions {
  /** The client id. */
  clientId: string;
  /** The client secret (`client_secret_basic` or `client_secret_post`, as the server supports). */
  clientSecret?: string;
  /** A private key for `private_key_jwt` (RFC 7523 §2.2), with its `kid` when the server wants one. */
  privateKey?: CryptoKey | { key: CryptoKey; kid?: string };
}
