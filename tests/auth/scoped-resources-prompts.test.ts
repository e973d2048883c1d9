/**
 * `.scopes()` on resources and prompts (MCP 2025-11-25, Authorization, Scope Challenge Handling):
 * their lists show only what the token may use, cached privately per scope set; reading, getting,
 * subscribing to and completing one without its scopes answers 403 `insufficient_scope` (step-up).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineResource, mcpBinding, sessionStreams } from "../../mod.ts";
import { bearer, METADATA, opaqueAuth } from "../helpers/opaque-auth.ts";
import { legacyRequest, modernRequest } from "../helpers/request.ts";

const server = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth() })
  .resource(defineResource("docs://readme").read(() => "# Docs"))
  .resource(
    defineResource("docs://audit-log").scopes("docs:admin").read((_vars, ctx) => `log for ${ctx.auth?.subject}`),
  )
  .resource(
    defineResource("users://{id}/profile").scopes("docs:admin")
      .complete("id", (typed) => ["ada", "alan"].filter((id) => id.startsWith(typed)))
      .read(({ id }) => JSON.stringify({ id })),
  )
  .resource(defineResource("docs://{page}").read(({ page }) => `page ${page}`))
  .prompt(definePrompt("summarise").get(() => "Summarise the docs"))
  .prompt(
    definePrompt("audit").scopes("docs:admin")
      .args(v.object({ period: v.string() }))
      .complete("period", (typed) => ["today", "this week"].filter((p) => p.startsWith(typed)))
      .get(({ period }) => `Audit ${period}`),
  );

const STEP_UP = `Bearer error="insufficient_scope", scope="docs:admin", resource_metadata="${METADATA}/mcp"`;

async function list(method: string, field: string, token: string, headers: Record<string, string> = {}) {
  const response = await server.fetch(modernRequest(method, {}, 1, { ...bearer(token), ...headers }));
  if (response.status === 304) return { status: 304, names: [], etag: response.headers.get("etag") };
  const body = await response.json();
  assert.equal(body.result.cacheScope, "private", method);
  assert.match(response.headers.get("cache-control") ?? "", /^private/);
  const names = body.result[field].map((d: { uri?: string; uriTemplate?: string; name: string }) =>
    d.uri ?? d.uriTemplate ?? d.name
  );
  return { status: response.status, names, etag: response.headers.get("etag") };
}

async function refused(request: Request): Promise<Record<string, unknown>> {
  const response = await server.fetch(request);
  assert.equal(response.status, 403);
  assert.equal(response.headers.get("www-authenticate"), STEP_UP);
  const body = await response.json();
  assert.equal(body.error.code, -32003);
  assert.match(body.error.message, /docs:admin/);
  return body;
}

describe("lists per scope set", () => {
  it("resources/list shows a scoped resource only to a token that holds its scopes, with its own ETag", async () => {
    const reader = await list("resources/list", "resources", "reader");
    const admin = await list("resources/list", "resources", "admin");
    assert.deepEqual(reader.names, ["docs://readme"]);
    assert.deepEqual(admin.names, ["docs://readme", "docs://audit-log"]);
    assert.notEqual(reader.etag, admin.etag);
    // The reader's cached copy is its own: revalidating it is 304, the admin's tag is not the reader's.
    assert.equal((await list("resources/list", "resources", "reader", { "if-none-match": reader.etag! })).status, 304);
    assert.equal((await list("resources/list", "resources", "reader", { "if-none-match": admin.etag! })).status, 200);
  });

  it("resources/templates/list and prompts/list likewise", async () => {
    assert.deepEqual((await list("resources/templates/list", "resourceTemplates", "reader")).names, ["docs://{page}"]);
    assert.deepEqual((await list("resources/templates/list", "resourceTemplates", "admin")).names, [
      "users://{id}/profile",
      "docs://{page}",
    ]);
    assert.deepEqual((await list("prompts/list", "prompts", "stranger")).names, ["summarise"]);
    assert.deepEqual((await list("prompts/list", "prompts", "admin")).names, ["summarise", "audit"]);
  });

  it("a server whose resources and prompts have no scopes keeps one shared list", async () => {
    const open = createServer({ name: "open", version: "1.0.0", auth: opaqueAuth() })
      .resource(defineResource("docs://readme").read(() => "# Docs"))
      .prompt(definePrompt("summarise").get(() => "Summarise"));
    for (const method of ["resources/list", "prompts/list"]) {
      const tags = new Set<string | null>();
      for (const token of ["reader", "admin"]) {
        const response = await open.fetch(modernRequest(method, {}, 1, bearer(token)));
        assert.equal((await response.json()).result.cacheScope, "public", method);
        tags.add(response.headers.get("etag"));
      }
      assert.equal(tags.size, 1, method);
    }
  });
});

describe("use without the scopes → 403 insufficient_scope (step-up)", () => {
  it("resources/read of a scoped resource, static or templated; with the scope it is read as the caller", async () => {
    await refused(modernRequest("resources/read", { uri: "docs://audit-log" }, 1, bearer("reader")));
    await refused(modernRequest("resources/read", { uri: "users://ada/profile" }, 1, bearer("reader")));
    const granted = await server.fetch(
      modernRequest("resources/read", { uri: "docs://audit-log" }, 1, bearer("admin")),
    );
    assert.equal(granted.status, 200);
    assert.equal((await granted.json()).result.contents[0].text, "log for admin");
    const open = await server.fetch(modernRequest("resources/read", { uri: "docs://intro" }, 1, bearer("stranger")));
    assert.equal((await open.json()).result.contents[0].text, "page intro");
  });

  it("prompts/get of a scoped prompt, before its arguments are looked at", async () => {
    await refused(modernRequest("prompts/get", { name: "audit", arguments: { period: "today" } }, 1, bearer("reader")));
    await refused(modernRequest("prompts/get", { name: "audit", arguments: {} }, 1, bearer("reader")));
    const granted = await server.fetch(
      modernRequest("prompts/get", { name: "audit", arguments: { period: "today" } }, 1, bearer("admin")),
    );
    assert.equal((await granted.json()).result.messages[0].content.text, "Audit today");
    const invalid = await server.fetch(
      modernRequest("prompts/get", { name: "audit", arguments: {} }, 1, bearer("admin")),
    );
    assert.equal((await invalid.json()).error.code, -32602);
  });

  it("completion/complete of a scoped prompt or template", async () => {
    const completion = (ref: Record<string, string>, name: string, token: string) =>
      modernRequest("completion/complete", { ref, argument: { name, value: "a" } }, 1, bearer(token));
    await refused(completion({ type: "ref/prompt", name: "audit" }, "period", "reader"));
    await refused(completion({ type: "ref/resource", uri: "users://{id}/profile" }, "id", "reader"));
    const granted = await server.fetch(
      completion({ type: "ref/resource", uri: "users://{id}/profile" }, "id", "admin"),
    );
    assert.deepEqual((await granted.json()).result.completion.values, ["ada", "alan"]);
  });

  it("resources/subscribe (2025) of a scoped resource, on a server with 2025 session streams", async () => {
    const streamed = createServer({
      name: "docs",
      version: "1.0.0",
      auth: opaqueAuth(),
      bindings: [mcpBinding({ sessionStreams: sessionStreams() })],
    }).resource(defineResource("docs://audit-log").scopes("docs:admin").read(() => "log"));
    const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const init = await streamed.fetch(legacyRequest("initialize", params, 1, "2025-06-18", bearer("admin")));
    await init.body?.cancel();
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")! }; // its stream carries the updates
    const subscribe = (token: string) =>
      legacyRequest("resources/subscribe", { uri: "docs://audit-log" }, 1, "2025-06-18", {
        ...bearer(token),
        ...session,
      });
    const response = await streamed.fetch(subscribe("reader"));
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("www-authenticate"), STEP_UP);
    assert.deepEqual((await (await streamed.fetch(subscribe("admin"))).json()).result, {});
  });
});
