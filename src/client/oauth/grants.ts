/**
 * The OAuth grants the client runs once discovery is done (OAuth 2.1 §4): the authorization code with
 * PKCE S256, `state`, `resource` (RFC 8707) and the RFC 9207 `iss` check; client credentials; and the
 * client's identity (pre-registered, a Client ID Metadata Document, or RFC 7591 registration).
 *
 * @module
 */
import { DEFAULT_MAX_RESPONSE_BYTES, readBoundedText } from "../response-bound.ts";
import * as o4w from "oauth4webapi";
import { authorizationError } from "../errors.ts";
import { messageOf } from "../http.ts";
import { isObject } from "../../internal/is-object.ts";
import { authorizationFailure, type DiscoveryHttp, requestOptions } from "./discovery.ts";
import type { StoredClient } from "./token-store.ts";
import type { ClientCredentialsOptions, OAuthOptions } from "./oauth-options.ts";

/** Everything a grant needs once discovery is done. */
export interface GrantContext {
  readonly as: o4w.AuthorizationServer;
  readonly resource: string | undefined;
  readonly scope: string | undefined;
  readonly http: DiscoveryHttp;
  /** The stored client identity for this issuer, if any. */
  readonly client: StoredClient | undefined;
  /** The DPoP handle, when tokens are DPoP-bound (RFC 9449 §5). */
  readonly dpop?: o4w.DPoPHandle;
}

/** What a grant produced. */
export interface GrantResult {
  readonly client: StoredClient;
  readonly tokens: o4w.TokenEndpointResponse;
}

export type Grant = (ctx: GrantContext) => Promise<GrantResult>;

/** The authorization-code grant with PKCE S256, `state`, `resource` and the RFC 9207 `iss` check. */
export async function authorizationCodeGrant(options: OAuthOptions, ctx: GrantContext): Promise<GrantResult> {
  const { as } = ctx;
  if (as.authorization_endpoint === undefined) {
    throw authorizationError(`The authorization server ${as.issuer} has no authorization endpoint`);
  }
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    // MCP 2025-11-25, Authorization Code Protection: no S256, no authorization.
    throw authorizationError(`The authorization server ${as.issuer} does not support PKCE S256; refusing it`);
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
    throw authorizationError(`The authorization response was refused: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const oc = toOauthClient(client);
  const tokens = await tokenRequest(() =>
    o4w.authorizationCodeGrantRequest(as, oc, clientAuthFor(client, as), params, options.redirectUri, verifier, {
      ...tokenOptions(ctx),
      ...(ctx.resource !== undefined ? { additionalParameters: { resource: ctx.resource } } : {}),
    }).then((response) => o4w.processAuthorizationCodeResponse(as, oc, response))
  );
  return { client, tokens };
}

/** The client-credentials grant. */
export async function clientCredentialsGrant(
  options: ClientCredentialsOptions,
  ctx: GrantContext,
): Promise<GrantResult> {
  const { as } = ctx;
  const client: StoredClient = { clientId: options.clientId, clientSecret: options.clientSecret };
  // Deno checks an npm package's declarations against Node's globals, where CryptoKey is another type than ours
  // (a project without the DOM library reads the two as unrelated): the same key, passed as oauth4webapi names it.
  const key = options.privateKey as unknown as Parameters<typeof o4w.PrivateKeyJwt>[0] | undefined;
  const auth = key !== undefined ? o4w.PrivateKeyJwt(key) : clientAuthFor(client, as);
  return await clientCredentialsRequest(client, auth, ctx);
}

/**
 * The client-credentials grant's token request (OAuth 2.1 §4.2) for `client`, authenticated by `auth`
 * (a secret, a `private_key_jwt`, a workload's `client_assertion`).
 *
 * @param client The client.
 * @param auth Its authentication at the token endpoint.
 * @param ctx The grant's context.
 * @returns The tokens.
 */
export async function clientCredentialsRequest(
  client: StoredClient,
  auth: o4w.ClientAuth,
  ctx: GrantContext,
): Promise<GrantResult> {
  const oc = toOauthClient(client);
  const tokens = await tokenRequest(() =>
    o4w.clientCredentialsGrantRequest(ctx.as, oc, auth, grantParameters(ctx), tokenOptions(ctx))
      .then((response) => o4w.processClientCredentialsResponse(ctx.as, oc, response))
  );
  return { client, tokens };
}

/**
 * The token request's `scope` (when not empty) and `resource` (RFC 8707 §2) parameters.
 *
 * @param ctx The grant's context.
 * @returns The parameters.
 */
export function grantParameters(ctx: GrantContext): Record<string, string> {
  const parameters: Record<string, string> = {};
  if (ctx.scope !== undefined && ctx.scope !== "") parameters.scope = ctx.scope;
  if (ctx.resource !== undefined) parameters.resource = ctx.resource;
  return parameters;
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
    throw authorizationError(
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
    registered = JSON.parse(await readBoundedText(response, DEFAULT_MAX_RESPONSE_BYTES)) as Record<string, unknown>;
    if (!response.ok || typeof registered.client_id !== "string") {
      throw new Error(`HTTP ${response.status}: ${JSON.stringify(registered).slice(0, 200)}`);
    }
  } catch (error) {
    throw authorizationFailure(`Dynamic client registration at ${as.issuer} failed`, error);
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
export function clientAuthFor(client: StoredClient, as: o4w.AuthorizationServer): o4w.ClientAuth {
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

export function toOauthClient(client: StoredClient): o4w.Client {
  return { client_id: client.clientId };
}

/**
 * The options of a token request: our fetch, and the DPoP handle that adds the proof (RFC 9449 §5).
 *
 * @param ctx The grant's context.
 * @returns The options.
 */
export function tokenOptions(
  ctx: Pick<GrantContext, "as" | "http" | "dpop">,
): ReturnType<typeof requestOptions> & { DPoP?: o4w.DPoPHandle } {
  const options = requestOptions(ctx.http, new URL(ctx.as.token_endpoint ?? ctx.as.issuer));
  return ctx.dpop === undefined ? options : { ...options, DPoP: ctx.dpop };
}

/**
 * Runs a token request; an authorization server's `use_dpop_nonce` error is answered once with the
 * nonce it sent (RFC 9449 §8), which the DPoP handle has kept. A refusal becomes an `unauthenticated` `McpliteError`
 * that says the server's error (RFC 6749 §5.2: `error` and `error_description`, also its `data`); an authorization
 * server that cannot be reached, a `transport` error.
 *
 * @param run Sends the request and processes the response.
 * @returns The token response.
 */
export async function tokenRequest(run: () => Promise<o4w.TokenEndpointResponse>): Promise<o4w.TokenEndpointResponse> {
  for (let retried = false;; retried = true) {
    try {
      return await run();
    } catch (error) {
      if (!retried && o4w.isDPoPNonceError(error)) continue;
      const answered = await oauthErrorOf(error);
      if (answered === undefined) throw authorizationFailure("The token request failed", error);
      const { error: code, error_description: description } = answered;
      const said = description === undefined ? code : `${code} (${description})`;
      throw authorizationError(`The token request failed: ${said}`, { cause: error, data: answered });
    }
  }
}

/** An authorization server's error response (RFC 6749 §5.2). */
interface OAuthErrorResponse {
  readonly error: string;
  readonly error_description?: string;
}

/**
 * The error response in what oauth4webapi threw: a `ResponseBodyError` has read it; a refusal with a
 * `WWW-Authenticate` challenge (401 `invalid_client` after `client_secret_basic`, which §5.2 requires to carry one)
 * is thrown before its body is read, so the body is read here (bounded), else the challenge's own `error`.
 */
async function oauthErrorOf(error: unknown): Promise<OAuthErrorResponse | undefined> {
  if (error instanceof o4w.ResponseBodyError) return errorResponse(error.error, error.error_description);
  if (!(error instanceof o4w.WWWAuthenticateChallengeError)) return undefined;
  try {
    const body: unknown = JSON.parse(await readBoundedText(error.response, DEFAULT_MAX_RESPONSE_BYTES));
    const found = isObject(body) ? errorResponse(body.error, body.error_description) : undefined;
    if (found !== undefined) return found;
  } catch {
    // not JSON, or unreadable: the challenge may say it
  }
  const { parameters } = error.cause[0] ?? { parameters: {} };
  return errorResponse(parameters.error, parameters.error_description);
}

/** The §5.2 fields, when `error` is a string. */
function errorResponse(error: unknown, description: unknown): OAuthErrorResponse | undefined {
  if (typeof error !== "string" || error === "") return undefined;
  return typeof description === "string" && description !== "" ? { error, error_description: description } : { error };
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
