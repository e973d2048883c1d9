/**
 * The server card (SEP-2127, draft, as github.com/modelcontextprotocol/experimental-ext-server-card
 * 8924e08 of 2026-07-24 shapes it): built from the server's options and MCP routes, served before the
 * gate at `/.well-known/mcp/server-card.json` and `<MCP endpoint>/server-card`, with ETag/304 and CORS.
 *
 * @module
 */
import { pathOf } from "../internal/url.ts";
import { sha256 } from "../internal/sha256.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import type { ResolvedOptions, Route } from "./binding-contract.ts";
import { matchesEtag } from "./conditional.ts";
import type { ServerFetch } from "./fetch.ts";
import type { RequestGuard } from "./guard.ts";
import { utf8Encoder } from "../internal/utf8.ts";

/**
 * What the server card says beyond what the server's other options already tell (`name`, `version`, `title`,
 * `description`, `icons`, `websiteUrl`, the MCP endpoints, `auth`): `createServer({ serverCard })`.
 *
 * @example
 * ```ts
 * import { createServer } from "@mcplite/sdk";
 * import type { ServerCardOptions } from "@mcplite/sdk/types";
 * const serverCard: ServerCardOptions = {
 *   name: "com.example/weather",
 *   origin: "https://weather.example.com",
 *   repository: { url: "https://github.com/example/weather-mcp", source: "github" },
 * };
 * const server = createServer({ name: "weather", version: "1.2.0", description: "Forecasts", serverCard });
 * ```
 */
export interface ServerCardOptions {
  /**
   * The card's name, in reverse-DNS form with one slash (`com.example/weather`), as the MCP Registry names
   * servers. Default: the server's `name` when it has that form, else the server's name under the reversed labels
   * of the host the card is read at.
   */
  readonly name?: string;
  /**
   * The public origin the card's endpoint URLs start with (`https://api.example.com`), for a server behind a proxy.
   * Default: the origin of `auth.resource` with `auth`, else each request's own: then the card answers only at a
   * host `allowedHosts` lets in, with `Cache-Control: private` and `Vary: Host` (RFC 9111 §5.2.2.7, §4.1), so that
   * no shared cache hands one client's `Host` to another. Pinned, it is `public` for an hour.
   */
  readonly origin?: string;
  /** Where the server's source lives. */
  readonly repository?: ServerCardRepository;
  /** Extension metadata, under reverse-DNS keys (the card's `_meta`). */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/**
 * Where a server's source lives, as its card says (SEP-2127 `Repository`; the MCP Registry's `server.json` takes
 * the same fields).
 *
 * @example
 * ```ts
 * import type { ServerCardRepository } from "@mcplite/sdk/types";
 * const repository: ServerCardRepository = {
 *   url: "https://github.com/example/tools",
 *   source: "github",
 *   subfolder: "servers/weather",
 * };
 * ```
 */
export interface ServerCardRepository {
  /** The repository's URL, e.g. `https://github.com/example/weather-mcp`. */
  readonly url: string;
  /** Its host, e.g. `"github"`. */
  readonly source: string;
  /** The server's folder in a monorepo, relative to the repository's root. */
  readonly subfolder?: string;
  /** The host's id of the repository, stable across renames. */
  readonly id?: string;
}

/** The well-known path of the card (SEP-2127's first revisions; xmcp serves it there). */
export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";
/** The suffix the draft reserves after each streamable-HTTP endpoint (`/mcp/server-card`). */
export const SERVER_CARD_SUFFIX = "/server-card";
/** The card's `$schema` (SEP-2127: a `/v1/` schema URL under static.modelcontextprotocol.io). */
export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The card's media type (SEP-2127, Hosted Server Card Location). */
export const SERVER_CARD_TYPE = "application/mcp-server-card+json";

/**
 * Marks the `ctx` of an in-process read that may name any host (`mcplite server-json`, reading the card at
 * the public origin it is told): no request off a socket carries it. `Symbol.for`, so that a CLI reads the
 * card of a server built by another copy of the SDK.
 */
export const CARD_AT_ANY_HOST: unique symbol = /* @__PURE__ */ Symbol.for("mcplite.card-at-any-host") as never;

/** The server card's schema bounds `description` and `title` to 100 characters. */
const MAX_DESCRIPTION = 100;
const NAME_FORM = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
// SEP-2127 draft, CORS Requirements and Caching: public, read-only metadata, when its origin is pinned.
const SHARED_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  "access-control-allow-headers": "Content-Type, If-None-Match",
  "access-control-expose-headers": "ETag",
  "cache-control": "public, max-age=3600",
  allow: "GET, HEAD, OPTIONS",
});
/**
 * A card whose URLs come from the request's `Host`: a shared cache must not store it (RFC 9111 §5.2.2.7
 * `private`), lest one client's `Host` reach the others, and `Vary: Host` (RFC 9111 §4.1) keeps any cache
 * that stores it from answering another host's request with it; the client's own cache keeps it an hour.
 */
const HOST_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze(
  // A call, not a spread in a literal: bundlers keep a top-level spread (it may run getters), which would bring this
  // module into servers that never serve a card.
  /* @__PURE__ */ Object.assign({}, SHARED_HEADERS, { "cache-control": "private, max-age=3600", vary: "Host" }),
);

/** A card, serialised, with its strong entity tag. */
type CardBody = readonly [body: string, etag: string];

/** An endpoint the card lists: its path and its transport. */
interface Remote {
  readonly path: string;
  readonly type: "streamable-http";
}

/**
 * Builds the server card for an origin: a pure function of the options, so the same server always
 * answers the same bytes (and the same `ETag`).
 *
 * @param server The server's resolved options.
 * @param card The `serverCard` option.
 * @param remotes The MCP endpoints (paths, with `basePath`).
 * @param origin The origin the endpoints' URLs start with.
 * @returns The card.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildServerCard } from "./server-card.ts";
 * import { resolveOptions } from "./server-options.ts";
 * const card = buildServerCard(resolveOptions({ name: "weather", version: "1.0.0" }), {}, [
 *   { path: "/mcp", type: "streamable-http" },
 * ], "https://weather.example.com");
 * assert.equal(card.name, "com.example.weather/weather");
 * assert.deepEqual((card.remotes as { url: string }[])[0].url, "https://weather.example.com/mcp");
 * ```
 */
export function buildServerCard(
  server: ResolvedOptions,
  card: ServerCardOptions,
  remotes: readonly Remote[],
  origin: string,
): Record<string, unknown> {
  const versions = [...server.protocolVersions.modern, ...server.protocolVersions.legacy];
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(card.name ?? server.name, origin),
    version: server.version,
    description: clip(server.description ?? server.title ?? server.name),
    title: server.title && clip(server.title),
    websiteUrl: server.websiteUrl,
    repository: card.repository,
    icons: server.icons,
    remotes: remotes.length === 0 ? undefined : remotes.map(({ path, type }) => ({
      type,
      url: origin + path,
      supportedProtocolVersions: versions,
      // MCP Authorization: the header a protected endpoint needs, and where its authorization servers are named.
      headers: server.auth && [{
        name: "Authorization",
        description:
          `An OAuth 2.1 bearer token; its authorization servers are listed at ${origin}/.well-known/oauth-protected-resource${path}`,
        isRequired: true,
        isSecret: true,
      }],
    })),
    _meta: card._meta,
  };
}

/**
 * Serves the card in front of a server's `fetch`, before its gate: any `Origin`, no token (SEP-2127:
 * public metadata); every other path goes on to `fetch`. A card with a pinned origin (`serverCard.origin`,
 * `auth.resource`) answers any `Host`; one that takes its origin from the request answers only the hosts
 * the server's guard allows (`allowedHosts`: the card would name endpoints the server refuses, e.g. a
 * `Host: evil.example` in front of a cache), and is not for shared caches.
 *
 * @param fetch The server's fetch.
 * @param server The resolved options.
 * @param card The `serverCard` option (`{}` for the defaults).
 * @param routes The routes its bindings serve, by full path: those with a `remote` are listed.
 * @param guard The server's Host and Origin check; of it the card uses the Host part, unless pinned.
 * @returns The fetch with the card.
 */
export function withServerCard(
  fetch: ServerFetch,
  server: ResolvedOptions,
  card: ServerCardOptions,
  routes: ReadonlyMap<string, Route>,
  guard?: RequestGuard,
): ServerFetch {
  const remotes: Remote[] = [];
  const paths = new Set([SERVER_CARD_PATH]);
  for (const [path, route] of routes) {
    if (route.remote === undefined) continue;
    remotes.push({ path, type: route.remote });
    paths.add(path + SERVER_CARD_SUFFIX);
  }
  const fixed = card.origin ?? (server.auth && new URL(server.auth.resource).origin);
  if (card.name && !NAME_FORM.test(card.name) || fixed && !/^https?:\/\/[^/?#\s]+$/.test(fixed)) {
    throw new TypeError(
      `serverCard: name must be reverse-DNS (com.example/weather), origin an origin; got ${
        JSON.stringify([card.name, fixed])
      }`,
    );
  }
  let last: readonly [origin: string, card: Promise<CardBody>] | undefined; // the origin is nearly always one
  // The last URL that named no card: a server's requests nearly always name the same few URLs, and
  // comparing the string spares splitting out its path on every call (the card paths never change).
  let plain = "";
  return function fetchWithCard(request, env, ctx) {
    const url = request.url;
    if (url === plain) return fetch(request, env, ctx);
    if (!paths.has(pathOf(url))) {
      plain = url;
      return fetch(request, env, ctx);
    }
    if (
      fixed === undefined && guard !== undefined &&
      (ctx as { [CARD_AT_ANY_HOST]?: unknown })?.[CARD_AT_ANY_HOST] !== true
    ) {
      try { // the Host alone: any Origin may read the card (CORS above)
        guard({ headers: { get: (name) => name === "origin" ? null : request.headers.get(name) } }, url, ctx);
      } catch (error) {
        return Promise.resolve(new Response((error as Error).message, { status: 403, headers: HOST_HEADERS }));
      }
    }
    const origin = fixed ?? new URL(url).origin;
    if (last?.[0] !== origin) last = [origin, serialise(buildServerCard(server, card, remotes, origin))];
    return answer(request, last[1], fixed === undefined ? HOST_HEADERS : SHARED_HEADERS);
  };
}

async function answer(
  request: Request,
  card: Promise<CardBody>,
  shared: Readonly<Record<string, string>>,
): Promise<Response> {
  const method = request.method;
  if (method !== "GET" && method !== "HEAD") { // a preflight, or a method the card does not answer
    return new Response(null, { status: method === "OPTIONS" ? 204 : 405, headers: shared });
  }
  const [body, etag] = await card;
  // RFC 9110 §13.1.2: a client holding the current card gets 304, without the body (and with its Vary, §15.4.5).
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: { ...shared, etag } });
  }
  const headers = { ...shared, etag, "content-type": SERVER_CARD_TYPE };
  return new Response(method === "HEAD" ? null : body, { status: 200, headers });
}

async function serialise(card: Record<string, unknown>): Promise<CardBody> {
  // `undefined` members drop out; a strong tag (RFC 9110 §8.8.3): these bytes are the same as long as it is.
  const body = JSON.stringify(card);
  return [body, `"${base64urlEncode((await sha256(utf8Encoder.encode(body))).subarray(0, 16))}"`];
}

/**
 * The card's reverse-DNS name: the one given when it has that form, else the server's name under its
 * host's reversed labels (`weather` at `weather.example.com` is `com.example.weather/weather`).
 */
function cardName(name: string, origin: string): string {
  if (NAME_FORM.test(name)) return name;
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, "").replace(/:/g, "-");
  const namespace = /^[\d.-]+$/.test(host) || !host.includes(".") ? host : host.split(".").reverse().join(".");
  return `${namespace}/${name.replace(/[^a-zA-Z0-9._-]/g, "-")}`;
}

function clip(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}
