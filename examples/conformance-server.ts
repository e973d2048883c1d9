/**
 * Every fixture the official MCP conformance suite (`@modelcontextprotocol/conformance`) expects,
 * written with the SDK's DSL as a user would: tools, resources, prompts and completions, listed in a
 * fixed order with a no-argument tool first. `.ci/conformance.sh` runs the suite against it.
 *
 *   PORT=8000 deno run -A examples/conformance-server.ts      (or: bun run examples/conformance-server.ts)
 *
 * The input-required (MRTR) and tasks fixtures are not here: that round is added later.
 */
import * as v from "valibot";
import {
  audio,
  createServer,
  definePrompt,
  defineResource,
  defineTool,
  ErrorCode,
  image,
  isProtocolError,
  resource,
  serve,
  text,
  ToolError,
} from "../mod.ts";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** An empty 8 kHz, 16-bit mono WAV. */
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ── Tools ─────────────────────────────────────────────────────────────────────────────────────────
// The first tool takes no arguments: the header checks call tools[0] with `arguments: {}`.

const simpleText = defineTool("test_simple_text")
  .describe("Returns a simple text response")
  .handle(() => "This is a simple text response for testing.");

const imageContent = defineTool("test_image_content")
  .describe("Returns an image")
  .handle(() => image(PNG, "image/png"));

const audioContent = defineTool("test_audio_content")
  .describe("Returns an audio clip")
  .handle(() => audio(WAV, "audio/wav"));

const embeddedResource = defineTool("test_embedded_resource")
  .describe("Returns an embedded resource")
  .handle(() => resource("test://embedded-resource", "This is an embedded resource content.", "text/plain"));

const mixedContent = defineTool("test_multiple_content_types")
  .describe("Returns text, an image and an embedded resource")
  .handle(() => [
    text("Multiple content types test:"),
    image(PNG, "image/png"),
    resource("test://mixed-content-resource", JSON.stringify({ test: "data", value: 123 }), "application/json"),
  ]);

const withLogging = defineTool("test_tool_with_logging")
  .describe("Sends log messages while it runs")
  .handle(async (_args, ctx) => {
    ctx.log("info", "Tool execution started", "conformance");
    await sleep(50);
    ctx.log("info", "Tool processing data", "conformance");
    await sleep(50);
    ctx.log("info", "Tool execution completed", "conformance");
    return "Tool with logging executed successfully";
  });

const withProgress = defineTool("test_tool_with_progress")
  .describe("Reports progress while it runs")
  .handle(async (_args, ctx) => {
    ctx.progress(0, 100, "Starting");
    await sleep(50);
    ctx.progress(50, 100, "Halfway");
    await sleep(50);
    ctx.progress(100, 100, "Done");
    return "Tool with progress executed successfully";
  });

const errorHandling = defineTool("test_error_handling")
  .describe("Always fails, as a tool error")
  .handle(() => {
    throw new ToolError("This tool intentionally returns an error for testing");
  });

const sampling = defineTool("test_sampling")
  .describe("Asks the client's model to answer a prompt (sampling)")
  .input(v.object({ prompt: v.pipe(v.string(), v.description("The prompt to send to the model")) }))
  .handle(async ({ prompt }, ctx) => {
    const answer = await ctx.sample("answer", {
      messages: [{ role: "user", content: { type: "text", text: prompt } }],
      maxTokens: 100,
    });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return `LLM response: ${typeof content?.text === "string" ? content.text : JSON.stringify(content)}`;
  });

const elicitation = defineTool("test_elicitation")
  .describe("Asks the user for a username and an email (elicitation)")
  .input(v.object({ message: v.pipe(v.string(), v.description("The message shown to the user")) }))
  .handle(async ({ message }, ctx) => {
    const answer = await ctx.elicit("user_info", {
      message,
      requestedSchema: {
        type: "object",
        properties: {
          username: { type: "string", description: "Your username" },
          email: { type: "string", description: "Your email address", format: "email" },
        },
        required: ["username", "email"],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

const elicitationDefaults = defineTool("test_elicitation_sep1034_defaults")
  .describe("Asks for a form whose every field has a default (SEP-1034)")
  .handle(async (_args, ctx) => {
    const answer = await ctx.elicit("defaults", {
      message: "Please review and update the form fields with defaults",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "User name", default: "John Doe" },
          age: { type: "integer", description: "User age", default: 30 },
          score: { type: "number", description: "User score", default: 95.5 },
          status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", description: "Verification status", default: true },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

const elicitationEnums = defineTool("test_elicitation_sep1330_enums")
  .describe("Asks for a form with every enum form (SEP-1330)")
  .handle(async (_args, ctx) => {
    const answer = await ctx.elicit("enums", {
      message: "Please select options from the enum fields",
      requestedSchema: {
        type: "object",
        properties: {
          untitledSingle: { type: "string", description: "Untitled single-select", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Titled single-select",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Legacy titled enum",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Untitled multi-select",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Titled multi-select",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

// A raw JSON Schema is passed through untouched: every 2020-12 keyword survives into tools/list.
const jsonSchema2020 = defineTool("json_schema_2020_12_tool")
  .describe("Tool with JSON Schema 2020-12 features")
  .input({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  })
  .handle((args) => `Received: ${JSON.stringify(args)}`);

const missingCapability = defineTool("test_missing_capability")
  .describe("Needs the client's sampling capability")
  .handle(async (_args, ctx) => {
    const answer = await ctx.sample("probe", {
      messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
      maxTokens: 10,
    });
    return `Sampled with ${answer.model}`;
  });

const streamingElicitation = defineTool("test_streaming_elicitation")
  .describe("Reports progress, then asks the user to confirm")
  .handle(async (_args, ctx) => {
    ctx.progress(1, 2, "Preparing");
    try {
      const answer = await ctx.elicit("confirm", {
        message: "Continue?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      return `Confirmed: ${answer.action}`;
    } catch (error) {
      // A wire that cannot ask this client gets an answer without the confirmation.
      if (isProtocolError(error) && error.code === ErrorCode.MissingCapability) return "Not confirmed: the client cannot be asked";
      throw error;
    }
  });

const loggingTool = defineTool("test_logging_tool")
  .describe("Logs at several levels; only a request that sets a log level receives them")
  .handle((_args, ctx) => {
    ctx.log("debug", "A debug message");
    ctx.log("info", "An info message");
    ctx.log("warning", "A warning message");
    return "Logged 3 messages";
  });

const dynamicTool = defineTool("test_dynamic_tool")
  .describe("Appears and disappears with test_trigger_tool_change")
  .handle(() => "I come and go");

const triggerToolChange = defineTool("test_trigger_tool_change")
  .describe("Adds or removes test_dynamic_tool, so listeners hear tools/list_changed")
  .handle((): string => {
    if (server.removeTool(dynamicTool.name)) return `Removed ${dynamicTool.name}`;
    server.tool(dynamicTool);
    return `Added ${dynamicTool.name}`;
  });

const dynamicPrompt = definePrompt("test_dynamic_prompt")
  .describe("Appears and disappears with test_trigger_prompt_change")
  .get(() => "A prompt that comes and goes");

const triggerPromptChange = defineTool("test_trigger_prompt_change")
  .describe("Adds or removes test_dynamic_prompt, so listeners hear prompts/list_changed")
  .handle((): string => {
    if (server.removePrompt(dynamicPrompt.name)) return `Removed ${dynamicPrompt.name}`;
    server.prompt(dynamicPrompt);
    return `Added ${dynamicPrompt.name}`;
  });

// `x-mcp-header`: the region travels as the `Mcp-Param-Region` header too, so gateways can route on it.
const headerParams = defineTool("test_header_params")
  .describe("Echoes a region that is mirrored in the Mcp-Param-Region header")
  .input(v.object({
    region: v.pipe(v.string(), v.description("The region"), v.metadata({ "x-mcp-header": "Region" })),
    priority: v.optional(v.pipe(v.number(), v.integer(), v.metadata({ "x-mcp-header": "Priority" }))),
  }))
  .handle(({ region, priority }) => `Region ${region}${priority === undefined ? "" : `, priority ${priority}`}`);

// ── Resources ─────────────────────────────────────────────────────────────────────────────────────

const staticText = defineResource("test://static-text")
  .name("static-text")
  .describe("A static text resource")
  .mimeType("text/plain")
  .read(() => "This is the content of the static text resource.");

const staticBinary = defineResource("test://static-binary")
  .name("static-binary")
  .describe("A static binary resource (a PNG)")
  .mimeType("image/png")
  .read(() => Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));

const watched = defineResource("test://watched-resource")
  .name("watched-resource")
  .describe("A resource clients may subscribe to")
  .mimeType("text/plain")
  .read(() => "Watched resource content");

const template = defineResource("test://template/{id}/data")
  .name("template-data")
  .describe("Data for an id")
  .mimeType("application/json")
  .complete("id", (typed) => ["123", "456", "789"].filter((id) => id.startsWith(typed)))
  .read(({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }));

// ── Prompts ───────────────────────────────────────────────────────────────────────────────────────

const simplePrompt = definePrompt("test_simple_prompt")
  .describe("A prompt without arguments")
  .get(() => "This is a simple prompt for testing.");

const promptWithArguments = definePrompt("test_prompt_with_arguments")
  .describe("A prompt with two arguments")
  .args(v.object({
    arg1: v.pipe(v.string(), v.description("First test argument")),
    arg2: v.pipe(v.string(), v.description("Second test argument")),
  }))
  .complete("arg1", (typed) => ["paris", "park", "party"].filter((word) => word.startsWith(typed)))
  .get(({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`);

const promptWithResource = definePrompt("test_prompt_with_embedded_resource")
  .describe("A prompt that embeds a resource")
  .args(v.object({ resourceUri: v.pipe(v.string(), v.description("URI of the resource to embed")) }))
  .get(({ resourceUri }) => [
    { role: "user", content: resource(resourceUri, "Embedded resource content for testing.", "text/plain") },
    { role: "user", content: "Please process the embedded resource above." },
  ]);

const promptWithImage = definePrompt("test_prompt_with_image")
  .describe("A prompt with an image")
  .get(() => [
    { role: "user", content: image(PNG, "image/png") },
    { role: "user", content: "Please analyze the image above." },
  ]);

// ── Server ────────────────────────────────────────────────────────────────────────────────────────

export const server = createServer({ name: "mcplite-conformance", version: "1.0.0" })
  .tool(simpleText)
  .tool(imageContent)
  .tool(audioContent)
  .tool(embeddedResource)
  .tool(mixedContent)
  .tool(withLogging)
  .tool(withProgress)
  .tool(errorHandling)
  .tool(sampling)
  .tool(elicitation)
  .tool(elicitationDefaults)
  .tool(elicitationEnums)
  .tool(jsonSchema2020)
  .tool(missingCapability)
  .tool(streamingElicitation)
  .tool(loggingTool)
  .tool(triggerToolChange)
  .tool(triggerPromptChange)
  .tool(headerParams)
  .resource(staticText)
  .resource(staticBinary)
  .resource(watched)
  .resource(template)
  .prompt(simplePrompt)
  .prompt(promptWithArguments)
  .prompt(promptWithResource)
  .prompt(promptWithImage);

if (import.meta.main) {
  const listener = await serve(server);
  console.log(`conformance server listening on ${listener.url}/mcp`);
}
