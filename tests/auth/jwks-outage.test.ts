/**
 * `jwtAuth({ jwksUri })` through an outage of the issuer's JWKS endpoint, served here on 127.0.0.1 and
 * broken on purpose: it goes down (connections reset), answers 500, answers garbage, and hangs. The
 * failure is the issuer's, never the token's: valid tokens keep working from the last good keys within
 * the stale window; without usable keys the answer is 503 with `Retry-After` (gRPC `UNAVAILABLE`),
 * never 401 `invalid_token`; no request waits on a hung endpoint longer than the 3 s fetch timeout; and
 * one fetch goes out at a time, backing off after a failure.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, afterEach, before, describe, it } from "node:test";
import { Code, createClient } from "@connectrpc/connect";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { advanceClock, restoreClock } from "../helpers/clock.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { BASE, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const ISSUER = "https://auth.example.com";
const signer = await generateKeyPair("ES256");
const forger = await generateKeyPair("ES256");
const KEYS: JWK[] = [{ ...(await exportJWK(signer.publicKey)), kid: "k1", alg: "ES256", use: "sig" }];

type Mode = "ok" | "reset" | "500" | "garbage" | "hang";
let mode: Mode = "ok";
let fetches = 0;
let active = 0;
let mostActive = 0;
const hung: ServerResponse[] = [];
const jwks = createHttpServer((req, res) => {
  fetches++;
  mostActive = Math.max(mostActive, ++active);
  res.on("close", () => active--);
  switch (mode) {
    case "ok":
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: KEYS }));
    case "reset":
      return req.socket.destroy();
    case "500":
      return res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded");
    case "garbage":
      return res.writeHead(200, { "content-type": "application/json" }).end('{"keys": "not a key set"');
    case "hang":
      hung.push(res);
  }
});

// The server's key fetches, counted from the client's side: an answer given while its fetch is still
// pending did not wait on it. Only `jwtAuth` calls the global fetch here (requests go to `server.fetch`).
let pendingFetches = 0;
const realFetch = globalThis.fetch;
const countingFetch = (...args: Parameters<typeof fetch>): ReturnType<typeof fetch> => {
  pendingFetches++;
  const response = realFetch(...args);
  const settled = () => void pendingFetches--;
  response.then(settled, settled); // first in line: counted before jwtAuth sees the outcome
  return response;
};

before(() => new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve)));
before(() => void (globalThis.fetch = Object.assign(countingFetch, realFetch)));
after(async () => {
  globalThis.fetch = realFetch;
  jwks.closeAllConnections();
  await new Promise((resolve) => jwks.close(resolve));
});
afterEach(() => {
  restoreClock();
  for (const res of hung.splice(0)) res.destroy();
  mode = "ok";
});

/** A server with its own key cache, speaking every HTTP wire. */
function docsServer() {
  return createServer({
    name: "docs",
    version: "1.0.0",
    auth: jwtAuth({
      issuer: ISSUER,
      resource: BASE,
      jwksUri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
    }),
    bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), grpcBinding()],
  }).tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc"));
}

function mint(key = signer.privateKey): Promise<string> {
  return new SignJWT({ scope: "docs:read" })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
    .setIssuer(ISSUER).setAudience(BASE).setSubject("ada").setIssuedAt().setExpirationTime("5m")
    .sign(key);
}

interface Answer {
  status: number;
  retryAfter: string | null;
  challenge: string | null;
  body: string;
}

async function call(server: ReturnType<typeof docsServer>, token: string): Promise<Answer> {
  const response = await server.fetch(
    post("/mcp-lite/v1/calltools", toolsCall("read_doc", {}), { authorization: `Bearer ${token}` }),
  );
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    challenge: response.headers.get("www-authenticate"),
    body: await response.text(),
  };
}

const many = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

function assertUnavailable(answer: Answer): void {
  assert.equal(answer.status, 503, answer.body);
  assert.match(answer.retryAfter ?? "", /^[1-9][0-9]*$/);
  assert.equal(answer.challenge, null, "no invalid_token challenge: the client keeps its token");
  assert.equal(JSON.parse(answer.body).error.code, -32603);
}

describe("a JWKS outage", () => {
  it("cold start on a hung endpoint: one fetch, every waiter refused with 503 within the timeout, then backoff", async () => {
    const server = docsServer();
    mode = "hang";
    fetches = mostActive = 0;
    const token = await mint();
    const answers = await many(20, () => call(server, token));
    for (const answer of answers) assertUnavailable(answer);
    // The endpoint never answered: only the fetch timeout (3 s, the runtime's own timer) ended the wait.
    assert.equal(hung.length, 1);
    assert.equal(hung[0].writableEnded, false, "answered while the endpoint still hung");
    assert.equal(fetches, 1, "one fetch for 20 concurrent requests");
    assert.equal(mostActive, 1);
    // Backing off: the next request is refused at once, without a fetch (none went out, none is pending).
    const again = await call(server, token);
    assertUnavailable(again);
    assert.equal(pendingFetches, 0, "no fetch during the backoff");
    assert.equal(fetches, 1);
    // The issuer is back: after the backoff one fetch serves everyone.
    mode = "ok";
    advanceClock(2_000);
    assert.deepEqual(new Set((await many(20, () => call(server, token))).map((a) => a.status)), new Set([200]));
    assert.equal(fetches, 2);
  });

  for (const failure of ["reset", "500", "garbage", "hang"] as const) {
    it(`${failure}: valid tokens keep working from the last good keys within the stale window, at once`, async () => {
      const server = docsServer();
      const token = await mint();
      assert.equal((await call(server, token)).status, 200); // the keys are fetched and cached
      fetches = mostActive = 0;
      mode = failure;
      advanceClock(11 * 60_000); // past the 10 minutes' freshness, within the hour of stale-if-error
      for (let i = 0; i < 3; i++) {
        const answers = await many(10, () => call(server, token));
        for (const answer of answers) assert.equal(answer.status, 200, answer.body);
        // At once: the first answers came while the refetch they started still hung (cut at 3 s).
        if (failure === "hang" && i === 0) assert.equal(pendingFetches, 1, "answered before the refetch ended");
      }
      // One fetch, then a backoff (a runtime's fetch may retry a reset connection once by itself).
      assert.ok(fetches <= (failure === "reset" ? 2 : 1), `${fetches} fetches`);
      assert.ok(mostActive <= 1, "one fetch at a time");
      // A forged token is still refused as invalid: stale keys verify, they do not wave through.
      const forged = await call(server, await mint(forger.privateKey));
      assert.equal(forged.status, 401);
      assert.match(forged.challenge ?? "", /error="invalid_token"/);
    });
  }

  it("outside the stale window: 503 with Retry-After on every wire, never 401", async () => {
    const server = docsServer();
    const token = await mint();
    assert.equal((await call(server, token)).status, 200);
    mode = "500";
    advanceClock(71 * 60_000); // past 10 minutes fresh + 60 stale
    assertUnavailable(await call(server, token));
    advanceClock(31_000); // past the longest backoff: each wire below may fetch again, and fails again

    const authorization = `Bearer ${token}`;
    const mcp = await server.fetch(modernRequest("tools/call", { name: "read_doc" }, 1, { authorization }));
    assert.equal(mcp.status, 503);
    assert.ok(mcp.headers.has("retry-after"));
    assert.equal((await mcp.json()).error.code, -32603);

    const webtools = await server.fetch(post("/webtools/", { action: "read_doc", request: {} }, { authorization }));
    assert.equal(webtools.status, 503);
    assert.ok(webtools.headers.has("retry-after"));
    assert.equal((await webtools.json()).error.code, "UNAVAILABLE");

    const client = createClient(MCPLite, inProcessTransport(server, "connect", false));
    const refused = await rejection(client.callTool({ name: "read_doc" }, { headers: { authorization } }));
    assert.equal(refused.code, Code.Unavailable);
    assert.equal(refused.metadata.get("www-authenticate"), null);

    // The issuer recovers: the next request after the backoff fetches and passes.
    mode = "ok";
    advanceClock(31_000);
    assert.equal((await call(server, token)).status, 200);
  });
});
