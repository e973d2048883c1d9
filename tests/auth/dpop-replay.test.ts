/**
 * DPoP replays across instances (RFC 9449 §11.1): a proof's `jti` is remembered in the server's
 * result store, so two instances sharing one — a real `redis-server`, or one Deno KV database opened
 * by each — refuse on one a proof already used on the other. While the store is unreachable the gate
 * answers 503 with `Retry-After` (nothing ran), never "your proof is invalid".
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createClient } from "redis";
import { createServer, defineTool, type ResultStore } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";
import { denoKvResultStore } from "../../src/deno-kv/mod.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";
import { dpopHeaders, dpopIssuer, dpopKey, ISSUER } from "../helpers/dpop.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";

const issuer = await dpopIssuer();
const key = await dpopKey();
const token = await issuer.mint(BASE, key.jkt);
const PATH = "/mcp-lite/v1/calltools";

/** One instance of the docs server, on a shared store. */
function instance(resultStore: ResultStore) {
  return createServer({
    name: "docs",
    version: "1.0.0",
    auth: jwtAuth({ issuer: ISSUER, resource: BASE, jwks: issuer.jwks, dpop: "required" }),
    resultStore,
  }).tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc"));
}

type Instance = ReturnType<typeof instance>;

const call = (server: Instance, proof: string) =>
  server.fetch(post(PATH, toolsCall("read_doc"), dpopHeaders(token, proof)));
const proof = () => key.proof({ htm: "POST", htu: BASE + PATH, token });

/** A proof taken by one instance is refused by the other; a fresh one is taken by both. */
async function assertSharedReplays(a: Instance, b: Instance): Promise<void> {
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
