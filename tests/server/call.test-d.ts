/**
 * `server.call()` is typed by the registered tools, like the client: names outside the server's tools
 * and arguments of the wrong shape fail `deno check`. Checked, never run.
 */
import * as v from "valibot";
import { createServer, defineTool, type Server } from "../../mod.ts";

const add = defineTool("add")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);
const ping = defineTool("ping").handle(() => "pong");
const server = createServer({ name: "typed", version: "1.0.0" }).tool(add).tool(ping);

export const ok = [
  server.call("add", { a: 1, b: 2 }),
  server.call("ping", {}),
  server.call("redeem", { promise: "mcl1.token" }), // the system tool, for promises
  server.call("redeem", { promise: "mcl1.token", cancel: true }),
];

// @ts-expect-error an unknown tool
export const unknown = server.call("no_such_tool", {});
// @ts-expect-error not the tool's arguments
export const wrongType = server.call("add", { a: "1", b: 2 });
// @ts-expect-error a missing argument
export const missing = server.call("add", { a: 1 });
// @ts-expect-error redeem needs its token
export const noToken = server.call("redeem", {});

// A server with tools still passes where any server is expected (Server stays covariant in its tools).
// deno-lint-ignore ban-types
export const anyServer: Server<{}> = server;
export function takesAny(s: Server): string {
  return s.name;
}
export const named = takesAny(server);
