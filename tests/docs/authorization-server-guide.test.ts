/**
 * docs/guides/authorization-server.md runs as written: its "Quick start" block (an ID-JAG redeemed, the token taken
 * by the MCP server, the replay refused), and its oidc-provider recipe ("Beside oidc-provider"), imported by a driver
 * that serves it with tests/helpers/authorization-server.ts's login page, an enterprise IdP
 * (tests/helpers/enterprise-idp.ts) and an MCP server behind `jwtAuth({ issuer, resource })`: our client's `oauth()`
 * registers dynamically and signs Ada in with PKCE, and `enterpriseAuth()` gets Grace's ID-JAG redeemed through
 * oidc-provider's token endpoint and ours, DPoP-bound; each calls the tool; on Deno and on Bun.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { describeSectionRuns, exampleProject, markdownSection, tsBlocks } from "../helpers/markdown.ts";
import { entryPointImports } from "../helpers/entry-points.ts";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const PAGE = "docs/guides/authorization-server.md";
describeSectionRuns(PAGE, "Quick start", /authorizationServer\(\{/);

/** Serves the recipe's provider with a login page, beside an IdP and an MCP server; prints what each client got. */
const DRIVER = `
import process from "node:process";
import { createServer as createHttpServer } from "node:http";
import { createServer, defineTool, serve } from "@mcplite/sdk";
import { jwtAuth } from "@mcplite/sdk/auth";
import { createClient } from "@mcplite/sdk/client";
import { enterpriseAuth, oauth } from "@mcplite/sdk/client/auth";
import { enterpriseIdp, IDP_CLIENT_ID } from "${ROOT}tests/helpers/enterprise-idp.ts";
import { authorizeHeadlessly, interact } from "${ROOT}tests/helpers/authorization-server.ts";

const idpAt = { origin: "" };
const idp = await enterpriseIdp(() => idpAt.origin, "notes-desktop");
const idpListener = await serve({ fetch: (r) => idp.fetch(r) ?? Promise.resolve(new Response(null, { status: 404 })) }, {
  port: 0, hostname: "127.0.0.1", quiet: true,
});
idpAt.origin = idpListener.url;
// The provider's and the MCP server's listeners first, each on a port the system picks: their URLs are the issuer
// and the resource the recipe reads, and nothing calls either before both are made below.
const http = createHttpServer();
await new Promise((resolve) => http.listen(0, "127.0.0.1", () => resolve(undefined)));
const issuer = \`http://127.0.0.1:\${(http.address() as { port: number }).port}\`;
const schemes: string[] = [];
const mcp = await serve({ fetch: (request) => {
  const scheme = request.headers.get("authorization")?.split(" ")[0];
  if (scheme) schemes.push(scheme);
  return server.fetch(request);
} }, { port: 0, hostname: "127.0.0.1", quiet: true });
const resource = mcp.url;
Object.assign(process.env, {
  AS_ISSUER: issuer, MCP_URL: resource, IDP_ISSUER: idp.issuer, DESKTOP_SECRET: "desktop-secret", COOKIE_KEY: "cookie-key",
});
const { provider } = await import("./oidc-beside.ts");
const callback = provider.callback();
http.on("request", (req, res) => {
  if (req.url?.startsWith("/interaction/")) return void interact(provider, req, res, "ada", (scopes) => scopes);
  callback(req, res);
});
const server = createServer({
  name: "notes", version: "1.0.0",
  auth: jwtAuth({ issuer, resource, scopesSupported: ["notes:read"], dpop: "allowed" }),
}).tool(defineTool("whoami").describe("Says who calls").handle((_input, ctx) => \`\${ctx.auth?.subject} \${ctx.auth?.clientId}\`));
const called: string[] = [];
try {
  for (const auth of [
    oauth({ redirectUri: "http://127.0.0.1/callback", onAuthorizationUrl: async (url) => (await authorizeHeadlessly(url, "ada")).code }),
    enterpriseAuth({
      idp: { tokenEndpoint: idp.tokenEndpoint, clientId: IDP_CLIENT_ID }, idToken: () => idp.idToken("grace"),
      clientId: "notes-desktop", clientSecret: "desktop-secret", dpop: true,
    }),
  ]) {
    const client = createClient(resource, { auth });
    try {
      called.push(String(await client.call("whoami", {})));
    } finally {
      await client.close();
    }
  }
} finally {
  await mcp.close();
  await idpListener.close();
  http.closeAllConnections();
  http.close();
}
console.log(JSON.stringify({ called, schemes: [...new Set(schemes)] }));
`;

describe(`${PAGE}, "Beside oidc-provider: users at a browser"`, () => {
  const blocks = tsBlocks(
    markdownSection(readFileSync(`${ROOT}${PAGE}`, "utf8"), "Beside oidc-provider: users at a browser", PAGE),
    PAGE,
  );
  const dir = scratchDir("mcplite-oidc-beside-");
  exampleProject(dir);
  const paths = Object.fromEntries(
    Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
  for (const block of blocks) writeFileSync(join(dir, block.file), `${block.code}\n`);
  writeFileSync(join(dir, "drive.ts"), DRIVER);

  it("is one block, oidc-beside.ts, that registers the JWT-bearer grant with oidc-provider", () => {
    assert.deepEqual(blocks.map((b) => b.file), ["oidc-beside.ts"]);
    assert.match(blocks[0].code, /registerGrantType\(JWT_BEARER/);
  });

  for (const runtime of ["deno", "bun"] as const) {
    it(`on ${runtime}: a user signed in at oidc-provider and an enterprise's ID-JAG redeemed by ours call one tool`, {
      timeout: 120_000,
    }, async () => {
      const args = runtime === "deno" ? ["run", "-A", "--unstable-no-legacy-abort", "drive.ts"] : ["run", "drive.ts"];
      const ran = await run(`${ROOT}node_modules/.bin/${runtime}`, args, 90_000, dir);
      assert.equal(ran.code, 0, `${ran.stderr}${ran.stdout}`);
      const { called, schemes } = JSON.parse(ran.stdout.trim().split("\n").at(-1)!);
      const [user, enterprise] = called;
      // Ada's client id is the one oidc-provider registered for it (RFC 7591): not the enterprise client's.
      const [subject, registered] = user.split(" ");
      assert.equal(subject, "ada");
      assert.notEqual(registered, "notes-desktop");
      assert.ok(registered.length >= 8, user);
      assert.equal(enterprise, "grace notes-desktop");
      assert.deepEqual(schemes, ["Bearer", "DPoP"]);
    });
  }
});
