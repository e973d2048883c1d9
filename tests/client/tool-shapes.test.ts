/**
 * Listed tools as OpenAI and Anthropic tool definitions.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createClient,
  toAnthropicTools,
  type ToolInfo,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "../../src/client/mod.ts";
import { fixtureServer } from "../helpers/fixtures.ts";

const tools: ToolInfo[] = [
  {
    name: "redeem",
    "@type": "system",
    description: "Redeem a promise",
    inputSchema: { type: "object", required: ["promise"] },
  },
  {
    name: "add",
    "@type": "math",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" } } },
  },
  { name: "bare", inputSchema: { type: "object" } },
];

describe("tool shapes", () => {
  it("gives OpenAI Chat Completions function tools, leaving out system tools", () => {
    assert.deepEqual(toOpenAITools(tools), [
      {
        type: "function",
        function: { name: "add", description: "Adds two numbers", parameters: tools[1].inputSchema },
      },
      { type: "function", function: { name: "bare", parameters: { type: "object" } } },
    ]);
    assert.equal(toOpenAITools(tools, { skipSystem: false }).length, 3);
    assert.equal(toOpenAITools(tools, { strict: true })[0].function.strict, true);
  });

  it("gives OpenAI Responses API function tools", () => {
    assert.deepEqual(toOpenAIResponsesTools(tools)[0], {
      type: "function",
      name: "add",
      description: "Adds two numbers",
      parameters: tools[1].inputSchema,
      strict: false,
    });
  });

  it("gives Anthropic tools", () => {
    assert.deepEqual(toAnthropicTools(tools), [
      { name: "add", description: "Adds two numbers", input_schema: tools[1].inputSchema },
      { name: "bare", input_schema: { type: "object" } },
    ]);
  });

  it("gives the model no tool only an app's view may call (SEP-1865, Visibility), even with system tools kept", () => {
    const ui = (visibility: string[]) => ({ ui: { resourceUri: "ui://board/view", visibility } });
    const listed: ToolInfo[] = [
      ...tools,
      { name: "refresh", inputSchema: { type: "object" }, _meta: ui(["app"]) },
      { name: "show", inputSchema: { type: "object" }, _meta: ui(["model", "app"]) },
    ];
    const names = ["add", "bare", "show"];
    assert.deepEqual(toOpenAITools(listed).map((t) => t.function.name), names);
    assert.deepEqual(toOpenAIResponsesTools(listed).map((t) => t.name), names);
    assert.deepEqual(toAnthropicTools(listed).map((t) => t.name), names);
    assert.deepEqual(toAnthropicTools(listed, { skipSystem: false }).map((t) => t.name), ["redeem", ...names]);
  });

  it("works on what a server lists", async () => {
    const listed = await createClient(fixtureServer()).listTools();
    assert.deepEqual(toAnthropicTools(listed).map((t) => t.name), listed.map((t) => t.name));
    assert.equal(toOpenAITools(listed)[0].function.parameters.type, "object");
  });
});
