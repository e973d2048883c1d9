/**
 * The authorization server of MCP servers that accept agent identity: enterprise-managed authorization
 * (ID-JAGs redeemed through the JWT-bearer grant, SEP-990) and workload identity federation (SEP-1933),
 * issuing short-lived JWT access tokens (RFC 9068), DPoP-bound when the client sends a proof (RFC 9449),
 * with its metadata (RFC 8414) and its JWK Set. `jwtAuth()` on the resource takes its tokens.
 *
 * @example
 * ```ts ignore
 * import { authorizationServer } from "@mcplite/sdk/auth-server";
 *
 * const as = authorizationServer({
 *   issuer: "https://auth.example.com",
 *   resources: { "https://mcp.example.com/mcp": { scopes: ["docs:read", "docs:write"] } },
 *   trustedIssuers: [
 *     { issuer: "https://acme.okta.com", jwksUri: "https://acme.okta.com/oauth2/v1/keys", accepts: ["id-jag"] },
 *     { issuer: "https://kubernetes.default.svc", jwksUri: "https://k8s.example.com/openid/v1/jwks", accepts: ["workload"] },
 *   ],
 *   clients: {
 *     "mcp-desktop": { secret: Deno.env.get("MCP_DESKTOP_SECRET")! },
 *     "reporting-job": {
 *       workloads: [{ issuer: "https://kubernetes.default.svc", subject: "system:serviceaccount:jobs:reporter" }],
 *     },
 *   },
 * });
 * Deno.serve(as.fetch);
 * ```
 *
 * @module
 */
export { authorizationServer } from "./authorization-server.ts";
export type { AuthorizationServer, AuthorizationServerOptions } from "./options.ts";
