/**
 * The gate (`src/server/gate.ts`): the Host/Origin guard, authentication with refusals that carry their
 * challenge, challenges read from the error itself (never from a status), the step-up of a call
 * refused for a scope, and the Protected Resource Metadata answers, as every carrier sees them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode, ProtocolError } from "../../src/errors/mod.ts";
import { requireScopes } from "../../src/core/definitions/scopes.ts";
import { createGate } from "../../src/server/create-gate.ts";
import { cors as corsOf } from "../../src/server/cors-edge.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";

const RESOURCE = "https://api.example.com";
const METADATA = `${RESOURCE}/.well-known/oauth-protected-resource`;
const gate = createGate({ auth: opaqueAuth(RESOURCE, { requiredScopes: ["docs:read"] }) });
const request = (headers: Record<string, string> = {}) => new Request(`${RESOURCE}/mcp`, { headers });

/** What `gate.authenticate` rejected with. */
async function refusalOf(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(() => assert.fail("the gate let the request in"), (error) => error);
  assert.ok(error instanceof ProtocolError);
  return error;
}

describe("the gate without auth", () => {
  const open = createGate({});

  it("lets every request in, with no caller, challenge or metadata", async () => {
    assert.equal(open.auth, undefined);
    assert.equal(open.cors, undefined);
    assert.equal(await open.authenticate(request(bearer("reader"))), undefined);
    assert.equal(open.challenge(new ProtocolError(ErrorCode.Unauthenticated, "no"), "/mcp"), undefined);
    assert.equal(open.metadata("GET", "/.well-known/oauth-protected-resource"), undefined);
  });

  it("still guards Host and Origin", () => {
    const guarded = new Request("http://evil.example.com/mcp");
    assert.throws(() => open.guard(guarded, guarded.url), (error: ProtocolError) => error.code === "forbidden");
    const local = new Request("http://localhost:8000/mcp", { headers: { origin: "http://localhost:5173" } });
    open.guard(local, local.url);
  });

  it("lets the CORS origins through the Origin check", () => {
    const cors = createGate({ cors: corsOf({ origins: ["https://app.example"] }) });
    const page = new Request("http://localhost/mcp", { headers: { origin: "https://app.example" } });
    cors.guard(page, page.url);
    assert.equal(cors.cors?.allows("https://app.example"), true);
  });

  it("takes cors()'s value: a plain object of options is refused with a TypeError", () => {
    const plain = { origins: ["https://app.example"] } as unknown as Parameters<typeof createGate>[0]["cors"];
    assert.throws(() => createGate({ cors: plain }), TypeError, "takes cors({ origins })");
  });

  it("takes what protectedResource() makes: a plain ServerAuth is refused with a TypeError naming the import", () => {
    const { resource, authorizationServers, verify } = opaqueAuth(RESOURCE); // the fields, without the code
    assert.throws(
      () => createGate({ auth: { resource, authorizationServers, verify } }),
      (error: Error) =>
        error instanceof TypeError &&
        error.message.startsWith("createServer({ auth }) takes protectedResource({ ... })") &&
        error.message.includes('import { protectedResource } from "@mcplite/sdk/auth"'),
    );
  });
});

describe("the gate's authentication", () => {
  it("resolves the caller, with its token, as a new object per request", async () => {
    const first = await gate.authenticate(request(bearer("reader")));
    const second = await gate.authenticate(request(bearer("reader")));
    assert.equal(first?.subject, "reader");
    assert.equal(first?.token, "reader");
    assert.deepEqual(first?.scopes, ["docs:read"]);
    assert.notEqual(first, second);
  });

  it("refuses no token with unauthenticated, whose challenge names the scopes and the metadata", async () => {
    const refusal = await refusalOf(gate.authenticate(request()));
    assert.equal(refusal.code, ErrorCode.Unauthenticated);
    assert.equal(refusal.data, undefined, "the challenge is not sent as data");
    assert.equal(gate.challenge(refusal, "/mcp"), `Bearer scope="docs:read", resource_metadata="${METADATA}/mcp"`);
  });

  it("refuses a bad or malformed token with invalid_token, never echoing the token", async () => {
    for (const headers of [bearer("forged-secret"), { authorization: "Basic dXNlcg==" }]) {
      const refusal = await refusalOf(gate.authenticate(request(headers)));
      assert.equal(refusal.code, ErrorCode.Unauthenticated);
      const challenge = gate.challenge(refusal, "/mcp") ?? "";
      assert.match(challenge, /^Bearer error="invalid_token", error_description="[^"]+", scope="docs:read"/);
      assert.ok(!challenge.includes("forged-secret") && !refusal.message.includes("forged-secret"));
    }
  });

  it("refuses a token without the server's required scopes with permission_denied, insufficient_scope", async () => {
    const refusal = await refusalOf(gate.authenticate(request(bearer("stranger"))));
    assert.equal(refusal.code, ErrorCode.PermissionDenied);
    assert.equal(
      gate.challenge(refusal, "/mcplite.MCPLite/GetTools"),
      `Bearer error="insufficient_scope", scope="docs:read", resource_metadata="${METADATA}/mcplite.MCPLite/GetTools"`,
    );
  });
});

describe("challenges come from the error, not from a status", () => {
  it("a scope refusal's data names the scopes of its insufficient_scope challenge", () => {
    const refused = new ProtocolError(ErrorCode.PermissionDenied, "Insufficient scope", {
      data: { requiredScopes: ["docs:write", "docs:admin"] },
    });
    assert.equal(
      gate.challenge(refused, "/mcp"),
      `Bearer error="insufficient_scope", scope="docs:write docs:admin", resource_metadata="${METADATA}/mcp"`,
    );
  });

  it("errors that are not an authentication refusal call for none, 403s included", () => {
    const none = [
      new ProtocolError(ErrorCode.PermissionDenied, "not for you"), // a middleware's refusal: no scope named
      new ProtocolError(ErrorCode.Forbidden, "Origin not allowed"), // 403 too, not an auth matter
      new ProtocolError(ErrorCode.UnknownTool, "no such tool"),
      new Error("boom"),
      undefined,
    ];
    for (const error of none) assert.equal(gate.challenge(error, "/mcp"), undefined, String(error));
  });

  it("steps up from the refusal a call returns, with its scopes; the caller is left as it was", async () => {
    const caller = await gate.authenticate(request(bearer("reader")));
    const before = structuredClone(caller);
    let refusal: unknown;
    try {
      requireScopes(["docs:admin"], caller, 'tool "purge"');
    } catch (error) {
      refusal = error;
    }
    assert.ok(refusal instanceof ProtocolError);
    assert.equal(
      gate.challenge(refusal, "/mcp"),
      `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}/mcp"`,
    );
    // Nothing is written onto the caller: a caller object shared by calls (a socket's, a cached
    // verifier's) carries no earlier call's refusal into a later answer.
    assert.deepEqual(Reflect.ownKeys(caller!), Reflect.ownKeys(before!));
    assert.deepEqual(caller, before);
  });
});

describe("the gate's Protected Resource Metadata (RFC 9728 §3)", () => {
  it("answers GET at the well-known path and at it followed by an endpoint's path", () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const answer = gate.metadata("GET", path);
      assert.equal(answer?.status, 200, path);
      assert.equal(answer?.headers["content-type"], "application/json");
      assert.deepEqual(JSON.parse(answer?.body ?? ""), {
        resource: RESOURCE,
        authorization_servers: ["https://auth.example.com"],
        bearer_methods_supported: ["header"],
        scopes_supported: ["docs:read", "docs:admin"],
      });
    }
  });

  it("answers HEAD without a body, other methods with 405, and no other path", () => {
    assert.equal(gate.metadata("HEAD", "/.well-known/oauth-protected-resource")?.body, null);
    const post = gate.metadata("POST", "/.well-known/oauth-protected-resource/mcp");
    assert.equal(post?.status, 405);
    assert.equal(post?.headers.allow, "GET, HEAD");
    for (const path of ["/mcp", "/.well-known/oauth-protected-resources", "/.well-known/openid-configuration"]) {
      assert.equal(gate.metadata("GET", path), undefined, path);
    }
  });
});
