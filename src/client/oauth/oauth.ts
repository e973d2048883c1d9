/**
 * OAuth for the client (MCP 2025-11-25 and 2026-07-28, Authorization): `oauth()` for the
 * authorization-code flow with PKCE, `clientCredentials()` for machines. Each gives a
 * {@link ClientAuth} whose `wrap(fetch)` adds the bearer token to every request and, on a 401 or a
 * 403 `insufficient_scope`, discovers, authorizes and retries. oauth4webapi does the protocol work.
 *
 * @module
 */
import * as o4w from "oauth4webapi";
import { AuthorizationError } from "../errors.ts";
import { type ClientAuth, type FetchLike, messageOf } from "../http.ts";
import { type BearerChallenge, parseBearerChallenge } from "./challenge.ts";
import {
  discoverAuthorizationServer,
  discoverResource,
  type DiscoveryHttp,
  fallbackAuthorizationServer,
  requestOptions,
} from "./discovery.ts";
import {
  memoryTokenStore,
  type StoredAuthorization,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from "./token-store.ts";

export type { ClientAuth } from "../http.ts";

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

/**
 * Authorization with the authorization-code grant and PKCE (OAuth 2.1 §4.1), the client identity
 * pre-registered, from a Client ID Metadata Document, or registered dynamically (RFC 7591).
 *
 * @param options The redirect URI, the callback that shows the user the URL, the client identity.
 * @returns The auth to pass as `createClient(url, { auth })`.
 *
 * @example
 * ```ts
 * import { createClient, oauth } from "./../mod.ts";
 *
 * const client = createClient("https://api.example/mcp", {
 *   auth: oauth({
 *     redirectUri: "http://127.0.0.1:8976/callback",
 *     onAuthorizationUrl: async (url) => {
 *       console.log(`Open ${url}`);
 *       return await new Promise<string>(() => {}); // resolve with the URL the browser came back to
 *     },
 *   }),
 * });
 * void client;
 * ```
 */
export function oauth(options: OAuthOptions): ClientAuth {
  return sessionAuth(options, (ctx) => authorizationCodeGrant(options, ctx));
}

/**
 * Authorization for machines: the client-credentials grant (OAuth 2.1 §4.2) with a client secret or
 * `private_key_jwt`. No user, no redirect.
 *
 * @param options The client id and its secret or private key.
 * @returns The auth to pass as `createClient(url, { auth })`.
 *
 * @example
 * ```ts
 * import { clientCredentials, createClient } from "./../mod.ts";
 * const client = createClient("https://api.example/mcp", {
 *   auth: clientCredentials({ clientId: "reporting-bot", clientSecret: "…" }),
 * });
 * void client;
 * ```
 */
export function clientCredentials(options: ClientCredentialsOptions): ClientAuth {
  if (options.clientSecret === undefined && options.privateKey === undefined) {
    throw new TypeError("clientCredentials() needs a clientSecret or a privateKey");
  }
  return sessionAuth(options, (ctx) => clientCredentialsGrant(options, ctx));
}

/** Everything a grant needs once discovery is done. */
interface GrantContext {
  readonly as: o4w.AuthorizationServer;
  readonly resource: string | undefined;
  readonly scope: string | undefined;
  readonly http: DiscoveryHttp;
  /** The stored client identity for this issuer, if any. */
  readonly client: StoredClient | undefined;
}

/** What a grant produced. */
interface GrantResult {
  readonly client: StoredClient;
  readonly tokens: o4w.TokenEndpointResponse;
}

type Grant = (ctx: GrantContext) => Promise<GrantResult>;

function sessionAuth(options: AuthOptions & { clientId?: string; clientSecret?: string }, grant: Grant): ClientAuth {
  const storage = options.storage ?? memoryTokenStore();
  return {
    wrap(fetcher: FetchLike): FetchLike {
      const sessions = new Map<string, Session>();
      return async (request) => {
        const origin = new URL(request.url).origin;
        let session = sessions.get(origin);
        if (session === undefined) {
          sessions.set(origin, session = new Session(origin, fetcher, storage, options, grant));
        }
        return await session.send(request);
      };
    },
  };
}

/** The authorization state for one server origin. */
class Session {
  readonly #key: string;
  readonly #fetch: FetchLike;
  readonly #storage: TokenStore;
  readonly #options: AuthOptions & { clientId?: string; clientSecret?: string };
  readonly #grant: Grant;
  readonly #http: DiscoveryHttp;
  #as: o4w.AuthorizationServer | undefined;
  #resource: string | undefined;
  #flow: Promise<void> | undefined;
  #scope: string | undefined;

  constructor(
    key: string,
    fetcher: FetchLike,
    storage: TokenStore,
    options: AuthOptions & { clientId?: string; clientSecret?: string },
    grant: Grant,
  ) {
    this.#key = key;
    this.#fetch = fetcher;
    this.#storage = storage;
    this.#options = options;
    this.#grant = grant;
    const allowHttp = options.allowHttp;
    this.#http = { fetch: fetcher, insecure: (url) => allowHttp ?? isLoopback(url) };
  }

  /** Sends a request with the current token, answering 401 and 403 `insufficient_scope` challenges. */
  async send(request: Request): Promise<Response> {
    const maxStepUps = this.#options.maxStepUps ?? 2;
    let stepUps = 0;
    let reauthorized = false;
    for (;;) {
      await this.#flow?.catch(() => {});
      const token = await this.#token();
      const attempt = request.clone();
      if (token !== undefined) attempt.headers.set("authorization", `Bearer ${token}`);
      const response = await this.#fetch(attempt);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
      if (response.status === 403) {
        // MCP 2025-11-25, Scope Challenge Handling: step up to the scopes the challenge names, a few times.
        if (challenge.error !== "insufficient_scope" || stepUps >= maxStepUps) return response;
        stepUps++;
      } else {
        if (reauthorized) return response; // a fresh token was refused: do not loop
        reauthorized = true;
      }
      await response.body?.cancel().catch(() => {});
      await this.#serialize(token, () => this.#authorize(new URL(request.url), challenge, response.status === 403));
    }
  }

  /** Runs one authorization at a time; a request that sent an older token just retries. */
  async #serialize(sentToken: string | undefined, run: () => Promise<void>): Promise<void> {
    if (this.#flow !== undefined) {
      await this.#flow.catch(() => {});
      const now = (await this.#stored())?.tokens?.accessToken;
      if (now !== undefined && now !== sentToken) return;
    }
    const flow = run();
    this.#flow = flow;
    try {
      await flow;
    } finally {
      if (this.#flow === flow) this.#flow = undefined;
    }
  }

  /** The access token, refreshed first when it is about to expire. */
  async #token(): Promise<string | undefined> {
    const stored = await this.#stored();
    const tokens = stored?.tokens;
    if (tokens === undefined) return undefined;
    const expiring = tokens.expiresAt !== undefined && tokens.expiresAt - 30_000 < Date.now();
    if (expiring && tokens.refreshToken !== undefined && this.#as !== undefined && stored?.client !== undefined) {
      const refreshed = await this.#refresh(stored, stored.client, tokens.refreshToken).catch(() => undefined);
      if (refreshed !== undefined) return refreshed.accessToken;
    }
    return tokens.accessToken;
  }

  async #stored(): Promise<StoredAuthorization | undefined> {
    return await this.#storage.get(this.#key);
  }

  /** Discovers, then refreshes or runs the grant, and stores the tokens. */
  async #authorize(server: URL, challenge: BearerChallenge, stepUp: boolean): Promise<void> {
    const metadata = await discoverResource(server, challenge.resourceMetadata, this.#http);
    let as: o4w.AuthorizationServer | undefined;
    if (metadata !== undefined) {
      const issuer = metadata.authorization_servers?.[0];
      if (issuer === undefined) {
        throw new AuthorizationError(
          `The protected resource metadata of ${server.origin} names no authorization server`,
        );
      }
      as = await discoverAuthorizationServer(new URL(issuer), this.#http);
      if (as === undefined) throw new AuthorizationError(`No authorization server metadata found for ${issuer}`);
    } else {
      // MCP 2025-03-26: no resource metadata, the server's origin is the authorization server.
      as = await discoverAuthorizationServer(new URL(server.origin), this.#http) ?? fallbackAuthorizationServer(server);
    }
    this.#as = as;
    this.#resource = metadata?.resource;
    let stored = await this.#stored();
    if (stored !== undefined && stored.issuer !== as.issuer) {
      // SEP-2352: a new authorization server; nothing from the old one (client id, tokens) is reused.
      stored = undefined;
    }
    if (!stepUp && stored?.tokens?.refreshToken !== undefined && stored.client !== undefined) {
      const refreshed = await this.#refresh(stored, stored.client, stored.tokens.refreshToken).catch(() => undefined);
      if (refreshed !== undefined) return;
    }
    let scope = stepUp
      ? challenge.scope ?? this.#options.scope
      : this.#options.scope ?? challenge.scope ?? metadata?.scopes_supported?.join(" ");
    if (stepUp && scope !== undefined) {
      // SEP-2350: re-authorize for the union of what was asked before and what the challenge names.
      scope = union(this.#scope, stored?.tokens?.scope, scope);
    }
    this.#scope = scope;
    if (
      scope !== undefined && as.scopes_supported?.includes("offline_access") &&
      !scope.split(" ").includes("offline_access")
    ) {
      scope = `${scope} offline_access`; // SEP-2207: ask for a refresh token when the server offers one
    }
    const result = await this.#grant({ as, resource: this.#resource, scope, http: this.#http, client: stored?.client });
    await this.#storage.set(this.#key, { issuer: as.issuer, client: result.client, tokens: toStored(result.tokens) });
  }

  async #refresh(stored: StoredAuthorization, client: StoredClient, refreshToken: string): Promise<StoredTokens> {
    const as = this.#as!;
    const response = await o4w.refreshTokenGrantRequest(
      as,
      toOauthClient(client),
      clientAuthFor(client, as),
      refreshToken,
      {
        ...requestOptions(this.#http, new URL(as.token_endpoint ?? as.issuer)),
        ...(this.#resource !== undefined ? { additionalParameters: { resource: this.#resource } } : {}),
      },
    );
    const tokens = toStored(await o4w.processRefreshTokenResponse(as, toOauthClient(client), response), refreshToken);
    await this.#storage.set(this.#key, { ...stored, tokens });
    return tokens;
  }
}

/** The authorization-code grant with PKCE S256, `state`, `resource` and the RFC 9207 `iss` check. */
async function authorizationCodeGrant(options: OAuthOptions, ctx: GrantContext): Promise<GrantResult> {
  const { as } = ctx;
  if (as.authorization_endpoint === undefined) {
    throw new AuthorizationError(`The authorization server ${as.issuer} has no authorization endpoint`);
  }
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    // MCP 2025-11-25, Authorization Code Protection: no S256, no authorization.
    throw new AuthorizationError(`The authorization server ${as.issuer} does not support PKCE S256; refusing it`);
  }
  const client = await clientIdentity(options, ctx);
  const verifier = o4w.generateRandomCodeVerifier();
  const state = o4w.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("code_challenge", await o4w.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  if (ctx.scope !== undefined && ctx.scope !== "") url.searchParams.set("scope", ctx.scope);
  if (ctx.resource !== undefined) url.searchParams.set("resource", ctx.resource);
  const answer = await options.onAuthorizationUrl(url);
  const callback = callbackParameters(answer, state, as);
  let params: URLSearchParams;
  try {
    params = o4w.validateAuthResponse(as, toOauthClient(client), callback, state);
  } catch (error) {
    throw new AuthorizationError(`The authorization response was refused: ${messageOf(error)}`, { cause: error });
  }
  const oc = toOauthClient(client);
  const tokens = await tokenRequest(() =>
    o4w.authorizationCodeGrantRequest(as, oc, clientAuthFor(client, as), params, options.redirectUri, verifier, {
      ...requestOptions(ctx.http, new URL(as.token_endpoint ?? as.issuer)),
      ...(ctx.resource !== undefined ? { additionalParameters: { resource: ctx.resource } } : {}),
    }).then((response) => o4w.processAuthorizationCodeResponse(as, oc, response))
  );
  return { client, tokens };
}

/** The client-credentials grant. */
async function clientCredentialsGrant(options: ClientCredentialsOptions, ctx: GrantContext): Promise<GrantResult> {
  const { as } = ctx;
  const client: StoredClient = { clientId: options.clientId, clientSecret: options.clientSecret };
  const auth = options.privateKey !== undefined ? o4w.PrivateKeyJwt(options.privateKey) : clientAuthFor(client, as);
  const parameters: Record<string, string> = {};
  if (ctx.scope !== undefined && ctx.scope !== "") parameters.scope = ctx.scope;
  if (ctx.resource !== undefined) parameters.resource = ctx.resource;
  const oc = toOauthClient(client);
  const tokens = await tokenRequest(() =>
    o4w.clientCredentialsGrantRequest(
      as,
      oc,
      auth,
      parameters,
      requestOptions(ctx.http, new URL(as.token_endpoint ?? as.issuer)),
    ).then((response) => o4w.processClientCredentialsResponse(as, oc, response))
  );
  return { client, tokens };
}

/** Pre-registered, else a Client ID Metadata Document, else the stored registration, else RFC 7591. */
async function clientIdentity(options: OAuthOptions, ctx: GrantContext): Promise<StoredClient> {
  const { as } = ctx;
  if (options.clientId !== undefined) {
    return {
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      tokenEndpointAuthMethod: options.tokenEndpointAuthMethod,
    };
  }
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none" };
  }
  if (ctx.client !== undefined) return ctx.client;
  if (as.registration_endpoint === undefined) {
    throw new AuthorizationError(
      `The authorization server ${as.issuer} supports neither dynamic registration nor client metadata documents; pass a clientId`,
    );
  }
  const supported = as.token_endpoint_auth_methods_supported;
  const method = supported === undefined || supported.includes("none")
    ? "none"
    : supported.includes("client_secret_basic")
    ? "client_secret_basic"
    : "client_secret_post";
  const redirect = new URL(options.redirectUri);
  const metadata = {
    client_name: options.clientName ?? "@mcplite/sdk client",
    redirect_uris: [options.redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    // SEP-837: loopback and custom-scheme redirects mean a native app.
    application_type: isLoopback(redirect) || !redirect.protocol.startsWith("http") ? "native" : "web",
    ...(ctx.scope !== undefined ? { scope: ctx.scope } : {}),
  };
  let registered: Record<string, unknown>;
  try {
    const response = await o4w.dynamicClientRegistrationRequest(
      as,
      metadata,
      requestOptions(ctx.http, new URL(as.registration_endpoint)),
    );
    // Read by hand: oauth4webapi insists on `client_secret_expires_at`, which RFC 7591 §3.2.1 requires
    // but many servers omit.
    registered = await response.json() as Record<string, unknown>;
    if (!response.ok || typeof registered.client_id !== "string") {
      throw new Error(`HTTP ${response.status}: ${JSON.stringify(registered).slice(0, 200)}`);
    }
  } catch (error) {
    throw new AuthorizationError(`Dynamic client registration at ${as.issuer} failed: ${messageOf(error)}`, {
      cause: error,
    });
  }
  return {
    clientId: registered.client_id as string,
    ...(typeof registered.client_secret === "string" ? { clientSecret: registered.client_secret } : {}),
    ...(typeof registered.token_endpoint_auth_method === "string"
      ? { tokenEndpointAuthMethod: registered.token_endpoint_auth_method }
      : {}),
  };
}

/** Reads the callback: a full redirect URL, or just the code (then `state` and `iss` cannot be checked). */
function callbackParameters(answer: string | URL, state: string, as: o4w.AuthorizationServer): URLSearchParams {
  const text = String(answer);
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return new URL(text).searchParams;
  if (text.startsWith("?")) return new URLSearchParams(text);
  const params = new URLSearchParams({ code: text, state });
  if (as.authorization_response_iss_parameter_supported === true) params.set("iss", as.issuer);
  return params;
}

/** The token endpoint authentication: the registered method, else what the server supports. */
function clientAuthFor(client: StoredClient, as: o4w.AuthorizationServer): o4w.ClientAuth {
  if (client.clientSecret === undefined) return o4w.None();
  const supported = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const method = client.tokenEndpointAuthMethod ??
    (supported.includes("client_secret_basic") || !supported.includes("client_secret_post")
      ? "client_secret_basic"
      : "client_secret_post");
  if (method === "none") return o4w.None();
  return method === "client_secret_post"
    ? o4w.ClientSecretPost(client.clientSecret)
    : clientSecretBasic(client.clientId, client.clientSecret);
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1) with `encodeURIComponent`: oauth4webapi also escapes
 * `-_.!~*'()`, which servers that skip the form-decoding step (many do) then reject.
 */
function clientSecretBasic(clientId: string, clientSecret: string): o4w.ClientAuth {
  const credentials = btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
  return (_as, _client, _body, headers) => headers.set("authorization", `Basic ${credentials}`);
}

function union(...scopes: (string | undefined)[]): string {
  const all = new Set(scopes.flatMap((scope) => scope?.split(" ") ?? []).filter((s) => s !== ""));
  return [...all].join(" ");
}

function toOauthClient(client: StoredClient): o4w.Client {
  return { client_id: client.clientId };
}

function toStored(response: o4w.TokenEndpointResponse, previousRefresh?: string): StoredTokens {
  const refreshToken = response.refresh_token ?? previousRefresh;
  return {
    accessToken: response.access_token,
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(typeof response.expires_in === "number" ? { expiresAt: Date.now() + response.expires_in * 1000 } : {}),
    ...(response.scope !== undefined ? { scope: response.scope } : {}),
  };
}

async function tokenRequest(run: () => Promise<o4w.TokenEndpointResponse>): Promise<o4w.TokenEndpointResponse> {
  try {
    return await run();
  } catch (error) {
    throw new AuthorizationError(`The token request failed: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * Tells whether a URL is on a loopback host.
 *
 * @param url The URL.
 * @returns `true` for localhost, 127.0.0.0/8 and [::1].
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}
