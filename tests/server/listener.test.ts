/**
 * `attachListener(server)`: how a carrier that does not go through `server.fetch` reaches a server,
 * its core and its gate, and serves through them with the same authentication and challenges.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import type { ProtocolError } from "../../src/errors/mod.ts";
import { attachListener, runCall } from "../../src/binding.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";

const whoami = defineTool("whoami").handle((_args, ctx) => ctx.auth?.subject ?? "nobody");
const purge = defineTool("purge").scopes("docs:admin").handle(() => "purged");

/**
 * A toy carrier: one call per message `{ name, token }`, answered `{ ok, text }` or
 * `{ refused, challenge }`, authenticated by the gate as every carrier is.
 */
function toyCarrier(server: object) {
  const { core, gate } = attachListener(server);
  const PATH = "/toy";
  return async (message: { name: string; token?: string }) => {
    const headers = new Headers(message.token === undefined ? {} : bearer(message.token));
    let caller;
    try {
      caller = await gate.authenticate(new Request(`http://localhost${PATH}`, { headers }));
    } catch (refusal) {
      return { refused: (refusal as ProtocolError).code, challenge: gate.challenge(refusal, PATH) };
    }
    try {
      const outcome = await runCall(core.registry, {
        name: message.name,
        arguments: {},
        meta: { wire: "in-process", headers },
        signal: new AbortController(),
        host: { auth: caller },
      });
      const block = outcome.kind === "answer" ? outcome.result.content[0] : undefined;
      return { ok: true, text: block?.type === "text" ? block.text : undefined };
    } catch (error) {
      return { refused: (error as ProtocolError).code, challenge: gate.challenge(error, PATH) };
    }
  };
}

describe("attachListener", () => {
  it("gives every listener the same core and gate, made once with the server", () => {
    const server = createServer({ name: "demo", version: "1.0.0" });
    const first = attachListener(server);
    assert.equal(attachListener(server), first);
    assert.ok(Object.isFrozen(first));
    assert.equal(first.core.options.name, "demo");
    assert.equal(first.gate.auth, undefined);
    server.tool(whoami);
    assert.ok(registryOf(first.core).get("whoami"), "the registry is the server's own, not a copy");
  });

  it("refuses anything createServer() did not make", () => {
    const server = createServer({ name: "demo", version: "1.0.0" });
    for (const other of [{}, { fetch: server.fetch }, Object.create(server)]) {
      assert.throws(() => attachListener(other), TypeError);
    }
  });

  it("lets a listener authenticate, run and refuse calls as server.fetch does", async () => {
    const server = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth() }).tool(whoami).tool(purge);
    const carrier = toyCarrier(server);
    assert.deepEqual(await carrier({ name: "whoami", token: "reader" }), { ok: true, text: "reader" });
    assert.deepEqual(await carrier({ name: "whoami" }), {
      refused: "unauthenticated",
      challenge: 'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/toy"',
    });
    assert.deepEqual(await carrier({ name: "purge", token: "reader" }), {
      refused: "permission_denied",
      challenge:
        'Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="http://localhost/.well-known/oauth-protected-resource/toy"',
    });
    assert.deepEqual(await carrier({ name: "purge", token: "admin" }), { ok: true, text: "purged" });
  });
});
