/**
 * A real OAuth 2.1 authorization server for tests: npm `oidc-provider` (a certified OpenID provider) on
 * 127.0.0.1, issuing JWT access tokens for one resource (RFC 8707 resource indicators, RFC 9068
 * tokens), with the client-credentials grant, dynamic client registration (RFC 7591), and a minimal
 * interaction handler that logs the user in and grants what was asked for; plus a headless user agent
 * that drives the authorization-code flow through it.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Buffer } from "node:buffer";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
// oidc-provider ships no types (they live in DefinitelyTyped): it is `any` here, used as documented.
import { errors, Provider } from "oidc-provider";

/** A confidential client for the client-credentials grant. */
export const SERVICE_CLIENT = { id: "reporting-job", secret: "s3cret-for-tests-only" } as const;
/** A public client for the authorization-code grant with PKCE. */
export const APP_CLIENT = { id: "desktop-app", redirectUri: "http://127.0.0.1/callback" } as const;
/** A confidential client the resource server uses to introspect opaque tokens (RFC 7662). */
export const INTROSPECTION_CLIENT = { id: "docs-api", secret: "introspection-secret-for-tests-only" } as const;
/** The scopes the resource server understands. */
export const RESOURCE_SCOPES = "docs:read docs:write";

/** A running authorization server. */
export interface AuthorizationServer {
  /** Its issuer (also the base of its endpoints). */
  readonly issuer: string;
  /** Where it publishes its signing keys. */
  readonly jwksUri: string;
  /** Its token endpoint. */
  readonly tokenEndpoint: string;
  /** Its introspection endpoint (RFC 7662). */
  readonly introspectionEndpoint: string;
  /** Its authorization endpoint. */
  readonly authorizationEndpoint: string;
  /** The user the interaction handler logs in. */
  readonly user: string;
  /** Stops it. */
  close(): Promise<void>;
}

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The account the interaction handler logs in (default `ada`). */
  readonly user?: string;
  /** The scopes the user consents to, of those requested (default: all); the rest are refused. */
  readonly consent?: (requested: readonly string[]) => readonly string[];
  /** The access tokens it issues for the resource: JWTs (RFC 9068, the default) or opaque strings. */
  readonly accessTokenFormat?: "jwt" | "opaque";
  /** The one redirect URI registered for {@link APP_CLIENT} (default `APP_CLIENT.redirectUri`), matched exactly. */
  readonly appRedirectUri?: string;
  /** Requires a server-issued nonce in DPoP proofs at the token endpoint (RFC 9449 §8). */
  readonly dpopNonce?: boolean;
}

/**
 * Starts oidc-provider on 127.0.0.1 (port 0), issuing ES256-signed JWT access tokens whose `aud` is
 * `resource`.
 *
 * @param resource The only resource indicator it accepts.
 * @param options The user, and what they consent to.
 */
export async function startAuthorizationServer(
  resource: string,
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const user = options.user ?? "ada";
  const consent = options.consent ?? ((requested) => requested);
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "as-key-1", alg: "ES256", use: "sig" };
  // The issuer contains the port: listen first, then answer with the provider made for it.
  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    cookies: { keys: ["cookie-key-for-tests-only"] },
    // Every client (registered ones too) signs with the one ES256 key: no RSA key to generate.
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    clients: [
      {
        client_id: SERVICE_CLIENT.id,
        client_secret: SERVICE_CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: INTROSPECTION_CLIENT.id,
        client_secret: INTROSPECTION_CLIENT.secret,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: APP_CLIENT.id,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [options.appRedirectUri ?? APP_CLIENT.redirectUri],
      },
    ],
    // Scopes a dynamically registered client may list in its `scope` (RFC 7591 §2): oidc-provider
    // checks them against this list.
    scopes: ["openid", "offline_access", ...RESOURCE_SCOPES.split(" ")],
    pkce: { required: () => true },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // Only the resource server may ask what a token means.
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }) => client.clientId === INTROSPECTION_CLIENT.id,
      },
      registration: { enabled: true },
      // RFC 9449: DPoP-bound tokens for clients that send a proof; a nonce only when asked for.
      dPoP: {
        enabled: true,
        ...(options.dpopNonce
          ? { nonceSecret: Buffer.from(crypto.getRandomValues(new Uint8Array(32))), requireNonce: () => true }
          : {}),
      },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: RESOURCE_SCOPES,
            audience: resource,
            accessTokenTTL: 300,
            ...(options.accessTokenFormat === "opaque"
              ? { accessTokenFormat: "opaque" }
              : { accessTokenFormat: "jwt", jwt: { sign: { alg: "ES256" } } }),
          };
        },
      },
    },
    ttl: {
      AccessToken: 300,
      AuthorizationCode: 60,
      ClientCredentials: 300,
      Grant: 600,
      Interaction: 600,
      Session: 600,
    },
  });
  const callback = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/interaction/")) {
      return void interact(provider, req, res, user, consent).catch(() => fail(res));
    }
    callback(req, res);
  });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    authorizationEndpoint: `${issuer}/auth`,
    user,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function fail(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500);
  res.end();
}

/**
 * The interaction endpoints: GET shows what is asked; POST `…/login` with `login=<user>` signs the user
 * in and records their consent for the requested resource: the scopes `consent` keeps are granted,
 * the others refused (so the consent prompt does not come back for them).
 */
export async function interact(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  user: string,
  consent: (requested: readonly string[]) => readonly string[],
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name, params: details.params }));
  }
  const form = new URLSearchParams(
    await new Promise<string>((resolve) => {
      let body = "";
      req.on("data", (chunk) => body += chunk).on("end", () => resolve(body));
    }),
  );
  if (form.get("login") !== user) {
    return void provider.interactionFinished(req, res, { error: "access_denied", error_description: "unknown user" });
  }
  const { params } = details;
  const requested = String(params.scope ?? "").split(" ").filter(Boolean);
  const granted = consent(requested).join(" ");
  const refused = requested.filter((scope) => !granted.split(" ").includes(scope)).join(" ");
  const grant = new provider.Grant({ accountId: user, clientId: String(params.client_id) });
  for (const indicator of [params.resource ?? []].flat() as string[]) {
    if (granted !== "") grant.addResourceScope(indicator, granted);
    if (refused !== "") grant.rejectResourceScope(indicator, refused);
  }
  if (granted !== "") grant.addOIDCScope(granted);
  if (refused !== "") grant.rejectOIDCScope(refused);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: user }, consent: { grantId } }, {
    mergeWithLastSubmission: false,
  });
}

/**
 * Gets a token by the client-credentials grant (RFC 6749 §4.4) as {@link SERVICE_CLIENT}.
 *
 * @param server The authorization server.
 * @param scope The scopes asked for.
 * @param resource The resource indicator (RFC 8707), or none.
 * @returns The access token.
 */
export async function clientCredentialsToken(
  server: AuthorizationServer,
  scope: string,
  resource?: string,
): Promise<string> {
  const body = new URLSearchParams({ grant_type: "client_credentials", scope });
  if (resource !== undefined) body.set("resource", resource);
  const response = await fetch(server.tokenEndpoint, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`)}` },
    body,
    signal: AbortSignal.timeout(5000),
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`no token: ${JSON.stringify(json)}`);
  return json.access_token;
}

/**
 * A headless user agent: follows an authorization URL through the server's redirects, keeps its
 * cookies, logs in at the interaction endpoint, and returns the authorization code sent to the
 * redirect URI (bounded: at most 10 hops).
 *
 * @param authorizationUrl The URL the client would open in a browser.
 * @param user The user to log in as.
 * @returns The code, the `state` that came back with it, and every parameter of the redirect (RFC 9207 adds `iss`).
 */
export async function authorizeHeadlessly(
  authorizationUrl: URL,
  user = "ada",
): Promise<{ code: string; state?: string; params: URLSearchParams }> {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers as Record<string, string>, cookie: cookieHeader() },
      signal: AbortSignal.timeout(5000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (location === null) {
      if (url.pathname.startsWith("/interaction/") && init.method !== "POST") {
        init = {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ login: user }).toString(),
        };
        url = new URL(`${url.pathname}/login`, url);
        continue;
      }
      throw new Error(`the authorization flow stopped at ${url.pathname} with HTTP ${response.status}`);
    }
    const next = new URL(location, url);
    const error = next.searchParams.get("error");
    if (error !== null) throw new Error(`authorization failed: ${error} ${next.searchParams.get("error_description")}`);
    const code = next.searchParams.get("code");
    if (code !== null && !next.pathname.startsWith("/interaction/")) {
      return { code, state: next.searchParams.get("state") ?? undefined, params: next.searchParams };
    }
    url = next;
    init = {};
  }
  throw new Error("the authorization flow did not end within 10 hops");
}
