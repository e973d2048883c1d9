/**
 * examples/auth.ts against a real authorization server (npm `oidc-provider`): JWT access tokens checked
 * by `jwtAuth`, and opaque ones checked by the example's RFC 7662 introspection verifier.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { docsServer, introspectionAuth } from "../../examples/auth.ts";
import { serve } from "../../mod.ts";
import { jwtAuth, type ServerAuth } from "../../src/auth/mod.ts";
import {
  clientCredentialsToken,
  INTROSPECTION_CLIENT,
  SERVICE_CLIENT,
  startAuthorizationServer,
} from "../helpers/authorization-server.ts";
import { run } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";

const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of cleanup) await close();
});

/** Serves the example with the auth `make` builds for the listener's origin and `as`. */
async function start(format: "jwt" | "opaque", make: (resource: string, issuer: string) => ServerAuth) {
  // The resource is the listener's origin: the server is made once it listens.
  const made: { app?: ReturnType<typeof docsServer> } = {};
  const listener = await serve({ fetch: (request) => made.app!.fetch(request) }, {
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
  });
  const as = await startAuthorizationServer(listener.url, { accessTokenFormat: format });
  cleanup.push(() => listener.close(), () => as.close());
  made.app = docsServer(make(listener.url, as.issuer));
  const call = async (tool: string, args: unknown, token: string) => {
    const response = await fetch(listener.url + "/mcp-lite/v1/calltools", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(toolsCall(tool, args)),
    });
    return { status: response.status, body: await response.json() };
  };
  return { call, token: (scope: string) => clientCredentialsToken(as, scope, listener.url) };
}

describe("examples/auth.ts", () => {
  for (const format of ["jwt", "opaque"] as const) {
    it(`${format} tokens: reads with docs:read, writes only with docs:write, as the caller`, async () => {
      const { call, token } = await start(
        format,
        (resource, issuer) =>
          format === "jwt" ? jwtAuth({ issuer, resource, jwksUri: `${issuer}/jwks` }) : introspectionAuth({
            issuer,
            resource,
            endpoint: `${issuer}/token/introspection`,
            clientId: INTROSPECTION_CLIENT.id,
            clientSecret: INTROSPECTION_CLIENT.secret,
          }),
      );
      const reader = await token("docs:read");
      assert.equal(reader.split(".").length, format === "jwt" ? 3 : 1);
      const read = await call("read_doc", { id: "welcome" }, reader);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal(read.body.result.content[0].text, "Welcome to the docs.");
      assert.equal((await call("write_doc", { id: "setup", text: "x" }, reader)).status, 403);
      const written = await call("write_doc", { id: "setup", text: "Run." }, await token("docs:read docs:write"));
      assert.equal(written.body.result.content[0].text, `saved setup as ${SERVICE_CLIENT.id}`);
      assert.equal((await call("read_doc", { id: "welcome" }, "not-a-token")).status, 401);
    });
  }

  it("refuses to start without its settings", async () => {
    const deno = "Deno" in globalThis;
    const result = await run(process.execPath, ["run", ...(deno ? ["-A"] : []), "examples/auth.ts"], 20_000);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /set ISSUER/);
  });
});
