/**
 * `serveGrpc()` of a server made with `auth`: plain gRPC over h2c does not go through `server.fetch`,
 * so the listener authenticates each call itself, from the `authorization` metadata, with the same
 * checks and challenges: `UNAUTHENTICATED` or `PERMISSION_DENIED` carrying `www-authenticate` in the
 * trailers (gRPC) or headers (Connect), the caller as `ctx.auth`, lists and step-up per scope set.
 */
import assert from "node:assert/strict";
import { connect } from "node:http2";
import { describe, it } from "node:test";
import { Code, type ConnectError } from "@connectrpc/connect";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import type { AuthInfo } from "../../src/core/call/call-context.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";

const RESOURCE = "https://api.example.com";
const METADATA = `${RESOURCE}/.well-known/oauth-protected-resource/mcplite.MCPLite`;

const callers: AuthInfo[] = [];
const server = createServer({
  name: "docs",
  version: "1.0.0",
  auth: opaqueAuth(RESOURCE, { requiredScopes: ["docs:read"] }),
})
  .tool(
    defineTool("read_doc").input(v.object({ id: v.string() })).handle(({ id }, ctx) => {
      callers.push(ctx.auth!);
      return `doc ${id}`;
    }),
  )
  .tool(
    defineTool("purge_stream").scopes("docs:admin").stream(async function* () {
      yield "purging ";
      yield "done";
    }),
  )
  .tool(defineTool("purge").scopes("docs:admin").handle(() => "purged"));

const challenge = (error: ConnectError) => error.metadata.get("www-authenticate");

describe("serveGrpc with auth", () => {
  const served = grpcListener(server);

  for (const kind of ["gRPC", "Connect"] as const) {
    const client = () => served.client(kind);

    it(`${kind}: no token → UNAUTHENTICATED with the challenge; a bad one → invalid_token`, async () => {
      const none = await rejection(client().callTool({ name: "read_doc", arguments: { id: "1" } }));
      assert.equal(none.code, Code.Unauthenticated);
      assert.equal(challenge(none), `Bearer scope="docs:read", resource_metadata="${METADATA}/CallTool"`);
      const bad = await rejection(client().getTools({}, { headers: bearer("forged") }));
      assert.equal(bad.code, Code.Unauthenticated);
      assert.match(challenge(bad) ?? "", /^Bearer error="invalid_token", error_description="[^"]+", scope="docs:read"/);
      assert.ok(!bad.message.includes("forged"), "the token never appears in the answer");
      const basic = await rejection(client().getTools({}, { headers: { authorization: "Basic YWRhOnNlY3JldA==" } }));
      assert.match(challenge(basic) ?? "", /error="invalid_token"/);
    });

    it(`${kind}: a token without the server's required scope → PERMISSION_DENIED insufficient_scope`, async () => {
      const error = await rejection(client().getTools({}, { headers: bearer("stranger") }));
      assert.equal(error.code, Code.PermissionDenied);
      assert.equal(
        challenge(error),
        `Bearer error="insufficient_scope", scope="docs:read", resource_metadata="${METADATA}/GetTools"`,
      );
    });

    it(`${kind}: a valid token reaches the handler as ctx.auth; GetTools lists what it may call`, async () => {
      callers.length = 0;
      const { result } = await client().callTool(
        { name: "read_doc", arguments: { id: "7" } },
        { headers: bearer("reader") },
      );
      assert.deepEqual(result?.content, [{ type: "text", text: "doc 7" }]);
      assert.equal(callers[0].subject, "reader");
      assert.deepEqual(callers[0].scopes, ["docs:read"]);
      assert.equal(callers[0].token, "reader");
      const names = async (token: string) =>
        (await client().getTools({}, { headers: bearer(token) })).tools.map((t) => t.name);
      assert.deepEqual(await names("reader"), ["read_doc"]);
      assert.deepEqual(await names("admin"), ["read_doc", "purge_stream", "purge"]);
    });

    it(`${kind}: a call without the tool's scope → PERMISSION_DENIED with the step-up challenge, unary and stream`, async () => {
      const stepUp = `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}`;
      const unary = await rejection(client().callTool({ name: "purge" }, { headers: bearer("reader") }));
      assert.equal(unary.code, Code.PermissionDenied);
      assert.equal(challenge(unary), `${stepUp}/CallTool"`);
      const stream = await rejection((async () => {
        for await (const _ of client().callToolStream({ name: "purge_stream" }, { headers: bearer("reader") })) {
          // no partial may come before the refusal
          assert.fail("the stream ran");
        }
      })());
      assert.equal(stream.code, Code.PermissionDenied);
      assert.equal(challenge(stream), `${stepUp}/CallToolStream"`);
      const granted = await client().callTool({ name: "purge" }, { headers: bearer("admin") });
      assert.deepEqual(granted.result?.content, [{ type: "text", text: "purged" }]);
    });
  }

  it("serves the Protected Resource Metadata its challenges point at", async () => {
    const session = connect(served.listener().url);
    try {
      for (
        const path of [
          "/.well-known/oauth-protected-resource",
          "/.well-known/oauth-protected-resource/mcplite.MCPLite/CallTool",
        ]
      ) {
        const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const stream = session.request({ ":method": "GET", ":path": path });
          let status = 0, body = "";
          stream.on("response", (headers) => status = Number(headers[":status"]));
          stream.setEncoding("utf8");
          stream.on("data", (chunk: string) => body += chunk);
          stream.on("end", () => resolve({ status, body }));
          stream.on("error", reject);
        });
        assert.equal(status, 200, path);
        assert.deepEqual(JSON.parse(body), {
          resource: RESOURCE,
          authorization_servers: ["https://auth.example.com"],
          bearer_methods_supported: ["header"],
          scopes_supported: ["docs:read", "docs:admin"],
        });
      }
    } finally {
      session.destroy(); // not close(): no GOAWAY in flight for Deno's node:http2 (tests/helpers/h2-sessions.ts)
    }
  });
});
