/**
 * Discovery for MCP authorization: the protected resource metadata (RFC 9728) of the server, then the
 * authorization server's metadata (RFC 8414, OpenID Connect Discovery 1.0), with the MCP 2025-03-26
 * fallbacks for servers that publish neither.
 *
 * @module
 */
import { DEFAULT_MAX_RESPONSE_BYTES, readBoundedText } from "../response-bound.ts";
import { McpliteError } from "../../errors/error.ts";
import * as oauth from "oauth4webapi";
import { authorizationError, isTransportError, transportError } from "../errors.ts";
import { type FetchLike, messageOf } from "../http.ts";

/** Protected resource metadata (RFC 9728 §2), the fields the client uses. */
export interface ResourceMetadata {
  /** The resource identifier: sent as `resource` (RFC 8707) exactly as published. */
  readonly resource: string;
  /** The authorization servers' issuer identifiers; the first one is used. */
  readonly authorization_servers?: readonly string[];
  /** The scopes the resource knows. */
  readonly scopes_supported?: readonly string[];
}

/** Options of the HTTP requests discovery makes. */
export interface DiscoveryHttp {
  /** The fetch function. */
  readonly fetch: FetchLike;
  /** Allows `http:` URLs (oauth4webapi refuses them otherwise). */
  readonly insecure: (url: URL) => boolean;
}

/**
 * The options oauth4webapi's request functions take: our fetch, and `http:` allowed where permitted.
 *
 * @param http The discovery options.
 * @param url The URL the request goes to.
 * @returns The options.
 */
export function requestOptions(
  http: DiscoveryHttp,
  url: URL,
): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: boolean } {
  return {
    // Every request oauth4webapi makes (token, registration, the IdP's token exchange) goes through here: a server
    // that cannot be reached is an outage, a `transport` error the caller may retry, never a refused authorization.
    [oauth.customFetch]: (async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      try {
        return await http.fetch(request);
      } catch (error) {
        if (error instanceof McpliteError || request.signal.aborted) throw error;
        throw transportError(`Could not reach ${request.url}: ${messageOf(error)}`, { cause: error });
      }
    }) as typeof fetch,
    [oauth.allowInsecureRequests]: http.insecure(url),
  };
}

/**
 * The error an authorization step fails with: an outage (a `transport` error, from {@link requestOptions})
 * stays one, so the caller can retry; anything else is a refusal, an `unauthenticated` `McpliteError`.
 *
 * @param what What failed, the message's start.
 * @param error What was thrown.
 * @returns The error to throw.
 */
export function authorizationFailure(what: string, error: unknown): McpliteError {
  if (isTransportError(error)) return error;
  return authorizationError(`${what}: ${messageOf(error)}`, { cause: error });
}

/**
 * Finds the protected resource metadata of a server: the challenge's `resource_metadata`, else the
 * path-suffixed, then the root well-known URL (MCP 2025-11-25, Protected Resource Metadata Discovery).
 *
 * @param server The MCP endpoint URL.
 * @param fromChallenge The `resource_metadata` of the 401 challenge, if any.
 * @param http The fetch function.
 * @returns The metadata, or `undefined` when the server publishes none (an MCP 2025-03-26 server).
 */
export async function discoverResource(
  server: URL,
  fromChallenge: string | undefined,
  http: DiscoveryHttp,
): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (fromChallenge !== undefined) candidates.push(new URL(fromChallenge, server));
  const path = server.pathname.replace(/\/+$/, "");
  if (path !== "") candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
  candidates.push(new URL("/.well-known/oauth-protected-resource", server.origin));
  for (const url of candidates) {
    const body = await getJson(url, http);
    if (body === undefined) continue;
    const metadata = body as Partial<ResourceMetadata>;
    if (typeof metadata.resource !== "string") {
      throw authorizationError(`Protected resource metadata at ${url} has no "resource"`);
    }
    if (!resourceCovers(metadata.resource, server)) {
      // RFC 9728 §3.3: the metadata must be about the resource the client is talking to.
      throw authorizationError(
        `Protected resource metadata at ${url} is for ${metadata.resource}, not for ${server.href}; refusing it`,
      );
    }
    return metadata as ResourceMetadata;
  }
  return undefined;
}

/**
 * Tells whether a resource identifier covers a server URL: same origin, and its path a prefix of the
 * server's (on a segment boundary).
 *
 * @param resource The metadata's `resource`.
 * @param server The MCP endpoint URL.
 * @returns `true` when it covers it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resourceCovers } from "./discovery.ts";
 * assert.equal(resourceCovers("https://api.example/mcp", new URL("https://api.example/mcp")), true);
 * assert.equal(resourceCovers("https://api.example", new URL("https://api.example/mcp")), true);
 * assert.equal(resourceCovers("https://evil.example/mcp", new URL("https://api.example/mcp")), false);
 * assert.equal(resourceCovers("https://api.example/mc", new URL("https://api.example/mcp")), false);
 * ```
 */
export function resourceCovers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin) return false;
  const prefix = url.pathname.replace(/\/+$/, "");
  const path = server.pathname.replace(/\/+$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Fetches the authorization server's metadata: RFC 8414 with path insertion, then OpenID Connect
 * Discovery with path insertion and with path appending (MCP 2025-11-25, Authorization Server Metadata
 * Discovery). The `issuer` must equal the identifier (RFC 8414 §3.3).
 *
 * @param issuer The issuer identifier.
 * @param http The fetch function.
 * @returns The metadata.
 */
export async function discoverAuthorizationServer(
  issuer: URL,
  http: DiscoveryHttp,
): Promise<oauth.AuthorizationServer | undefined> {
  const path = issuer.pathname.replace(/\/+$/, "");
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
  ];
  if (path !== "") candidates.push(new URL(`${path}/.well-known/openid-configuration`, issuer.origin));
  for (const url of candidates) {
    const response = await Promise.resolve(http.fetch(new Request(url, { headers: { accept: "application/json" } })))
      .catch(() => undefined);
    if (response === undefined || !response.ok) {
      await response?.body?.cancel().catch(() => {});
      continue;
    }
    try {
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw authorizationFailure(`Authorization server metadata at ${url} was refused`, error);
    }
  }
  return undefined;
}

/**
 * The metadata MCP 2025-03-26 assumes for a server that publishes none: `/authorize`, `/token` and
 * `/register` at the server's origin (2025-03-26, Fallbacks for Servers without Metadata Discovery).
 *
 * @param server The MCP endpoint URL.
 * @returns The assumed metadata.
 */
export function fallbackAuthorizationServer(server: URL): oauth.AuthorizationServer {
  return {
    issuer: server.origin,
    authorization_endpoint: `${server.origin}/authorize`,
    token_endpoint: `${server.origin}/token`,
    registration_endpoint: `${server.origin}/register`,
    code_challenge_methods_supported: ["S256"],
  };
}

async function getJson(url: URL, http: DiscoveryHttp): Promise<unknown> {
  let response: Response;
  try {
    response = await http.fetch(new Request(url, { headers: { accept: "application/json" } }));
  } catch {
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  try {
    return JSON.parse(await readBoundedText(response, DEFAULT_MAX_RESPONSE_BYTES)); // metadata: never a large body
  } catch {
    return undefined;
  }
}
