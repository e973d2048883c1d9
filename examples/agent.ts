/**
 * An agent-style script: list a server's tools, hand them to a model in OpenAI's and Anthropic's tool
 * shapes, then run the tool calls the model asks for, printing progress as it comes. The "model" here
 * is a fixed script (no API call is made); the client, the server and the wire are real: a demo server
 * listens on 127.0.0.1 and the client finds its wire from the bare URL.
 *
 *   deno run -A --unstable-no-legacy-abort examples/agent.ts      bun run examples/agent.ts
 *   MCPLITE_URL=http://localhost:8000 bun run examples/agent.ts      (against another server)
 */
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../mod.ts";
import { type Client, createClient, toAnthropicTools, toOpenAITools } from "../src/client/mod.ts";

const DOCUMENTS = [
  { id: "doc-1", title: "MCP-lite specification" },
  { id: "doc-2", title: "Quarterly report draft" },
  { id: "doc-3", title: "MCP 2026-07-28 digest" },
];

const search = defineTool("search_documents")
  .type("query")
  .describe("Search through available documents")
  .input(v.object({ query: v.string(), limit: v.optional(v.number(), 10) }))
  .output(v.object({ hits: v.array(v.object({ id: v.string(), title: v.string() })) }))
  .handle(({ query, limit }) => ({
    hits: DOCUMENTS.filter((d) => d.title.toLowerCase().includes(query.toLowerCase())).slice(0, limit),
  }));

const report = defineTool("generate_report")
  .type("report")
  .describe("Writes a report on a topic, streamed section by section")
  .input(v.object({ topic: v.string() }))
  .stream(async function* ({ topic }, ctx) {
    const sections = ["Executive summary", "Revenue", "Outlook"];
    for (const [i, section] of sections.entries()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ctx.progress(i + 1, sections.length, section);
      yield `## ${section} (${topic})\n`;
    }
  });

const analyze = defineTool("analyze_dataset")
  .type("analysis")
  .describe("Analyses a dataset; long-running, answered with a promise")
  .input(v.object({ dataset_id: v.string() }))
  .output(v.object({ dataset_id: v.string(), rows: v.number(), trend: v.string() }))
  .handle(({ dataset_id }, ctx) => ctx.promise({ state: { dataset_id, left: 2 }, retryAfterMs: 50 }))
  .redeem(({ dataset_id, left }, ctx) =>
    left <= 1
      ? { dataset_id, rows: 12_329, trend: "up 15%" }
      : ctx.promise({ state: { dataset_id, left: left - 1 }, retryAfterMs: 50 })
  );

const remove = defineTool("delete_document")
  .type("action")
  .describe("Deletes a document, after the user confirms")
  .input(v.object({ id: v.string() }))
  .handle(async ({ id }, ctx) => {
    const answer = await ctx.elicit("confirm", {
      message: `Delete ${id}?`,
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean", default: false } } },
    });
    return answer.action === "accept" && answer.content?.confirm === true ? `deleted ${id}` : `kept ${id}`;
  });

/** The demo server the agent talks to. */
export const server = createServer({
  name: "agent-demo",
  version: "1.0.0",
  secret: "agent demo secret: at least thirty-two bytes",
})
  .tool(search).tool(report).tool(analyze).tool(remove);

/** A tool call as a model emits it (OpenAI's shape: the arguments are JSON text). */
export interface ModelToolCall {
  /** The call's id. */
  id: string;
  /** The tool. */
  name: string;
  /** The arguments, as JSON text. */
  arguments: string;
}

/** What the scripted model asks for, in order. */
export const SCRIPT: ModelToolCall[] = [
  { id: "call_1", name: "search_documents", arguments: '{"query":"mcp"}' },
  { id: "call_2", name: "generate_report", arguments: '{"topic":"Q4"}' },
  { id: "call_3", name: "analyze_dataset", arguments: '{"dataset_id":"sales_2025"}' },
  { id: "call_4", name: "delete_document", arguments: '{"id":"doc-2"}' },
];

/** One entry of the agent's transcript: the tool result as the model would get it back. */
export interface Step {
  /** The call. */
  call: ModelToolCall;
  /** The result's text. */
  text: string;
  /** Whether the tool failed. */
  isError: boolean;
}

/**
 * Runs the script: lists the tools in both model shapes, then makes each call.
 *
 * @param client The client.
 * @param log Where to print.
 * @returns The transcript.
 */
export async function runAgent(client: Client, log: (line: string) => void = console.log): Promise<Step[]> {
  const tools = await client.listTools();
  log(`tools (wire: ${client.wire}): ${tools.map((t) => t.name).join(", ")}`);
  log(`OpenAI tools:    ${JSON.stringify(toOpenAITools(tools).map((t) => t.function.name))}`);
  log(`Anthropic tools: ${JSON.stringify(toAnthropicTools(tools).map((t) => t.name))}`);
  const steps: Step[] = [];
  for (const call of SCRIPT) {
    log(`> ${call.name}(${call.arguments})`);
    const result = await client.callTool(call.name, JSON.parse(call.arguments), {
      onProgress: (p) => log(`  progress ${p.progress}/${p.total ?? "?"}${p.message ? ` ${p.message}` : ""}`),
      onPartial: (partial) => log(`  partial ${JSON.stringify(partial)}`),
    });
    const text = result.content.map((block) => block.type === "text" ? block.text : `[${block.type}]`).join("\n");
    log(`< ${result.isError ? "error: " : ""}${text.replaceAll("\n", " ").trim()}`);
    // What goes back to the model: { role: "tool", tool_call_id, content } for OpenAI,
    // { type: "tool_result", tool_use_id, content, is_error } for Anthropic.
    steps.push({ call, text, isError: result.isError === true });
  }
  return steps;
}

if (import.meta.main) {
  const url = env("MCPLITE_URL");
  const listener = url === undefined ? await serve(server, { port: 0, quiet: true }) : undefined;
  const client = createClient(url ?? listener!.url, {
    // The "user" confirms every form; a real agent would ask.
    onElicit: (request) => {
      console.log(`  the server asks: ${request.message} (confirming)`);
      return { action: "accept", content: { confirm: true } };
    },
  });
  try {
    await runAgent(client);
  } finally {
    await client.close();
    await listener?.close();
  }
}
