/**
 * What `proxy()` keeps of what the remote gives, against remotes nobody here wrote: the icons of its tools,
 * prompts, resources and templates, its results' own `_meta` and the caller's log level (the official SDK v2,
 * MCP 2026-07-28, which lists icons and sends logs only at a level asked for); a tool it runs only as a task, and
 * its `-32042` URL elicitation (server-everything, MCP 2025-11-25, over stdio and over HTTP).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../src/client/mod.ts";
import type { LogEntry } from "../../src/client/transport.ts";
import type { Server } from "../../src/server/server.ts";
import { proxy } from "../../src/proxy/mod.ts";
import { legacyRequest, modernMeta, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { everythingHttp, everythingStdio } from "./everything-peer.ts";
import type { RemoteProcess } from "./remote-process.ts";
import { gatewayServer, served } from "./gateway.ts";
import { ICON, type Peer, sdkV2Peer } from "./peers.ts";
// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;
const { ElicitRequestSchema, LoggingMessageNotificationSchema } = await import(`${V1}/types.js`) as Any;

/** The JSON-RPC result (or error) of a raw request to the gateway. */
async function rpc(gateway: Server, request: Request): Promise<Any> {
  const response = await gateway.fetch(request);
  const text = await response.text();
  // A streamed answer (SSE) carries the reply as its last `data:` line.
  const data = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data:")).at(-1)!.slice(5);
  return JSON.parse(data);
}

describe("proxy() keeps the icons and result _meta of the official SDK v2 server (MCP 2026-07-28)", () => {
  let peer: Peer;
  let gateway: Server;
  before(async () => {
    peer = await sdkV2Peer();
    gateway = gatewayServer().group("v2", await proxy(peer.url));
  });
  after(() => peer.close());

  it("lists the remote's icons on its tools, prompts, resources and templates, leaving out an unsafe one", async () => {
    const client = createClient(gateway, { transport: "mcp" });
    const tool = (await client.listTools()).find((t) => t.name === "v2.pictured")!;
    assert.deepEqual(tool.icons, [ICON]); // the `http:` icon off loopback is not handed to clients
    const prompt = (await client.listPrompts()).find((p) => p.name === "v2.card")!;
    assert.deepEqual(prompt.icons, [ICON]);
    const resource = (await client.listResources()).find((r) => r.uri === "docs://logo")!;
    assert.deepEqual(resource.icons, [ICON]);
    const template = (await client.listResourceTemplates()).find((t) => t.uriTemplate === "page:///{name}")!;
    assert.deepEqual(template.icons, [ICON]);
  });

  it("answers a tool's, a prompt's and a resource's result with the remote's own _meta", async () => {
    const modern = await rpc(gateway, modernRequest("tools/call", { name: "v2.pictured", arguments: {} }));
    assert.equal(modern.result._meta["example.com/cost"], 3);
    const legacy = await rpc(gateway, legacyRequest("tools/call", { name: "v2.pictured", arguments: {} }));
    assert.equal(legacy.result._meta["example.com/cost"], 3);
    const lite = await (await gateway.fetch(post("/mcp-lite/v1/calltools", toolsCall("v2.pictured", {})))).json();
    assert.equal(lite.result._meta["example.com/cost"], 3);
    assert.equal(lite.result._meta.response_type, "answer"); // MCP-lite's own keys are ours
    const prompt = await rpc(gateway, modernRequest("prompts/get", { name: "v2.card" }));
    assert.equal(prompt.result._meta["example.com/deck"], 1);
    const read = await rpc(gateway, modernRequest("resources/read", { uri: "docs://logo" }));
    assert.equal(read.result._meta["example.com/etag"], "v1");
    // The remote's own envelope keys describe the second hop: the caller sees the gateway's.
    assert.notEqual(modern.result._meta["io.modelcontextprotocol/serverInfo"]?.name, "sdk-v2");
  });
});

describe("proxy() asks a 2026-07-28 remote for its logs at the caller's level, with no logLevel of its own", () => {
  let peer: Peer;
  let gateway: { url: string; close(): Promise<void> };
  before(async () => {
    peer = await sdkV2Peer();
    gateway = await served(gatewayServer().group("v2", await proxy(peer.url)));
  });
  after(async () => {
    await gateway.close();
    await peer.close();
  });

  it("an MCP 2026-07-28 caller gets the remote's logs from the level in its request's _meta up", async () => {
    const client = createClient(`${gateway.url}/mcp`, { transport: "mcp", logLevel: "warning" });
    const logs: LogEntry[] = [];
    assert.equal(await client.call("v2.chatty", {}, { onLog: (entry) => logs.push(entry) }), "done");
    assert.deepEqual(logs.map((l) => l.level), ["warning", "error"]);
    assert.deepEqual(logs[0], { level: "warning", logger: "chatty", data: "warning line" });
  });

  it("an MCP 2025 caller gets them from the level it set with logging/setLevel up (the official v1 client)", async () => {
    const client = new ClientV1({ name: "v1", version: "1.32.2" });
    const logs: { level: string }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n: Any) => void logs.push(n.params));
    await client.connect(new HttpV1(new URL(`${gateway.url}/mcp`)));
    try {
      await client.setLoggingLevel("info");
      const result = await client.callTool({ name: "v2.chatty", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
      assert.deepEqual(logs.map((l) => l.level), ["info", "warning", "error"]);
    } finally {
      await client.close();
    }
  });
});

// server-everything over stdio and over Streamable HTTP (the proxy declares URL elicitation, else it hides the tool).
for (const carrier of ["stdio", "http"] as const) {
  describe(`proxy() of server-everything over ${carrier} (MCP 2025-11-25)`, () => {
    const closed = new AbortController(); // ends the stdio child
    let http: RemoteProcess | undefined;
    let gateway: Server;
    let front: { url: string; close(): Promise<void> };
    let urls = 0; // server-everything takes a second `-32042` call with the same arguments as the retry of the first
    before(async () => {
      if (carrier === "http") {
        http = everythingHttp();
        await http.start();
      }
      gateway = gatewayServer().group("all", await proxy(http?.url ?? everythingStdio, { signal: closed.signal }));
      front = await served(gateway);
    });
    after(async () => {
      closed.abort();
      await front?.close();
      await http?.kill();
    });

    it("serves a tool the remote runs only as a task to callers that take tasks, as a task", async () => {
      const client = createClient(`${front.url}/mcp`, { transport: "mcp" }); // declares the tasks extension
      const report = await client.call("all.simulate-research-query", { topic: "octopus" });
      assert.match(String(report), /^# Research Report: octopus$/m);
    });

    it("serves that tool to a 2025 caller too, held: the gateway runs it as a task at the remote", async () => {
      const listed = await rpc(gateway, legacyRequest("tools/list"));
      const names = listed.result.tools.map((t: { name: string }) => t.name);
      assert.ok(names.includes("all.simulate-research-query"), names.join());
      const held = await rpc(
        gateway,
        legacyRequest("tools/call", { name: "all.simulate-research-query", arguments: { topic: "octopus" } }),
      );
      assert.match(held.result.content[0].text, /^# Research Report: octopus$/m);
    });

    it("answers the remote's -32042 to a 2025 caller as -32042 with its elicitations (the official v1 client)", async () => {
      const client = new ClientV1(
        { name: "v1", version: "1.32.2" },
        { capabilities: { elicitation: { form: {}, url: {} } } },
      );
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" }));
      await client.connect(new HttpV1(new URL(`${front.url}/mcp`)));
      try {
        const url = `https://example.com/flow/${++urls}`;
        const failed = await client.callTool({
          name: "all.trigger-url-elicitation",
          arguments: { url, errorPath: true },
        })
          .then(() => undefined, (error: Any) => error);
        assert.equal(failed?.code, -32042, String(failed));
        const [page] = failed.data.elicitations;
        assert.equal(page.mode, "url");
        assert.equal(page.url, "https://modelcontextprotocol.io/"); // the remote's URL, parsed as every page we send is
        assert.equal(typeof page.elicitationId, "string");
      } finally {
        await client.close();
      }
    });

    it("asks a 2026-07-28 caller to open the remote's page, as an input round (2026 retired -32042)", async () => {
      const url = `https://example.com/flow/${++urls}`;
      const capabilities = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } } };
      const request = modernRequest("tools/call", {
        name: "all.trigger-url-elicitation",
        arguments: { url, errorPath: true },
        _meta: modernMeta(capabilities),
      });
      const asked = await rpc(gateway, request);
      assert.equal(asked.result?.resultType, "input_required", JSON.stringify(asked));
      const [question] = Object.values(asked.result.inputRequests) as Any[];
      assert.equal(question.method, "elicitation/create");
      assert.equal(question.params.mode, "url");
      assert.equal(question.params.url, "https://modelcontextprotocol.io/");
    });
  });
}
