/**
 * `jwtAuth({ jwksUri })` fetches the issuer's keys once and caches them; an unknown `kid` refetches at
 * most once per 30 s cooldown, so a flood of forged tokens cannot make the server hammer the issuer;
 * keys older than 10 minutes are refetched in the background while they keep verifying; a key the
 * issuer rotates in is picked up after the cooldown (MCP 2025-11-25, Authorization, Token
 * Validation; RFC 7517), answered 503 with `Retry-After` until then. Requests to a local JWKS endpoint
 * are counted.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServer, defineTool } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { advanceClock, restoreClock } from "../helpers/clock.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";
import { changes } from "../helpers/wait.ts";

const ISSUER = "https://auth.example.com";
const first = await generateKeyPair("ES256");
const rotated = await generateKeyPair("ES256");
const published: JWK[] = [{ ...(await exportJWK(first.publicKey)), kid: "k1", alg: "ES256", use: "sig" }];

let fetches = 0;
const fetched = changes(); // told of each fetch of the keys
const jwks = createHttpServer((_req, res) => {
  fetches++;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
  fetched.changed();
});
let server: ReturnType<typeof createServer>;

before(async () => {
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  server = createServer({
    name: "docs",
    version: "1.0.0",
    auth: jwtAuth({
      issuer: ISSUER,
      resource: BASE,
      jwksUri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
    }),
  }).tool(defineTool("read_doc").handle(() => "doc"));
});
after(async () => {
  restoreClock();
  jwks.closeAllConnections();
  await new Promise((resolve) => jwks.close(resolve));
});

function mint(kid: string, key = first.privateKey): Promise<string> {
  return new SignJWT({ scope: "docs:read" })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
    .setIssuer(ISSUER).setAudience(BASE).setSubject("ada").setIssuedAt().setExpirationTime("5m")
    .sign(key);
}

async function call(token: string): Promise<number> {
  const response = await server.fetch(
    post("/mcp-lite/v1/calltools", toolsCall("read_doc", {}), { authorization: `Bearer ${token}` }),
  );
  await response.body?.cancel();
  return response.status;
}

const statuses = (tokens: string[]) => Promise.all(tokens.map(call));
const many = <T>(n: number, make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe("the JWKS cache of jwtAuth({ jwksUri })", () => {
  it("a cold start under 50 concurrent requests fetches the keys once", async () => {
    const results = await statuses(await many(50, () => mint("k1")));
    assert.deepEqual(new Set(results), new Set([200]));
    assert.equal(fetches, 1);
  });

  it("later tokens use the cached keys", async () => {
    for (let i = 0; i < 20; i++) assert.equal(await call(await mint("k1")), 200);
    assert.equal(fetches, 1);
  });

  it("a flood of unknown kids within the cooldown fetches nothing, and valid tokens still pass", async () => {
    const forged = await many(200, (i) => mint(`forged-${i}`));
    const results = await statuses(forged);
    assert.deepEqual(new Set(results), new Set([503]), "not yet known: retry after the cooldown");
    assert.equal(fetches, 1, "no request to the issuer for any of them");
    assert.equal(await call(await mint("k1")), 200);
  });

  it("a rotated-in key is picked up after the cooldown with one fetch; then the cooldown holds again", async () => {
    published.push({ ...(await exportJWK(rotated.publicKey)), kid: "k2", alg: "ES256", use: "sig" });
    assert.equal(await call(await mint("k2", rotated.privateKey)), 503, "still cooling down");
    assert.equal(fetches, 1);

    advanceClock(31_000);
    const results = await statuses(await many(50, () => mint("k2", rotated.privateKey)));
    assert.deepEqual(new Set(results), new Set([200]));
    assert.equal(fetches, 2, "one refetch for 50 concurrent tokens with the new kid");

    const forged = await many(100, (i) => mint(`forged-again-${i}`));
    assert.deepEqual(new Set(await statuses(forged)), new Set([503]));
    assert.equal(fetches, 2, "the refetch restarted the cooldown");
    // The kids of the first flood were seen before that refetch, which lacks them: invalid.
    assert.deepEqual(new Set(await statuses(await many(20, (i) => mint(`forged-${i}`)))), new Set([401]));
    assert.equal(fetches, 2);
  });

  it("the cache expires after 10 minutes: the next token refetches once, in the background", async () => {
    advanceClock(10 * 60_000 + 1000);
    assert.deepEqual(new Set(await statuses(await many(20, () => mint("k1")))), new Set([200]));
    await fetched.until(() => fetches >= 3, "the background refetch", 5_000);
    assert.equal(fetches, 3);
    assert.deepEqual(new Set(await statuses(await many(20, () => mint("k1")))), new Set([200]));
    assert.equal(fetches, 3, "the refetched keys are fresh again");
  });
});
