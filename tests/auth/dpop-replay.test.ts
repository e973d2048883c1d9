/**
 * DPoP replays across instances (RFC 9449 §11.1): a proof's `jti` is remembered in the server's
 * result store, so two instances sharing one — a real `redis-server`, or one Deno KV database opened
 * by each — refuse on one a proof already used on the other. While the store is unreachable the gate
 * answers 503 with `Retry-After` (nothing ran), never "your proof is invalid". When the store comes back
 * empty (Redis killed and restarted without persistence), the proofs it took are not taken again: a
 * proof that may predate the store's new memory needs a nonce issued since (§8).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { createClient } from "redis";
import { createServer, defineTool, type ResultStore } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { ASYMMETRIC_ALGORITHMS } from "../../src/auth/jwt-auth.ts";
import { dpopPolicy } from "../../src/auth/dpop-proof.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { redisStore } from "../../src/redis/redis-store.ts";
import { storeSpace } from "../../src/store/store-space.ts";
import { denoKvResultStore } from "../../src/deno-kv/mod.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";
import { dpopHeaders, dpopIssuer, dpopKey, ISSUER, withNonce, youngMemoryNonce } from "../helpers/dpop.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";
import { waitFor } from "../helpers/long-running.ts";

const issuer = await dpopIssuer();
const key = await dpopKey();
/** Minted before the tests (good for 5 minutes), not as the file loads: a runner may load it minutes earlier. */
let token = "";
const PATH = "/mcp-lite/v1/calltools";

/** One instance of the docs server, on a shared store; proofs are accepted `windowSec` around their `iat`. */
function instance(resultStore: ResultStore, windowSec?: number) {
  const auth = jwtAuth({ issuer: ISSUER, resource: BASE, jwks: issuer.jwks, dpop: "required" });
  const dpop = dpopPolicy({ mode: "required", algorithms: ASYMMETRIC_ALGORITHMS, resource: BASE, windowSec });
  return createServer({ name: "docs", version: "1.0.0", auth: { ...auth, dpop }, resultStore })
    .tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc"));
}

type Instance = ReturnType<typeof instance>;

const call = (server: Instance, proof: string) =>
  server.fetch(post(PATH, toolsCall("read_doc"), dpopHeaders(token, proof)));
const proof = (nonce?: string) => key.proof({ htm: "POST", htu: BASE + PATH, token, nonce });

/** A proof taken by one instance is refused by the other; a fresh one is taken by both. */
async function assertSharedReplays(a: Instance, b: Instance): Promise<void> {
  // The store's replay memory is new: proofs carry a nonce it issued (RFC 9449 §8), taken by both.
  const nonce = await youngMemoryNonce(a.fetch, key, token, BASE + PATH);
  const proof = () => withNonce(key, nonce).proof({ htm: "POST", htu: BASE + PATH, token });
  const once = await proof();
  assert.equal((await call(a, once)).status, 200);
  const replayed = await call(b, once);
  assert.equal(replayed.status, 401);
  assert.match(
    replayed.headers.get("www-authenticate")!,
    /^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used already"/,
  );
  await replayed.body?.cancel();
  assert.equal((await call(b, await proof())).status, 200);
  assert.equal((await call(a, await proof())).status, 200);
}

if (REDIS_MISSING) console.error(`redis: skipped: ${REDIS_MISSING}`);

describe("DPoP replays across instances", () => {
  before(async () => {
    token = await issuer.mint(BASE, key.jkt);
  });
  it("two instances sharing Redis refuse a proof used on the other; Redis down is 503", {
    skip: REDIS_MISSING,
    timeout: 30_000,
  }, async () => {
    const redis = await startRedis();
    const clients = await Promise.all(
      [0, 1].map(() =>
        createClient({ url: redis.url, disableOfflineQueue: true, socket: { reconnectStrategy: false } })
          .on("error", () => {})
          .connect()
      ),
    );
    try {
      const prefix = `dpop:${crypto.randomUUID()}:`;
      const [a, b] = clients.map((client) => instance(redisResultStore(client, { prefix })));
      await assertSharedReplays(a, b);
      await redis.kill();
      const down = await call(a, await proof());
      assert.equal(down.status, 503);
      assert.equal(down.headers.get("retry-after"), "1");
      assert.equal(down.headers.get("www-authenticate"), null);
      await down.body?.cancel();
    } finally {
      for (const client of clients) if (client.isOpen) client.destroy();
      await redis.stop();
    }
  });

  it("three instances on Redis take no proof twice across a kill -9 and an empty restart", {
    skip: REDIS_MISSING,
    timeout: 60_000,
  }, async () => {
    const WINDOW_SEC = 12;
    let redis = await startRedis();
    const port = redis.port;
    // Clients that reconnect, as in production: the restarted server is found again on its port.
    const clients = await Promise.all(
      [0, 1, 2].map(() =>
        createClient({ url: redis.url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 } })
          .on("error", () => {})
          .connect()
      ),
    );
    try {
      const prefix = `dpop:${crypto.randomUUID()}:`;
      const servers = clients.map((client) => instance(redisResultStore(client, { prefix }), WINDOW_SEC));
      // A store whose memory is older than a window takes proofs without a nonce, as a long-lived one does.
      assert.equal((await call(servers[0], await proof())).status, 401); // young: a nonce is asked for
      // Its memory made a window old as a long-lived store's is, rather than waited out: the marker of when it began
      // (src/server/dpop-epoch.ts), written back by a window and a second, in the store all three instances share.
      await storeSpace<number>(redisStore(clients[0], { prefix }), "dpop")
        .put("epoch", Date.now() - (WINDOW_SEC + 1) * 1000, 60_000);
      const aged = await call(servers[0], await proof());
      assert.equal(aged.status, 200, await aged.clone().text());
      await aged.body?.cancel();
      const taken: string[] = [];
      for (let i = 0; i < 60; i++) {
        const once = await proof();
        const response = await call(servers[i % 3], once);
        assert.equal(response.status, 200, await response.clone().text());
        await response.body?.cancel();
        taken.push(once);
      }
      await redis.kill();
      redis = await startRedis({ port }); // empty: no persistence
      await waitFor(() => clients.every((client) => client.isReady));
      let accepted = 0;
      let unavailable = 0;
      const reasons = new Set<string>();
      for (const server of servers) {
        for (const once of taken) {
          let response = await call(server, once);
          // A store command slower than its bound (a loaded machine) is 503 with Retry-After, nothing taken:
          // sent again after it, as a client does, until the store answers (at most 10 times).
          for (let retry = 0; response.status === 503 && retry < 10; retry++) {
            assert.equal(response.headers.get("retry-after"), "1");
            await response.body?.cancel();
            unavailable++;
            await new Promise((resolve) => setTimeout(resolve, 1000)); // the Retry-After the answer asked for
            response = await call(server, once);
          }
          if (response.status === 200) accepted++;
          else reasons.add(`${response.status} ${response.headers.get("www-authenticate")?.split(",")[0]}`);
          await response.body?.cancel();
        }
      }
      assert.equal(accepted, 0);
      if (unavailable > 0) console.error(`dpop-replay: ${unavailable} replays answered 503 first (the store was slow)`);
      // Each is asked for a nonce issued since the store came back (none from before can carry one), or,
      // on a machine so slow that its window has passed, refused as stale.
      assert.ok(reasons.has('401 DPoP error="use_dpop_nonce"'), [...reasons].join("; "));
      for (const reason of reasons) assert.match(reason, /^401 DPoP error="(use_dpop_nonce|invalid_dpop_proof)"$/);
      // A client that follows the nonce (RFC 9449 §9) is served on every instance at once.
      const refused = await call(servers[1], await proof());
      assert.equal(refused.status, 401);
      const nonce = refused.headers.get("dpop-nonce")!;
      await refused.body?.cancel();
      for (const server of servers) assert.equal((await call(server, await proof(nonce))).status, 200);
    } finally {
      for (const client of clients) if (client.isOpen) client.destroy();
      await redis.stop();
    }
  });

  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  const kvMissing: string | false = typeof deno?.openKv === "function"
    ? false
    : 'Deno KV runs under Deno only (deno test --unstable-kv, or "unstable": ["kv"] in deno.json)';
  it("two instances sharing a Deno KV database refuse a proof used on the other", { skip: kvMissing }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-dpop-kv-"));
    const kvs = [await deno!.openKv(join(dir, "kv.sqlite3")), await deno!.openKv(join(dir, "kv.sqlite3"))];
    try {
      const [a, b] = kvs.map((kv) => instance(denoKvResultStore(kv)));
      await assertSharedReplays(a, b);
    } finally {
      for (const kv of kvs) kv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
