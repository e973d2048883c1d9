/**
 * The official v2 TypeScript client's `CrossAppAccessProvider` (`@modelcontextprotocol/client` 2.4; SEP-990,
 * enterprise-managed authorization) against our `authorizationServer()` as it is, its fetch unpatched: the client
 * finds the authorization server from our MCP server's 401 (RFC 9728), reads its RFC 8414 metadata (which the
 * client's schema reads with `authorization_endpoint` and `response_types_supported` required), has the enterprise
 * IdP exchange the user's ID token for an ID-JAG (RFC 8693), redeems it with `client_secret_basic` (RFC 7523
 * §2.1) and calls the tool as the user.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeJwt } from "jose";
import {
  Client,
  CrossAppAccessProvider,
  requestJwtAuthorizationGrant,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { type AuthServerStack, DESKTOP, startAuthServerStack } from "../helpers/auth-server-stack.ts";
import { IDP_CLIENT_ID } from "../helpers/enterprise-idp.ts";

let stack: AuthServerStack;
before(async () => {
  stack = await startAuthServerStack();
});
after(async () => await stack?.close());

describe("the official v2 client's CrossAppAccessProvider → authorizationServer()", () => {
  it("discovers our authorization server, redeems the IdP's ID-JAG there and calls the tool as the user", async () => {
    const requested: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      requested.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    };
    const provider = new CrossAppAccessProvider({
      // The IdP's token exchange, as the client's own helper makes it (the user's single sign-on is done).
      assertion: async (context) =>
        (await requestJwtAuthorizationGrant({
          tokenEndpoint: stack.idp.tokenEndpoint,
          audience: context.authorizationServerUrl,
          resource: context.resourceUrl,
          idToken: await stack.idp.idToken("ada"),
          clientId: IDP_CLIENT_ID,
          scope: context.scope,
          fetchFn: context.fetchFn,
        })).jwtAuthGrant,
      clientId: DESKTOP.id,
      clientSecret: DESKTOP.secret,
      expectedIssuer: stack.as.issuer,
      fetchFn: recording,
    });
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.resource}/mcp`), {
      authProvider: provider,
      fetch: recording,
    });
    const client = new Client({ name: "cross-app", version: "2.4.0" });
    try {
      await client.connect(transport);
      const answer = await client.callTool({ name: "whoami", arguments: {} });
      assert.deepEqual(answer.content, [{ type: "text", text: "ada" }]);
    } finally {
      await client.close();
    }
    assert.ok(requested.includes("GET /.well-known/oauth-authorization-server/as"), requested.join(", "));
    assert.ok(requested.includes("POST /idp/token"), requested.join(", "));
    assert.ok(requested.includes("POST /as/token"), requested.join(", "));
    assert.deepEqual(stack.callers, ["ada"]);
    const token = decodeJwt(String(provider.tokens()?.access_token));
    assert.deepEqual([token.iss, token.aud, token.client_id], [stack.as.issuer, stack.resource, DESKTOP.id]);
  });
});
