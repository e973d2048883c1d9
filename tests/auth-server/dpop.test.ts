/**
 * DPoP at authorizationServer()'s token endpoint (RFC 9449 §5): a proof binds the token (`cnf.jkt`,
 * `token_type` `DPoP`); a replayed proof, or one for another URL, is refused; without `dpopNonce` no nonce is
 * asked for, not even in a new store's first minute (a replayed proof there earns a token bound to a key the
 * replayer lacks); with `dpopNonce: true` every proof carries one (§8); an ID-JAG bound to a key (its
 * `cnf.jkt`) is redeemed only with a proof by that key (draft-ietf-oauth-identity-assertion-authz-grant §8.6).
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import {
  AS_ISSUER,
  basic,
  claimsOf,
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
/** A server over a new store, made before each test: a new store's first minute is when its memory of proofs
 * is new (a server made when the file is loaded may be minutes old when a shared Deno process reaches these tests). */
const newServer = (dpopNonce = false) =>
  authorizationServer({
    issuer: AS_ISSUER,
    resources: { [RESOURCE]: { scopes: ["docs:read"] } },
    trustedIssuers: [{ issuer: IDP, jwks: idp.jwks, accepts: ["id-jag"] }],
    clients: { desktop: { secret: "desktop-secret" } },
    dpopNonce,
  });
let as = newServer();

async function redeem(assertion: string, dpop?: string) {
  const response = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion }, {
    authorization: basic("desktop", "desktop-secret"),
    ...(dpop === undefined ? {} : { dpop }),
  }));
  return { status: response.status, body: await response.json(), nonce: response.headers.get("dpop-nonce") };
}

describe("authorizationServer(): DPoP", () => {
  beforeEach(() => {
    as = newServer();
  });
  it("binds the token to the proof's key, and refuses the proof replayed", async () => {
    const key = await dpopKey();
    const proof = await key.proof();
    const answer = await redeem(await idJag(idp, idJagClaims("desktop")), proof);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, "DPoP");
    assert.deepEqual(claimsOf(answer.body.access_token).cnf, { jkt: key.jkt });
    const jag = await idJag(idp, idJagClaims("desktop"));
    const replayed = await redeem(jag, proof);
    assert.equal(replayed.status, 400);
    assert.equal(replayed.body.error, "invalid_dpop_proof");
    assert.match(replayed.body.error_description, /used already/);
    assert.equal((await redeem(jag, await key.proof())).status, 200); // the ID-JAG was not used up
  });

  it("asks no nonce without dpopNonce, even in its new store's first minute", async () => {
    // The store was made with the server, just now: its memory of proofs began after any proof it could have taken.
    const key = await dpopKey();
    const answer = await redeem(await idJag(idp, idJagClaims("desktop")), await key.proof());
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.nonce, null);
  });

  it("with dpopNonce: true, asks every proof for its nonce and takes the proof that carries it", async () => {
    as = newServer(true);
    const key = await dpopKey();
    const asked = await redeem(await idJag(idp, idJagClaims("desktop")), await key.proof());
    assert.deepEqual([asked.status, asked.body.error], [400, "use_dpop_nonce"], JSON.stringify(asked.body));
    assert.ok(asked.nonce);
    const unknown = await redeem(await idJag(idp, idJagClaims("desktop")), await key.proof({ nonce: "not-issued" }));
    assert.deepEqual([unknown.status, unknown.body.error], [400, "use_dpop_nonce"]);
    const answer = await redeem(await idJag(idp, idJagClaims("desktop")), await key.proof({ nonce: asked.nonce }));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(claimsOf(answer.body.access_token).cnf, { jkt: key.jkt });
  });

  it("refuses a proof for another URL, two proofs, or not a proof", async () => {
    const key = await dpopKey();
    const elsewhere = await redeem(
      await idJag(idp, idJagClaims("desktop")),
      await key.proof({ htu: `${AS_ISSUER}/other` }),
    );
    assert.deepEqual([elsewhere.status, elsewhere.body.error], [400, "invalid_dpop_proof"]);
    assert.match(elsewhere.body.error_description, /another URL/);
    const two = await redeem(await idJag(idp, idJagClaims("desktop")), `${await key.proof()}, ${await key.proof()}`);
    assert.deepEqual([two.status, two.body.error], [400, "invalid_dpop_proof"]);
    const garbage = await redeem(await idJag(idp, idJagClaims("desktop")), "not-a-proof");
    assert.deepEqual([garbage.status, garbage.body.error], [400, "invalid_dpop_proof"]);
  });

  it("redeems an ID-JAG bound to a key only with a proof by that key", async () => {
    const [key, other] = [await dpopKey(), await dpopKey()];
    const bound = () => idJag(idp, idJagClaims("desktop", { cnf: { jkt: key.jkt } }));
    const without = await redeem(await bound());
    assert.deepEqual([without.status, without.body.error], [400, "invalid_grant"]);
    const byOther = await redeem(await bound(), await other.proof());
    assert.deepEqual([byOther.status, byOther.body.error], [400, "invalid_grant"]);
    const byKey = await redeem(await bound(), await key.proof());
    assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
    assert.deepEqual(claimsOf(byKey.body.access_token).cnf, { jkt: key.jkt });
  });
});
