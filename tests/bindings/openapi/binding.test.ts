/**
 * The OpenAPI binding over real HTTP (a listener on 127.0.0.1): the served document is valid OpenAPI
 * 3.1 by a third-party validator, every operation answers what the tool answers, errors are RFC 9457
 * problems with the statuses the document promises, long-running calls poll to their result, streaming
 * tools stream, and the document revalidates with its ETag.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../../mod.ts";
import { ErrorCode, ProtocolError } from "../../../src/errors/mod.ts";
import type { Listener } from "../../../src/types.ts";
import { openapiBinding } from "../../../src/bindings/openapi/mod.ts";
import { add, countdown, crashes, echo, fails } from "../../helpers/fixtures.ts";
import { createJobTools, SECRET, waitFor } from "../../helpers/long-running.ts";
import { bearer, opaqueAuth } from "../../helpers/opaque-auth.ts";

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

function apiServer(onError: (error: unknown) => void) {
  const { analyze } = createJobTools();
  const limited = defineTool("limited").describe("Always rate-limited").handle(() => "never");
  const broken = defineTool("broken").describe("Its middleware has a bug").handle(() => "never");
  return createServer({
    name: "api",
    version: "1.2.3",
    secret: SECRET,
    onError,
    bindings: [openapiBinding({ base: "/api" })],
  })
    .use(async (call, next) => {
      if (call.method === "tools/call" && call.name === "limited") {
        throw new ProtocolError(ErrorCode.RateLimited, "slow down", { data: { retryAfterMs: 2500 } });
      }
      if (call.method === "tools/call" && call.name === "broken") throw new Error("secret database password in here");
      return await next();
    })
    .tool(add).tool(echo).tool(fails).tool(crashes).tool(countdown).tool(analyze).tool(limited).tool(broken);
}

describe("openapiBinding over HTTP", () => {
  let listener: Listener;
  let base: string;
  const reported: unknown[] = [];
  before(async () => {
    const server = apiServer((error) => reported.push(error));
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    base = listener.url.replace(/\/$/, "");
  });
  after(() => listener.close());

  it("serves an OpenAPI 3.1 document that a third-party validator accepts, one operation per tool", async () => {
    const response = await fetch(`${base}/api/openapi.json`);
    assert.equal(response.status, 200);
    const document = await response.json();
    const result = await new Validator().validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(document.openapi, "3.1.1");
    assert.equal(document.info.version, "1.2.3");
    const operations = Object.values(document.paths as Record<string, { post?: { operationId: string } }>)
      .flatMap((item) => item.post === undefined ? [] : [item.post.operationId]);
    assert.deepEqual(operations.sort(), [
      "add",
      "analyze_dataset",
      "broken",
      "countdown",
      "crashes",
      "echo",
      "fails",
      "limited",
    ]);
    const addOperation = document.paths["/api/tools/add"].post;
    assert.deepEqual(addOperation.requestBody.content["application/json"].schema.required, ["a", "b"]);
    assert.equal(addOperation.responses["200"].content["application/json"].schema.properties.sum.type, "number");
    assert.ok(document.paths["/api/promises/{token}"].get, "the polling path of long-running tools");
    assert.ok(document.paths["/api/tools/countdown"].post.responses["200"].content["text/event-stream"]);
  });

  it("revalidates the document with its strong ETag: If-None-Match answers 304", async () => {
    const first = await fetch(`${base}/api/openapi.json`);
    await first.body?.cancel();
    const etag = first.headers.get("etag")!;
    assert.match(etag, /^"[0-9a-f]{64}"$/);
    const again = await fetch(`${base}/api/openapi.json`, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
  });

  it("answers each operation with the tool's answer: structured JSON, or text/plain for text", async () => {
    const sum = await fetch(`${base}/api/tools/add`, json({ a: 2, b: 3 }));
    assert.equal(sum.status, 200);
    assert.deepEqual(await sum.json(), { sum: 5 });
    const echoed = await fetch(`${base}/api/tools/echo`, json({ text: "ab", times: 2 }));
    assert.match(echoed.headers.get("content-type")!, /^text\/plain/);
    assert.equal(await echoed.text(), "abab");
  });

  it("refuses bad input with 400 problem+json naming the failing paths", async () => {
    const response = await fetch(`${base}/api/tools/add`, json({ a: "two" }));
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    const problem = await response.json();
    assert.equal(problem.code, "invalid_arguments");
    assert.deepEqual(problem.errors.map((e: { pointer: string }) => e.pointer).sort(), ["/a", "/b"]);
  });

  it("answers a business failure 422, an unknown tool 404, a rate limit 429 with Retry-After, a bug 500 masked", async () => {
    for (const [tool, detail] of [["fails", "the quota is exhausted"], ["crashes", "database connection refused"]]) {
      const failed = await fetch(`${base}/api/tools/${tool}`, json({}));
      assert.equal(failed.status, 422);
      assert.equal((await failed.json()).detail, detail);
    }
    const wrongMethod = await fetch(`${base}/api/tools/add`);
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("allow"), "POST");
    await wrongMethod.body?.cancel();
    const missing = await fetch(`${base}/api/tools/nope`, json({}));
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).type, "about:blank");
    const limited = await fetch(`${base}/api/tools/limited`, { method: "POST" });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "3");
    await limited.body?.cancel();
    const broken = await fetch(`${base}/api/tools/broken`, json({}));
    assert.equal(broken.status, 500);
    const text = await broken.text();
    assert.equal(JSON.parse(text).detail, "Internal error");
    assert.doesNotMatch(text, /password/, "the server's own failure is masked");
    assert.ok(reported.some((e) => (e as Error).message.includes("password")), "and reported to onError");
  });

  it("answers a long-running tool 202 with a Location that polls to the result", async () => {
    const started = await fetch(`${base}/api/tools/analyze_dataset`, json({ dataset_id: "d1", polls: 2 }));
    assert.equal(started.status, 202);
    let location = started.headers.get("location")!;
    assert.match(location, /^\/api\/promises\//);
    await started.body?.cancel();
    // Polls each Location it is given until the result (bounded: a loaded machine's room, not a measure).
    await waitFor(async () => {
      const polled = await fetch(base + location);
      if (polled.status === 200) {
        assert.deepEqual(await polled.json(), { dataset_id: "d1", rows: 42 });
        return true;
      }
      assert.equal(polled.status, 202);
      location = polled.headers.get("location")!;
      await polled.body?.cancel();
      return false;
    }, 5_000);
  });

  it("streams a streaming tool as text/event-stream when asked, partials then the result", async () => {
    const response = await fetch(`${base}/api/tools/countdown`, json({ count: 2 }, { accept: "text/event-stream" }));
    assert.match(response.headers.get("content-type")!, /^text\/event-stream/);
    const body = await response.text();
    assert.match(body, /event: partial\ndata: "2 "/);
    assert.match(body, /event: result\ndata: "2 1 liftoff"/);
  });
});

describe("openapiBinding with auth", () => {
  const secured = () =>
    createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth(), bindings: [openapiBinding()] })
      .tool(
        defineTool("read_doc").describe("Reads a doc").input(v.object({ id: v.string() })).handle(({ id }) =>
          `doc ${id}`
        ),
      )
      .tool(defineTool("purge").describe("Purges everything").scopes("docs:admin").handle(() => "purged"));

  it("answers 401 with the challenge without a token, 403 with a scope challenge for a missing scope", async () => {
    const server = secured();
    const anonymous = await server.fetch(new Request("http://localhost/api/tools/read_doc", json({ id: "1" })));
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("content-type"), "application/problem+json");
    assert.match(anonymous.headers.get("www-authenticate")!, /^Bearer .*resource_metadata=/);
    const reader = await server.fetch(new Request("http://localhost/api/tools/purge", json({}, bearer("reader"))));
    assert.equal(reader.status, 403);
    assert.match(reader.headers.get("www-authenticate")!, /error="insufficient_scope", scope="docs:admin"/);
    assert.equal((await reader.json()).code, "permission_denied");
    const admin = await server.fetch(new Request("http://localhost/api/tools/purge", json({}, bearer("admin"))));
    assert.equal(await admin.text(), "purged");
  });

  it("describes the bearer scheme and each operation's scopes", async () => {
    const response = await secured().fetch(
      new Request("http://localhost/api/openapi.json", { headers: bearer("admin") }),
    );
    const document = await response.json();
    assert.equal((await new Validator().validate(document)).valid, true);
    assert.equal(document.components.securitySchemes.bearer.scheme, "bearer");
    assert.deepEqual(document.paths["/api/tools/purge"].post.security, [{ bearer: ["docs:admin"] }]);
    assert.ok(document.paths["/api/tools/read_doc"].post.responses["401"]);
  });
});
