/**
 * A stdio server of ours (MCP 2026-07-28 by default) whose tool `grow` registers a new tool each call
 * (`late1`, `late2`, …): its `list_changed` goes to the `subscriptions/listen` streams open on the
 * connection. Run as a child process.
 */
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const server = createServer({ name: "growing-own", version: "1.0.0" });
let grown = 0;
server.tool(
  defineTool("grow").describe("Adds a tool").handle(() => {
    const name = `late${++grown}`;
    server.tool(defineTool(name).describe("Registered later").handle(() => `${name} answer`));
    return name;
  }),
);
serveStdio(server);
