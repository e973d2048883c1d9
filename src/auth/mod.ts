/**
 * Authorization for servers on the public web (MCP 2025-11-25 and 2026-07-28, Authorization): the
 * server becomes an OAuth 2.1 protected resource that publishes its metadata (RFC 9728), challenges
 * requests without a valid token, and checks `.scopes()` on tools.
 *
 * @example
 * ```ts ignore
 * import { createServer, defineTool } from "@mcplite/sdk";
 * import { jwtAuth } from "@mcplite/sdk/auth";
 *
 * const server = createServer({
 *   name: "docs", version: "1.0.0",
 *   auth: jwtAuth({
 *     issuer: "https://auth.example.com",
 *     resource: "https://api.example.com",
 *     jwksUri: "https://auth.example.com/jwks",
 *     scopesSupported: ["docs:read", "docs:write"],
 *   }),
 * }).tool(defineTool("delete_doc").scopes("docs:write").handle(() => "deleted"));
 * ```
 *
 * @module
 */
export { jwtAuth } from "./jwt-auth.ts";
export { protectedResource } from "../server/auth-edge.ts";
export type { JwtAuthOptions } from "./jwt-auth.ts";
export type { ServerAuth } from "../server/auth.ts";
