/**
 * A local server over stdio: a host (Claude Desktop, VS Code, Cursor, Claude Code…) launches it and
 * speaks MCP, or MCP-lite, on its stdin and stdout.
 *
 *   deno run -A examples/stdio.ts      bun run examples/stdio.ts
 *
 * Host configuration: {"command": "deno", "args": ["run", "-A", "examples/stdio.ts"]}
 *                  or {"command": "bun", "args": ["run", "examples/stdio.ts"]}
 */
import * as v from "valibot";
import { createServer, definePrompt, defineResource, defineTool } from "../mod.ts";
import { ToolError } from "../src/errors/mod.ts";
import { serveStdio } from "../src/stdio/mod.ts";

const notes = new Map<string, string>([["welcome", "Notes live in this process while it runs."]]);

const addNote = defineTool("add_note")
  .describe("Stores a note under a title")
  .input(v.object({ title: v.pipe(v.string(), v.minLength(1)), text: v.string() }))
  .handle(({ title, text }) => {
    notes.set(title, text);
    console.log(`stored ${title}`); // goes to stderr: stdout carries only protocol
    server.resourceUpdated(`notes://${title}`);
    return `Stored "${title}" (${notes.size} notes)`;
  });

const readNote = defineTool("read_note")
  .describe("Returns a note's text")
  .input(v.object({ title: v.string() }))
  .handle(({ title }) => {
    const text = notes.get(title);
    if (text === undefined) throw new ToolError(`No note titled "${title}"`);
    return text;
  });

const countWords = defineTool("count_words")
  .describe("Counts the words of every note, reporting progress note by note")
  .handle(async (_args, ctx) => {
    let words = 0;
    let done = 0;
    for (const text of notes.values()) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      words += text.split(/\s+/).filter(Boolean).length;
      ctx.progress(++done, notes.size, `counted ${done} of ${notes.size}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { notes: notes.size, words };
  });

const wait = defineTool("wait")
  .describe("Waits, then answers; stops early when the call is cancelled")
  .input(v.object({ ms: v.pipe(v.number(), v.minValue(0), v.maxValue(60_000)) }))
  .handle(({ ms }, ctx) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`waited ${ms} ms`), ms);
      ctx.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      }, { once: true });
    })
  );

const note = defineResource("notes://{title}")
  .name("note")
  .describe("A note, by title")
  .mimeType("text/plain")
  .complete("title", (typed) => [...notes.keys()].filter((title) => title.startsWith(typed)))
  .read(({ title }) => notes.get(title) ?? "");

const welcome = defineResource("notes://welcome")
  .name("welcome")
  .describe("The first note")
  .mimeType("text/plain")
  .read(() => notes.get("welcome") ?? "");

const summarize = definePrompt("summarize")
  .describe("Asks the model to summarise one note")
  .args(v.object({ title: v.string() }))
  .get(({ title }) => `Summarise this note in one sentence:\n\n${notes.get(title) ?? "(no such note)"}`);

const server = createServer({ name: "notes", version: "1.0.0" })
  .tool(addNote)
  .tool(readNote)
  .tool(countWords)
  .tool(wait)
  .resource(welcome)
  .resource(note)
  .prompt(summarize);

serveStdio(server);
