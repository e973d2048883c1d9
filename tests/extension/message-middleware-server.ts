/**
 * The server of the message middleware tests (tests/extension/message-middleware.test.ts): MCP, MCP-lite and the
 * WebSocket binding; a tool that reports progress, one that asks the user (elicitation); message middleware of its
 * own (an anonymous extension) and of an extension, each writing what it sees as a line. Run as a program, it serves stdio and appends the
 * lines to the file `MW_TRANSCRIPT` names.
 */
import { appendFileSync } from "node:fs";
import process from "node:process";
import * as v from "valibot";
import { createServer, defineExtension, defineTool, mcpBinding, mcpLiteBinding } from "../../mod.ts";
import type { MessageMiddleware } from "../../src/types.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

/**
 * One line per message a middleware sees: who saw it, its direction, transport and method, and what it is.
 *
 * @param who The middleware's name.
 * @param record Receives the lines.
 * @returns The middleware.
 */
export function recorder(who: string, record: (line: string) => void): MessageMiddleware {
  return async (message, info, next) => {
    const kind = typeof message.method === "string"
      ? message.id === undefined ? "notification" : "request"
      : "error" in message
      ? "error"
      : "result";
    record(`${who} ${info.direction} ${info.transport} ${info.method} ${kind}`);
    await next();
  };
}

/**
 * The server.
 *
 * @param record Receives one line per message each middleware sees.
 * @returns The server.
 */
export function transcriptServer(record: (line: string) => void) {
  const audit = defineExtension("org.example/audit").intercept(recorder("ext", record));
  return createServer({
    name: "mw",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
  })
    .tool(
      defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }, ctx) => {
        ctx.progress(1, 2);
        return a + b;
      }),
    )
    .tool(
      defineTool("confirm").describe("Asks first").handle(async (_args, ctx) => {
        const answer = await ctx.elicit("sure", {
          message: "Sure?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        });
        return answer.action === "accept" && answer.content?.ok === true ? "confirmed" : "declined";
      }),
    )
    .extension(defineExtension().intercept(recorder("server", record))) // anonymous: the server's own, served first
    .extension(audit);
}

if (import.meta.main) {
  const file = process.env.MW_TRANSCRIPT!;
  await serveStdio(transcriptServer((line) => appendFileSync(file, line + "\n"))).closed;
}
