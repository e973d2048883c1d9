/**
 * What `oauth()` and `clientCredentials()` take.
 *
 * @module
 */
import type { TokenStore } from "./token-store.ts";
import type { WebCryptoKey, WebCryptoKeyPair } from "./web-crypto-key.ts";

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
  /**
   * Sender-constrained tokens (RFC 9449, DPoP): a proof on every token request and every resource
   * request, tokens presented as `Authorization: DPoP …`, and `DPoP-Nonce` challenges answered. `true`
   * uses a new ES256 key pair per server (non-extractable private key), kept in `storage` beside the
   * tokens. Default: off (bearer tokens).
   */
  dpop?: boolean | DPoPOptions;
}

/** The DPoP key of {@link AuthOptions.dpop}. */
export interface DPoPOptions {
  /** The signing algorithm of a generated key (default `ES256`; the server's metadata may restrict it). */
  alg?: "ES256" | "ES384" | "ES512" | "PS256" | "RS256" | "EdDSA";
  /**
   * Makes a generated private key extractable, for stores that serialize keys (a JSON file). Default
   * `false`: the key cannot leave the runtime (Web Crypto, non-extractable).
   */
  extractable?: boolean;
  /**
   * A key pair to use instead of generating one (its public key must be extractable), such as
   * `crypto.subtle.generateKey()` returns.
   */
  keyPair?: WebCryptoKeyPair;
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
  privateKey?: WebCryptoKey | { key: WebCryptoKey; kid?: string };
}

/** What {@link workloadIdentity} needs: the client id and where the platform's JWT comes from. */
export interface WorkloadIdentityOptions extends AuthOptions {
  /** The client id at the authorization server. */
  clientId: string;
  /**
   * The platform-issued JWT (Kubernetes projected service account token, cloud workload identity, CI OIDC token): a
   * callback, an environment variable or a file, read on each use.
   */
  token: (() => string | Promise<string>) | { readonly env: string } | { readonly file: string };
  /**
   * How the JWT is presented: `"grant"` (default) as the assertion of the JWT-bearer grant (RFC 7523
   * §2.1), or `"client_assertion"` as the client's authentication of a client-credentials grant
   * (RFC 7523 §2.2).
   */
  use?: "grant" | "client_assertion";
}

/** What {@link enterpriseAuth} needs: the IdP, the user's identity assertion, this client at the MCP server's authorization server. */
export interface EnterpriseAuthOptions extends AuthOptions {
  /**
   * The enterprise IdP: its `tokenEndpoint`, where the token exchange (RFC 8693) happens, this client's `clientId`
   * there, and its `clientSecret` (`client_secret_basic`) for confidential clients.
   */
  idp: { tokenEndpoint: string | URL; clientId: string; clientSecret?: string };
  /** The user's identity assertion from the IdP's single sign-on: an OpenID Connect ID token (read on each use). */
  idToken: string | (() => string | Promise<string>);
  /** This client's id at the MCP server's authorization server. */
  clientId: string;
  /** This client's secret there (`client_secret_basic` or `client_secret_post`, as it supports). */
  clientSecret?: string;
}
