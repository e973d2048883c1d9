/**
 * MCP-specific test helpers: a server with resources and prompts next to the shared fixture tools,
 * JSON-RPC calls through `server.fetch`, and an incremental SSE reader with time bounds.
 */
import * as v from "valibot";
import { createParser } from "eventsource-parser";
import { definePrompt, defineResource, defineTool, image, type ServerOptions } from "../../../mod.ts";
import { fixtureServer } from "../../helpers/fixtures.ts";
import { legacyRequest, modernRequest } from "../../helpers/request.ts";

/** A 1×1 PNG. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

export const readme = defineResource("docs://readme")
  .name("readme")
  .describe("The read-me")
  .mimeType("text/markdown")
  .cache({ ttlMs: 60_000, scope: "public" })
  .read(() => "# Read me");

export const logo = defineResource("docs://logo.png")
  .name("logo")
  .mimeType("image/png")
  .read(() => Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));

export const userProfile = defineResource("users://{id}/profile")
  .name("user-profile")
  .mimeType("application/json")
  .complete("id", (typed) => ["alice", "albert", "bob"].filter((id) => id.startsWith(typed)))
  .read(({ id }) => (id === "nobody" ? undefined : JSON.stringify({ id })));

export const greeting = definePrompt("greeting")
  .describe("Greets someone")
  .args(v.object({
    name: v.pipe(v.string(), v.description("Who to greet")),
    tone: v.optional(v.picklist(["warm", "formal"])),
  }))
  .complete("name", (typed) => Array.from({ length: 150 }, (_, i) => `${typed}${i}`))
  .get(({ name, tone }) => ({
    description: "A greeting",
    messages: [
      { role: "user", content: `Say hello to ${name}${tone ? ` in a ${tone} tone` : ""}` },
      { role: "assistant", content: image(PNG, "image/png") },
    ],
  }));

/** Asks the user to confirm (elicitation), then answers with what they did. */
export const confirm = defineTool("confirm")
  .describe("Asks the user to confirm")
  .input(v.object({ what: v.string() }))
  .handle(async ({ what }, ctx) => {
    const answer = await ctx.elicit("ok", {
      message: `Confirm ${what}?`,
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return `${answer.action}: ${JSON.stringify(answer.content ?? {})}`;
  });

/** Asks the client's model (sampling) and the client's roots. */
export const askModel = defineTool("ask_model")
  .describe("Samples the client's model, then lists its roots")
  .handle(async (_args, ctx) => {
    const answer = await ctx.sample("llm", {
      messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
      maxTokens: 5,
    });
    const { roots } = await ctx.roots("roots");
    return `${answer.model} with ${roots.length} roots`;
  });

/** Logs at four levels. */
export const chatty = defineTool("chatty")
  .describe("Logs at four levels")
  .handle((_args, ctx) => {
    ctx.log("debug", "d");
    ctx.log("info", "i");
    ctx.log("warning", "w");
    ctx.log("error", { code: 7 }, "db");
    return "done";
  });

export const plain = definePrompt("plain").describe("No arguments").get(() => "Just this.");

/** The fixture server plus resources and prompts. */
export function mcpServer(options: Partial<ServerOptions> = {}) {
  return fixtureServer(options).tool(confirm).tool(askModel).tool(chatty).resource(readme).resource(logo).resource(
    userProfile,
  ).prompt(greeting).prompt(plain);
}

/** Something with a fetch handler. */
export interface Fetcher {
  /** Answers a request. */
  fetch(request: Request): Promise<Response>;
}

/** A JSON-RPC answer with its HTTP status and headers. */
export interface Answer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Sends a request and reads the JSON answer (an SSE answer fails the test: use the SSE helpers). */
export async function send(server: Fetcher, request: Request): Promise<Answer> {
  const response = await server.fetch(request);
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) throw new Error("expected JSON, got an SSE stream");
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
}

/** Sends a 2026-07-28 request (JSON answer). */
export function modern(
  server: Fetcher,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  id: string | number = 1,
): Promise<Answer> {
  return send(server, modernRequest(method, params, id, headers));
}

/** Sends a 2025-era request (JSON answer). */
export function legacy(
  server: Fetcher,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  version = "2025-11-25",
  id: string | number = 1,
): Promise<Answer> {
  return send(server, legacyRequest(method, params, id, version, { accept: "application/json", ...headers }));
}

/** Reads SSE events one at a time, each wait bounded; `close()` cancels the stream. */
export class SseReader {
  // deno-lint-ignore no-explicit-any
  readonly #queue: any[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #parser = createParser({
    onEvent: (event) => this.#queue.push(event.data === "" ? "" : JSON.parse(event.data)),
  });
  #done = false;

  /**
   * Wraps a streaming response.
   *
   * @param response An SSE response.
   */
  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Returns the next event, or `undefined` when the stream ended; fails after `timeoutMs`. */
  // deno-lint-ignore no-explicit-any
  async next(timeoutMs = 5_000): Promise<any> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      while (this.#queue.length === 0 && !this.#done) {
        const { done, value } = await Promise.race([this.#reader.read(), timeout]);
        if (done) this.#done = true;
        else this.#parser.feed(value);
      }
      return this.#queue.shift();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads every remaining event until the stream ends. */
  // deno-lint-ignore no-explicit-any
  async rest(timeoutMs = 5_000): Promise<any[]> {
    const events = [];
    while (true) {
      const event = await this.next(timeoutMs);
      if (event === undefined) return events;
      events.push(event);
    }
  }

  /** Cancels the stream (the client goes away). */
  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
