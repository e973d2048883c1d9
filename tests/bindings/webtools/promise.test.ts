import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type ServerOptions } from "../../../mod.ts";
import { webtoolsBinding } from "../../../src/bindings/webtools/mod.ts";
import { BASE, post } from "../../helpers/request.ts";
import { withDefaults } from "../../helpers/fixtures.ts";

const SECRET = "webtools-test-secret-0123456789abcdef";

/** Answers with a promise, then another, then the result. */
const analyze = defineTool("analyze")
  .describe("Analyses a dataset (slowly)")
  .input(v.object({ n: v.number() }))
  .handle(({ n }, ctx) => ctx.promise({ state: { n, polls: 0 }, retryAfterMs: 5 }))
  .redeem((state, ctx) =>
    state.polls >= 1
      ? { doubled: state.n * 2 }
      : ctx.promise({ state: { n: state.n, polls: state.polls + 1 }, retryAfterMs: 5 })
  );

async function execute(app: { fetch(r: Request): Promise<Response> }, body: unknown) {
  const response = await app.fetch(post("/webtools/", body));
  assert.equal(response.headers.get("content-type"), "application/json");
  return { status: response.status, body: await response.json() };
}

/** A Webtools server with the long-running `analyze` tool. */
function jobs(options: Partial<ServerOptions> = {}) {
  return createServer({
    name: "jobs",
    version: "1.0.0",
    secret: SECRET,
    bindings: withDefaults(webtoolsBinding()),
    ...options,
  })
    .tool(analyze);
}

describe("Webtools binding: promises", () => {
  it("answers status ok with a promise envelope, redeemed with the redeem action until done", async () => {
    const app = jobs();
    const meta = await (await app.fetch(new Request(`${BASE}/webtools`))).json();
    assert.deepEqual(meta.actions.map((a: { name: string }) => a.name), ["analyze", "redeem"]);

    const first = await execute(app, { action: "analyze", request: { n: 21 } });
    assert.equal(first.status, 202);
    assert.equal(first.body.status, "ok");
    const promise = first.body.promise;
    assert.equal(typeof promise.token, "string");
    assert.equal(promise.retryAfterMs, 5);
    assert.ok(Date.parse(promise.expiresAt) > Date.now());
    assert.deepEqual(promise.redeem, { version: "1.0.0", action: "redeem", request: { promise: promise.token } });

    const second = await execute(app, promise.redeem);
    assert.equal(second.status, 202);
    assert.notEqual(second.body.promise.token, promise.token);
    const done = await execute(app, second.body.promise.redeem);
    assert.deepEqual(done, { status: 200, body: { status: "ok", data: { doubled: 42 } } });
  });

  it("refuses a forged token without running anything", async () => {
    const app = jobs({ logger: false }); // a forged token on purpose: no error line
    const { status, body } = await execute(app, { action: "redeem", request: { promise: "not-a-token" } });
    assert.equal(status, 400);
    assert.equal(body.status, "error");
    assert.match(body.error.message, /Invalid or expired promise token/);
  });

  it("redeems a pinned older version's promise with that version's tools", async () => {
    const analyzeV2 = defineTool("analyze").input(v.object({ n: v.number() })).handle(({ n }) => ({ tripled: n * 3 }));
    const app = createServer({
      name: "jobs",
      version: "2.0.0",
      secret: SECRET,
      bindings: withDefaults(webtoolsBinding({ versions: [{ version: "1.0.0", tools: [analyze] }] })),
    })
      .tool(analyzeV2);
    const first = await execute(app, { version: "1.0.0", action: "analyze", request: { n: 1 } });
    assert.equal(first.body.promise.redeem.version, "1.0.0");
    const second = await execute(app, first.body.promise.redeem);
    const done = await execute(app, second.body.promise.redeem);
    assert.deepEqual(done.body, { status: "ok", data: { doubled: 2 } });
    assert.deepEqual((await execute(app, { action: "analyze", request: { n: 1 } })).body.data, { tripled: 3 });
  });
});
