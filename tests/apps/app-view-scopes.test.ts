/**
 * An MCP App view (SEP-1865) is read and listed under the scopes of the tools that show it (MCP
 * 2025-11-25, Authorization, Scope Challenge Handling): a view registered through `.ui(app)` requires
 * the scopes of every tool registered with it (the union), unless `defineApp().scopes()` gives it its
 * own. Without them, `resources/read` answers 403 with the step-up challenge and `resources/list`
 * leaves the view out, on MCP 2026-07-28 and 2025.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { defineApp } from "../../src/apps/mod.ts";
import { bearer, METADATA, opaqueAuth } from "../helpers/opaque-auth.ts";
import { legacyRequest, modernRequest } from "../helpers/request.ts";

type Server = { fetch(request: Request): Promise<Response> };

const html = (what: string) => `<!doctype html><html><body>${what}</body></html>`;
const stepUp = (scope: string) =>
  `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${METADATA}/mcp"`;

const ERAS: [string, (method: string, params: Record<string, unknown>, token: string) => Request][] = [
  ["MCP 2026-07-28", (method, params, token) => modernRequest(method, params, 1, bearer(token))],
  ["MCP 2025-11-25", (method, params, token) => legacyRequest(method, params, 1, "2025-11-25", bearer(token))],
];

/** The URIs of the views a token sees in `resources/list`. */
async function listed(server: Server, era: (typeof ERAS)[number][1], token: string): Promise<string[]> {
  const response = await server.fetch(era("resources/list", {}, token));
  assert.equal(response.status, 200);
  return (await response.json()).result.resources.map((r: { uri: string }) => r.uri);
}

/** Reads a view: its HTML, or the refusal's status and challenge. */
async function read(server: Server, era: (typeof ERAS)[number][1], token: string, uri: string) {
  const response = await server.fetch(era("resources/read", { uri }, token));
  const body = await response.json();
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    text: body.result?.contents?.[0]?.text as string | undefined,
    error: body.error,
  };
}

const secret = defineApp("ui://secret/view").html(html("the admin console"));
const board = defineApp("ui://shared/board").html(html("the board"));
const readersBoard = defineApp("ui://shared/readers-board").scopes("docs:read").html(html("the readers' board"));
const server = createServer({ name: "docs", version: "1.0.0", auth: opaqueAuth() })
  .tool(defineTool("console").describe("Opens the admin console").scopes("docs:admin").ui(secret).handle(() => "ok"))
  // A view shown by a public tool and by an admin tool: the union (docs:admin) guards it.
  .tool(defineTool("show_board").describe("Shows the board").ui(board).handle(() => "ok"))
  .tool(
    defineTool("clear_board").describe("Clears the board").scopes("docs:admin").ui(board, { visibility: ["app"] })
      .handle(() => "cleared"),
  )
  // The same, with scopes of its own: readers may see it, though an admin tool shows it too.
  .tool(defineTool("show_readers_board").describe("Shows it").scopes("docs:read").ui(readersBoard).handle(() => "ok"))
  .tool(
    defineTool("clear_readers_board").describe("Clears it").scopes("docs:admin").ui(readersBoard)
      .handle(() => "cleared"),
  );

describe("MCP App views under the scopes of their tools", () => {
  for (const [era, request] of ERAS) {
    it(`${era}: a view of an admin tool is refused with the step-up challenge and not listed`, async () => {
      const refused = await read(server, request, "reader", "ui://secret/view");
      assert.equal(refused.status, 403);
      assert.equal(refused.challenge, stepUp("docs:admin"));
      assert.equal(refused.text, undefined, "none of the view's HTML");
      assert.equal(refused.error.code, -32003);
      assert.ok(!(await listed(server, request, "reader")).includes("ui://secret/view"));
      const granted = await read(server, request, "admin", "ui://secret/view");
      assert.equal(granted.status, 200);
      assert.match(granted.text!, /the admin console/);
      assert.ok((await listed(server, request, "admin")).includes("ui://secret/view"));
    });

    it(`${era}: a view shared by a public and an admin tool requires the union of their scopes`, async () => {
      const refused = await read(server, request, "reader", "ui://shared/board");
      assert.equal(refused.status, 403);
      assert.equal(refused.challenge, stepUp("docs:admin"));
      assert.ok(!(await listed(server, request, "reader")).includes("ui://shared/board"));
      assert.match((await read(server, request, "admin", "ui://shared/board")).text!, /the board/);
    });

    it(`${era}: defineApp().scopes() is the view's own requirement, in place of its tools'`, async () => {
      assert.match((await read(server, request, "reader", "ui://shared/readers-board")).text!, /readers' board/);
      assert.deepEqual(await listed(server, request, "reader"), ["ui://shared/readers-board"]);
      const refused = await read(server, request, "stranger", "ui://shared/readers-board");
      assert.equal(refused.status, 403);
      assert.equal(refused.challenge, stepUp("docs:read"));
      assert.deepEqual(await listed(server, request, "stranger"), []);
    });
  }

  it("a tool registered later widens what its view requires, and the list follows", async () => {
    const view = defineApp("ui://late/view").html(html("late"));
    let late = createServer({ name: "late", version: "1.0.0", auth: opaqueAuth() })
      .tool(defineTool("open_view").describe("Opens it").ui(view).handle(() => "ok"));
    const [, modern] = ERAS[0];
    assert.deepEqual(await listed(late, modern, "reader"), ["ui://late/view"]);
    late = late.tool(defineTool("purge_view").describe("Purges").scopes("docs:admin").ui(view).handle(() => "ok"));
    assert.deepEqual(await listed(late, modern, "reader"), []);
    assert.equal((await read(late, modern, "reader", "ui://late/view")).status, 403);
    assert.deepEqual(await listed(late, modern, "admin"), ["ui://late/view"]);
  });

  it("an unscoped view stays public and one shared public list", async () => {
    const open = createServer({ name: "open", version: "1.0.0", auth: opaqueAuth() })
      .tool(
        defineTool("weather").describe("Shows it").ui(defineApp("ui://open/view").html(html("sun"))).handle(() => "ok"),
      );
    const response = await open.fetch(modernRequest("resources/list", {}, 1, bearer("stranger")));
    assert.equal((await response.json()).result.cacheScope, "public");
    assert.match((await read(open, ERAS[0][1], "stranger", "ui://open/view")).text!, /sun/);
  });
});
