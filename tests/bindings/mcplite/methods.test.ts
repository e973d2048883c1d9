/**
 * MCP-lite's one method table (`src/bindings/mcplite/methods.ts`) on every carrier: prompts (the README's
 * extension of MCP-lite spec v0.042 §8.1) are answered by MCP-lite itself over HTTP, stdio lines and
 * WebSocket frames (§8.2), for a server of `@mcplite/sdk/lite` (no MCP binding): the list, a rendering,
 * an unknown prompt, arguments that fail the schema, an input round as MCP-lite's `elicitation` result,
 * and request middleware seeing MCP-lite's requests.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, definePrompt, defineTool, inputRounds, mcpLiteBinding, serve } from "../../../src/lite/mod.ts";
import type { Listener } from "../../../src/types.ts";
import { WEBSOCKET_PROTOCOL, webSocketBinding } from "../../../src/websocket/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import { createWebSocketTransport } from "../../../src/client/transports/websocket.ts";
import { pipeServer } from "../../helpers/stdio.ts";
import { post } from "../../helpers/request.ts";
import { TestSocket } from "../../websocket/socket.ts";
import { greetPrompt } from "../../helpers/greet-prompt.ts";

type Message = Record<string, unknown>;
/** Sends one JSON-RPC request on a carrier and returns its answer. */
type Exchange = (request: Message) => Promise<Message>;

/** A lite server with two prompts (one with an argument, one that asks first) and a middleware that records. */
function promptServer(seen: string[] = []) {
  return createServer({
    name: "lite-prompts",
    version: "1.0.0",
    secret: "a test secret of thirty-two bytes!",
    bindings: [mcpLiteBinding(), webSocketBinding()],
    inputRounds,
  })
    .use((call, next) => {
      seen.push(`${call.ctx.meta.wire} ${call.method}`);
      return next();
    })
    .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"))
    .prompt(
      greetPrompt(),
    )
    .prompt(
      definePrompt("review").describe("Reviews in a tone the user picks").get(async (_args, ctx) => {
        const tone = await ctx.elicit("tone", {
          message: "Which tone?",
          requestedSchema: { type: "object", properties: { tone: { type: "string" } }, required: ["tone"] },
        });
        return `Review, ${tone.content?.tone}.`;
      }),
    );
}

const request = (id: number, method: string, params: Message = {}): Message => ({ jsonrpc: "2.0", id, method, params });

/** What every carrier must answer, MCP-lite's way. */
async function assertPrompts(exchange: Exchange, seen: string[]): Promise<void> {
  const list = await exchange(request(1, "prompts/list"));
  assert.equal(list.id, 1);
  assert.deepEqual(list.result, {
    prompts: [
      {
        name: "greet",
        description: "Greets someone",
        arguments: [{ name: "name", description: "Who to greet", required: true }],
      },
      { name: "review", description: "Reviews in a tone the user picks" },
    ],
  });

  const greet = await exchange(request(2, "prompts/get", { name: "greet", arguments: { name: "Ada" } }));
  assert.deepEqual(greet.result, {
    description: "Greets someone",
    messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }],
  });

  const unknown = (await exchange(request(3, "prompts/get", { name: "nope" }))).error as Message;
  assert.equal(unknown.code, -32602);
  assert.deepEqual(unknown.data, { code: "invalid_params", prompt: "nope" }); // the ErrorCode in data, as on every JSON-RPC wire

  const missing = (await exchange(request(4, "prompts/get", { name: "greet", arguments: {} }))).error as Message;
  assert.equal(missing.code, -32602);
  assert.deepEqual((missing.data as { issues: { path: string }[] }).issues.map((issue) => issue.path), ["name"]);

  // An input round is MCP-lite's result (§3.3 `elicitation`), answered by asking again with the answer and the state.
  const asked = (await exchange(request(5, "prompts/get", { name: "review" }))).result as {
    _meta: { response_type: string; input_requests: Message; request_state: string };
  };
  assert.equal(asked._meta.response_type, "elicitation");
  assert.deepEqual(Object.keys(asked._meta.input_requests), ["tone"]);
  const reviewed = await exchange(request(6, "prompts/get", {
    name: "review",
    inputResponses: { tone: { action: "accept", content: { tone: "kindly" } } },
    requestState: asked._meta.request_state,
  }));
  assert.deepEqual((reviewed.result as { messages: unknown }).messages, [
    { role: "user", content: { type: "text", text: "Review, kindly." } },
  ]);

  // The request middleware ran for each, as MCP-lite's.
  assert.ok(seen.length > 0 && seen.every((entry) => entry.startsWith("mcp-lite ")), seen.join(", "));
  assert.deepEqual([...new Set(seen)], ["mcp-lite prompts/list", "mcp-lite prompts/get"]);
}

describe("MCP-lite's method table: prompts on every carrier, without the MCP binding", () => {
  it("over HTTP: /prompts and /prompts/get", async () => {
    const seen: string[] = [];
    const server = promptServer(seen);
    await assertPrompts(async (message) => {
      if (message.method === "prompts/list") {
        const response = await server.fetch(post("/mcp-lite/v1/prompts", {}));
        return { id: message.id, result: await response.json() };
      }
      return await (await server.fetch(post("/mcp-lite/v1/prompts/get", message))).json();
    }, seen);
  });

  it("over HTTP: a JSON-RPC endpoint answers every method of the table", async () => {
    const seen: string[] = [];
    const server = promptServer(seen);
    await assertPrompts(async (message) => (await server.fetch(post("/mcp-lite/v1/calltools", message))).json(), seen);
    const tools = await (await server.fetch(post("/mcp-lite/v1/prompts/get", request(7, "tools/list")))).json();
    assert.deepEqual(tools.result.tools.map((tool: { name: string }) => tool.name), ["ping"]);
    const other = await (await server.fetch(post("/mcp-lite/v1/prompts/get", request(8, "completion/complete"))))
      .json();
    assert.deepEqual(other.error, {
      code: -32601,
      message: "Method not found: completion/complete",
      data: { code: "method_not_found" },
    });
  });

  it("over stdio: one message a line", async () => {
    const seen: string[] = [];
    const piped = pipeServer(promptServer(seen));
    try {
      await assertPrompts((message) => {
        piped.send(message);
        return piped.answer(message.id);
      }, seen);
      // Only answers: no MCP request (such as 2025's elicitation/create) went to the client.
      assert.deepEqual(piped.messages.filter((m) => !("result" in m || "error" in m)), []);
    } finally {
      await piped.end();
    }
  });

  it("over stdio: notifications/cancelled aborts a prompt being rendered, and no answer follows", async () => {
    const aborted: unknown[] = [];
    let heard!: () => void;
    const abortHeard = new Promise<void>((resolve) => heard = resolve);
    const server = promptServer().prompt(
      definePrompt("slow").get((_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            aborted.push(ctx.signal.reason);
            heard();
            reject(ctx.signal.reason);
          });
        })
      ),
    );
    const piped = pipeServer(server);
    try {
      piped.send(request(1, "prompts/get", { name: "slow" }));
      piped.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
      let bound: ReturnType<typeof setTimeout> | undefined;
      // The prompt's abort, within 10 s (a bound for a loaded machine): asserted next.
      await Promise.race([abortHeard, new Promise((resolve) => bound = setTimeout(resolve, 10_000))]);
      clearTimeout(bound);
      assert.match(String(aborted[0]), /cancelled by the client/);
      // A later request's answer: the cancelled one had its turn to answer, and did not.
      piped.send(request(2, "prompts/list"));
      await piped.answer(2);
      assert.deepEqual(piped.messages.filter((m) => m.id === 1), []);
    } finally {
      await piped.end();
    }
  });

  it("over stdio: a server that defines no prompt answers as for an unknown method (-32601)", async () => {
    const bare = createServer({ name: "bare", version: "1.0.0" })
      .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
    const piped = pipeServer(bare);
    try {
      piped.send(request(1, "prompts/list"));
      piped.send(request(2, "prompts/get", { name: "greet" }));
      assert.equal(((await piped.answer(1)).error as Message).code, -32601);
      assert.match(String(((await piped.answer(2)).error as Message).message), /defines no prompts/);
    } finally {
      await piped.end();
    }
  });

  describe("over WebSocket: one message a frame", () => {
    const seen: string[] = [];
    let listener: Listener;
    before(async () => {
      listener = await serve(promptServer(seen), { port: 0, hostname: "127.0.0.1", quiet: true });
    });
    after(() => listener.close());

    it("answers the prompts methods", async () => {
      const url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
      const socket = await TestSocket.open(url, [WEBSOCKET_PROTOCOL]);
      try {
        await assertPrompts((message) => {
          socket.send(message);
          return socket.answer(message.id);
        }, seen);
      } finally {
        await socket.close();
      }
    });

    it("serves our client's listPrompts() and getPrompt(), input rounds answered", async () => {
      const url = listener.url.replace("http:", "ws:") + "/mcp-lite/v1/ws";
      const client = createClient(createWebSocketTransport(url), {
        onElicit: () => ({ action: "accept", content: { tone: "briefly" } }),
      });
      try {
        assert.deepEqual((await client.listPrompts()).map((prompt) => prompt.name), ["greet", "review"]);
        const greet = await client.getPrompt("greet", { name: "Bo" });
        assert.deepEqual(greet.messages, [{ role: "user", content: { type: "text", text: "Say hello to Bo." } }]);
        const review = await client.getPrompt("review");
        assert.deepEqual(review.messages, [{ role: "user", content: { type: "text", text: "Review, briefly." } }]);
      } finally {
        await client.close();
      }
    });
  });
});
