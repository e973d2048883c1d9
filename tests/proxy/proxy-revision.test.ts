/**
 * Which MCP revision `proxy()` speaks to a remote, and what that decides: 2026-07-28 when the remote answers
 * `server/discover`, else a 2025 session; `protocolVersion` pins one. A remote that asks its caller push-style (a
 * request sent while the call runs, MCP 2025-11-25 Elicitation) is heard on a 2025 session and asked of the
 * gateway's caller on every wire (server-everything over stdio), but cannot ask on 2026-07-28, where questions are
 * input rounds: the official SDK v2, serving both eras, refuses it there and does it on a pinned 2025 session.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createMcpHandler, McpServer as V2Server } from "@modelcontextprotocol/server";
import { createServer } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { serve } from "../../src/server/serve.ts";
import { everythingStdio } from "./everything-peer.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The answers server-everything's form asks for. */
const FORM = { name: "Ada", check: true, color: "red", email: "ada@example.com", integer: 1, number: 1 };

describe("proxy(): the revision spoken to the remote", () => {
  const closed = new AbortController();
  after(() => closed.abort());

  it("asks a 2025 remote's push-style elicitation of the caller, on MCP and MCP-lite (server-everything)", {
    timeout: 60_000,
  }, async () => {
    const gateway = createServer({ name: "gateway", version: "1.0.0" })
      .group("all", await proxy(everythingStdio, { signal: closed.signal }));
    for (const wire of ["mcp", "mcp-lite"] as const) {
      const asked: string[] = [];
      const client = createClient(gateway, {
        transport: wire,
        onElicit: (request) => {
          asked.push(request.message);
          return { action: "accept", content: FORM };
        },
      });
      const answered = String(await client.call("all.trigger-elicitation-request", {}));
      assert.match(answered, /User provided the requested information[\s\S]*Name: Ada/, wire);
      assert.equal(asked.length, 1, wire);
    }
  });

  describe("a remote serving both eras (the official SDK v2) whose tool asks push-style", () => {
    const versions: string[] = [];
    const mcp = createMcpHandler(() => {
      const server: Any = new V2Server({ name: "sdk-v2", version: "2.4.0" }, { capabilities: {} });
      server.registerTool("ask", { description: "Asks for a name, push-style" }, async () => {
        const answer = await server.server.elicitInput({
          message: "Your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        });
        return { content: [{ type: "text", text: `answered ${answer.action}` }] };
      });
      return server;
    });
    let url = "";
    let close = async () => {};
    const started = serve({
      fetch: (request: Request) => {
        versions.push(request.headers.get("mcp-protocol-version") ?? "none");
        return mcp.fetch(request);
      },
    }, { port: 0, hostname: "127.0.0.1", quiet: true }).then((listener) => {
      url = `${listener.url}/mcp`;
      close = () => listener.close();
    });
    after(async () => {
      closed.abort(); // the proxies' subscriptions/listen streams end first: the listener waits for them
      await close();
    });

    it("is spoken to on 2026-07-28 by default, where it cannot ask: the caller gets its refusal", async () => {
      await started;
      versions.length = 0;
      const gateway = createServer({ name: "gateway", version: "1.0.0" })
        .group("v2", await proxy(url, { signal: closed.signal }));
      const client = createClient(gateway, {
        transport: "mcp-lite",
        onElicit: () => ({ action: "accept", content: {} }),
      });
      await assert.rejects(client.call("v2.ask", {}), /not available on protocol revision 2026-07-28/);
      assert.ok(versions.includes("2026-07-28"), versions.join());
      assert.ok(!versions.includes("2025-11-25"), versions.join());
    });

    it('is spoken to on a 2025 session with protocolVersion: "2025-11-25"', async () => {
      await started;
      versions.length = 0;
      const gateway = createServer({ name: "gateway", version: "1.0.0" })
        .group("v2", await proxy(url, { protocolVersion: "2025-11-25", signal: closed.signal }));
      assert.deepEqual(gateway.tools.map((tool) => tool.name).filter((name) => name.startsWith("v2.")), ["v2.ask"]);
      assert.ok(versions.includes("2025-11-25"), versions.join());
      assert.ok(!versions.includes("2026-07-28"), versions.join());
    });
  });
});
