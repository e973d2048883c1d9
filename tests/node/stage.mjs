// The Node test stage (issue 38): run by tests/npm-package.test.ts on Node 22, from the project that
// installed the packed tarball, so every import below resolves to the built package (dist). It serves one
// server with `serve()` on every HTTP wire and the WebSocket binding, mounts it in Express with
// `nodeHandler()`, calls it with the typed client over each transport (a `serveStdio()` child for stdio),
// cancels an SSE call by going away, talks DPoP to a server behind `jwtAuth({ dpop })`, runs `mcplite list` and
// `mcplite call` against it, and prints one JSON report: each check's result, or `{ "error": message }`. Each check
// is bounded (10 s).
// Deno leaves this file alone (deno.json `exclude`): its imports resolve only in that installed project.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { join } from "node:path";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import express from "express";
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from "jose";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "@mcplite/sdk";
import { jwtAuth } from "@mcplite/sdk/auth";
import { createClient } from "@mcplite/sdk/client";
import { clientCredentials } from "@mcplite/sdk/client/auth";
import { createWebtoolsTransport } from "@mcplite/sdk/client/webtools";
import { grpcTransport } from "@mcplite/sdk/client/grpc";
import { createStdioTransport } from "@mcplite/sdk/client/stdio";
import { createWebSocketTransport } from "@mcplite/sdk/client/websocket";
import { grpcBinding } from "@mcplite/sdk/grpc";
import { nodeHandler } from "@mcplite/sdk/node";
import { openapiBinding } from "@mcplite/sdk/openapi";
import { webtoolsBinding } from "@mcplite/sdk/webtools";
import { webSocketBinding } from "@mcplite/sdk/websocket";

const seen = { held: 0, cancelled: 0 };
/** Told as `hold` starts, and as its call is cancelled: what the SSE check waits on. */
const holding = Promise.withResolvers();
const cancelling = Promise.withResolvers();
const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const hold = defineTool("hold")
  .describe("Waits until its call is cancelled (at most 10 s)")
  .handle((_input, ctx) =>
    new Promise((resolve) => {
      seen.held++;
      holding.resolve();
      const timer = setTimeout(() => resolve("not cancelled"), 10_000);
      ctx.signal.addEventListener("abort", () => {
        seen.cancelled++;
        cancelling.resolve();
        clearTimeout(timer);
        resolve("cancelled");
      }, { once: true });
    })
  );
const server = createServer({
  name: "node-stage",
  version: "1.0.0",
  bindings: [
    mcpLiteBinding(),
    mcpBinding(),
    webtoolsBinding(),
    openapiBinding(),
    grpcBinding(),
    webSocketBinding(),
  ],
}).tool(add).tool(hold);

// serveStdio() in a Node child of its own, from the package too.
writeFileSync(
  "node-stage-stdio.mjs",
  `import * as v from "valibot";
import { createServer, defineTool } from "@mcplite/sdk";
import { serveStdio } from "@mcplite/sdk/stdio";
const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() })).handle(({ a, b }) => ({ sum: a + b }));
await serveStdio(createServer({ name: "stdio", version: "1.0.0" }).tool(add));
`,
);

const served = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
const url = served.url;
const app = express();
app.use("/mcp", nodeHandler(server));
const http = createHttpServer(app);
await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
const mounted = `http://127.0.0.1:${http.address().port}/mcp`;

// DPoP (RFC 9449) from the package: a server behind jwtAuth({ dpop: "required" }), and an authorization server
// of a few lines (RFC 8414 metadata, its keys, a client-credentials token endpoint that binds each token to the
// key of the request's proof, RFC 9449 §6); the typed client with clientCredentials({ dpop: true }) talks to both.
const issuerKey = await generateKeyPair("ES256");
const issuerJwk = { ...(await exportJWK(issuerKey.publicKey)), kid: "stage", alg: "ES256", use: "sig" };
const bound = {};
const boundServer = await serve({ fetch: (request) => bound.app.fetch(request) }, {
  port: 0,
  hostname: "127.0.0.1",
  quiet: true,
});
const authorizationServer = createHttpServer(async (request, response) => {
  const json = (body) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (request.url === "/.well-known/oauth-authorization-server") {
    return json({
      issuer,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      grant_types_supported: ["client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      dpop_signing_alg_values_supported: ["ES256"],
    });
  }
  if (request.url === "/jwks") return json({ keys: [issuerJwk] });
  if (request.url === "/token" && typeof request.headers.dpop === "string") {
    for await (const _ of request); // the form body: client_credentials, whoever asks
    const jkt = await calculateJwkThumbprint(decodeProtectedHeader(request.headers.dpop).jwk);
    const token = await new SignJWT({ cnf: { jkt }, client_id: "stage-job" })
      .setProtectedHeader({ alg: "ES256", kid: "stage", typ: "at+jwt" })
      .setIssuer(issuer).setAudience(boundServer.url).setSubject("stage-job").setIssuedAt().setExpirationTime("5m")
      .sign(issuerKey.privateKey);
    return json({ access_token: token, token_type: "DPoP", expires_in: 300 });
  }
  response.writeHead(400, { "content-type": "application/json" }).end('{"error":"invalid_request"}');
});
await new Promise((resolve) => authorizationServer.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${authorizationServer.address().port}`;
bound.app = createServer({
  name: "node-stage-dpop",
  version: "1.0.0",
  auth: jwtAuth({ issuer, resource: boundServer.url, jwksUri: `${issuer}/jwks`, dpop: "required" }),
}).tool(add);

const post = (to, body, headers = {}) =>
  fetch(to, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const rpc = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } };
/** The typed client's answer over one transport, closed afterwards. */
const sum = async (target, options) => {
  const client = createClient(target, options);
  try {
    return (await client.call("add", { a: 2, b: 3 })).sum;
  } finally {
    await client.close?.();
  }
};
const sdk = join(process.cwd(), "node_modules", "@mcplite", "sdk");
const bin = join(sdk, JSON.parse(readFileSync(join(sdk, "package.json"), "utf8")).bin.mcplite);
/** Runs the package's CLI on this Node: its exit code and output. */
const cli = (args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", (chunk) => out += chunk);
    child.stderr.on("data", (chunk) => err += chunk);
    child.once("exit", (code) => resolve({ code, stdout: out.trim(), stderr: err.trim() }));
  });

const checks = {
  "serve: MCP-lite JSON": async () => {
    const response = await post(`${url}/mcp-lite/v1/calltools`, rpc);
    return [response.status, response.headers.get("content-type"), (await response.json()).result?.structuredContent];
  },
  "serve: MCP-lite SSE": async () => {
    const response = await post(`${url}/mcp-lite/v1/calltools`, rpc, { accept: "text/event-stream" });
    return [response.status, response.headers.get("content-type"), /"sum":5/.test(await response.text())];
  },
  "serve: MCP 2025-11-25": async () => {
    const response = await post(`${url}/mcp`, rpc, {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    });
    return [response.status, /"sum":5/.test(await response.text())];
  },
  "serve: OpenAPI": async () => {
    const document = await fetch(`${url}/api/openapi.json`);
    const called = await post(`${url}/api/tools/add`, { a: 2, b: 3 });
    return [
      document.status,
      Object.keys((await document.json()).paths).includes("/api/tools/add"),
      called.status,
      await called.json(),
    ];
  },
  "client: mcp-lite": () => sum(url, { transport: "mcp-lite" }),
  "client: mcp 2025-11-25": () => sum(`${url}/mcp`, { transport: "mcp", protocolVersion: "2025-11-25" }),
  "client: mcp 2026-07-28": () => sum(`${url}/mcp`, { transport: "mcp", protocolVersion: "2026-07-28" }),
  "client: webtools": () => sum(createWebtoolsTransport(`${url}/webtools`)),
  "client: Connect": () => sum(grpcTransport(url)),
  "client: gRPC-Web": () => sum(grpcTransport(createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1" }))),
  "client: websocket": () => sum(createWebSocketTransport(`ws://127.0.0.1:${served.port}/mcp-lite/v1/ws`)),
  "client: stdio (serveStdio in a Node child)": () =>
    sum(createStdioTransport({ command: process.execPath, args: ["node-stage-stdio.mjs"] })),
  "SSE cancelled on client disconnect": async () => {
    const away = new AbortController();
    const call = { ...rpc, params: { name: "hold", arguments: {} } };
    const pending = fetch(`${url}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify(call),
      signal: away.signal,
    }).then((response) => response.text()).catch((error) => error.name);
    await holding.promise; // the check's own bound (10 s) bounds these waits
    away.abort();
    await cancelling.promise;
    return [seen.held, seen.cancelled === 1, await pending];
  },
  "nodeHandler in Express under /mcp": async () => [
    await sum(`${mounted}/mcp-lite/v1`, { transport: "mcp-lite" }),
    await sum(`${mounted}/mcp`, { transport: "mcp", protocolVersion: "2025-11-25" }),
  ],
  "DPoP: refused without a proof, then the client binds its token and proves each call": async () => {
    const bare = await post(`${boundServer.url}/mcp-lite/v1/calltools`, rpc);
    const challenge = bare.headers.get("www-authenticate") ?? "";
    await bare.body?.cancel();
    const auth = clientCredentials({ clientId: "stage-job", clientSecret: "stage-secret", dpop: true });
    return [bare.status, challenge.startsWith("DPoP "), await sum(boundServer.url, { transport: "mcp-lite", auth })];
  },
  "cli: mcplite list": async () => {
    const listed = await cli(["list", url]);
    return [listed.code, /^add\s+Adds two numbers$/m.test(listed.stdout) ? "add" : listed.stdout + listed.stderr];
  },
  "cli: mcplite call": async () => {
    const called = await cli(["call", `${url}/mcp`, "add", "--args", '{"a": 2, "b": 3}', "--json"]);
    return [called.code, called.code === 0 ? JSON.parse(called.stdout).structuredContent : called.stderr];
  },
};

const report = { node: process.versions.node };
for (const [name, check] of Object.entries(checks)) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in 10 s")), 10_000);
  });
  try {
    report[name] = await Promise.race([check(), limit]);
  } catch (error) {
    report[name] = { error: String(error?.message ?? error) };
  } finally {
    clearTimeout(timer);
  }
}
console.log(JSON.stringify(report));
http.closeAllConnections();
http.close();
authorizationServer.closeAllConnections();
authorizationServer.close();
await boundServer.close();
await served.close();
process.exit(0);
