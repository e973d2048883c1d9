/**
 * Sampling with tools (SEP-1577, MCP 2025-11-25, Sampling: tool use): a handler offers the client's model
 * a tool, the model answers with a `tool_use` block, the handler runs it and samples again with the
 * `tool_result`; our client on MCP 2025-11-25, 2026-07-28 and MCP-lite, and the official v1 client's
 * sampling handler, over a real socket. Tools go only to a client that declared `sampling.tools`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createServer, defineTool, serve } from "../../mod.ts";
import type { Listener, SamplingMessage, SamplingTool, ToolResultContent, ToolUseContent } from "../../src/types.ts";
import { type ClientOptions, createClient } from "../../src/client/mod.ts";
import type { SampleParams } from "../../src/types.ts";
import { ProtocolError } from "../../src/errors/mod.ts";

const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};
const { CreateMessageRequestSchema } = await import(`${V1}/types.js`) as {
  CreateMessageRequestSchema: Parameters<ClientV1["setRequestHandler"]>[0];
};

const weather: SamplingTool = {
  name: "weather",
  description: "Today's weather in a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const server = createServer({ name: "sampling", version: "1.0.0" }).tool(
  defineTool("forecast").describe("Asks the client's model, which may look the weather up").handle(
    async (_args, ctx) => {
      const messages: SamplingMessage[] = [{ role: "user", content: { type: "text", text: "Umbrella in Oslo?" } }];
      const first = await ctx.sample("ask", {
        messages,
        maxTokens: 100,
        tools: [weather],
        toolChoice: { mode: "auto" },
      });
      const blocks = Array.isArray(first.content) ? first.content : [first.content];
      const uses = blocks.filter((block): block is ToolUseContent => block.type === "tool_use");
      if (uses.length === 0) return "no tool";
      const results: ToolResultContent[] = uses.map((use) => ({
        type: "tool_result",
        toolUseId: use.id,
        content: [{ type: "text", text: `rain in ${use.input.city}` }],
      }));
      const final = await ctx.sample("answer", {
        messages: [...messages, { role: "assistant", content: first.content }, { role: "user", content: results }],
        maxTokens: 100,
        tools: [weather],
        toolChoice: { mode: "none" },
      });
      return Array.isArray(final.content) ? "many" : final.content.type === "text" ? final.content.text : "?";
    },
  ),
);

/** The model: calls the tool when it has none of its results, answers from the result otherwise. */
function model(request: SampleParams, seen: SampleParams[]) {
  seen.push(request);
  const last = request.messages.at(-1)!;
  const blocks = Array.isArray(last.content) ? last.content : [last.content];
  const result = blocks.find((block): block is ToolResultContent => block.type === "tool_result");
  if (result === undefined) {
    return {
      role: "assistant" as const,
      model: "test-model",
      stopReason: "toolUse",
      content: [{ type: "tool_use" as const, id: "call-1", name: "weather", input: { city: "Oslo" } }],
    };
  }
  const said = result.content[0];
  return {
    role: "assistant" as const,
    model: "test-model",
    stopReason: "endTurn",
    content: { type: "text" as const, text: `Yes: ${said.type === "text" ? said.text : "?"} (${result.toolUseId})` },
  };
}

function checkRoundTrip(seen: SampleParams[]): void {
  assert.equal(seen.length, 2);
  assert.deepEqual(seen[0].tools, [weather]);
  assert.deepEqual(seen[0].toolChoice, { mode: "auto" });
  assert.deepEqual(seen[1].toolChoice, { mode: "none" });
  assert.deepEqual(seen[1].messages.map((message) => message.role), ["user", "assistant", "user"]);
  assert.deepEqual(seen[1].messages[1].content, [
    { type: "tool_use", id: "call-1", name: "weather", input: { city: "Oslo" } },
  ]);
}

const WIRES: Record<string, Pick<ClientOptions, "transport" | "protocolVersion">> = {
  "MCP 2025-11-25": { transport: "mcp", protocolVersion: "2025-11-25" },
  "MCP 2026-07-28": { transport: "mcp" },
  "MCP-lite": { transport: "mcp-lite" },
};

for (const [name, wire] of Object.entries(WIRES)) {
  describe(`sampling with tools, our client over ${name}`, () => {
    const url = wire.transport === "mcp" ? "http://localhost/mcp" : "http://localhost/mcp-lite/v1";
    const fetch = (request: Request) => server.fetch(request);

    it("goes round: tool_use from onSample, tool_result back in the next request, then the answer", async () => {
      const seen: SampleParams[] = [];
      const client = createClient(url, { ...wire, fetch, samplingTools: true, onSample: (r) => model(r, seen) });
      assert.equal(await client.call("forecast", {}), "Yes: rain in Oslo (call-1)");
      checkRoundTrip(seen);
      await client.close();
    });

    it("is refused with -32021 naming sampling.tools when the client did not declare it", {
      skip: wire.transport === "mcp-lite" && "MCP-lite declares no client capabilities",
    }, async () => {
      const seen: SampleParams[] = [];
      const client = createClient(url, { ...wire, fetch, onSample: (r) => model(r, seen) });
      const error = await client.call("forecast", {}).then(() => assert.fail("expected -32021"), (e: unknown) => e);
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.rpcCode, -32021);
      assert.deepEqual((error.data as { requiredCapabilities: unknown }).requiredCapabilities, {
        sampling: { tools: {} },
      });
      assert.equal(seen.length, 0, "the model was never asked");
      await client.close();
    });
  });
}

describe("sampling with tools, the official v1 client (2025-11-25)", () => {
  let listener: Listener;
  before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
  after(async () => await listener.close());

  it("answers with tool_use through its sampling handler, and gets the tool_result in the next request", async () => {
    const seen: SampleParams[] = [];
    const client = new ClientV1({ name: "v1", version: "1.32.2" }, { capabilities: { sampling: { tools: {} } } });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      return model((request as { params: SampleParams }).params, seen);
    });
    await client.connect(new TransportV1(new URL(`${listener.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "forecast", arguments: {} }) as { content: { text: string }[] };
      assert.equal(result.content[0].text, "Yes: rain in Oslo (call-1)");
      checkRoundTrip(seen);
    } finally {
      await client.close();
    }
  });
});
