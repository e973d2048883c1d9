/**
 * An ID-JAG is redeemed once across authorization servers that share a result store (RFC 7523 §3 item 7):
 * on a second instance, and after a restart (a new instance over the same store); a store that came back
 * empty refuses an ID-JAG issued before its memory began. The IdP's keys come from its `jwks_uri` on a
 * 127.0.0.1 listener (remoteKeys()), and instances given the same signing key publish the same JWKS.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { exportJWK, generateKeyPair } from "jose";
import { serve } from "../../mod.ts";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import type { AuthorizationServerOptions } from "../../src/auth-server/mod.ts";
import { createMemoryResultStore, type ResultStore } from "../../src/jobs/result-store.ts";
import { sharedStoreOf } from "../../src/store/store-of.ts";
import { memoryStart } from "../../src/server/dpop-epoch.ts";
import { advanceClock, restoreClock } from "../helpers/clock.ts";
import {
  AS_ISSUER,
  basic,
  idJag,
  idJagClaims,
  IDP,
  JWT_BEARER,
  RESOURCE,
  signer,
  tokenRequest,
} from "../helpers/assertion-issuers.ts";

const idp = await signer();
const jwksListener = await serve({ fetch: () => Response.json(idp.jwks) }, {
  port: 0,
  hostname: "127.0.0.1",
  quiet: true,
});
after(() => jwksListener.close());
const { privateKey } = await generateKeyPair("ES256", { extractable: true });
const signingKey = await exportJWK(privateKey);

/**
 * A store whose memory of used assertions has begun, as on servers that have been running: an ID-JAG issued in the
 * second before it began is refused (src/auth-server/replay.ts), as one issued before an instance is made could be.
 */
async function begunStore(): Promise<ResultStore> {
  const store = createMemoryResultStore();
  await memoryStart(sharedStoreOf(store));
  return store;
}

/** An instance over `store`, with the shared signing key. */
function instance(store: ResultStore, overrides: Partial<AuthorizationServerOptions> = {}) {
  return authorizationServer({
    issuer: AS_ISSUER,
    resources: { [RESOURCE]: { scopes: ["docs:read"] } },
    trustedIssuers: [{ issuer: IDP, jwksUri: `${jwksListener.url}/jwks`, accepts: ["id-jag"] }],
    clients: { desktop: { secret: "desktop-secret" } },
    signingKeys: [{ key: signingKey, kid: "as-1" }],
    store,
    ...overrides,
  });
}

async function redeem(
  as: ReturnType<typeof instance>,
  jag: string,
): Promise<{ status: number; error?: string; why?: string }> {
  const response = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion: jag }, {
    authorization: basic("desktop", "desktop-secret"),
  }));
  const body = await response.json();
  return response.status === 200
    ? { status: 200 }
    : { status: response.status, error: body.error, why: body.error_description };
}

describe("authorizationServer(): one use per ID-JAG across instances and restarts", () => {
  it("refuses on a second instance sharing the store an ID-JAG the first redeemed", async () => {
    const store = await begunStore();
    const [first, second] = [instance(store), instance(store)];
    const jag = await idJag(idp, idJagClaims("desktop"));
    const answers = await Promise.all([redeem(first, jag), redeem(second, jag)]); // at once: one wins
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400]);
    assert.match(answers.find((a) => a.status === 400)?.why ?? "", /used already/);
    assert.match((await redeem(second, jag)).why ?? "", /used already/);
  });

  it("refuses after a restart (a new instance over the same store) what was redeemed before it", async () => {
    const store = await begunStore();
    const jag = await idJag(idp, idJagClaims("desktop"));
    assert.equal((await redeem(instance(store), jag)).status, 200);
    const restarted = instance(store);
    assert.deepEqual(await redeem(restarted, jag), {
      status: 400,
      error: "invalid_grant",
      why: "the assertion was used already (its jti is known)",
    });
    assert.equal((await redeem(restarted, await idJag(idp, idJagClaims("desktop")))).status, 200);
  });

  it("refuses, over a store that came back empty, an ID-JAG issued before its memory began", async () => {
    const now = Math.floor(Date.now() / 1000);
    const before = await idJag(idp, idJagClaims("desktop", { iat: now - 5, exp: now + 295 }));
    const fresh = instance(createMemoryResultStore());
    const refused = await redeem(fresh, before);
    assert.equal(refused.error, "invalid_grant");
    assert.match(refused.why ?? "", /before this server's memory of used assertions began/);
  });

  it("takes an ID-JAG issued right after the instance was made, however late its store answers", async () => {
    // The store's memory begins when the instance is made, not when a slow store (it answers reads 1.1 s after the
    // instance was made here: a cold connection) writes the marker: an ID-JAG issued meanwhile was never used with it.
    const inner = createMemoryResultStore();
    const answers = Promise.withResolvers<void>();
    const store: ResultStore = Object.assign(Object.create(inner), {
      async get(key: string) {
        await answers.promise;
        return await inner.get(key);
      },
    });
    const made = instance(store);
    const jag = await idJag(idp, idJagClaims("desktop")); // its iat: the second the instance was made, or the next
    // The store answers 1.1 s later, on a clock the test moves instead of waiting.
    advanceClock(1_100);
    try {
      answers.resolve();
      assert.deepEqual(await redeem(made, jag), { status: 200 });
    } finally {
      restoreClock();
    }
  });

  it("publishes the same key set on every instance given the same signing key, its public part only", async () => {
    const store = createMemoryResultStore();
    const sets = await Promise.all(
      [instance(store), instance(store)].map(async (as) =>
        await (await as.fetch(new Request(`${AS_ISSUER}/jwks`))).json()
      ),
    );
    assert.deepEqual(sets[0], sets[1]);
    assert.equal(sets[0].keys.length, 1);
    assert.equal(sets[0].keys[0].kid, "as-1");
    assert.equal(sets[0].keys[0].d, undefined);
  });
});
