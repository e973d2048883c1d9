/**
 * DPoP on the client (RFC 9449): a real authorization server (oidc-provider) binds the tokens to the
 * client's key, and the resource server in front of our MCP server checks every request's proof
 * (tests/helpers/dpop-resource.ts). MCP-lite, MCP and Connect all carry it; nonces from both servers
 * are answered; the key pair is kept in the token store beside the tokens, non-extractable.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeJwt } from "jose";
import { createClient } from "../../../src/client/mod.ts";
import { clientCredentials, memoryTokenStore } from "../../../src/client/oauth/mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../../src/errors/mod.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";
import type { Client } from "../../../src/client/client.ts";
import type { ClientAuth } from "../../../src/client/http.ts";
import { SERVICE_CLIENT } from "../../helpers/authorization-server.ts";
import { type DpopResource, RESOURCE_NONCE, startDpopResource } from "../../helpers/dpop-resource.ts";

const TIMEOUT = { timeout: 30_000 };

function clientFor(server: DpopResource, wire: "mcp-lite" | "mcp" | "connect", auth: ClientAuth): Client {
  if (wire === "connect") return createClient(grpcTransport(server.listener.url, { auth }));
  return createClient(wire === "mcp" ? `${server.listener.url}/mcp` : server.listener.url, { transport: wire, auth });
}

async function withServer(options: { nonce?: boolean }, run: (server: DpopResource) => Promise<void>): Promise<void> {
  const server = await startDpopResource(options);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe("dpop: true", () => {
  for (const wire of ["mcp-lite", "mcp", "connect"] as const) {
    it(`${wire}: gets a DPoP-bound token and proves every request with the same key`, TIMEOUT, async () => {
      await withServer({}, async (server) => {
        const auth = clientCredentials({
          clientId: SERVICE_CLIENT.id,
          clientSecret: SERVICE_CLIENT.secret,
          dpop: true,
        });
        const client = clientFor(server, wire, auth);
        try {
          assert.equal(await client.call("echo", { text: "one" }), "one");
          assert.equal(await client.call("echo", { text: "two" }), "two");
        } finally {
          await client.close();
        }
        assert.ok(server.accepted.length >= 2, "each request carried an accepted proof");
        assert.equal(new Set(server.accepted.map((proof) => proof.jti)).size, server.accepted.length, "fresh jti");
        assert.equal(new Set(server.accepted.map((proof) => proof.jkt)).size, 1, "one key");
        assert.ok(server.accepted.every((proof) => proof.htm === "POST" && proof.htu.startsWith(server.listener.url)));
        assert.deepEqual(server.refused, []);
      });
    });
  }

  it("answers use_dpop_nonce from the authorization server and the resource server, once each", TIMEOUT, async () => {
    await withServer({ nonce: true }, async (server) => {
      const auth = clientCredentials({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, dpop: true });
      // What the token endpoint answered, seen through the fetch the auth wraps.
      const tokenAnswers: string[] = [];
      const client = createClient(server.listener.url, {
        transport: "mcp-lite",
        auth,
        fetch: async (request) => {
          const proof = request.headers.get("dpop");
          const response = await fetch(request);
          if (request.url === server.as.tokenEndpoint) {
            const nonce = proof === null ? undefined : decodeJwt(proof).nonce;
            tokenAnswers.push(`${response.status} ${nonce === undefined ? "no nonce" : "nonce"}`);
          }
          return response;
        },
      });
      try {
        assert.equal(await client.call("echo", { text: "nonce" }), "nonce");
        assert.equal(await client.call("echo", { text: "again" }), "again");
      } finally {
        await client.close();
      }
      // RFC 9449 §8: the token request without a nonce is refused, the retry with it succeeds.
      assert.deepEqual(tokenAnswers, ["400 no nonce", "200 nonce"]);
      // RFC 9449 §9: the first proof to the resource had no nonce; the retry and every later one carry it.
      assert.deepEqual(server.refused, ["use_dpop_nonce"]);
      assert.ok(server.accepted.length >= 2 && server.accepted.every((proof) => proof.nonce === RESOURCE_NONCE));
    });
  });

  it(
    "keeps the key pair in the token store, non-extractable, and reuses it with the stored token",
    TIMEOUT,
    async () => {
      await withServer({}, async (server) => {
        const storage = memoryTokenStore();
        const options = { clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, dpop: true, storage };
        const first = clientFor(server, "mcp-lite", clientCredentials(options));
        try {
          await first.call("echo", { text: "a" });
        } finally {
          await first.close();
        }
        const stored = await storage.get(server.listener.url);
        assert.equal(stored?.tokens?.tokenType, "dpop");
        assert.equal(stored?.dpopKey?.privateKey.extractable, false);
        const second = clientFor(server, "mcp-lite", clientCredentials(options));
        try {
          await second.call("echo", { text: "b" });
        } finally {
          await second.close();
        }
        assert.equal(
          new Set(server.accepted.map((proof) => proof.jkt)).size,
          1,
          "the stored key signs for the stored token",
        );
        assert.equal((await storage.get(server.listener.url))?.tokens?.accessToken, stored?.tokens?.accessToken);
      });
    },
  );

  it(
    "without dpop, a DPoP-only challenge stops the client: unauthenticated, no bearer token sent",
    TIMEOUT,
    async () => {
      await withServer({}, async (server) => {
        const client = clientFor(
          server,
          "mcp-lite",
          clientCredentials({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret }),
        );
        try {
          await assert.rejects(client.call("echo", { text: "x" }), (error: Error) => {
            assert.ok(error instanceof McpliteError && !(error instanceof ProtocolError), error.name);
            assert.equal(error.code, ErrorCode.Unauthenticated);
            assert.match(error.message, /requires DPoP-bound access tokens .*set dpop: true/);
            return true;
          });
        } finally {
          await client.close();
        }
        assert.deepEqual(server.refused, [], "no bearer token reached the resource");
      });
    },
  );
});
