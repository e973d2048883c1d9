/**
 * Acme's enterprise IdP, as a local issuer (an Okta or Entra ID in production): it signs its users' ID tokens and,
 * at its token endpoint, exchanges one for an ID-JAG (RFC 8693; Identity Assertion JWT Authorization Grant, SEP-990)
 * whose audience is the one authorization server Acme's admin connected (AS_ISSUER). Its keys are published at
 * `/jwks` and named by its RFC 8414 metadata, which is all that authorization server needs to trust it.
 *
 *   PORT=8788 deno run -A --unstable-no-legacy-abort examples/auth-server/idp.ts      PORT=8788 bun examples/auth-server/idp.ts
 *
 * Reads PORT, HOSTNAME, IDP_ISSUER (its own URL; default: the URL it listens at) and AS_ISSUER.
 */
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { env, serve } from "../../mod.ts";

/** Its issuer: IDP_ISSUER, else where it listens (known once it does: PORT=0 takes any free port). */
let issuer = env("IDP_ISSUER") ?? "http://127.0.0.1:8788";
const connectedAs = env("AS_ISSUER") ?? "http://127.0.0.1:8787/oauth";
/** The desktop app: its client id here, and at the connected authorization server. */
export const DESKTOP_APP = "notes-desktop";

const keys = await generateKeyPair("ES256"); // new at each start: the authorization server refetches the JWKS
const jwk = { ...(await exportJWK(keys.publicKey)), kid: crypto.randomUUID(), alg: "ES256", use: "sig" };
const refuse = (error: string, error_description: string) =>
  Response.json({ error, error_description }, { status: 400 });

/** The token exchange (RFC 8693 §2.1) of the user's ID token for an ID-JAG for the connected authorization server. */
async function exchange(form: URLSearchParams): Promise<Response> {
  if (
    form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange" ||
    form.get("requested_token_type") !== "urn:ietf:params:oauth:token-type:id-jag" ||
    form.get("subject_token_type") !== "urn:ietf:params:oauth:token-type:id_token"
  ) return refuse("unsupported_grant_type", "only ID tokens for ID-JAGs");
  if (form.get("client_id") !== DESKTOP_APP) return refuse("invalid_client", "unknown client");
  if (form.get("audience") !== connectedAs) return refuse("invalid_target", "that app is not connected to Acme");
  let user: string;
  try {
    const { payload } = await jwtVerify(form.get("subject_token") ?? "", keys.publicKey, {
      issuer,
      audience: DESKTOP_APP,
    });
    user = payload.sub!;
  } catch {
    return refuse("invalid_grant", "the ID token is not Acme's, or expired");
  }
  const jag = await new SignJWT({
    client_id: DESKTOP_APP, // the same app's id at the authorization server
    resource: form.get("resource") ?? undefined,
    scope: form.get("scope") ?? undefined,
  })
    .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: jwk.kid })
    .setIssuer(issuer).setSubject(user).setAudience(connectedAs)
    .setIssuedAt().setExpirationTime("5m").setJti(crypto.randomUUID())
    .sign(keys.privateKey);
  return Response.json({
    access_token: jag,
    issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    token_type: "N_A",
    expires_in: 300,
  });
}

/** The IdP's endpoints. `/sso` stands in for single sign-on: it signs an ID token for the user named, no password. */
export async function idp(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === "/.well-known/oauth-authorization-server") {
    return Response.json({ issuer, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
  }
  if (pathname === "/jwks") return Response.json({ keys: [jwk] });
  if (request.method !== "POST") return new Response("Not found", { status: 404 });
  const form = new URLSearchParams(await request.text());
  if (pathname === "/token") return await exchange(form);
  if (pathname === "/sso") {
    const idToken = await new SignJWT({ email: `${form.get("user")}@acme.example` })
      .setProtectedHeader({ alg: "ES256", kid: jwk.kid })
      .setIssuer(issuer).setSubject(form.get("user") ?? "").setAudience(DESKTOP_APP)
      .setIssuedAt().setExpirationTime("1h").sign(keys.privateKey);
    return Response.json({ id_token: idToken });
  }
  return new Response("Not found", { status: 404 });
}

if (import.meta.main) {
  const listener = await serve({ fetch: idp }); // PORT, HOSTNAME; prints "Listening on http://…"
  issuer = env("IDP_ISSUER") ?? listener.url; // before the first request is handled: no I/O runs in between
}
