/**
 * Tool search is just tools: Webtools' metadata and gRPC `GetTools` list the pinned, search and call
 * tools only, and a found tool is called through `call_tool` on each of those wires too.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createClient } from "@connectrpc/connect";
import { createServer, defineTool, toolSearch } from "../../mod.ts";
import { grpcBinding, MCPLite } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { inProcessTransport } from "../helpers/connect-in-process.ts";
import { BASE, post } from "../helpers/request.ts";

const server = createServer({
  name: "office",
  version: "1.0.0",
  toolSearch: toolSearch({ pinned: ["whoami"] }),
  bindings: [webtoolsBinding(), grpcBinding()],
})
  .tool(defineTool("whoami").describe("Tells who you are").handle(() => "ada"))
  .tool(
    defineTool("me.sendMail").describe("Send mail").input(v.object({ to: v.string() }))
      .handle(({ to }) => `sent to ${to}`),
  )
  .tool(defineTool("me.ListEvents").describe("List events").handle(() => "[]"));

const LISTED = ["search_tools", "call_tool", "whoami"];

describe("tool search on Webtools and gRPC", () => {
  it("Webtools: the metadata lists the small set; call_tool runs a found tool", async () => {
    const metadata = await (await server.fetch(new Request(`${BASE}/webtools/`))).json();
    assert.deepEqual(metadata.actions.map((a: { name: string }) => a.name), LISTED);
    const run = await server.fetch(
      post("/webtools/", { action: "call_tool", request: { name: "me.sendMail", arguments: { to: "bob" } } }),
    );
    assert.deepEqual(await run.json(), { status: "ok", data: "sent to bob" });
  });

  it("gRPC: GetTools lists the small set; search_tools and call_tool answer through CallTool", async () => {
    const client = createClient(MCPLite, inProcessTransport(server, "connect", true));
    assert.deepEqual((await client.getTools({})).tools.map((t) => t.name), LISTED);
    const found = await server.fetch(
      post("/mcplite.MCPLite/CallTool", { name: "search_tools", arguments: { query: "send an email" } }),
    );
    assert.equal(found.status, 200);
    assert.match(JSON.stringify(await found.json()), /me\.sendMail/);
    const sent = await server.fetch(
      post("/mcplite.MCPLite/CallTool", {
        name: "call_tool",
        arguments: { name: "me.sendMail", arguments: { to: "eve" } },
      }),
    );
    assert.match(JSON.stringify(await sent.json()), /sent to eve/);
  });
});
