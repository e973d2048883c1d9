/**
 * A DPoP-protected MCP server for client tests (RFC 9449): the oidc-provider authorization server issues
 * DPoP-bound JWT access tokens, and a check in front of our server verifies each request's proof with
 * jose the way RFC 9449 §4.3 and §7.1 say: `Authorization: DPoP`, the proof's signature by its `jwk`,
 * `htm` and `htu` of this request, a recent `iat`, a `jti` never seen, `ath` of the token, and the
 * token's `cnf.jkt` equal to the proof key's thumbprint; optionally a server nonce (RFC 9449 §9).
 */
import * as v from "valibot";
import {
  base64url,
  calculateJwkThumbprint,
  createRemoteJWKSet,
  decodeProtectedHeader,
  EmbeddedJWK,
  jwtVerify,
} from "jose";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import type { Listener } from "../../src/types.ts";
import { type AuthorizationServer, startAuthorizationServer } from "./authorization-server.ts";

/** The running pair. */
export interface DpopResource {
  /** Our server behind the DPoP check; its origin is the resource. */
  readonly listener: Listener;
  /** The authorization server. */
  readonly as: AuthorizationServer;
  /** Every proof the check accepted: its `jti`, `htm`, `htu`, `nonce` and key thumbprint. */
  readonly accepted: { jti: string; htm: string; htu: string; nonce?: string; jkt: string }[];
  /** Every refusal the check sent, as `error` of the DPoP challenge. */
  readonly refused: string[];
  /** Stops both. */
  close(): Promise<void>;
}

/** The nonce the resource server demands when asked to (RFC 9449 §9). */
export const RESOURCE_NONCE = "resource-nonce-1";

/**
 * Starts both.
 *
 * @param options `nonce`: the resource server and the authorization server demand a nonce.
 */
export async function startDpopResource(options: { nonce?: boolean } = {}): Promise<DpopResource> {
  // The issuer and the resource each need the other's URL: the server listens first, the rest come after.
  const made: {
    app?: ReturnType<typeof createServer>;
    as?: AuthorizationServer;
    jwks?: ReturnType<typeof createRemoteJWKSet>;
  } = {};
  const accepted: DpopResource["accepted"] = [];
  const refused: string[] = [];
  const listener = await serve({
    async fetch(request) {
      const url = new URL(request.url);
      const metadata = `${url.origin}/.well-known/oauth-protected-resource`;
      if (url.pathname === "/.well-known/oauth-protected-resource") {
        return Response.json({
          resource: url.origin,
          authorization_servers: [made.as!.issuer],
          dpop_bound_access_tokens_required: true,
        });
      }
      const refuse = (error: string, headers: Record<string, string> = {}) => {
        refused.push(error);
        return new Response(null, {
          status: 401,
          headers: { "www-authenticate": `DPoP error="${error}", resource_metadata="${metadata}"`, ...headers },
        });
      };
      const authorization = request.headers.get("authorization");
      if (authorization === null) {
        return new Response(null, {
          status: 401,
          headers: { "www-authenticate": `DPoP resource_metadata="${metadata}"` },
        });
      }
      const [scheme, token] = authorization.split(" ");
      const proof = request.headers.get("dpop");
      if (scheme !== "DPoP" || proof === null || token === undefined) return refuse("invalid_token");
      try {
        const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt" });
        const jkt = await calculateJwkThumbprint(protectedHeader.jwk!);
        const ath = base64url.encode(
          new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))),
        );
        const claims = (await jwtVerify(token, made.jwks!, { issuer: made.as!.issuer })).payload as {
          cnf?: { jkt?: string };
        };
        const fresh = typeof payload.iat === "number" && Math.abs(Date.now() / 1000 - payload.iat) < 60;
        if (
          payload.htm !== request.method || payload.htu !== `${url.origin}${url.pathname}` || !fresh ||
          payload.ath !== ath || claims.cnf?.jkt !== jkt || typeof payload.jti !== "string" ||
          accepted.some((seen) => seen.jti === payload.jti) ||
          "d" in (decodeProtectedHeader(proof).jwk ?? {})
        ) {
          return refuse("invalid_dpop_proof");
        }
        if (options.nonce && payload.nonce !== RESOURCE_NONCE) {
          return refuse("use_dpop_nonce", { "dpop-nonce": RESOURCE_NONCE });
        }
        accepted.push({
          jti: payload.jti,
          htm: String(payload.htm),
          htu: String(payload.htu),
          jkt,
          ...(typeof payload.nonce === "string" ? { nonce: payload.nonce } : {}),
        });
      } catch {
        return refuse("invalid_dpop_proof");
      }
      return await made.app!.fetch(request);
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  const as = made.as = await startAuthorizationServer(listener.url, { dpopNonce: options.nonce });
  made.jwks = createRemoteJWKSet(new URL(as.jwksUri));
  made.app = createServer({
    name: "bound",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), grpcBinding()],
  }).tool(
    defineTool("echo").describe("Echoes the text").input(v.object({ text: v.string() })).handle(({ text }) => text),
  );
  return {
    listener,
    as,
    accepted,
    refused,
    close: async () => {
      await listener.close();
      await as.close();
    },
  };
}
