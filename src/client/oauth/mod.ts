/**
 * The client's authorization (MCP Authorization, OAuth 2.1): a user's consent (`oauth()`), a machine's own
 * credentials (`clientCredentials()`), an enterprise identity provider's assertion (`enterpriseAuth()`) and a
 * workload's identity token (`workloadIdentity()`), each a `ClientAuth` for `createClient(url, { auth })`, with the
 * tokens kept in a `TokenStore` (`memoryTokenStore()` by default).
 *
 * @example
 * ```ts ignore
 * import { createClient } from "@mcplite/sdk/client";
 * import { clientCredentials } from "@mcplite/sdk/client/auth";
 *
 * const client = createClient("https://tools.example.com/mcp", {
 *   auth: clientCredentials({ clientId: "reports-bot", clientSecret: Deno.env.get("CLIENT_SECRET")! }),
 * });
 * ```
 *
 * @module
 */
export { clientCredentials, enterpriseAuth, oauth, workloadIdentity } from "./oauth.ts";
export { memoryTokenStore } from "./token-store.ts";
export type { StoredAuthorization, StoredClient, StoredTokens, TokenStore } from "./token-store.ts";
export type {
  AuthOptions,
  ClientCredentialsOptions,
  DPoPOptions,
  EnterpriseAuthOptions,
  OAuthOptions,
  WorkloadIdentityOptions,
} from "./oauth-options.ts";
export type { WebCryptoKey, WebCryptoKeyPair } from "./web-crypto-key.ts";
