/**
 * The notes service: an MCP server and, mounted beside it under `/oauth`, its authorization server
 * (`@mcplite/sdk/auth-server`), which redeems Acme's ID-JAGs for short-lived access tokens, DPoP-bound when the client
 * sends a proof. The MCP server knows it by its issuer alone: `jwtAuth({ issuer, resource })` reads its keys from its
 * metadata and names it in the protected-resource metadata.
 *
 *   PORT=8787 deno run -A --unstable-no-legacy-abort examples/auth-server/server.ts      PORT=8787 bun examples/auth-server/server.ts
 *
 * Reads PORT, HOSTNAME, PUBLIC_URL (default http://127.0.0.1:$PORT), IDP_ISSUER and CLIENT_SECRET (the desktop app's
 * secret here).
 */
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { authorizationServer } from "../../src/auth-server/mod.ts";

const origin = env("PUBLIC_URL") ?? `http://127.0.0.1:${env("PORT") ?? "8787"}`;

/** The authorization server: Acme's IdP trusted for ID-JAGs, the desktop app a confidential client. */
export const as = authorizationServer({
  issuer: `${origin}/oauth`,
  resources: { [origin]: { scopes: ["notes:read", "notes:write"] } },
  trustedIssuers: [{
    issuer: env("IDP_ISSUER") ?? "http://127.0.0.1:8788",
    jwksUri: `${env("IDP_ISSUER") ?? "http://127.0.0.1:8788"}/jwks`,
    accepts: ["id-jag"],
  }],
  clients: { "notes-desktop": { secret: env("CLIENT_SECRET")!, grants: ["id-jag"] } },
});

/** The MCP server: every call needs one of the authorization server's tokens for this resource. */
export const server = createServer({
  name: "notes",
  version: "1.0.0",
  auth: jwtAuth({
    issuer: as.issuer,
    resource: origin,
    scopesSupported: ["notes:read", "notes:write"],
    dpop: "allowed",
  }),
}).tool(
  defineTool("whoami")
    .describe("Says who is calling, and with which scopes")
    .input(v.object({}))
    .handle((_input, ctx) => `${ctx.auth?.subject} (${ctx.auth?.scopes?.join(" ")})`),
);

/** One listener for both: the authorization server's paths go to it, every other to the MCP server. */
export function route(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const ours = pathname.startsWith("/oauth/") || pathname === "/.well-known/oauth-authorization-server/oauth";
  return ours ? as.fetch(request) : server.fetch(request);
}

if (import.meta.main) {
  await serve({ fetch: route }); // PORT, HOSTNAME; prints "Listening on http://…"
}
