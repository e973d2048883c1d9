/**
 * The server the WebSocket memory tests start in a child process, on the runtime under test (`deno run`
 * or `bun`): MCP-lite over HTTP and a WebSocket with `big` (answers `{ kb }` KiB of text), `flood`
 * (streams `{ n }` partials of `{ kb }` KiB) and `made` (how many `big` answers and `flood`
 * partials of 1 MiB or more were made so far). Prints `{"port":…}` once listening, and stops
 * when its stdin closes. `maxBufferedBytes=N` as an argument sets the binding's bound; `stdio` serves
 * stdin and stdout instead (`serveStdio()`), and writes a line `big` to stderr as each `big` call starts;
 * `node` serves on `@hono/node-server` with `attachWebSocket()` (Node 22).
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding, serve } from "../../mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const STDIO = process.argv.includes("stdio");
/** How many `big` answers and `flood` partials were made: what a bound on what is queued for a reader limits. */
let made = 0;
const bound = process.argv.find((arg) => arg.startsWith("maxBufferedBytes="));
const server = createServer({
  name: "ws-memory",
  version: "1.0.0",
  bindings: [
    mcpLiteBinding(),
    webSocketBinding(bound === undefined ? {} : { maxBufferedBytes: Number(bound.split("=")[1]) }),
  ],
})
  .tool(
    defineTool("big").describe("Answers kb KiB").input(v.object({ kb: v.number() })).handle(({ kb }) => {
      if (kb >= 1024) made++;
      if (STDIO) console.error("big"); // stdout is the protocol's: serveStdio() sends console to stderr
      return "x".repeat(kb * 1024);
    }),
  )
  .tool(
    defineTool("flood").describe("Streams n partials of kb KiB").input(v.object({ n: v.number(), kb: v.number() }))
      .stream(async function* ({ n, kb }) {
        for (let i = 0; i < n; i++) {
          if (kb >= 1024) made++;
          yield "x".repeat(kb * 1024);
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        return "done";
      }),
  )
  .tool(defineTool("made").describe("How many answers and partials were made").handle(() => String(made)));
if (STDIO) {
  await serveStdio(server).closed;
} else if (process.argv.includes("node")) {
  // Node's fetch adapter, loaded only there.
  const { listenOnNode } = await import("./node-listen.ts");
  listenOnNode(server);
} else {
  const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  console.log(JSON.stringify({ port: Number(new URL(listener.url).port) }));
  process.stdin.resume();
  process.stdin.on("end", () => void listener.close().then(() => process.exit(0)));
}
