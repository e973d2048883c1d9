/**
 * Code mode over a public MCP server: server-everything (the MCP reference server, npm
 * `@modelcontextprotocol/server-everything`, a devDependency of this repository) started over stdio and proxied under
 * `everything.`, with `codeMode()` on, so that the lists show `discover_tools` and `execute_code` and a model runs one
 * program that calls its tools. Served on MCP and MCP-lite; reads PORT (default 8000) and HOSTNAME (default 127.0.0.1).
 * examples/code-mode/README.md says how to run it, and `client.ts` runs a program through it.
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { createServer, serve } from "../../mod.ts";
import { codeMode } from "../../src/code-mode/mod.ts";
import { proxy } from "../../src/proxy/mod.ts";

// Outside this repository, `{ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "stdio"] }`.
const everything = {
  command: "node",
  args: [
    fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)),
    "stdio",
  ],
  closeGraceMs: 200, // on close: stdin closed, SIGTERM 0.2 s later
};
const stopped = new AbortController(); // closes the remote (its stdin, then SIGTERM) when this server stops

const server = createServer({ name: "everything-code-mode", version: "1.0.0", codeMode: codeMode() })
  .group("everything", await proxy(everything, { signal: stopped.signal }));

await serve(server); // prints "Listening on http://127.0.0.1:8000"

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    stopped.abort();
    setTimeout(() => process.exit(0), 500);
  });
}
