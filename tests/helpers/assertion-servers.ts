/**
 * The servers of the JWT-assertion grants, on one 127.0.0.1 listener, each checking what it receives
 * with jose: an enterprise IdP whose token endpoint does the token exchange of an ID token for an
 * ID-JAG (RFC 8693; SEP-990; tests/helpers/enterprise-idp.ts), an authorization server (issuer `/as`) that takes the JWT-bearer grant
 * (RFC 7523 §2.1) with an ID-JAG or a workload's JWT, or a workload JWT as `client_assertion`
 * (RFC 7523 §2.2), and our MCP server behind its opaque tokens.
 */
import * as v from "valibot";
import { generateKeyPair, jwtVerify, SignJWT } from "jose";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { enterpriseIdp, IDP_CLIENT_ID } from "./enterprise-idp.ts";

export { IDP_CLIENT_ID };

/** The client at the authorization server (enterprise: a confidential client). */
export const AS_CLIENT = { id: "mcp-desktop", secret: "as-secret-for-tests-only" } as const;

/** The running servers. */
export interface AssertionServers {
  /** The listener; its origin is the MCP resource. */
  readonly listener: Listener;
  /** The authorization server's issuer. */
  readonly issuer: string;
  /** The IdP's issuer and token endpoint. */
  readonly idp: { readonly issuer: string; readonly tokenEndpoint: string };
  /** Signs an ID token for a user, as the IdP's single sign-on would. */
  idToken(user: string): Promise<string>;
  /** Signs a workload JWT, as a platform would (audience: the authorization server unless given). */
  workloadJwt(options?: { audience?: string; expiresIn?: string }): Promise<string>;
  /** Every token request body, by endpoint (`idp` or `as`), in order, with the `authorization` header. */
  readonly requests: { endpoint: "idp" | "as"; body: URLSearchParams; authorization: string | null }[];
  /** The subject of the token of each request the MCP server let through. */
  readonly callers: string[];
  /** Stops it. */
  close(): Promise<void>;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Starts them. */
export async function startAssertionServers(): Promise<AssertionServers> {
  let origin = "";
  const idp = await enterpriseIdp(() => origin, AS_CLIENT.id);
  const workloadKeys = await generateKeyPair("ES256");
  const issued = new Map<string, string>(); // access token → subject
  const requests: AssertionServers["requests"] = [];
  const callers: string[] = [];
  const app = createServer({ name: "enterprise", version: "1.0.0", bindings: [mcpLiteBinding(), mcpBinding()] })
    .tool(defineTool("whoami").describe("Says ok to an authorized caller").input(v.object({})).handle(() => "ok"));
  const error = (code: string, status = 400) => Response.json({ error: code }, { status });
  const verify = async (jwt: string, key: Parameters<typeof jwtVerify>[1], audience: string) => {
    try {
      return (await jwtVerify(jwt, key, { audience })).payload;
    } catch {
      return undefined;
    }
  };

  async function asToken(body: URLSearchParams, authorization: string | null): Promise<Response> {
    const issuer = `${origin}/as`;
    let subject: string | undefined;
    if (body.get("grant_type") === JWT_BEARER) {
      const assertion = body.get("assertion") ?? "";
      if (authorization !== null) {
        // An ID-JAG, from a confidential client (SEP-990): client_secret_basic, client_id and resource match.
        if (authorization !== `Basic ${btoa(`${AS_CLIENT.id}:${AS_CLIENT.secret}`)}`) {
          return error("invalid_client", 401);
        }
        const claims = await verify(assertion, idp.publicKey, issuer);
        if (claims?.client_id !== AS_CLIENT.id || claims.resource !== body.get("resource")) {
          return error("invalid_grant");
        }
        subject = String(claims.sub);
      } else {
        const claims = await verify(assertion, workloadKeys.publicKey, issuer);
        if (claims === undefined) return error("invalid_grant");
        subject = String(claims.sub);
      }
    } else if (
      body.get("grant_type") === "client_credentials" &&
      body.get("client_assertion_type") === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    ) {
      const claims = await verify(body.get("client_assertion") ?? "", workloadKeys.publicKey, issuer);
      if (claims === undefined) return error("invalid_client", 401);
      subject = String(claims.sub);
    } else {
      return error("unsupported_grant_type");
    }
    const token = crypto.randomUUID();
    issued.set(token, subject);
    return Response.json({ access_token: token, token_type: "Bearer", expires_in: 300 });
  }

  const listener = await serve({
    async fetch(request) {
      const url = new URL(request.url);
      if (request.method === "POST" && (url.pathname === "/idp/token" || url.pathname === "/as/token")) {
        const body = new URLSearchParams(await request.text());
        const authorization = request.headers.get("authorization");
        const endpoint = url.pathname === "/idp/token" ? "idp" : "as";
        requests.push({ endpoint, body, authorization });
        return endpoint === "idp"
          ? await idp.fetch(new Request(request.url, { method: "POST", body }))!
          : await asToken(body, authorization);
      }
      if (url.pathname === "/.well-known/oauth-protected-resource") {
        return Response.json({ resource: origin, authorization_servers: [`${origin}/as`] });
      }
      if (url.pathname === "/.well-known/oauth-authorization-server/as") {
        return Response.json({
          issuer: `${origin}/as`,
          token_endpoint: `${origin}/as/token`,
          grant_types_supported: [JWT_BEARER, "client_credentials"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
        });
      }
      const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
      const subject = token === undefined ? undefined : issued.get(token);
      if (subject === undefined) {
        return new Response(null, {
          status: 401,
          headers: { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` },
        });
      }
      callers.push(subject);
      return await app.fetch(request);
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  origin = listener.url;
  return {
    listener,
    issuer: `${origin}/as`,
    idp: { issuer: idp.issuer, tokenEndpoint: idp.tokenEndpoint },
    idToken: idp.idToken,
    workloadJwt: (options = {}) =>
      new SignJWT({}).setProtectedHeader({ alg: "ES256" }).setIssuer("https://platform.example")
        .setSubject("system:serviceaccount:jobs:reporter").setAudience(options.audience ?? `${origin}/as`)
        .setIssuedAt().setExpirationTime(options.expiresIn ?? "5m").sign(workloadKeys.privateKey),
    requests,
    callers,
    close: () => listener.close(),
  };
}
