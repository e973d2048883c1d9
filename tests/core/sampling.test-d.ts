/**
 * Type tests for elicitation's two modes and sampling with tools, on the server (`ctx.elicit()`,
 * `ctx.sample()`) and on the client (`onElicit`, `onSample`): a wrong `toolChoice`, a content block of
 * the wrong shape, or a URL request read as a form does not compile. Checked by `deno check`, never run.
 */
import { type CallContext, defineTool } from "../../mod.ts";
import type { CreateMessageResult, ToolResultContent, UrlElicitResult } from "../../src/types.ts";
import { createClient, type ElicitRequest, type SampleAnswer } from "../../src/client/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

const tools = [{ name: "weather", inputSchema: { type: "object" as const, properties: {} } }];
const messages = [{ role: "user" as const, content: { type: "text" as const, text: "Oslo?" } }];

export async function server(ctx: CallContext): Promise<void> {
  const sampled = await ctx.sample("ask", { messages, maxTokens: 10, tools, toolChoice: { mode: "required" } });
  type _Sampled = Expect<Equal<typeof sampled, CreateMessageResult>>;
  // @ts-expect-error: toolChoice's mode is auto, required or none
  await ctx.sample("bad", { messages, maxTokens: 10, tools, toolChoice: { mode: "always" } });
  // @ts-expect-error: toolChoice is an object, not a string
  await ctx.sample("bad", { messages, maxTokens: 10, tools, toolChoice: "auto" });
  // @ts-expect-error: a tool_result names its tool_use in toolUseId (not id), with content blocks
  const wrong: ToolResultContent = { type: "tool_result", id: "1", content: "x" };
  await ctx.sample("bad", { messages: [{ role: "user", content: wrong }], maxTokens: 10 });
  // @ts-expect-error: a tool's inputSchema is an object schema
  await ctx.sample("bad", { messages, maxTokens: 10, tools: [{ name: "t", inputSchema: { type: "string" } }] });
  // @ts-expect-error: maxTokens is required
  await ctx.sample("bad", { messages });

  const page = await ctx.elicit("signin", { mode: "url", url: "https://auth.example.com/", message: "Sign in" });
  type _Page = Expect<Equal<typeof page, UrlElicitResult>>;
  // @ts-expect-error: URL mode returns no content
  page.content;
  // @ts-expect-error: URL mode needs a url
  await ctx.elicit("bad", { mode: "url", message: "Sign in" });
  const form = await ctx.elicit("name", { message: "Name?", requestedSchema: { type: "object" } });
  form.content?.name;
}

export const tool = defineTool("t").handle(async (_args, ctx) =>
  (await ctx.sample("k", { messages, maxTokens: 1 })).model
);

createClient("https://example.com/mcp", {
  elicitationModes: ["form", "url"],
  onElicit: (request: ElicitRequest) => {
    if (request.mode === "url") {
      const url: string = request.url;
      // @ts-expect-error: a URL request has no form
      request.requestedSchema.type;
      return { action: url === "" ? "decline" : "accept" };
    }
    const schema: Record<string, unknown> = request.requestedSchema;
    return { action: "accept", content: { keys: Object.keys(schema).length } };
  },
  samplingTools: true,
  onSample: (request): SampleAnswer => {
    const choice: "auto" | "required" | "none" | undefined = request.toolChoice?.mode;
    const tool = request.tools?.[0]?.name ?? String(choice);
    return {
      role: "assistant",
      model: "m",
      stopReason: "toolUse",
      content: [{ type: "tool_use", id: "1", name: tool, input: {} }],
    };
  },
});

createClient("https://example.com/mcp", {
  // @ts-expect-error: a tool_use block carries its id, name and input
  onSample: () => ({ role: "assistant", model: "m", content: [{ type: "tool_use", name: "weather" }] }),
});

createClient("https://example.com/mcp", {
  // @ts-expect-error: the modes are form and url
  elicitationModes: ["browser"],
});
