/**
 * DPoP at authorizationServer()'s token endpoint (RFC 9449 §5): a proof binds the token (`cnf.jkt`,
 * `token_type` `DPoP`); a replayed proof, one for another URL, or one without the nonce a new store's first
 * minute asks for (§8) is refused; an ID-JAG bound to a key (its `cnf.jkt`) is redeemed only with a proof by
 * that key (draft-ietf-oauth-identity-assertion-authz-grant §8.6).
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import {
  AS_ISSUER,
  basic,
  claimsOf,
  type DpopKey,
  dpopKey,
  idJag,
  idJagClaims,
  IDP,
  JWT_BEARER,
  RESOURCE,
  signer,
  tokenRequest,
} from "../helpers/assertion-issuers.ts";

const idp = await signer();
/** A server over a new store: made before each test, since its store's first minute is what asks for a nonce
 * (a server made when the file is loaded may be minutes old when a shared Deno process reaches these tests). */
const newServer = () =>
  authorizationServer({
    issuer: AS_ISSUER,
    resources: { [RESOURCE]: { scopes: ["docs:read"] } },
    trustedIssuers: [{ issuer: IDP, jwks: idp.jwks, accepts: ["id-jag"] }],
    clients: { desktop: { secret: "desktop-secret" } },
  });
let as = newServer();

async function redeem(assertion: string, dpop?: string) {
  const response = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion }, {
    authorization: basic("desktop", "desktop-secret"),
    ...(dpop === undefined ? {} : { dpop }),
  }));
  return { status: response.status, body: await response.json(), nonce: response.headers.get("dpop-nonce") };
}

/** The server's nonce: a new store's memory of proofs is new, so its first minute's proofs carry one (§8). */
async function nonceFor(key: DpopKey): Promise<string> {
  const asked = await redeem(await idJag(idp, idJagClaims("desktop")), await key.proof());
  assert.equal(asked.status, 400, JSON.stringify(asked.body));
  assert.equal(asked.body.error, "use_dpop_nonce");
  assert.ok(asked.nonce);
  return asked.nonce;
}

describe("authorizationServer(): DPoP", () => {
  beforeEach(() => {
    as = newServer();
  });
  it("binds the token to the proof's key, and refuses the proof replayed", async () => {
    const key = await dpopKey();
    const nonce = await nonceFor(key);
    const proof = await key.proof({ nonce });
    const answer = await redeem(await idJag(idp, idJagClaims("desktop")), proof);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, "DPoP");
    assert.deepEqual(claimsOf(answer.body.access_token).cnf, { jkt: key.jkt });
    const jag = await idJag(idp, idJagClaims("desktop"));
    const replayed = await redeem(jag, proof);
    assert.equal(replayed.status, 400);
    assert.equal(replayed.body.error, "invalid_dpop_proof");
    assert.match(replayed.body.error_description, /used already/);
    assert.equal((await redeem(jag, await key.proof({ nonce }))).status, 200); // the ID-JAG was not used up
  });

  it("refuses a proof for another URL, or not a proof", async () => {
    const key = await dpopKey();
    const nonce = await nonceFor(key);
    const elsewhere = await redeem(
      await idJag(idp, idJagClaims("desktop")),
      await key.proof({ nonce, htu: `${AS_ISSUER}/other` }),
    );
    assert.deepEqual([elsewhere.status, elsewhere.body.error], [400, "invalid_dpop_proof"]);
    const garbage = await redeem(await idJag(idp, idJagClaims("desktop")), "not-a-proof");
    assert.deepEqual([garbage.status, garbage.body.error], [400, "invalid_dpop_proof"]);
  });

  it("redeems an ID-JAG bound to a key only with a proof by that key", async () => {
    const [key, other] = [await dpopKey(), await dpopKey()];
    const nonce = await nonceFor(key);
    const bound = () => idJag(idp, idJagClaims("desktop", { cnf: { jkt: key.jkt } }));
    const without = await redeem(await bound());
    assert.deepEqual([without.status, without.body.error], [400, "invalid_grant"]);
    const byOther = await redeem(await bound(), await other.proof({ nonce }));
    assert.deepEqual([byOther.status, byOther.body.error], [400, "invalid_grant"]);
    const byKey = await redeem(await bound(), await key.proof({ nonce }));
    assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
    assert.deepEqual(claimsOf(byKey.body.access_token).cnf, { jkt: key.jkt });
  });
});
