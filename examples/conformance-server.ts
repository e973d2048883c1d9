/**
 * Every fixture the official MCP conformance suite (`@modelcontextprotocol/conformance`) expects,
 * written with the SDK's DSL as a user would: tools, resources, prompts and completions, listed in a
 * fixed order with a no-argument tool first, then the input-required (SEP-2322) and tasks-extension
 * (SEP-2663) fixtures. `.ci/conformance.sh` runs the suite against it.
 *
 *   PORT=8000 deno run -A --unstable-no-legacy-abort examples/conformance-server.ts
 *     (or: bun run examples/conformance-server.ts)
 *
 * The same handler code asks the client over each wire: `ctx.elicit()` is an input-required result
 * on 2026-07-28 and MCP-lite, a server→client request on the 2025 revisions' SSE stream.
 */
import * as v from "valibot";
import {
  audio,
  createServer,
  definePrompt,
  defineResource,
  defineTool,
  embeddedResource,
  image,
  mcpBinding,
  mcpLiteBinding,
  serve,
  sessionStreams,
  text,
} from "../mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../src/errors/mod.ts";
import { defineSkill } from "../src/skills/mod.ts";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** An empty 8 kHz, 16-bit mono WAV. */
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms`, or rejects as soon as `signal` aborts (a cancelled task stops at once). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** A form with one required string field. */
const askFor = (field: string, message: string) => ({
  message,
  requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

/** A form with one required boolean field. */
const confirmForm = (message: string, field = "ok") => ({
  message,
  requestedSchema: { type: "object", properties: { [field]: { type: "boolean" } }, required: [field] },
});

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

const embeddedResourceTool = defineTool("test_embedded_resource")
  .describe("Returns an embedded resource")
  .handle(() => embeddedResource("test://embedded-resource", "This is an embedded resource content.", "text/plain"));

const mixedContent = defineTool("test_multiple_content_types")
  .describe("Returns text, an image and an embedded resource")
  .handle(() => [
    text("Multiple content types test:"),
    image(PNG, "image/png"),
    embeddedResource("test://mixed-content-resource", JSON.stringify({ test: "data", value: 123 }), "application/json"),
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
    return `LLM response: ${content?.type === "text" ? content.text : JSON.stringify(content)}`;
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
          status: {
            type: "string",
            description: "User status",
            enum: ["active", "inactive", "pending"],
            default: "active",
          },
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
          untitledSingle: {
            type: "string",
            description: "Untitled single-select",
            enum: ["option1", "option2", "option3"],
          },
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

// On 2026-07-28 the question is an input-required result, never a request on the stream.
const streamingElicitation = defineTool("test_streaming_elicitation")
  .describe("Reports progress, then asks the user to confirm")
  .handle(async (_args, ctx) => {
    ctx.progress(1, 2, "Preparing");
    const answer = await ctx.elicit("confirm", confirmForm("Continue?"));
    return `Confirmed: ${answer.action}`;
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

// SSE polling (SEP-1699; MCP 2025-11-25, Transports: "Resumability and Redelivery"): the binding below closes a
// 2025-11-25 call's stream POLL_CLOSE_MS after it opened; this call outlasts that, so its client reconnects with
// Last-Event-ID and gets the result on the resumed stream. The log line opens the stream (its priming event first).
const POLL_CLOSE_MS = 1_000;
const reconnection = defineTool("test_reconnection")
  .describe("Outlasts its SSE stream: the server closes it mid-call, and the result comes after the client reconnects")
  .handle(async (_args, ctx) => {
    ctx.log("info", `The server closes this stream in ${POLL_CLOSE_MS} ms; reconnect with Last-Event-ID`);
    await sleep(POLL_CLOSE_MS * 1.5);
    return "Reconnection test completed: the result came on the resumed stream";
  });

// ── Input-required results (SEP-2322) ───────────────────────────────────────────────────────────
// Each question has a key; an unanswered one ends the request with `resultType: "input_required"` and
// a signed `requestState`, and the client sends the request again with the answers.

const irElicitation = defineTool("test_input_required_result_elicitation")
  .describe("Asks for the user's name, then greets them")
  .handle(async (_args, ctx) => {
    const answer = await ctx.elicit("user_name", askFor("name", "What is your name?"));
    return answer.action === "accept" ? `Hello, ${answer.content?.name}!` : `No name given (${answer.action})`;
  });

const irSampling = defineTool("test_input_required_result_sampling")
  .describe("Asks the client's model a question")
  .handle(async (_args, ctx) => {
    const answer = await ctx.sample("capital_question", {
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      maxTokens: 100,
    });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return `The model (${answer.model}) said: ${content?.type === "text" ? content.text : JSON.stringify(content)}`;
  });

const irRoots = defineTool("test_input_required_result_list_roots")
  .describe("Lists the client's roots")
  .handle(async (_args, ctx) => {
    const { roots } = await ctx.roots("client_roots");
    return `The client has ${roots.length} root(s): ${roots.map((root) => root.uri).join(", ")}`;
  });

const irRequestState = defineTool("test_input_required_result_request_state")
  .describe("Asks for a confirmation; the answer comes back with the signed requestState")
  .handle(async (_args, ctx) => {
    // A step runs once per call: on the retry its value comes back from the signed requestState.
    const issued = await ctx.step("issued", () => new Date().toISOString());
    const answer = await ctx.elicit("confirm", confirmForm("Please confirm"));
    return `state-ok: the requestState issued at ${issued} verified; confirmed=${answer.content?.ok === true}`;
  });

const irMultipleInputs = defineTool("test_input_required_result_multiple_inputs")
  .describe("Asks for a name, a greeting from the model and the roots, all at once")
  .handle(async (_args, ctx) => {
    const [name, greeting, { roots }] = await Promise.all([
      ctx.elicit("user_name", askFor("name", "What is your name?")),
      ctx.sample("greeting", {
        messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
        maxTokens: 50,
      }),
      ctx.roots("client_roots"),
    ]);
    return `Name ${name.content?.name}, greeting from ${greeting.model}, ${roots.length} root(s)`;
  });

const irMultiRound = defineTool("test_input_required_result_multi_round")
  .describe("Asks for a name, then for a favourite colour")
  .handle(async (_args, ctx) => {
    const name = await ctx.elicit("step1", askFor("name", "Step 1: What is your name?"));
    const color = await ctx.elicit("step2", askFor("color", "Step 2: What is your favorite color?"));
    return `${name.content?.name} likes ${color.content?.color}`;
  });

const irTamperedState = defineTool("test_input_required_result_tampered_state")
  .describe("Asks for a confirmation; a tampered requestState is refused with -32602")
  .handle(async (_args, ctx) => {
    const answer = await ctx.elicit("confirm", confirmForm("Please confirm"));
    return `Confirmed: ${answer.content?.ok === true}`;
  });

// Asks only for what this request's client declared (the context refuses anything else with -32021).
const irCapabilities = defineTool("test_input_required_result_capabilities")
  .describe("Asks the client through whichever of sampling and elicitation it declared")
  .handle(async (_args, ctx) => {
    const declared = ctx.meta.clientCapabilities ?? { sampling: {}, elicitation: {} };
    const asked: Promise<unknown>[] = [];
    if (declared.sampling) {
      asked.push(ctx.sample("summary", {
        messages: [{ role: "user", content: { type: "text", text: "Summarise MCP in one line" } }],
        maxTokens: 50,
      }));
    }
    if (declared.elicitation) asked.push(ctx.elicit("preference", askFor("preference", "Short or long?")));
    if (asked.length === 0) return "Nothing to ask: the client declared neither sampling nor elicitation";
    await Promise.all(asked);
    return `Answered ${asked.length} question(s)`;
  });

// ── Tasks extension (SEP-2663) ──────────────────────────────────────────────────────────────────────
// A `.longRunning()` tool answers "not done yet" with `ctx.defer()` (work in this process) or
// `ctx.promise()` + `.redeem()` (a continuation); a request that declared the tasks extension gets a
// task, others a promise to `redeem`. Questions asked inside deferred work make the task input_required.

const greet = defineTool("greet")
  .describe("Greets someone at once (never a task)")
  .input(v.object({ name: v.pipe(v.string(), v.description("Who to greet")) }))
  .handle(({ name }) => `Hello, ${name}!`);

const slowCompute = defineTool("slow_compute")
  .describe("Computes for `seconds` seconds in the background (at once for 0)")
  .input(v.object({
    seconds: v.pipe(v.number(), v.minValue(0), v.maxValue(600), v.description("How long to compute")),
    label: v.optional(v.pipe(v.string(), v.description("A label for the result")), "job"),
  }))
  .longRunning({ ttlMs: 10 * 60_000, retryAfterMs: 500 })
  .handle(({ seconds, label }, ctx) => {
    if (seconds === 0) return `Computed ${label} at once`;
    return ctx.defer(async (signal) => {
      await pause(seconds * 1000, signal); // a cancelled task stops here
      return `Computed ${label} in ${seconds} s`;
    });
  });

const failingJob = defineTool("failing_job")
  .describe("Runs as a task only, and fails as a tool error after a second")
  .longRunning({ taskSupport: "required", retryAfterMs: 250 })
  .handle((_args, ctx) =>
    ctx.defer(async (signal) => {
      await pause(1000, signal);
      throw new ToolError("The job failed: the input data was inconsistent");
    })
  );

const protocolErrorJob = defineTool("protocol_error_job")
  .describe("Runs as a task that ends with a protocol error")
  .longRunning({ retryAfterMs: 250 })
  .handle((_args, ctx) =>
    ctx.defer(() => {
      throw new ProtocolError(ErrorCode.Internal, "The job's backend is unreachable");
    })
  );

const confirmDelete = defineTool("confirm_delete")
  .describe("Deletes a file once the user confirms, as a task that waits for the confirmation")
  .input(v.object({ filename: v.pipe(v.string(), v.description("The file to delete")) }))
  .longRunning({ retryAfterMs: 250 })
  .handle(({ filename }, ctx) =>
    ctx.defer(async () => {
      const answer = await ctx.elicit("confirm", confirmForm(`Delete ${filename}?`, "confirm"));
      return answer.action === "accept" && answer.content?.confirm === true
        ? `Deleted ${filename}`
        : `Kept ${filename}`;
    })
  );

const multiInput = defineTool("multi_input")
  .describe("A task that asks two questions at once")
  .longRunning({ retryAfterMs: 250 })
  .handle((_args, ctx) =>
    ctx.defer(async () => {
      const [first, second] = await Promise.all([
        ctx.elicit("first", askFor("name", "First name?")),
        ctx.elicit("second", askFor("name", "Second name?")),
      ]);
      return `Got ${first.content?.name} and ${second.content?.name}`;
    })
  );

// Asks before the task (an input-required round), then runs as a task with the answer.
const toolWithTask = defineTool("test_tool_with_task")
  .describe("Asks for a name, then greets them from a task")
  .longRunning({ taskSupport: "required", retryAfterMs: 250 })
  .handle(async (_args, ctx) => {
    const answer = await ctx.elicit("user_name", askFor("name", "What is your name?"));
    return ctx.defer(async (signal) => {
      await pause(200, signal);
      return `Hello, ${answer.content?.name}, from a task!`;
    });
  });

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
    { role: "user", content: embeddedResource(resourceUri, "Embedded resource content for testing.", "text/plain") },
    { role: "user", content: "Please process the embedded resource above." },
  ]);

const promptWithImage = definePrompt("test_prompt_with_image")
  .describe("A prompt with an image")
  .get(() => [
    { role: "user", content: image(PNG, "image/png") },
    { role: "user", content: "Please analyze the image above." },
  ]);

const irPrompt = definePrompt("test_input_required_result_prompt")
  .describe("Asks which context to use, then renders it")
  .get(async (_args, ctx) => {
    const answer = await ctx.elicit("user_context", askFor("context", "What context should the prompt use?"));
    return `Use this context: ${answer.content?.context}`;
  });

// ── Skills (SEP-2640) ─────────────────────────────────────────────────────────────────────────────

const pdfProcessing = await defineSkill({
  "SKILL.md": [
    "---",
    "name: pdf-processing",
    "description: Extract, fill, and assemble PDF documents",
    "metadata:",
    '  version: "1.0"',
    "---",
    "",
    "# PDF processing",
    "",
    "Read [references/FORMS.md](references/FORMS.md) before filling a form.",
    "",
  ].join("\n"),
  "references/FORMS.md": "# Forms\n\nFill each field, then flatten the document.\n",
  "scripts/extract.py": "import sys\nprint(open(sys.argv[1], 'rb').read()[:4])\n",
});

// ── Server ────────────────────────────────────────────────────────────────────────────────────────

export const server = createServer({
  name: "mcplite-conformance",
  version: "1.0.0",
  bindings: [
    mcpLiteBinding(),
    mcpBinding({
      directoryRead: true,
      sessionStreams: sessionStreams({ polling: { closeAfterMs: POLL_CLOSE_MS, retryMs: 500 } }),
    }),
  ],
})
  .tool(simpleText)
  .tool(imageContent)
  .tool(audioContent)
  .tool(embeddedResourceTool)
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
  .tool(reconnection)
  .tool(irElicitation)
  .tool(irSampling)
  .tool(irRoots)
  .tool(irRequestState)
  .tool(irMultipleInputs)
  .tool(irMultiRound)
  .tool(irTamperedState)
  .tool(irCapabilities)
  .tool(greet)
  .tool(slowCompute)
  .tool(failingJob)
  .tool(protocolErrorJob)
  .tool(confirmDelete)
  .tool(multiInput)
  .tool(toolWithTask)
  .resource(staticText)
  .resource(staticBinary)
  .resource(watched)
  .resource(template)
  .prompt(simplePrompt)
  .prompt(promptWithArguments)
  .prompt(promptWithResource)
  .prompt(promptWithImage)
  .prompt(irPrompt)
  .skill(pdfProcessing);

if (import.meta.main) {
  const listener = await serve(server, { quiet: true }); // the line below says more
  console.log(`conformance server listening on ${listener.url}/mcp`);
}
