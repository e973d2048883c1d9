/**
 * The CLI's elicitation on a terminal, URL mode (MCP 2025-11-25, Elicitation: URL mode): it shows the
 * message, the whole URL and its host, declares both modes, and answers once the user presses Enter
 * (accept), types `n` (decline) or closes stdin (cancel), or the server's completion notification
 * arrives first; a line typed after that answers the next question rather than being lost.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool, mcpBinding, serve } from "../../mod.ts";
import { UrlElicitationRequiredError } from "../../src/errors/mod.ts";
import { runCli } from "../../src/cli/cli.ts";
import { terminalElicit } from "../../src/cli/elicit.ts";
import type { Terminal } from "../../src/cli/terminal.ts";
import { type Changes, changes } from "../helpers/wait.ts";

/** A terminal whose stdin lines the test feeds, one `type()` at a time. */
function fakeTerminal(
  args: string[] = [],
): Terminal & { written: string; printed: string; type(line: string | null): void; wrote: Changes } {
  const wrote = changes();
  const queued: (string | null)[] = [];
  const readers: ((line: string | null) => void)[] = [];
  const terminal = {
    args,
    stdinIsTty: true,
    stderrIsTty: false,
    written: "",
    columns: () => 80,
    printed: "",
    out: (text: string) => {
      terminal.printed += text;
      return Promise.resolve();
    },
    err: (text: string) => {
      terminal.written += text;
      wrote.changed();
      return Promise.resolve();
    },
    wrote,
    readLine: () =>
      queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise<string | null>((r) => readers.push(r)),
    type: (line: string | null) => {
      const reader = readers.shift();
      if (reader === undefined) queued.push(line);
      else reader(line);
    },
    onInterrupt: () => () => {},
    exit: (code: number): never => {
      throw new Error(`exit ${code}`);
    },
  };
  return terminal;
}

const hooks = { before: () => Promise.resolve(), after: () => {} };
const page = {
  mode: "url" as const,
  message: "Sign in to Example",
  url: "https://auth.example.com/authorize?flow=7",
  elicitationId: "flow-7",
};

/** Waits (bounded) until the terminal has written `text`: checked at each write. */
async function shown(terminal: { written: string; wrote: Changes }, text: string): Promise<void> {
  await terminal.wrote.until(
    () => terminal.written.includes(text),
    () => `never showed ${JSON.stringify(text)}: ${terminal.written}`,
    5_000,
  );
}

describe("the CLI's URL elicitation", () => {
  it("declares form and URL modes, shows the URL and its host, and accepts on Enter", async () => {
    const terminal = fakeTerminal();
    const handlers = terminalElicit(terminal, hooks);
    assert.deepEqual(handlers.elicitationModes, ["form", "url"]);
    const answer = handlers.onElicit(page, { signal: new AbortController().signal });
    await shown(terminal, "Press Enter");
    assert.match(terminal.written, /Sign in to Example/);
    assert.match(terminal.written, /\(auth\.example\.com\)/);
    assert.match(terminal.written, /https:\/\/auth\.example\.com\/authorize\?flow=7/);
    terminal.type("");
    assert.deepEqual(await answer, { action: "accept" });
  });

  it("declines on n and cancels at the end of stdin", async () => {
    const terminal = fakeTerminal();
    const { onElicit } = terminalElicit(terminal, hooks);
    const signal = new AbortController().signal;
    terminal.type("n");
    assert.deepEqual(await onElicit(page, { signal }), { action: "decline" });
    terminal.type(null);
    assert.deepEqual(await onElicit(page, { signal }), { action: "cancel" });
  });

  it("stops waiting when the server completes the elicitation, and keeps the next line for the next question", async () => {
    const terminal = fakeTerminal();
    const { onElicit, onElicitationComplete } = terminalElicit(terminal, hooks);
    const signal = new AbortController().signal;
    const answer = onElicit(page, { signal });
    await shown(terminal, "Press Enter");
    onElicitationComplete("someone-else"); // another elicitation's completion changes nothing
    onElicitationComplete("flow-7");
    assert.deepEqual(await answer, { action: "accept" });
    assert.match(terminal.written, /The server says it is complete/);
    const form = onElicit(
      {
        mode: "form",
        message: "Your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      },
      { signal },
    );
    terminal.type("Ada"); // read by the line the page stopped waiting for, handed to the form
    terminal.type("y");
    assert.deepEqual(await form, { action: "accept", content: { name: "Ada" } });
  });
});

describe("mcplite call, a call refused until the user visits a page (-32042, MCP 2025-11-25)", () => {
  it("shows the page, waits for Enter, and calls again", async () => {
    let linked = false;
    const server = createServer({
      name: "linked",
      version: "1.0.0",
      protocolVersions: ["2025-11-25"],
      bindings: [mcpBinding()],
    })
      .tool(
        defineTool("calendar").describe("Reads the calendar").handle(() => {
          if (!linked) {
            throw new UrlElicitationRequiredError([
              { message: "Link your calendar", url: "https://link.example.com/?s=cal", elicitationId: "cal" },
            ]);
          }
          return "3 meetings";
        }),
      );
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const terminal = fakeTerminal(["call", `${listener.url}/mcp`, "calendar"]);
      const code = runCli(terminal);
      await shown(terminal, "Press Enter");
      assert.match(terminal.written, /Link your calendar/);
      assert.match(terminal.written, /https:\/\/link\.example\.com\/\?s=cal/);
      linked = true; // the user went through the page
      terminal.type("");
      assert.equal(await code, 0);
      assert.equal(terminal.printed.trim(), "3 meetings");
    } finally {
      await listener.close();
    }
  });
});
