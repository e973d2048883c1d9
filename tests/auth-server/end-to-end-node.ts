/**
 * Run by Node 22 (tests/auth-server/end-to-end.test.ts): the IdP, our authorization server and our MCP server on
 * node:http (tests/helpers/auth-server-stack.ts), our client calling the tool with `enterpriseAuth()` (bearer, then
 * DPoP-bound) and with `workloadIdentity()`; prints who each call was and the scheme its token was presented with.
 */
import process from "node:process";
import { createClient } from "../../src/client/mod.ts";
import { enterpriseAuth, workloadIdentity } from "../../src/client/oauth/mod.ts";
import type { ClientAuth } from "../../src/client/http.ts";
import { DESKTOP, REPORTER, startAuthServerStack } from "../helpers/auth-server-stack.ts";
import { IDP_CLIENT_ID } from "../helpers/enterprise-idp.ts";

const stack = await startAuthServerStack();
const called: unknown[] = [];
const schemes: string[] = [];
const enterprise = (user: string, dpop: boolean) =>
  enterpriseAuth({
    idp: { tokenEndpoint: stack.idp.tokenEndpoint, clientId: IDP_CLIENT_ID },
    idToken: () => stack.idp.idToken(user),
    clientId: DESKTOP.id,
    clientSecret: DESKTOP.secret,
    dpop,
  });
try {
  for (
    const auth of [
      enterprise("ada", false),
      enterprise("grace", true),
      workloadIdentity({ clientId: REPORTER.id, token: () => stack.workloadJwt() }),
    ] as ClientAuth[]
  ) {
    const client = createClient(stack.resource, { transport: "mcp-lite", auth });
    try {
      called.push(await client.call("whoami", {}));
    } finally {
      await client.close();
    }
    const last = stack.presented.findLast((p) => p.authorization !== null)!;
    schemes.push(last.authorization!.split(" ")[0]);
  }
} finally {
  await stack.close();
}
process.stdout.write(JSON.stringify({ runtime: process.version, called, schemes }));
