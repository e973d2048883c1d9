/**
 * Quick start: three realistic tools served on MCP-lite and MCP from one server.
 *
 *   deno run -A --unstable-no-legacy-abort examples/quickstart.ts      bun run examples/quickstart.ts
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment.
 */
import * as v from "valibot";
import { createServer, defineTool, serve } from "../mod.ts";
import { ToolError } from "../src/errors/mod.ts";

interface Book {
  id: string;
  title: string;
  author: string;
  year: number;
}

const BOOKS: Book[] = [
  { id: "b1", title: "The Pragmatic Programmer", author: "Hunt & Thomas", year: 1999 },
  { id: "b2", title: "Designing Data-Intensive Applications", author: "Kleppmann", year: 2017 },
  { id: "b3", title: "Structure and Interpretation of Computer Programs", author: "Abelson & Sussman", year: 1985 },
  { id: "b4", title: "Programming Pearls", author: "Bentley", year: 1986 },
];

/** A typed query tool: validated input, structured output. */
const searchBooks = defineTool("search_books")
  .type("query")
  .title("Search books")
  .describe("Search the catalogue by words in the title or author")
  .input(v.object({
    query: v.pipe(v.string(), v.minLength(1), v.description("Words to look for")),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)), 5),
    after: v.optional(v.pipe(v.number(), v.integer(), v.description("Only books published after this year"))),
  }))
  .output(v.object({
    total: v.number(),
    hits: v.array(v.object({ id: v.string(), title: v.string(), author: v.string(), year: v.number() })),
  }))
  .annotations({ readOnlyHint: true })
  .handle(({ query, limit, after }) => {
    const words = query.toLowerCase().split(/\s+/);
    const hits = BOOKS.filter((b) => words.every((w) => `${b.title} ${b.author}`.toLowerCase().includes(w)))
      .filter((b) => after === undefined || b.year > after);
    return { total: hits.length, hits: hits.slice(0, limit) };
  });

/** A streaming tool: each yield is a partial; the call ends with the whole text. */
const summarize = defineTool("summarize_catalogue")
  .type("report")
  .describe("Writes a short report on the catalogue, streamed line by line")
  .input(v.object({ decade: v.optional(v.number()) }))
  .stream(async function* ({ decade }, ctx) {
    const books = decade === undefined ? BOOKS : BOOKS.filter((b) => Math.floor(b.year / 10) * 10 === decade);
    yield `Catalogue report (${books.length} books)\n`;
    for (const [i, book] of books.entries()) {
      if (ctx.signal.aborted) return;
      ctx.progress(i + 1, books.length);
      await new Promise((resolve) => setTimeout(resolve, 150));
      yield `- ${book.title}, ${book.author} (${book.year})\n`;
    }
  });

/** A tool that fails on purpose: a business failure the model can read, not a protocol error. */
const borrow = defineTool("borrow_book")
  .type("action")
  .describe("Borrows a book (the library is closed today, so this always fails)")
  .input(v.object({ id: v.string() }))
  .annotations({ destructiveHint: false, idempotentHint: true })
  .handle(({ id }) => {
    if (!BOOKS.some((b) => b.id === id)) throw new ToolError(`No book with id ${id}`);
    throw new ToolError("The library is closed today; try again tomorrow");
  });

export const server = createServer({
  name: "library",
  version: "1.0.0",
  instructions: "Search the catalogue with search_books before borrowing.",
})
  .tool(searchBooks)
  .tool(summarize)
  .tool(borrow);

if (import.meta.main) {
  const listener = await serve(server, { quiet: true }); // the lines below say more
  console.log(`library server listening on ${listener.url}
  MCP-lite  POST ${listener.url}/mcp-lite/v1/listtools
            POST ${listener.url}/mcp-lite/v1/calltools
  MCP       POST ${listener.url}/mcp`);
}
