/**
 * The three parties of enterprise-managed authorization on one 127.0.0.1 listener, each ours or a real check: an
 * enterprise IdP at `/idp` (tests/helpers/enterprise-idp.ts), our authorization server (`authorizationServer()`,
 * issuer `<origin>/as`), and our MCP server at the origin, protected by `jwtAuth({ issuer, resource })` and nothing
 * else (its keys found through the issuer's metadata). The authorization server can be replaced while the listener
 * runs (a restart on the same store), and a second one made on the same options (another instance).
 */
import * as v from "valibot";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServer, defineTool, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import type { AuthorizationServer, AuthorizationServerOptions } from "../../src/auth-server/mod.ts";
import { createMemoryResultStore, type ResultStore } from "../../src/jobs/result-store.ts";
import { sharedStoreOf } from "../../src/store/store-of.ts";
import { memoryStart } from "../../src/server/dpop-epoch.ts";
import type { Listener } from "../../src/types.ts";
import { type EnterpriseIdp, enterpriseIdp } from "./enterprise-idp.ts";

/** The enterprise client at our authorization server (confidential: `client_secret_basic`). */
export const DESKTOP = { id: "mcp-desktop", secret: "desktop-secret-for-tests-only" } as const;
/** The workload client: a Kubernetes service account's JWT authenticates it. */
export const REPORTER = { id: "reporter", subject: "system:serviceaccount:jobs:reporter" } as const;
/** The workload platform's issuer. */
export const PLATFORM = "https://platform.example";
/** The scopes the MCP server offers. */
export const SCOPES = ["notes:read", "notes:write"] as const;

/** The running parties. */
export interface AuthServerStack {
  /** The listener; its origin is the MCP server's resource. */
  readonly listener: Listener;
  /** The resource (the origin). */
  readonly resource: string;
  /** The enterprise IdP. */
  readonly idp: EnterpriseIdp;
  /** The authorization server serving now. */
  as: AuthorizationServer;
  /** Another authorization server on the same options and `store` (not routed: call its `fetch`). */
  instance(store?: ResultStore): AuthorizationServer;
  /** Signs a JWT with the authorization server's own key, as it signs access tokens (header and claims as given). */
  signAsServer(claims: Record<string, unknown>, typ: string): Promise<string>;
  /** Signs a workload JWT, as the platform would (audience: the authorization server's issuer unless given). */
  workloadJwt(claims?: Record<string, unknown>): Promise<string>;
  /** The subject of each `whoami` call the MCP server answered. */
  readonly callers: string[];
  /** Each request to the MCP server: its URL, method and credentials (to replay them). */
  readonly presented: { url: string; method: string; authorization: string | null; dpop: string | null }[];
  /** Stops the listener. */
  close(): Promise<void>;
}

/** Options of {@link startAuthServerStack}. */
export interface AuthServerStackOptions {
  /** The authorization server's store (default: its own, in memory). */
  readonly store?: ResultStore;
  /** The MCP server's DPoP mode (default `"allowed"`). */
  readonly dpop?: "allowed" | "required";
}

/** Starts them on 127.0.0.1 (port 0). */
export async function startAuthServerStack(options: AuthServerStackOptions = {}): Promise<AuthServerStack> {
  let origin = "";
  const idp = await enterpriseIdp(() => origin, DESKTOP.id);
  const workloadKeys = await generateKeyPair("ES256");
  const workloadJwk: JWK = { ...(await exportJWK(workloadKeys.publicKey)), kid: "platform-1", alg: "ES256" };
  // One signing key for every instance: tokens of one verify wherever the resource fetched the keys.
  const asKeys = await generateKeyPair("ES256", { extractable: true });
  const signingKey = await exportJWK(asKeys.privateKey);
  const callers: string[] = [];
  const presented: AuthServerStack["presented"] = [];
  const mcp: { app?: ReturnType<typeof createServer> } = {}; // made once the origin is known
  const listener = await serve({
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const fromIdp = idp.fetch(request);
      if (fromIdp !== undefined) return await fromIdp;
      if (path.startsWith("/as/") || path === "/.well-known/oauth-authorization-server/as") {
        return await stack.as.fetch(request);
      }
      const { authorization, dpop } = Object.fromEntries(
        ["authorization", "dpop"].map((h) => [h, request.headers.get(h)]),
      );
      presented.push({ url: request.url, method: request.method, authorization, dpop });
      return await mcp.app!.fetch(request);
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  origin = listener.url;
  // The store's memory of used assertions begins before the first ID-JAG is issued, as on a server that has been
  // running: one issued in the second before the memory began is refused (src/auth-server/replay.ts).
  const sharedStore = options.store ?? createMemoryResultStore();
  await memoryStart(sharedStoreOf(sharedStore));
  const asOptions = (store = sharedStore): AuthorizationServerOptions => ({
    issuer: `${origin}/as`,
    signingKeys: [{ key: signingKey, kid: "as-1" }],
    // A second resource: its tokens are not for the MCP server.
    resources: { [origin]: { scopes: [...SCOPES] }, [`${origin}/billing`]: { scopes: ["invoices:read"] } },
    trustedIssuers: [
      { issuer: idp.issuer, jwksUri: idp.jwksUri, accepts: ["id-jag"] },
      { issuer: PLATFORM, jwks: { keys: [workloadJwk] }, accepts: ["workload"] },
    ],
    clients: {
      [DESKTOP.id]: { secret: DESKTOP.secret, grants: ["id-jag"] },
      [REPORTER.id]: { authMethod: "none", workloads: [{ issuer: PLATFORM, subject: REPORTER.subject }] },
    },
    store,
  });
  mcp.app = createServer({
    name: "notes",
    version: "1.0.0",
    auth: jwtAuth({
      issuer: `${origin}/as`,
      resource: origin,
      scopesSupported: SCOPES,
      dpop: options.dpop ?? "allowed",
    }),
  }).tool(
    defineTool("whoami").describe("Says who called").input(v.object({})).handle((_input, ctx) => {
      callers.push(ctx.auth!.subject!);
      return ctx.auth!.subject!;
    }),
  );
  const stack: AuthServerStack = {
    listener,
    resource: origin,
    idp,
    as: authorizationServer(asOptions()),
    instance: (store) => authorizationServer(asOptions(store)),
    signAsServer: (claims, typ) =>
      new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: "as-1", typ }).setIssuer(`${origin}/as`)
        .setAudience(origin).setIssuedAt().setExpirationTime("5m").sign(asKeys.privateKey),
    workloadJwt: (claims = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: "platform-1" }).setIssuer(PLATFORM)
        .setSubject(REPORTER.subject).setAudience(`${origin}/as`).setIssuedAt().setExpirationTime("5m")
        .setJti(crypto.randomUUID()).sign(workloadKeys.privateKey),
    callers,
    presented,
    close: () => listener.close(),
  };
  return stack;
}
