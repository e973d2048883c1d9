/**
 * An ID-JAG is redeemed once across instances and restarts (RFC 7523 §3 item 7; the ID-JAG's `jti`) when our
 * authorization servers share a store on a real redis-server: instance A redeems it, instance B (its own connection)
 * refuses it, and so does A once stopped and started again (a new value and a new connection, as a new process
 * would have), each with `invalid_grant`. With the redis-server killed while the server runs, the answer is honest:
 * 503 `temporarily_unavailable` with `Retry-After`, never `invalid_grant` (the assertion is not at fault).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { redisResultStore } from "../../src/redis/mod.ts";
import { type AuthServerStack, DESKTOP, SCOPES, startAuthServerStack } from "../helpers/auth-server-stack.ts";
import { REDIS_CLIENTS, type TestRedisClient } from "../helpers/redis-clients.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";

const NODE_REDIS = REDIS_CLIENTS.find((kind) => kind.name === "node-redis")!;
let redis: RedisServer;
let stack: AuthServerStack;
const connections: TestRedisClient[] = [];

/** A new connection's store; commands fail at once while Redis is down (no offline queue), within 500 ms. */
async function store() {
  const connection = await NODE_REDIS.connect(redis.url, false);
  connections.push(connection);
  return redisResultStore(connection.client, { timeoutMs: 500 });
}

before(async () => {
  if (REDIS_MISSING) return;
  redis = await startRedis();
  stack = await startAuthServerStack({ store: await store() });
});
after(async () => {
  await stack?.close();
  for (const connection of connections) connection.close();
  await redis?.stop();
});

/** Redeems an ID-JAG at an instance, as the enterprise client (client_secret_basic). */
async function redeem(at: { fetch(request: Request): Promise<Response> }, jag: string) {
  const response = await at.fetch(
    new Request(`${stack.as.issuer}/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${DESKTOP.id}:${DESKTOP.secret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: jag,
        resource: stack.resource,
      }),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const idJag = () => stack.idp.idJag({ sub: "ada", aud: stack.as.issuer, resource: stack.resource, scope: SCOPES[0] });

describe("an ID-JAG's jti on a shared redis-server", { skip: REDIS_MISSING }, () => {
  it("is redeemed once: refused on another instance, and by the same instance after a restart", async () => {
    const jag = await idJag();
    const first = await redeem(stack.as, jag);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.token_type, "Bearer");

    const other = await redeem(stack.instance(await store()), jag);
    assert.equal(other.status, 400);
    assert.equal(other.body.error, "invalid_grant");

    // A restart: the old value and its connection gone, a new one made on the same options and Redis.
    connections.shift()!.close();
    stack.as = stack.instance(await store());
    const restarted = await redeem(stack.as, jag);
    assert.equal(restarted.status, 400);
    assert.equal(restarted.body.error, "invalid_grant");
    const fresh = await redeem(stack.as, await idJag());
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  });

  it("with the redis-server killed: 503 temporarily_unavailable with Retry-After, never invalid_grant", async () => {
    const jag = await idJag();
    await redis.kill();
    const down = await redeem(stack.as, jag);
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.equal(down.body.error, "temporarily_unavailable");
    assert.ok(Number(down.headers.get("retry-after")) >= 1);
  });
});
