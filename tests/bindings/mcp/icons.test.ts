/**
 * Icons (SEP-973) reach clients nobody here wrote: the official v1 client (`@modelcontextprotocol/sdk`,
 * 2025-11-25) and v2 client (`@modelcontextprotocol/client`) on 2025-11-25 and on 2026-07-28 read the
 * server's in its `serverInfo` (`initialize`; `server/discover`'s `_meta`), and those of a tool, a
 * prompt, a resource and a template in their lists, over a real socket. MCP-lite's lists and the OpenAPI
 * document carry them too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { createServer, definePrompt, defineResource, defineTool, serve } from "../../../mod.ts";
import { openapiBinding } from "../../../src/bindings/openapi/mod.ts";
import { mcpBinding, mcpLiteBinding } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";

// As tests/bindings/mcp/official-clients.test.ts: the v1 transport by a computed specifier, for Deno's checker.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

const SERVER_ICON = { src: "https://weather.example.com/logo.svg", mimeType: "image/svg+xml", sizes: ["any"] };
const DARK_ICON = { src: "https://weather.example.com/logo-dark.png", mimeType: "image/png", theme: "dark" as const };
const TOOL_ICON = { src: "data:image/png;base64,iVBORw0KGgo=", mimeType: "image/png", sizes: ["48x48"] };
const PROMPT_ICON = { src: "https://weather.example.com/prompt.png", theme: "light" as const };
const RESOURCE_ICON = { src: "https://weather.example.com/doc.png", sizes: ["16x16", "32x32"] };
const TEMPLATE_ICON = { src: "http://localhost/city.png" };

const server = createServer({
  name: "weather",
  version: "1.2.0",
  description: "Forecasts",
  icons: [DARK_ICON, SERVER_ICON],
  websiteUrl: "https://weather.example.com",
  bindings: [mcpLiteBinding(), mcpBinding(), openapiBinding()],
})
  .tool(defineTool("forecast").describe("Tomorrow's weather").icons([TOOL_ICON]).handle(() => "sunny"))
  .prompt(definePrompt("plan").icons([PROMPT_ICON]).get(() => "Plan a trip"))
  .resource(defineResource("docs://readme").icons([RESOURCE_ICON]).read(() => "# Weather"))
  .resource(defineResource("city://{name}").icons([TEMPLATE_ICON]).read(({ name }) => name));

let listener: Listener;
before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

interface Listing {
  getServerVersion(): unknown;
  listTools(): Promise<{ tools: { icons?: unknown }[] }>;
  listPrompts(): Promise<{ prompts: { icons?: unknown }[] }>;
  listResources(): Promise<{ resources: { icons?: unknown }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { icons?: unknown }[] }>;
  close(): Promise<void>;
}

function suite(name: string, connect: () => Promise<Listing>): void {
  describe(name, () => {
    let client: Listing;
    before(async () => client = await connect());
    after(async () => await client.close());

    it("reads the server's icons, description and website in its serverInfo", () => {
      assert.deepEqual(client.getServerVersion(), {
        name: "weather",
        version: "1.2.0",
        description: "Forecasts",
        icons: [DARK_ICON, SERVER_ICON],
        websiteUrl: "https://weather.example.com",
      });
    });

    it("reads the icons of a tool, a prompt, a resource and a template in their lists", async () => {
      assert.deepEqual((await client.listTools()).tools[0].icons, [TOOL_ICON]);
      assert.deepEqual((await client.listPrompts()).prompts[0].icons, [PROMPT_ICON]);
      assert.deepEqual((await client.listResources()).resources[0].icons, [RESOURCE_ICON]);
      assert.deepEqual((await client.listResourceTemplates()).resourceTemplates[0].icons, [TEMPLATE_ICON]);
    });
  });
}

suite("the official v1 client (2025-11-25)", async () => {
  const client = new ClientV1({ name: "v1", version: "1.32.2" });
  await client.connect(new TransportV1(new URL(`${listener.url}/mcp`)));
  return client as unknown as Listing;
});

suite("the official v2 client in its legacy mode (2025-11-25)", async () => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" });
  await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
  assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25");
  return client as unknown as Listing;
});

suite("the official v2 client pinned to 2026-07-28", async () => {
  const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
  assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
  return client as unknown as Listing;
});

describe("icons beyond MCP", () => {
  it("are listed with the tool and the prompt on MCP-lite", async () => {
    const post = (path: string, method: string) =>
      fetch(`${listener.url}/mcp-lite/v1/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }),
      }).then((response) => response.json());
    assert.deepEqual((await post("listtools", "tools/list")).tools[0].icons, [TOOL_ICON]);
    assert.deepEqual((await post("prompts", "prompts/list")).prompts[0].icons, [PROMPT_ICON]);
  });

  it("are the OpenAPI operation's x-icons, and the server's x-icons with the first light one as x-logo", async () => {
    const document = await (await fetch(`${listener.url}/api/openapi.json`)).json();
    assert.deepEqual(document.info["x-logo"], { url: SERVER_ICON.src });
    assert.deepEqual(document.info["x-icons"], [DARK_ICON, SERVER_ICON]);
    assert.deepEqual(document.paths["/api/tools/forecast"].post["x-icons"], [TOOL_ICON]);
  });
});
