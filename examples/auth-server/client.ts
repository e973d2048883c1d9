/**
 * The desktop app: signs its user in at Acme's IdP (the example's `/sso` stands in for single sign-on), then calls the
 * notes service's `whoami` tool with `enterpriseAuth()`: the ID token is exchanged at the IdP for an ID-JAG, the ID-JAG
 * redeemed at the service's authorization server for a DPoP-bound access token, and the call made with it.
 *
 *   deno run -A examples/auth-server/client.ts ada      bun examples/auth-server/client.ts ada
 *
 * Reads MCP_URL (default http://127.0.0.1:8787), IDP_ISSUER and CLIENT_SECRET.
 */
import process from "node:process";
import { env } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { enterpriseAuth } from "../../src/client/oauth/mod.ts";

const idp = env("IDP_ISSUER") ?? "http://127.0.0.1:8788";
const user = process.argv.at(-1)!.endsWith(".ts") ? "ada" : process.argv.at(-1)!;

const client = createClient(env("MCP_URL") ?? "http://127.0.0.1:8787", {
  auth: enterpriseAuth({
    idp: { tokenEndpoint: `${idp}/token`, clientId: "notes-desktop" },
    idToken: async () => {
      const signedIn = await fetch(`${idp}/sso`, { method: "POST", body: new URLSearchParams({ user }) });
      return (await signedIn.json()).id_token;
    },
    clientId: "notes-desktop",
    clientSecret: env("CLIENT_SECRET"),
    dpop: true,
  }),
});
try {
  console.log(await client.call("whoami", {}));
} finally {
  await client.close();
}
