/**
 * A gateway: two remote servers behind one, each under a prefix of its own, on MCP (2026-07-28 and 2025) and
 * MCP-lite, every request checked for a token. One remote is server-everything (the MCP reference server, npm
 * `@modelcontextprotocol/server-everything`, a devDependency of this repository), started over stdio; the other is
 * a tickets server of ours, which this example serves over HTTP on a port of its own, as any remote URL would be.
 *
 *   node examples/gateway.ts                                    (Node 22.18 or later)
 *   deno run -A --unstable-no-legacy-abort examples/gateway.ts
 *   bun run examples/gateway.ts
 *
 * Tokens are JWTs checked by `jwtAuth`, against a key made at start instead of an issuer's: the example signs a
 * token with it and prints it, with a call to paste. With an authorization server, give `jwtAuth` its `issuer` and
 * `jwksUri` instead of `jwks`, and drop the key. Reads PORT (default 8000; 0 for any free port) and HOSTNAME (default
 * 127.0.0.1).
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import process from "node:process";
import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { createServer, defineTool, env, serve, type Server } from "../mod.ts";
import { jwtAuth } from "../src/auth/mod.ts";
import { proxy } from "../src/proxy/mod.ts";

const hostname = env("HOSTNAME") ?? "127.0.0.1";
const port = Number(env("PORT") ?? 8000);

// The HTTP remote: a server of ours on a port the system picks.
const tickets = createServer({ name: "tickets", version: "1.0.0" })
  .tool(
    defineTool("open_ticket")
      .describe("Opens a support ticket")
      .input(v.object({ title: v.string() }))
      .output(v.object({ id: v.number(), title: v.string() }))
      .handle(({ title }) => ({ id: 42, title })),
  );
const ticketsListener = await serve(tickets, { port: 0, hostname: "127.0.0.1", quiet: true });

// The stdio remote: started on the first request, started again if it exits. Outside this repository,
// `{ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "stdio"] }` runs the same server.
const everything = {
  command: "node",
  args: [
    fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)),
    "stdio",
  ],
  closeGraceMs: 200, // on close: stdin closed, SIGTERM 0.2 s later (it keeps running on stdin's end alone)
};

// Stops the proxies (the stdio remote exits with them) when the gateway stops: SIGTERM (a container's stop), Ctrl-C.
const stopped = new AbortController();

// The key tokens are signed with; an authorization server holds it in a deployment.
const { publicKey, privateKey } = await generateKeyPair("ES256");
const jwk = { ...(await exportJWK(publicKey)), alg: "ES256" };
const ticketsRemote = await proxy(`${ticketsListener.url}/mcp`, { signal: stopped.signal }); // MCP 2026-07-28 to it
const everythingRemote = await proxy(everything, { signal: stopped.signal }); // a 2025 server: an MCP 2025 session

// The gateway's canonical URI (RFC 8707), for which the tokens it takes are issued, is the URL it listens at, known
// once it listens (PORT=0 takes any free port): the listener starts first, and hands its requests to the gateway once
// it is made.
const made = Promise.withResolvers<Server>();
const listener = await serve({ fetch: async (request: Request) => (await made.promise).fetch(request) }, {
  port,
  hostname,
  quiet: true,
});
const resource = listener.url;
const issuer = `${resource}/demo-issuer`;
const gateway = createServer({
  name: "gateway",
  version: "1.0.0",
  auth: jwtAuth({ issuer, resource, jwks: { keys: [jwk] } }),
})
  .group("tickets", ticketsRemote)
  .group("everything", everythingRemote);
made.resolve(gateway);
const token = await new SignJWT({})
  .setProtectedHeader({ alg: "ES256", typ: "at+jwt" })
  .setIssuer(issuer)
  .setAudience(resource)
  .setSubject("you")
  .setIssuedAt()
  .setExpirationTime("12h")
  .sign(privateKey);
const call = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "everything.echo", arguments: { message: "hello through the gateway" } },
});
const count = (prefix: string) => gateway.tools.filter((tool) => tool.name.startsWith(prefix)).length;
console.log(`gateway listening on ${listener.url}
  MCP       POST ${listener.url}/mcp        MCP-lite  POST ${listener.url}/mcp-lite/v1/calltools
  tools     tickets.* (${count("tickets.")}), everything.* (${count("everything.")})
A token for it (valid 12 h, signed with a key made at start):
  TOKEN=${token}
Paste the line above, then this call of the stdio remote's echo (tickets.open_ticket takes {"title": "…"}):
  curl -s ${listener.url}/mcp-lite/v1/calltools -H "authorization: Bearer $TOKEN" \\
    -H 'content-type: application/json' -d '${call}'`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stopped.abort(); // each proxy closes its remote: the stdio one's stdin, then SIGTERM
    setTimeout(() => process.exit(0), 1_000); // time for it to go; open connections do not hold the process
  });
}
