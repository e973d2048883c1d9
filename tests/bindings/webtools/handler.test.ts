import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, image } from "../../../mod.ts";
import { ErrorCode, ProtocolError } from "../../../src/errors/mod.ts";
import { metadataHash, webtoolsBinding, type WebtoolsOptions } from "../../../src/bindings/webtools/mod.ts";
import { add, echo, fixtureServer, withDefaults } from "../../helpers/fixtures.ts";
import { BASE, post } from "../../helpers/request.ts";

const WT = "/webtools";

function server(options: WebtoolsOptions = {}) {
  return fixtureServer({ bindings: withDefaults(webtoolsBinding(options)) });
}

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Request {
  return new Request(BASE + path, { method, headers });
}

async function execute(app: { fetch(r: Request): Promise<Response> }, body: unknown, headers = {}) {
  const response = await app.fetch(post(`${WT}/`, body, headers));
  assert.equal(response.headers.get("content-type"), "application/json");
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("Webtools binding: metadata", () => {
  it("describes the latest version at GET {base}/ with one action per tool", async () => {
    for (const path of [WT, `${WT}/`]) {
      const response = await server({ description: "Fixture tools" }).fetch(get(path));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      const meta = await response.json();
      assert.equal(meta.name, "fixtures");
      assert.equal(meta.description, "Fixture tools");
      assert.equal(meta.version, "1.2.3");
      assert.deepEqual(meta.actions.map((a: { name: string }) => a.name), [
        "add",
        "echo",
        "fails",
        "crashes",
        "countdown",
        "slow",
      ]);
      assert.deepEqual(meta.actions[0], {
        name: "add",
        description: "Adds two numbers",
        requestSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
        responseSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
      });
      assert.equal(typeof meta.actions[1].responseSchema.description, "string"); // echo has no output schema
      assert.deepEqual(meta.configSchema, { type: "object", properties: {} });
      assert.deepEqual(meta.defaultConfig, {});
    }
  });

  it("sends a strong ETag that is the SHA-256 of the canonical metadata, and 304 on If-None-Match", async () => {
    const app = server();
    const first = await app.fetch(get(WT));
    const etag = first.headers.get("etag")!;
    assert.match(etag, /^"[0-9a-f]{64}"$/);
    assert.equal(etag, `"${await metadataHash(await first.json())}"`);
    for (const match of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await app.fetch(get(WT, { "if-none-match": match }));
      assert.equal(again.status, 304, match);
      assert.equal(again.headers.get("etag"), etag);
      assert.equal(again.headers.get("content-type"), "application/json");
      assert.equal(await again.text(), "");
    }
    const stale = await app.fetch(get(WT, { "if-none-match": '"0000"' }));
    assert.equal(stale.status, 200);
    await stale.body?.cancel();
  });

  it("keeps the ETag while nothing changes and changes it when the tool set does", async () => {
    const app = createServer({ name: "t", version: "1.0.0", bindings: withDefaults(webtoolsBinding()) }).tool(add);
    const before = (await app.fetch(get(WT))).headers.get("etag");
    assert.equal((await app.fetch(get(WT))).headers.get("etag"), before);
    app.tool(echo);
    const after = await app.fetch(get(WT));
    assert.notEqual(after.headers.get("etag"), before);
    assert.equal((await after.json()).actions.length, 2);
    assert.equal((await app.fetch(get(WT, { "if-none-match": before! }))).status, 200);
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await server().fetch(get(WT, {}, "HEAD"));
    assert.equal(response.status, 200);
    assert.match(response.headers.get("etag")!, /^"/);
    assert.equal(await response.text(), "");
  });

  it("serves a specific version at GET {base}/{version}, the latest included", async () => {
    const app = server();
    const latest = await app.fetch(get(`${WT}/1.2.3`));
    assert.equal(latest.status, 200);
    assert.equal((await latest.json()).version, "1.2.3");
    assert.equal(latest.headers.get("etag"), (await app.fetch(get(WT))).headers.get("etag"));
  });

  it("answers an unknown version with 404 and the standard error envelope", async () => {
    for (const path of [`${WT}/9.9.9`, `${WT}/1.2.3/extra`]) {
      const response = await server().fetch(get(path));
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get("content-type"), "application/json");
      const body = await response.json();
      assert.equal(body.status, "error");
      assert.equal(body.error.code, "WEBTOOL_NOT_FOUND");
      assert.equal(typeof body.error.message, "string");
    }
    const body = await (await server().fetch(get(`${WT}/9.9.9`))).json();
    assert.deepEqual(body.error.details.available_versions, ["1.2.3"]);
  });

  it("mounts under another base, or at the root", async () => {
    const custom = await server({ base: "tools/v1/" }).fetch(get("/tools/v1"));
    assert.equal((await custom.json()).name, "fixtures");
    const root = createServer({ name: "r", version: "1.0.0", bindings: withDefaults(webtoolsBinding({ base: "/" })) })
      .tool(add);
    assert.equal((await (await root.fetch(get("/"))).json()).version, "1.0.0");
    assert.equal((await (await root.fetch(get("/1.0.0"))).json()).version, "1.0.0");
    const call = await root.fetch(post("/", { action: "add", request: { a: 2, b: 2 } }));
    assert.deepEqual(await call.json(), { status: "ok", data: { sum: 4 } });
    assert.equal((await root.fetch(post("/mcp-lite/v1/listtools", {}))).status, 200); // other wires still win
  });

  it("is opt-in: a server that does not list it has nothing at /webtools; two cannot share a path", async () => {
    assert.equal((await fixtureServer().fetch(get(WT))).status, 404);
    assert.throws(
      () => fixtureServer({ bindings: withDefaults(webtoolsBinding(), webtoolsBinding()) }),
      /two bindings serve \/webtools/,
    );
  });
});

describe("Webtools binding: versions", () => {
  const v1Search = defineTool("search")
    .describe("Searches (v1: exact titles)")
    .input(v.object({ title: v.string() }))
    .handle(({ title }) => `v1 found ${title}`);
  const v2Search = defineTool("search")
    .describe("Searches (v2: free text)")
    .input(v.object({ query: v.string(), limit: v.optional(v.number(), 3) }))
    .handle(({ query, limit }) => `v2 found ${limit} for ${query}`);
  const versioned = () =>
    createServer({
      name: "library",
      version: "2.0.0",
      bindings: withDefaults(webtoolsBinding({
        versions: [{ version: "1.0.0", tools: [v1Search], description: "The old search" }],
      })),
    }).tool(v2Search);

  it("keeps older versions of the tool set for pinned clients", async () => {
    const app = versioned();
    const v1 = await (await app.fetch(get(`${WT}/1.0.0`))).json();
    assert.equal(v1.version, "1.0.0");
    assert.equal(v1.description, "The old search");
    assert.deepEqual(v1.actions[0].requestSchema.required, ["title"]);
    const latest = await (await app.fetch(get(WT))).json();
    assert.equal(latest.version, "2.0.0");
    assert.deepEqual(latest.actions[0].requestSchema.required, ["query"]);
    assert.notEqual(
      (await app.fetch(get(`${WT}/1.0.0`))).headers.get("etag"),
      (await app.fetch(get(WT))).headers.get("etag"),
    );
  });

  it("runs the pinned version given in the POST body, the latest by default", async () => {
    const app = versioned();
    assert.deepEqual((await execute(app, { version: "1.0.0", action: "search", request: { title: "SICP" } })).body, {
      status: "ok",
      data: "v1 found SICP",
    });
    assert.deepEqual(
      (await execute(app, { action: "search", request: { query: "sicp" } })).body.data,
      "v2 found 3 for sicp",
    );
    assert.deepEqual(
      (await execute(app, { version: "2.0.0", action: "search", request: { query: "x" } })).body.data,
      "v2 found 3 for x",
    );
    const unknown = await execute(app, { version: "0.1.0", action: "search", request: {} });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "WEBTOOL_NOT_FOUND");
  });

  it("applies the server's middleware to older versions too, even when added after mounting", async () => {
    const app = versioned();
    app.use(() => Promise.reject(new ProtocolError(ErrorCode.RateLimited, "slow down")));
    const limited = await execute(app, { version: "1.0.0", action: "search", request: { title: "x" } });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, "RATE_LIMIT");
  });

  it("refuses a version listed twice or equal to the server's own, when the server is created", () => {
    const app = (versions: { version: string; tools: [] }[]) =>
      createServer({ name: "x", version: "2.0.0", bindings: [webtoolsBinding({ versions })] });
    assert.throws(() => app([{ version: "2.0.0", tools: [] }]), TypeError);
    assert.throws(() => app([{ version: "1.0.0", tools: [] }, { version: "1.0.0", tools: [] }]), /listed twice/);
  });
});

describe("Webtools binding: execution", () => {
  it("answers { status: ok, data } with the structured result", async () => {
    const { status, body } = await execute(server(), { sessionId: "s-1", action: "add", request: { a: 2, b: 3 } });
    assert.equal(status, 200);
    assert.deepEqual(body, { status: "ok", data: { sum: 5 } });
  });

  it("answers the text of a tool without an output schema, with defaults applied", async () => {
    assert.deepEqual((await execute(server(), { action: "echo", request: { text: "ab", times: 2 } })).body, {
      status: "ok",
      data: "abab",
    });
    assert.equal((await execute(server(), { action: "echo", request: { text: "x" } })).body.data, "x");
  });

  it("drains a streaming tool into its final text", async () => {
    const { body } = await execute(server(), { action: "countdown", request: { count: 3 } });
    assert.deepEqual(body, { status: "ok", data: "3 2 1 liftoff" });
  });

  it("answers media content as { content: [...] } and no content as null", async () => {
    const pixel = defineTool("pixel").handle(() => [image(new Uint8Array([1, 2, 3]), "image/png")]);
    const nothing = defineTool("nothing").handle(() => {});
    const app = createServer({ name: "m", version: "1.0.0", bindings: withDefaults(webtoolsBinding()) }).tool(pixel)
      .tool(nothing);
    assert.deepEqual((await execute(app, { action: "pixel", request: {} })).body.data, {
      content: [{ type: "image", data: "AQID", mimeType: "image/png" }],
    });
    assert.deepEqual((await execute(app, { action: "nothing" })).body, { status: "ok", data: null });
  });

  it("hands sessionId to the handler as ctx.meta.sessionId, and the wire as webtools", async () => {
    const whoami = defineTool("whoami").handle((_args, ctx) => ({
      wire: ctx.meta.wire,
      session: ctx.meta.sessionId ?? null,
    }));
    const app = createServer({ name: "s", version: "1.0.0", bindings: withDefaults(webtoolsBinding()) }).tool(whoami);
    assert.deepEqual((await execute(app, { sessionId: "abc", action: "whoami", request: {} })).body.data, {
      wire: "webtools",
      session: "abc",
    });
    assert.deepEqual((await execute(app, { action: "whoami", request: {} })).body.data, {
      wire: "webtools",
      session: null,
    });
  });

  it("answers WEBTOOL_NOT_FOUND (404) for an unknown action, with a suggestion", async () => {
    const { status, body } = await execute(server(), { action: "ad", request: {} });
    assert.equal(status, 404);
    assert.equal(body.status, "error");
    assert.equal(body.error.code, "WEBTOOL_NOT_FOUND");
    assert.match(body.error.message, /ad/);
    assert.equal(body.error.details.suggestion, "Did you mean 'add'?");
  });

  it("answers SCHEMA_ERROR (400) naming every failing path", async () => {
    const { status, body } = await execute(server(), { action: "add", request: { a: "one" } });
    assert.equal(status, 400);
    assert.equal(body.error.code, "SCHEMA_ERROR");
    assert.match(body.error.message, /a: /);
    assert.match(body.error.message, /b: /);
    assert.deepEqual(body.error.details.issues.map((i: { path: string }) => i.path), ["a", "b"]);
    const notObject = await execute(server(), { action: "add", request: [1, 2] });
    assert.equal(notObject.body.error.code, "SCHEMA_ERROR");
  });

  it("answers TOOL_ERROR (422) for a business failure, with the tool's message", async () => {
    const { status, body } = await execute(server(), { action: "fails", request: {} });
    assert.equal(status, 422);
    assert.deepEqual(body, { status: "error", error: { code: "TOOL_ERROR", message: "the quota is exhausted" } });
  });

  it("answers RATE_LIMIT (429) from rate-limit middleware, with Retry-After", async () => {
    let calls = 0;
    const app = server().use(async (_call, next) => {
      if (++calls > 1) {
        throw new ProtocolError(ErrorCode.RateLimited, "Rate limit exceeded: 1 call per minute", {
          data: { retryAfterMs: 1500 },
        });
      }
      return await next();
    });
    assert.equal((await execute(app, { action: "add", request: { a: 1, b: 1 } })).status, 200);
    const { status, headers, body } = await execute(app, { action: "add", request: { a: 1, b: 1 } });
    assert.equal(status, 429);
    assert.equal(headers.get("retry-after"), "2");
    assert.equal(body.error.code, "RATE_LIMIT");
    assert.equal(body.error.message, "Rate limit exceeded: 1 call per minute");
  });

  it("answers INTERNAL_ERROR (500) for an unexpected error, leaking nothing, reporting it to onError", async () => {
    const seen: unknown[] = [];
    const app = fixtureServer({ onError: (error) => seen.push(error), bindings: withDefaults(webtoolsBinding()) })
      .use(() => {
        throw new Error("password=hunter2 at db.ts:42");
      });
    const { status, body } = await execute(app, { action: "add", request: { a: 1, b: 1 } });
    assert.equal(status, 500);
    assert.deepEqual(body, {
      status: "error",
      error: { code: "INTERNAL_ERROR", message: "Internal error", reason: "internal" },
    });
    assert.equal(seen.length, 1);
    assert.match(String(seen[0]), /hunter2/);
  });

  it("answers UNAUTHENTICATED (401) from auth middleware", async () => {
    const app = server().use(() =>
      Promise.reject(new ProtocolError(ErrorCode.Unauthenticated, "a bearer token is required"))
    );
    const { status, body } = await execute(app, { action: "add", request: { a: 1, b: 1 } });
    assert.equal(status, 401);
    assert.equal(body.error.code, "UNAUTHENTICATED");
  });

  it("answers UNSUPPORTED (501) when a handler asks the client for input, which this wire cannot", async () => {
    const ask = defineTool("ask").handle(async (_a, ctx) =>
      (await ctx.elicit("q", { message: "?", requestedSchema: {} })).action
    );
    const app = createServer({ name: "a", version: "1.0.0", bindings: withDefaults(webtoolsBinding()) }).tool(ask);
    const { status, body } = await execute(app, { action: "ask", request: {} });
    assert.equal(status, 501);
    assert.equal(body.error.code, "UNSUPPORTED");
  });
});

describe("Webtools binding: bad input", () => {
  it("answers 415 for a body that is not application/json", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const response = await server().fetch(post(`${WT}/`, "{}", { "content-type": contentType }));
      assert.equal(response.status, 415, contentType);
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal((await response.json()).error.code, "UNSUPPORTED_MEDIA_TYPE");
    }
  });

  it("answers INVALID_REQUEST (400) for malformed JSON and for envelopes without an action", async () => {
    for (const body of ["{not json", "[]", "null", JSON.stringify({ request: {} }), JSON.stringify({ action: 7 })]) {
      const { status, body: answer } = await execute(server(), body);
      assert.equal(status, 400, body);
      assert.equal(answer.error.code, "INVALID_REQUEST", body);
    }
    const { body } = await execute(server(), { action: "add", sessionId: 5, request: {} });
    assert.match(body.error.message, /sessionId/);
  });

  it("answers 413 for a body over the server's limit", async () => {
    const app = fixtureServer({ maxBodyBytes: 64, bindings: withDefaults(webtoolsBinding()) });
    const { status, body } = await execute(app, { action: "echo", request: { text: "x".repeat(200) } });
    assert.equal(status, 413);
    assert.equal(body.error.code, "PAYLOAD_TOO_LARGE");
  });

  it("answers 405 with Allow for other methods", async () => {
    const root = await server().fetch(get(WT, {}, "DELETE"));
    assert.equal(root.status, 405);
    assert.equal(root.headers.get("allow"), "GET, HEAD, POST");
    assert.equal(root.headers.get("content-type"), "application/json");
    assert.equal((await root.json()).error.code, "METHOD_NOT_ALLOWED");
    const version = await server().fetch(post(`${WT}/1.2.3`, {}));
    assert.equal(version.status, 405);
    assert.equal(version.headers.get("allow"), "GET, HEAD");
    await version.body?.cancel();
  });

  it("answers a version path that is not valid percent-encoding with 400", async () => {
    const response = await server().fetch(get(`${WT}/%E0%A4%A`));
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error.code, "INVALID_REQUEST");
  });
});
