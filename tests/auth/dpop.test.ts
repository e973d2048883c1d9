/**
 * DPoP-bound access tokens on the server (RFC 9449) with `jwtAuth({ dpop })`: a token bound to a key
 * (`cnf.jkt`) is taken only with `Authorization: DPoP` and a proof of this very request by that key
 * (§4.3: `typ`, signature by the header's `jwk`, asymmetric algorithms only, `htm`, `htu` without
 * query, `iat` within the window, `ath`), used once (§11.1). Each refusal carries `WWW-Authenticate:
 * DPoP error=…, algs=…` (§7.1) pointing at the metadata (RFC 9728 §5.1); a bound token presented as a
 * bearer token is refused (§7.2); the metadata advertises DPoP (§5.2). Proofs are written with jose.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { SignJWT } from "jose";
import { Code } from "@connectrpc/connect";
import {
  cors,
  createMemoryResultStore,
  createServer,
  defineTool,
  mcpLiteBinding,
  type ResultStore,
} from "../../mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { createServer as createLiteServer } from "../../src/lite/mod.ts";
import { grpcListener } from "../helpers/grpc-listener.ts";
import { rejection } from "../bindings/grpc/grpc-fixtures.ts";
import { jwtAuth, protectedResource } from "../../src/auth/mod.ts";
import { ASYMMETRIC_ALGORITHMS } from "../../src/auth/jwt-auth.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";
import { bearer } from "../helpers/opaque-auth.ts";
import {
  dpopHeaders,
  dpopIssuer,
  type DpopKey,
  dpopKey,
  ISSUER,
  withNonce,
  youngMemoryNonce,
} from "../helpers/dpop.ts";

const issuer = await dpopIssuer();
const bareKey = await dpopKey();
const bareStranger = await dpopKey("EdDSA");
// Tokens (good for 5 minutes) and the nonce of the store's first window are made before the tests (the top-level
// `before` below), not as the file loads: a runner may load it minutes before it runs it.
let bound = "";
let unbound = "";

const PATH = "/mcp-lite/v1/calltools";
const URL_ = BASE + PATH;
const ALGS = ASYMMETRIC_ALGORITHMS.join(" ");
const METADATA = `${BASE}/.well-known/oauth-protected-resource${PATH}`;

/** One store for both servers: its replay memory is new, so its first window's proofs carry its nonce (§8). */
const shared = createMemoryResultStore();

/** The issuer's JWT access tokens for this resource, with the DPoP settings given. */
const docsAuth = (dpop?: Pick<Parameters<typeof jwtAuth>[0], "dpop" | "dpopNonce">) =>
  jwtAuth({ issuer: ISSUER, resource: BASE, jwks: issuer.jwks, ...dpop });

function docsServer(dpop: "required" | "allowed") {
  return createServer({
    name: "docs",
    version: "1.0.0",
    auth: docsAuth({ dpop }),
    resultStore: shared,
  }).tool(defineTool("read_doc").describe("Reads a doc").handle((_args, ctx) => `doc for ${ctx.auth?.subject}`));
}

const required = docsServer("required");
const allowed = docsServer("allowed");
let key: DpopKey = bareKey;
let stranger: DpopKey = bareStranger;
before(async () => {
  bound = await issuer.mint(BASE, bareKey.jkt);
  unbound = await issuer.mint(BASE);
  const nonce = await youngMemoryNonce(required.fetch, bareKey, bound, URL_);
  key = withNonce(bareKey, nonce);
  stranger = withNonce(bareStranger, nonce);
});

const call = (server: typeof required, headers: Record<string, string>, path = PATH) =>
  server.fetch(post(path, toolsCall("read_doc"), headers));

const dpopRefusal = (error: string, description: string) =>
  `DPoP error="${error}", error_description="${description}", resource_metadata="${METADATA}", algs="${ALGS}"`;

async function assertRefused(response: Response, challenge: string): Promise<void> {
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("www-authenticate"), challenge);
  await response.body?.cancel();
}

async function assertAccepted(response: Response): Promise<void> {
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(await response.text(), /doc for ada/);
}

describe("jwtAuth({ dpop: 'required' })", () => {
  it("takes a bound token with a proof of this request by its key", async () => {
    const proof = await key.proof({ htm: "POST", htu: URL_, token: bound });
    await assertAccepted(await call(required, dpopHeaders(bound, proof)));
    // RFC 9449 §4.3 step 9: the query and fragment are not compared.
    const withQuery = await key.proof({ htm: "POST", htu: `${URL_}?page=2#top`, token: bound });
    await assertAccepted(await call(required, dpopHeaders(bound, withQuery), `${PATH}?other=1`));
  });

  it("refuses a bound token without a proof", async () => {
    await assertRefused(
      await call(required, dpopHeaders(bound)),
      dpopRefusal("invalid_dpop_proof", "send a DPoP proof (the DPoP header)"),
    );
  });

  it("refuses a proof for another URL or another method", async () => {
    const elsewhere = await key.proof({ htm: "POST", htu: `${BASE}/mcp`, token: bound });
    await assertRefused(
      await call(required, dpopHeaders(bound, elsewhere)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof is for another URL"),
    );
    const otherHost = await key.proof({ htm: "POST", htu: `https://evil.example${PATH}`, token: bound });
    await assertRefused(
      await call(required, dpopHeaders(bound, otherHost)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof is for another URL"),
    );
    const get = await key.proof({ htm: "GET", htu: URL_, token: bound });
    await assertRefused(
      await call(required, dpopHeaders(bound, get)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof is for another HTTP method"),
    );
  });

  it("refuses a replayed proof (the same jti)", async () => {
    const proof = await key.proof({ htm: "POST", htu: URL_, token: bound });
    await assertAccepted(await call(required, dpopHeaders(bound, proof)));
    await assertRefused(
      await call(required, dpopHeaders(bound, proof)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof was used already"),
    );
  });

  it("refuses a stale iat, and one from the future", async () => {
    for (const iat of [Math.floor(Date.now() / 1000) - 300, Math.floor(Date.now() / 1000) + 300]) {
      const proof = await key.proof({ htm: "POST", htu: URL_, token: bound, iat });
      await assertRefused(
        await call(required, dpopHeaders(bound, proof)),
        dpopRefusal("invalid_dpop_proof", "the DPoP proof's iat is outside the accepted window"),
      );
    }
  });

  it("refuses a wrong ath (a proof made for another token)", async () => {
    const proof = await key.proof({ htm: "POST", htu: URL_, token: unbound });
    await assertRefused(
      await call(required, dpopHeaders(bound, proof)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof's ath does not match the access token"),
    );
  });

  it("refuses a proof by another key than the token's (cnf.jkt)", async () => {
    const proof = await stranger.proof({ htm: "POST", htu: URL_, token: bound });
    await assertRefused(
      await call(required, dpopHeaders(bound, proof)),
      dpopRefusal("invalid_token", "the access token is bound to another key than the DPoP proof's"),
    );
  });

  it("refuses a proof that is not a dpop+jwt, or signed with a shared secret", async () => {
    const jwt = await key.proof({ htm: "POST", htu: URL_, token: bound, typ: "JWT" });
    await assertRefused(
      await call(required, dpopHeaders(bound, jwt)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof's typ is not dpop+jwt"),
    );
    const secret = new Uint8Array(32);
    const hmac = await new SignJWT({ htm: "POST", htu: URL_ })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: key.jwk })
      .setJti("y").setIssuedAt().sign(secret);
    await assertRefused(
      await call(required, dpopHeaders(bound, hmac)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof's signature algorithm is not accepted"),
    );
  });

  it("refuses any token presented as a bearer token, bound or not", async () => {
    const description = "this resource takes DPoP-bound access tokens only: send the DPoP scheme and a DPoP proof";
    for (const token of [bound, unbound]) {
      await assertRefused(await call(required, bearer(token)), dpopRefusal("invalid_token", description));
    }
  });

  it("refuses an unbound token presented with the DPoP scheme", async () => {
    const proof = await key.proof({ htm: "POST", htu: URL_, token: unbound });
    await assertRefused(
      await call(required, dpopHeaders(unbound, proof)),
      dpopRefusal("invalid_token", "the access token is not DPoP-bound"),
    );
  });

  it("challenges a request without a token with the DPoP scheme only", async () => {
    await assertRefused(await call(required, {}), `DPoP resource_metadata="${METADATA}", algs="${ALGS}"`);
  });

  it("advertises DPoP in its Protected Resource Metadata (RFC 9449 §5.2)", async () => {
    for (const [server, mustBind] of [[required, true], [allowed, false]] as const) {
      const response = await server.fetch(new Request(`${BASE}/.well-known/oauth-protected-resource`));
      const document = await response.json();
      assert.equal(document.dpop_bound_access_tokens_required, mustBind);
      assert.deepEqual(document.dpop_signing_alg_values_supported, [...ASYMMETRIC_ALGORITHMS]);
    }
  });
});

describe("jwtAuth({ dpop }) on @mcplite/sdk/lite", () => {
  it("remembers used proofs in the server's own resultStore: another instance sharing it refuses the replay", async () => {
    const lite = createLiteServer({
      name: "docs",
      version: "1.0.0",
      auth: docsAuth({ dpop: "required" }),
      resultStore: shared,
    }).tool(defineTool("read_doc").describe("Reads a doc").handle((_args, ctx) => `doc for ${ctx.auth?.subject}`));
    const proof = await key.proof({ htm: "POST", htu: URL_, token: bound });
    await assertAccepted(await lite.fetch(post(PATH, toolsCall("read_doc"), dpopHeaders(bound, proof))));
    await assertRefused(
      await call(required, dpopHeaders(bound, proof)),
      dpopRefusal("invalid_dpop_proof", "the DPoP proof was used already"),
    );
  });
});

describe("jwtAuth({ dpop: 'allowed' })", () => {
  it("takes an unbound bearer token and a bound token with its proof", async () => {
    await assertAccepted(await call(allowed, bearer(unbound)));
    const proof = await key.proof({ htm: "POST", htu: URL_, token: bound });
    await assertAccepted(await call(allowed, dpopHeaders(bound, proof)));
  });

  it("refuses a bound token presented as a bearer token (RFC 9449 §7.2)", async () => {
    await assertRefused(
      await call(allowed, bearer(bound)),
      dpopRefusal("invalid_token", "the access token is DPoP-bound: send it with the DPoP scheme and a DPoP proof"),
    );
  });

  it("challenges a request without a token with both schemes, Bearer first", async () => {
    await assertRefused(
      await call(allowed, {}),
      `Bearer resource_metadata="${METADATA}", DPoP resource_metadata="${METADATA}", algs="${ALGS}"`,
    );
  });
});

describe("jwtAuth({ dpop, dpopNonce: true }) (RFC 9449 §8)", () => {
  const store = createMemoryResultStore();
  const nonced = (resultStore: ResultStore) =>
    createServer({
      name: "docs",
      version: "1.0.0",
      auth: docsAuth({ dpop: "required", dpopNonce: true }),
      resultStore,
      bindings: [mcpLiteBinding(), grpcBinding()],
    }).tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc for ada"));
  const [a, b] = [nonced(store), nonced(store)];

  it("refuses a proof without the server's nonce with use_dpop_nonce and a DPoP-Nonce; takes it with the nonce, on any instance sharing the store", async () => {
    const first = await call(a, dpopHeaders(bound, await bareKey.proof({ htm: "POST", htu: URL_, token: bound })));
    await assertRefused(first, dpopRefusal("use_dpop_nonce", "send the server's DPoP nonce in the proof"));
    const nonce = first.headers.get("dpop-nonce");
    assert.match(nonce ?? "", /^[A-Za-z0-9_-]{22}$/);
    await assertAccepted(
      await call(a, dpopHeaders(bound, await bareKey.proof({ htm: "POST", htu: URL_, token: bound, nonce: nonce! }))),
    );
    await assertAccepted(
      await call(b, dpopHeaders(bound, await bareKey.proof({ htm: "POST", htu: URL_, token: bound, nonce: nonce! }))),
    );
  });

  it("refuses a made-up nonce, giving the current one", async () => {
    const made = await bareKey.proof({ htm: "POST", htu: URL_, token: bound, nonce: "made-up" });
    const refused = await call(a, dpopHeaders(bound, made));
    assert.notEqual(refused.headers.get("dpop-nonce"), null);
    await assertRefused(refused, dpopRefusal("use_dpop_nonce", "the DPoP proof's nonce is unknown or expired"));
  });

  describe("on serveGrpc()", () => {
    const served = grpcListener(a);
    it("gRPC: UNAUTHENTICATED with use_dpop_nonce and the nonce in the trailers", async () => {
      const client = served.client("gRPC");
      const path = "/mcplite.MCPLite/CallTool";
      const htu = served.listener().url + path;
      const refused = await rejection(
        client.callTool({ name: "read_doc" }, {
          headers: dpopHeaders(bound, await bareKey.proof({ htm: "POST", htu, token: bound })),
        }),
      );
      assert.equal(refused.code, Code.Unauthenticated);
      assert.match(refused.metadata.get("www-authenticate")!, /^DPoP error="use_dpop_nonce"/);
      const nonce = refused.metadata.get("dpop-nonce")!;
      const taken = await client.callTool({ name: "read_doc" }, {
        headers: dpopHeaders(bound, await bareKey.proof({ htm: "POST", htu, token: bound, nonce })),
      });
      assert.deepEqual(taken.result?.content, [{ type: "text", text: "doc for ada" }]);
    });
  });
});

describe("DPoP from a browser page (CORS)", () => {
  it("a preflight allows the DPoP header (RFC 9449 §4.1) beside Authorization", async () => {
    const server = createServer({
      name: "docs",
      version: "1.0.0",
      auth: docsAuth({ dpop: "required" }),
      cors: cors({ origins: ["https://app.example"] }),
    });
    const preflight = await server.fetch(
      new Request(URL_, {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, dpop",
        },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-headers"), "authorization, content-type, dpop");
  });
});

describe("jwtAuth() without dpop", () => {
  it("refuses the DPoP scheme as before, with a Bearer challenge", async () => {
    const plain = createServer({
      name: "docs",
      version: "1.0.0",
      auth: docsAuth(),
    }).tool(defineTool("read_doc").describe("Reads a doc").handle(() => "doc"));
    const proof = await key.proof({ htm: "POST", htu: URL_, token: bound });
    const response = await call(plain, dpopHeaders(bound, proof));
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate")!, /^Bearer error="invalid_token"/);
    await response.body?.cancel();
  });

  it("refuses an option that is neither required nor allowed", () => {
    assert.throws(
      () => jwtAuth({ issuer: ISSUER, resource: BASE, jwks: issuer.jwks, dpop: "yes" as "required" }),
      TypeError,
    );
  });

  it("passes jwtAuth({ dpop })'s policy on to protectedResource(), and refuses one made by hand", async () => {
    const { dpop } = docsAuth({ dpop: "required" });
    const verify = () => ({ subject: "ada", scopes: [] });
    const mine = protectedResource({ resource: BASE, authorizationServers: [ISSUER], verify, dpop });
    const server = createServer({ name: "docs", version: "1.0.0", auth: mine });
    const response = await server.fetch(post(PATH, toolsCall("hello", {}), bearer("opaque")));
    assert.equal(response.status, 401); // a bearer token where DPoP is required
    assert.match(response.headers.get("www-authenticate")!, /^DPoP /);
    await response.body?.cancel();
    const handMade = { capability: "dpop" } as const;
    assert.throws(
      () => protectedResource({ resource: BASE, authorizationServers: [ISSUER], verify, dpop: handMade }),
      /jwtAuth\(\{ dpop \}\)/,
    );
  });
});
