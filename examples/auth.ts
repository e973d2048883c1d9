/**
 * A protected server: an OAuth 2.1 resource server (MCP 2025-11-25 and 2026-07-28, Authorization) with a
 * read tool any token with `docs:read` may call and a write tool that needs `docs:write`, on MCP and
 * MCP-lite. It accepts JWT access tokens (`jwtAuth`), or opaque ones checked by token introspection
 * (RFC 7662) when INTROSPECTION_ENDPOINT is set.
 *
 *   ISSUER=https://auth.example.com RESOURCE=https://docs.example.com JWKS_URI=https://auth.example.com/jwks \
 *     deno run -A --unstable-no-legacy-abort examples/auth.ts
 *
 * Reads ISSUER (the authorization server), RESOURCE (this server's public origin, which tokens must be
 * issued for), JWKS_URI (the issuer's keys), or INTROSPECTION_ENDPOINT with INTROSPECTION_CLIENT_ID and
 * INTROSPECTION_CLIENT_SECRET instead, and PORT (default 8000) and HOSTNAME (default 127.0.0.1).
 */
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../mod.ts";
import { ToolError } from "../src/errors/mod.ts";
import { jwtAuth, protectedResource, type ServerAuth } from "../src/auth/mod.ts";
import type { AuthInfo } from "../src/core/call/call-context.ts";

const DOCS = new Map<string, { text: string; editedBy?: string }>([
  ["welcome", { text: "Welcome to the docs." }],
  ["setup", { text: "Install, then run." }],
]);

const readDoc = defineTool("read_doc")
  .type("query")
  .describe("Read a document by id")
  .scopes("docs:read")
  .input(v.object({ id: v.string() }))
  .handle(({ id }) => {
    const doc = DOCS.get(id);
    if (doc === undefined) throw new ToolError(`No document "${id}"; try ${[...DOCS.keys()].join(", ")}`);
    return doc.text;
  });

const writeDoc = defineTool("write_doc")
  .describe("Replace a document's text")
  .scopes("docs:write")
  .input(v.object({ id: v.string(), text: v.string() }))
  .handle(({ id, text }, ctx) => {
    // ctx.auth is the verified caller; its token is for this server only and never sent on.
    DOCS.set(id, { text, editedBy: ctx.auth?.subject });
    return `saved ${id} as ${ctx.auth?.subject ?? "someone"}`;
  });

/**
 * A verifier for opaque access tokens: asks the authorization server (RFC 7662 §2) and accepts the
 * token only when it is active and issued for this resource (RFC 8707: `aud` holds it). `protectedResource()`
 * makes it a `ServerAuth` either entry's `createServer({ auth })` serves (`@mcplite/sdk` or `@mcplite/sdk/lite`).
 */
export function introspectionAuth(options: {
  issuer: string;
  resource: string;
  endpoint: string;
  clientId: string;
  clientSecret: string;
}): ServerAuth {
  const credentials = btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`);
  return protectedResource({
    resource: options.resource,
    authorizationServers: [options.issuer],
    scopesSupported: ["docs:read", "docs:write"],
    async verify(token: string): Promise<AuthInfo | undefined> {
      const response = await fetch(options.endpoint, {
        method: "POST",
        headers: { authorization: `Basic ${credentials}`, accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error("the authorization server could not introspect the token");
      const info = await response.json();
      const audience = [info.aud ?? []].flat();
      if (info.active !== true || !audience.includes(options.resource)) return undefined;
      return {
        // A client acting for itself (client credentials) may have no `sub`: it is its own subject.
        subject: info.sub ?? info.client_id,
        clientId: info.client_id,
        scopes: typeof info.scope === "string" ? info.scope.split(" ") : [],
        claims: info,
      };
    },
  });
}

/** The docs server, protected by `auth`. */
export function docsServer(auth: ServerAuth): ReturnType<typeof createServer> {
  return createServer({
    name: "docs",
    version: "1.0.0",
    auth,
    // A deployed server answers its own host name only (DNS-rebinding protection).
    allowedHosts: [new URL(auth.resource).hostname],
  }).tool(readDoc).tool(writeDoc);
}

if (import.meta.main) {
  const required = (name: string): string => {
    const value = env(name);
    if (value === undefined) throw new Error(`examples/auth.ts: set ${name} (see the comment at the top)`);
    return value;
  };
  const issuer = required("ISSUER");
  const resource = required("RESOURCE");
  const endpoint = env("INTROSPECTION_ENDPOINT");
  const auth = endpoint === undefined
    ? jwtAuth({ issuer, resource, jwksUri: required("JWKS_URI"), scopesSupported: ["docs:read", "docs:write"] })
    : introspectionAuth({
      issuer,
      resource,
      endpoint,
      clientId: required("INTROSPECTION_CLIENT_ID"),
      clientSecret: required("INTROSPECTION_CLIENT_SECRET"),
    });
  const listener = await serve(docsServer(auth), { quiet: true }); // the lines below say more
  console.log(`docs server listening on ${listener.url} as ${resource}
  metadata  GET  ${listener.url}/.well-known/oauth-protected-resource
  MCP       POST ${listener.url}/mcp        MCP-lite  POST ${listener.url}/mcp-lite/v1/calltools
  (send Authorization: Bearer <access token from ${issuer}>)`);
}
