/**
 * OAuth for the client (MCP 2025-11-25 and 2026-07-28, Authorization): `oauth()` for the
 * authorization-code flow with PKCE, `clientCredentials()` for machines. Each gives a
 * {@link ClientAuth} whose `wrap(fetch)` adds the bearer token to every request and, on a 401 or a
 * 403 `insufficient_scope`, discovers, authorizes and retries. oauth4webapi does the protocol work.
 *
 * @module
 */
import * as o4w from "oauth4webapi";
import { authorizationError } from "../errors.ts";
import type { ClientAuth, FetchLike } from "../http.ts";
import { type BearerChallenge, challengeSchemes, parseBearerChallenge } from "./read-challenge.ts";
import {
  discoverAuthorizationServer,
  discoverResource,
  type DiscoveryHttp,
  fallbackAuthorizationServer,
} from "./discovery.ts";
import {
  memoryTokenStore,
  type StoredAuthorization,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from "./token-store.ts";
import {
  authorizationCodeGrant,
  clientAuthFor,
  clientCredentialsGrant,
  type Grant,
  isLoopback,
  tokenOptions,
  tokenRequest,
  toOauthClient,
} from "./grants.ts";
import type {
  AuthOptions,
  ClientCredentialsOptions,
  EnterpriseAuthOptions,
  OAuthOptions,
  WorkloadIdentityOptions,
} from "./oauth-options.ts";
import { enterpriseGrant, workloadGrant } from "./assertion-grants.ts";
import { dpopHandle, dpopKeyPair, sendWithProof } from "./dpop-signer.ts";
import type { WebCryptoKeyPair } from "./web-crypto-key.ts";

export type { ClientAuth } from "../http.ts";

/**
 * Authorization with the authorization-code grant and PKCE (OAuth 2.1 §4.1), the client identity
 * pre-registered, from a Client ID Metadata Document, or registered dynamically (RFC 7591).
 *
 * @param options The redirect URI, the callback that shows the user the URL, the client identity.
 * @returns The auth to pass as `createClient(url, { auth })`.
 *
 * @example
 * ```ts
 * import { createClient } from "../mod.ts";
 * import { oauth } from "./mod.ts";
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
 * import { createClient } from "../mod.ts";
 * import { clientCredentials } from "./mod.ts";
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

/**
 * Authorization for workloads (workload identity federation, SEP-1933): the JWT the platform issues
 * (a Kubernetes service account token, a cloud or CI OIDC token) is the assertion of the JWT-bearer
 * grant (RFC 7523 §2.1), or the `client_assertion` of a client-credentials grant (RFC 7523 §2.2). No
 * secret to keep; the JWT is read afresh for each grant. A refused JWT fails the request, with no retry.
 *
 * @param options The client id and where the JWT comes from (callback, `{ env }`, `{ file }`).
 * @returns The auth to pass as `createClient(url, { auth })`.
 *
 * @example
 * ```ts
 * import { createClient } from "../mod.ts";
 * import { workloadIdentity } from "./mod.ts";
 * const client = createClient("https://api.example/mcp", {
 *   auth: workloadIdentity({
 *     clientId: "reporting-job",
 *     token: { file: "/var/run/secrets/tokens/mcp-token" },
 *   }),
 * });
 * void client;
 * ```
 */
export function workloadIdentity(options: WorkloadIdentityOptions): ClientAuth {
  return sessionAuth(options, (ctx) => workloadGrant(options, ctx));
}

/**
 * Enterprise-managed authorization (SEP-990): the user's identity assertion from the enterprise
 * IdP (an OpenID Connect ID token from single sign-on) is exchanged at the IdP for an ID-JAG
 * (RFC 8693 token exchange, `requested_token_type=urn:ietf:params:oauth:token-type:id-jag`), which the
 * MCP server's authorization server takes in the JWT-bearer grant (RFC 7523 §2.1). No consent screen:
 * the IdP's policy decides.
 *
 * @param options The IdP, the ID token, and this client at the MCP server's authorization server.
 * @returns The auth to pass as `createClient(url, { auth })`.
 *
 * @example
 * ```ts
 * import { createClient } from "../mod.ts";
 * import { enterpriseAuth } from "./mod.ts";
 * const client = createClient("https://api.example/mcp", {
 *   auth: enterpriseAuth({
 *     idp: { tokenEndpoint: "https://idp.example/oauth2/token", clientId: "mcp-desktop" },
 *     idToken: () => "eyJ…", // the ID token of the user's single sign-on
 *     clientId: "mcp-desktop-at-api",
 *     clientSecret: "…",
 *   }),
 * });
 * void client;
 * ```
 */
export function enterpriseAuth(options: EnterpriseAuthOptions): ClientAuth {
  return sessionAuth(options, (ctx) => enterpriseGrant(options, ctx));
}

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
  /** The DPoP key pair and its handle (RFC 9449), once known. */
  #dpopKey: WebCryptoKeyPair | undefined;
  #dpop: o4w.DPoPHandle | undefined;

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
      const tokens = await this.#tokens();
      const token = tokens?.accessToken;
      const dpop = tokens?.tokenType === "dpop" ? await this.#dpopHandle() : undefined;
      const attempt = request.clone();
      let response: Response;
      if (token !== undefined && dpop !== undefined) {
        // RFC 9449 §7.1: a bound token goes out as `Authorization: DPoP`, with a proof of this request.
        attempt.headers.delete("authorization");
        response = await sendWithProof(this.#fetch, attempt, token, dpop);
      } else {
        if (token !== undefined) attempt.headers.set("authorization", `Bearer ${token}`);
        response = await this.#fetch(attempt);
      }
      if (response.status !== 401 && response.status !== 403) return response;
      const header = response.headers.get("www-authenticate");
      if (!this.#usesDpop() && onlyDpop(header)) {
        // RFC 9449 §7.1: a resource that takes bearer tokens too would challenge with `Bearer` as well;
        // a bearer token is bound to be refused, so none is asked for.
        await response.body?.cancel().catch(() => {});
        throw authorizationError(
          `${new URL(request.url).origin} requires DPoP-bound access tokens (WWW-Authenticate: DPoP, RFC 9449): ` +
            "set dpop: true in the auth options",
          { status: response.status },
        );
      }
      const challenge = parseBearerChallenge(header);
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

  /** The tokens, refreshed first when the access token is about to expire. */
  async #tokens(): Promise<StoredTokens | undefined> {
    const stored = await this.#stored();
    const tokens = stored?.tokens;
    if (tokens === undefined) return undefined;
    const expiring = tokens.expiresAt !== undefined && tokens.expiresAt - 30_000 < Date.now();
    if (expiring && tokens.refreshToken !== undefined && this.#as !== undefined && stored?.client !== undefined) {
      const refreshed = await this.#refresh(stored, stored.client, tokens.refreshToken).catch(() => undefined);
      if (refreshed !== undefined) return refreshed;
    }
    return tokens;
  }

  /**
   * The DPoP handle when `dpop` is on: the stored key pair, else a new one (RFC 9449 §5), stored with
   * the next tokens.
   */
  async #dpopHandle(): Promise<o4w.DPoPHandle | undefined> {
    const option = this.#options.dpop;
    if (option === undefined || option === false) return undefined;
    if (this.#dpop !== undefined) return this.#dpop;
    const key = (await this.#stored())?.dpopKey ?? await dpopKeyPair(option, this.#as);
    if (this.#dpop !== undefined) return this.#dpop; // another request got there first
    this.#dpopKey = key;
    return this.#dpop = dpopHandle(key);
  }

  /** Whether this session binds its tokens with DPoP (`dpop` set and not `false`). */
  #usesDpop(): boolean {
    return this.#options.dpop !== undefined && this.#options.dpop !== false;
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
        throw authorizationError(`The protected resource metadata of ${server.origin} names no authorization server`);
      }
      as = await discoverAuthorizationServer(new URL(issuer), this.#http);
      if (as === undefined) {
        throw authorizationError(`No authorization server metadata found for ${issuer}`);
      }
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
    const dpop = await this.#dpopHandle();
    const result = await this.#grant({
      as,
      resource: this.#resource,
      scope,
      http: this.#http,
      client: stored?.client,
      ...(dpop !== undefined ? { dpop } : {}),
    });
    await this.#storage.set(this.#key, {
      issuer: as.issuer,
      client: result.client,
      tokens: toStored(result.tokens),
      ...(this.#dpopKey !== undefined ? { dpopKey: this.#dpopKey } : {}),
    });
  }

  async #refresh(stored: StoredAuthorization, client: StoredClient, refreshToken: string): Promise<StoredTokens> {
    const as = this.#as!;
    const dpop = await this.#dpopHandle();
    // RFC 9449 §5: the refreshed token is bound to the same key, so the refresh request carries a proof.
    const response = await tokenRequest(() =>
      o4w.refreshTokenGrantRequest(as, toOauthClient(client), clientAuthFor(client, as), refreshToken, {
        ...tokenOptions({ as, http: this.#http, ...(dpop !== undefined ? { dpop } : {}) }),
        ...(this.#resource !== undefined ? { additionalParameters: { resource: this.#resource } } : {}),
      }).then((response) => o4w.processRefreshTokenResponse(as, toOauthClient(client), response))
    );
    const tokens = toStored(response, refreshToken);
    await this.#storage.set(this.#key, { ...stored, tokens });
    return tokens;
  }
}

/** Whether a challenge names the `DPoP` scheme and not `Bearer`: DPoP-bound tokens only. */
function onlyDpop(header: string | null): boolean {
  const schemes = challengeSchemes(header);
  return schemes.has("dpop") && !schemes.has("bearer");
}

function union(...scopes: (string | undefined)[]): string {
  const all = new Set(scopes.flatMap((scope) => scope?.split(" ") ?? []).filter((s) => s !== ""));
  return [...all].join(" ");
}

function toStored(response: o4w.TokenEndpointResponse, previousRefresh?: string): StoredTokens {
  const refreshToken = response.refresh_token ?? previousRefresh;
  return {
    accessToken: response.access_token,
    ...(response.token_type === "dpop" ? { tokenType: "dpop" } : {}),
    ...(refreshToken !== undefined ? { refreshToken } : {}),
    ...(typeof response.expires_in === "number" ? { expiresAt: Date.now() + response.expires_in * 1000 } : {}),
    ...(response.scope !== undefined ? { scope: response.scope } : {}),
  };
}
