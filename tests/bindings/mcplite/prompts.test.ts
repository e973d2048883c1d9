/**
 * Prompts on MCP-lite (the README's extension of MCP-lite spec v0.042 §8.1): `POST {base}/prompts` lists
 * them with their arguments (the page shape of `/listtools`), `POST {base}/prompts/get` renders one
 * (JSON-RPC `prompts/get`, input rounds as a tool call's), and our client's `listPrompts()` and
 * `getPrompt()` use them on the MCP-lite wire. A server without prompts answers as for an unknown method.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, definePrompt, defineTool, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { createClient } from "../../../src/client/mod.ts";
import { createMcpliteTransport } from "../../../src/client/transports/mcplite.ts";
import { post } from "../../helpers/request.ts";
import { greetPrompt } from "../../helpers/greet-prompt.ts";

/** A server with two prompts: one with an argument, one that asks the user first. */
function promptServer() {
  return createServer({ name: "prompts", version: "1.0.0", secret: "prompt-test-secret-0123456789abcdef" })
    .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"))
    .prompt(
      greetPrompt(),
    )
    .prompt(
      definePrompt("review").describe("Reviews with a tone the user picks").get(async (_args, ctx) => {
        const tone = await ctx.elicit("tone", {
          message: "Which tone?",
          requestedSchema: { type: "object", properties: { tone: { type: "string" } }, required: ["tone"] },
        });
        return { description: "A review", messages: [{ role: "user", content: `Review, ${tone.content?.tone}.` }] };
      }),
    );
}

const GREET = {
  name: "greet",
  description: "Greets someone",
  arguments: [{ name: "name", description: "Who to greet", required: true }],
};

function getPrompt(params: Record<string, unknown>, id: number | string = 1): Request {
  return post("/mcp-lite/v1/prompts/get", { jsonrpc: "2.0", id, method: "prompts/get", params });
}

describe("MCP-lite prompts over HTTP", () => {
  it("lists the prompts with their arguments, as /listtools lists tools", async () => {
    const response = await promptServer().fetch(post("/mcp-lite/v1/prompts", {}));
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.deepEqual(body.prompts[0], GREET);
    assert.deepEqual(body.prompts.map((p: { name: string }) => p.name), ["greet", "review"]);
  });

  it("renders a prompt; a missing argument or an unknown prompt is -32602", async () => {
    const server = promptServer();
    const body = await (await server.fetch(getPrompt({ name: "greet", arguments: { name: "Ada" } }, "g-1"))).json();
    assert.equal(body.id, "g-1");
    assert.deepEqual(body.result, {
      description: "Greets someone",
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }],
    });
    const missing = await (await server.fetch(getPrompt({ name: "greet", arguments: {} }))).json();
    assert.equal(missing.error.code, -32602);
    assert.match(missing.error.message, /name/);
    const unknown = await (await server.fetch(getPrompt({ name: "nope" }))).json();
    assert.equal(unknown.error.code, -32602);
  });

  it("asks in an elicitation round, and renders when called again with the answer and the state", async () => {
    const server = promptServer();
    const first = await (await server.fetch(getPrompt({ name: "review" }))).json();
    assert.equal(first.result._meta.response_type, "elicitation");
    assert.deepEqual(Object.keys(first.result._meta.input_requests), ["tone"]);
    const done = await (await server.fetch(getPrompt({
      name: "review",
      inputResponses: { tone: { action: "accept", content: { tone: "kindly" } } },
      requestState: first.result._meta.request_state,
    }))).json();
    assert.equal(done.result.messages[0].content.text, "Review, kindly.");
  });

  it("answers a server without prompts as an unknown method (-32601)", async () => {
    const bare = createServer({ name: "bare", version: "1.0.0" }).tool(
      defineTool("ping").describe("p").handle(() => 1),
    );
    const body = await (await bare.fetch(post("/mcp-lite/v1/prompts", {}))).json();
    assert.equal(body.error.code, -32601);
  });
});

describe("MCP-lite prompts with our client", () => {
  let listener: Listener;
  const server = promptServer();
  before(async () => {
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
  });

  it("listPrompts() and getPrompt() go to /prompts and /prompts/get, answering input rounds", async () => {
    const client = createClient(createMcpliteTransport(`${listener.url}/mcp-lite/v1`), {
      onElicit: () => ({ action: "accept", content: { tone: "briefly" } }),
    });
    assert.deepEqual((await client.listPrompts())[0], GREET);
    const greet = await client.getPrompt("greet", { name: "Bo" });
    assert.deepEqual(greet.messages, [{ role: "user", content: { type: "text", text: "Say hello to Bo." } }]);
    const review = await client.getPrompt("review");
    assert.deepEqual(review.messages, [{ role: "user", content: { type: "text", text: "Review, briefly." } }]);
  });
});
