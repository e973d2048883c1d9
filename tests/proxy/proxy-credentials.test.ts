/**
 * `proxy()` and credentials: by default the remote gets the proxy's own credentials and never the caller's
 * `Authorization`; `forwardCallerToken` sends a caller's token only when its audience (RFC 8707) names the
 * remote; `exchangeToken` sends what the RFC 8693 hook exchanged it for. The remote is the SDK v2 server.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import type { AuthInfo } from "../../src/core/call/host.ts";
import { proxy, type ProxyOptions } from "../../src/proxy/mod.ts";
import { type Peer, sdkV2Peer } from "./peers.ts";
import { protectedResource } from "../../src/auth/mod.ts";

const GATEWAY = "https://gateway.example.com";
const REMOTE = "https://remote.example.com";

/** Tokens the gateway accepts: `for-gateway` (aud: the gateway) and `for-both` (aud: the gateway and the remote). */
const AUDIENCES: Record<string, string[]> = { "for-gateway": [GATEWAY], "for-both": [GATEWAY, REMOTE] };

/** A gateway behind bearer authentication, proxying the peer with `options`. */
async function gatewayOf(peer: Peer, options: ProxyOptions, stop: AbortSignal) {
  return createServer({
    name: "gateway",
    version: "1.0.0",
    auth: protectedResource({
      resource: GATEWAY,
      authorizationServers: ["https://auth.example.com"],
      verify: (token: string): AuthInfo | undefined =>
        AUDIENCES[token] === undefined ? undefined : { subject: "ada", token, claims: { aud: AUDIENCES[token] } },
    }),
  }).group("remote", await proxy(peer.url, { ...options, refreshMs: 0, signal: stop }));
}

describe("proxy() and the caller's credentials", () => {
  let peer: Peer;
  const stop = new AbortController();
  before(async () => {
    peer = await sdkV2Peer();
  });
  after(async () => {
    stop.abort();
    await peer.close();
  });

  /** Calls the remote's `add` through the gateway with a token; what Authorization the remote received. */
  async function sent(options: ProxyOptions, token: string): Promise<string[]> {
    const gateway = await gatewayOf(peer, options, stop.signal);
    const client = createClient(gateway, { transport: "mcp-lite", headers: { authorization: `Bearer ${token}` } });
    const seen = peer.authorizations.length;
    assert.deepEqual(await client.call("remote.add", { a: 1, b: 2 }), { sum: 3 });
    return peer.authorizations.slice(seen);
  }

  it("sends the proxy's own credentials by default, never the caller's", async () => {
    assert.deepEqual(await sent({}, "for-both"), []);
    const own = await sent({ headers: { authorization: "Bearer the-gateways-own" } }, "for-both");
    assert.ok(own.length > 0 && own.every((a) => a === "Bearer the-gateways-own"), own.join());
  });

  it("forwards a caller's token only when its audience names the remote", async () => {
    const options = { headers: { authorization: "Bearer the-gateways-own" }, forwardCallerToken: { audience: REMOTE } };
    const notForIt = await sent(options, "for-gateway");
    assert.ok(notForIt.every((a) => a === "Bearer the-gateways-own"), notForIt.join());
    const forIt = await sent(options, "for-both");
    assert.ok(forIt.length > 0 && forIt.every((a) => a === "Bearer for-both"), forIt.join());
  });

  it("sends the token an RFC 8693 exchange hook gives for the caller's", async () => {
    const exchanged: string[] = [];
    const exchangeToken = (token: string, caller: AuthInfo) => {
      exchanged.push(`${caller.subject}:${token}`);
      return `exchanged-${token}`;
    };
    const got = await sent({ exchangeToken }, "for-gateway");
    assert.ok(got.length > 0 && got.every((a) => a === "Bearer exchanged-for-gateway"), got.join());
    assert.ok(exchanged.includes("ada:for-gateway"));
  });

  it("refuses a forwarding option for a target that has no headers", async () => {
    await assert.rejects(
      proxy({ command: "true" }, { forwardCallerToken: { audience: REMOTE } }),
      /need a URL target/,
    );
  });
});
