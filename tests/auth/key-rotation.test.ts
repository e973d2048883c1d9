/**
 * Key rotation with `jwtAuth({ jwksUri })` (RFC 7517 §4.5; OpenID Connect Core §10.1.1): the issuer
 * publishes a new key after the server's last fetch of its key set and signs with it at once. Inside the
 * refetch cooldown the server cannot know the key yet, and says so: 503 with `Retry-After` (the seconds
 * left in the cooldown), gRPC `UNAVAILABLE` with `retry-after`, never 401 `invalid_token`. After the
 * cooldown one refetch serves the token. A kid that a key set fetched after it was first seen still
 * lacks is refused as invalid; a flood of made-up kids costs at most one fetch per cooldown. The JWKS
 * endpoint is a real HTTP server on 127.0.0.1 that counts its requests; the clock moves instead of the
 * test waiting 30 s.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Code } from "@connectrpc/connect";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { bearerProtocol, WEBSOCKET_PROTOCOL, webSocketBinding } from "../../src/websocket/mod.ts";
import { advanceClock, freezeClock, restoreClock } from "../helpers/clock.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { BASE, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const ISSUER = "https://auth.example.com";
const keyA = await generateKeyPair("ES256");
const keyB = await generateKeyPair("ES256");
const published: JWK[] = [{ ...(await exportJWK(keyA.publicKey)), kid: "a", alg: "ES256", use: "sig" }];

let fetches = 0;
const jwks = createHttpServer((_req, res) => {
  fetches++;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
});
await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));

const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: jwtAuth({
    issuer: ISSUER,
    resource: BASE,
    jwksUri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/`,
  }),
  bindings: [mcpBinding(), mcpLiteBinding(), webtoolsBinding(), grpcBinding(), webSocketBinding()],
}).tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc"));

after(async () => {
  restoreClock();
  jwks.closeAllConnections();
  await new Promise((resolve) => jwks.close(resolve));
});

function mint(kid: string, key = keyA.privateKey): Promise<string> {
  return new SignJWT({ scope: "docs:read" })
    .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
    .setIssuer(ISSUER).setAudience(BASE).setSubject("ada").setIssuedAt().setExpirationTime("5m")
    .sign(key);
}

interface Answer {
  wire: string;
  status: number;
  retryAfter: string | null;
  challenge: string | null;
}

/** The same token on every wire that authenticates over HTTP, WebSocket's upgrade included. */
async function onEveryHttpWire(token: string): Promise<Answer[]> {
  const authorization = `Bearer ${token}`;
  const requests: [string, Request][] = [
    ["MCP-lite", post("/mcp-lite/v1/calltools", toolsCall("read_doc", {}), { authorization })],
    ["MCP 2026", modernRequest("tools/call", { name: "read_doc" }, 1, { authorization })],
    ["Webtools", post("/webtools/", { action: "read_doc", request: {} }, { authorization })],
    [
      "WebSocket upgrade",
      new Request(`${BASE}/mcp-lite/v1/ws`, {
        headers: {
          upgrade: "websocket",
          connection: "Upgrade",
          "sec-websocket-protocol": `${WEBSOCKET_PROTOCOL}, ${bearerProtocol(token)}`,
        },
      }),
    ],
  ];
  return await Promise.all(requests.map(async ([wire, request]) => {
    const response = await server.fetch(request);
    await response.body?.cancel();
    return {
      wire,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      challenge: response.headers.get("www-authenticate"),
    };
  }));
}

async function status(token: string): Promise<number> {
  const response = await server.fetch(
    post("/mcp-lite/v1/calltools", toolsCall("read_doc", {}), { authorization: `Bearer ${token}` }),
  );
  await response.body?.cancel();
  return response.status;
}

describe("a key rotated in after the last JWKS fetch", () => {
  const grpc = grpcListener(server);
  before(async () => {
    freezeClock(); // until the Retry-After is read, the cooldown runs on the clock the test moves only
    assert.equal(await status(await mint("a")), 200, "the key set is fetched");
    assert.equal(fetches, 1);
  });

  it("inside the cooldown: 503 with the seconds left as Retry-After on every wire, never 401", async () => {
    try {
      published.push({ ...(await exportJWK(keyB.publicKey)), kid: "b", alg: "ES256", use: "sig" });
      const token = await mint("b", keyB.privateKey);
      advanceClock(10_500); // 19.5 s of the 30 s cooldown left
      // Retry-After is the whole seconds left, rounded up: 20.
      const assertLeft = (value: string | null | undefined, wire: string) => {
        assert.match(value ?? "", /^\d+$/, wire);
        assert.equal(Number(value), 20, `${wire}: Retry-After ${value}`);
      };
      for (const answer of await onEveryHttpWire(token)) {
        assert.equal(answer.status, 503, answer.wire);
        assertLeft(answer.retryAfter, answer.wire);
        assert.equal(answer.challenge, null, `${answer.wire}: no invalid_token challenge, the client keeps its token`);
      }
      const refused = await rejection(
        grpc.client("gRPC").callTool({ name: "read_doc" }, { headers: { authorization: `Bearer ${token}` } }),
      );
      assert.equal(refused.code, Code.Unavailable);
      assertLeft(refused.metadata.get("retry-after"), "gRPC");
      assert.equal(refused.metadata.get("www-authenticate"), null);
      assert.equal(fetches, 1, "no fetch inside the cooldown");
    } finally {
      // The clock runs again from here, as far ahead of the fetch as moved (and as the real time taken).
      restoreClock();
      advanceClock(10_500);
    }
  });

  it("after the cooldown: one refetch, and the token is served on every wire", async () => {
    advanceClock(20_000);
    const token = await mint("b", keyB.privateKey);
    for (const answer of await onEveryHttpWire(token)) {
      // server.fetch has no socket to upgrade: past the gate, the WebSocket route answers 501.
      assert.equal(answer.status, answer.wire === "WebSocket upgrade" ? 501 : 200, answer.wire);
    }
    const listener = await serve(server, { port: 0, quiet: true });
    try {
      const url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
      const client = createClient(createWebSocketTransport(url, { token }));
      assert.equal(await client.call("read_doc", {}), "doc");
      await client.close();
    } finally {
      await listener.close();
    }
    const tools = await grpc.client("gRPC").getTools({}, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(tools.tools.map((t) => t.name), ["read_doc"]);
    assert.equal(fetches, 2);
  });

  it("a made-up kid: 503 inside the cooldown, 401 invalid_token once a fresh key set still lacks it", async () => {
    const forged = await mint("made-up");
    const [first] = await onEveryHttpWire(forged);
    assert.equal(first.status, 503);
    assert.equal(fetches, 2);
    advanceClock(30_000);
    for (const answer of await onEveryHttpWire(forged)) {
      assert.equal(answer.status, 401, answer.wire);
      assert.match(answer.challenge ?? "", /error="invalid_token"/, answer.wire);
    }
    assert.equal(fetches, 3, "one refetch for the kid");
    const refused = await rejection(
      grpc.client("gRPC").getTools({}, { headers: { authorization: `Bearer ${forged}` } }),
    );
    assert.equal(refused.code, Code.Unauthenticated);
  });

  it("a flood of 100 made-up kids costs at most one fetch per cooldown", async () => {
    const forged = await Promise.all(Array.from({ length: 100 }, (_, i) => mint(`flood-${i}`)));
    assert.deepEqual(new Set(await Promise.all(forged.map(status))), new Set([503]));
    assert.equal(fetches, 3, "none inside the cooldown");
    advanceClock(30_000);
    assert.deepEqual(new Set(await Promise.all(forged.map(status))), new Set([401]));
    assert.equal(fetches, 4, "one fetch for the whole flood");
    const again = await Promise.all(Array.from({ length: 100 }, (_, i) => mint(`flood-again-${i}`)));
    assert.deepEqual(new Set(await Promise.all(again.map(status))), new Set([503]));
    assert.equal(fetches, 4);
    assert.equal(await status(await mint("b", keyB.privateKey)), 200, "valid tokens pass throughout");
  });
});
