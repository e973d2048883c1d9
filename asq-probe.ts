import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createServer, defineTool, serve } from "./mod.ts";
import { jwtAuth } from "./src/auth/mod.ts";
import { authorizationServer } from "./src/auth-server/mod.ts";

// Acme's IdP (Okta, Entra ID, Keycloak…): its public key, which it publishes at a jwks_uri.
const acme = await generateKeyPair("ES256");
const acmeKeys = { keys: [{ ...(await exportJWK(acme.publicKey)), kid: "acme-1", alg: "ES256" }] };

// One listener: the authorization server's paths to it, every other to the MCP server.
const route: { fetch?: (request: Request) => Promise<Response> } = {};
const listener = await serve({ fetch: (r) => route.fetch!(r) }, { port: 0, hostname: "127.0.0.1", quiet: true });
const origin = listener.url; // https://notes.example.com in production

const as = authorizationServer({
  issuer: `${origin}/oauth`,
  resources: { [origin]: { scopes: ["notes:read", "notes:write"] } },
  trustedIssuers: [{ issuer: "https://acme.okta.example", jwks: acmeKeys, accepts: ["id-jag"] }],
  clients: { "notes-desktop": { secret: "desktop-secret" } },
});
const server = createServer({ name: "notes", version: "1.0.0", auth: jwtAuth({ issuer: as.issuer, resource: origin }) })
  .tool(defineTool("whoami").describe("Says who calls").handle((_input, ctx) => ctx.auth?.subject ?? ""));
route.fetch = async (request) => {
  const { pathname } = new URL(request.url);
  const ours = pathname.startsWith("/oauth/") || pathname === "/.well-known/oauth-authorization-server/oauth";
  return ours ? await as.fetch(request) : await server.fetch(request);
};

// The ID-JAG, as the IdP's token exchange (RFC 8693) hands it to the app for Ada.
const idJag = await new SignJWT({ client_id: "notes-desktop", resource: origin, scope: "notes:read" })
  .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: "acme-1" })
  .setIssuer("https://acme.okta.example").setSubject("ada").setAudience(as.issuer)
  .setIssuedAt().setExpirationTime("5m").setJti(crypto.randomUUID()).sign(acme.privateKey);

// The app redeems it (RFC 7523 §2.1), authenticated by its secret (client_secret_basic).
const redeem = () =>
  fetch(`${as.issuer}/token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa("notes-desktop:desktop-secret")}` },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: idJag,
      resource: origin,
    }),
  });
const granted = await redeem();
const body = await granted.json();
if (granted.status !== 200) console.log("FIRST REDEEM", granted.status, JSON.stringify(body));
const { access_token, token_type, scope } = body;
assert.equal(granted.status, 200);
assert.deepEqual([token_type, scope], ["Bearer", "notes:read"]);

// The MCP server takes the token, and names the authorization server in its metadata.
const called = await fetch(`${origin}/mcp-lite/v1/calltools`, {
  method: "POST",
  headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
});
assert.match(await called.text(), /"text":"ada"/);
const metadata = await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json();
assert.deepEqual(metadata.authorization_servers, [as.issuer]);

// The same ID-JAG again: its jti is used (RFC 7523 §3).
const replayed = await redeem();
assert.equal(replayed.status, 400);
assert.equal((await replayed.json()).error, "invalid_grant");
await listener.close();
