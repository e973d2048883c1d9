/**
 * `createServer({ logger })`: the handlers' `ctx.log()` calls reach the logger (as well as the client),
 * and the server's own warnings (no secret configured, a tool without a description) and masked errors
 * go to it instead of to the console.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, type ServerLogger } from "../../mod.ts";

/** A logger that keeps what it is given, by method. */
function recordingLogger() {
  const records: { method: string; args: unknown[] }[] = [];
  const at = (method: string) => (...args: unknown[]) => void records.push({ method, args });
  const logger: ServerLogger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, records };
}

/** Runs `body` with `console.warn` captured. */
async function capturingConsole(body: () => Promise<void> | void): Promise<unknown[]> {
  const printed: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void printed.push(args);
  try {
    await body();
  } finally {
    console.warn = warn;
  }
  return printed;
}

describe("createServer({ logger })", () => {
  it("receives the handlers' ctx.log() calls: fields first (tool, logger name), then the message", async () => {
    const { logger, records } = recordingLogger();
    const backup = defineTool("backup").describe("Backs up").input(v.object({})).handle((_args, ctx) => {
      ctx.log("warning", "low disk", "storage");
      ctx.log("debug", { freeBytes: 10 });
      ctx.log("critical", "disk gone");
      return "ok";
    });
    const server = createServer({ name: "logs", version: "1.0.0", logger }).tool(backup);
    assert.equal((await server.call("backup", {})).kind, "answer");
    assert.deepEqual(records, [
      { method: "warn", args: [{ tool: "backup", logger: "storage" }, "low disk"] },
      { method: "debug", args: [{ tool: "backup", data: { freeBytes: 10 } }] },
      { method: "error", args: [{ tool: "backup" }, "disk gone"] },
    ]);
  });

  it("gets the server's own warnings instead of console.warn: a tool without a description, no secret configured", async () => {
    const { logger, records } = recordingLogger();
    const slow = defineTool("slow_for_logger").describe("Runs on").longRunning().handle((_args, ctx) =>
      ctx.defer(() => "done")
    );
    const configured = process.env.MCPLITE_SECRET;
    delete process.env.MCPLITE_SECRET;
    const printed = await capturingConsole(async () => {
      try {
        const server = createServer({ name: "warns", version: "1.0.0", logger })
          .tool(defineTool("bare_for_logger").handle(() => "x"))
          .tool(slow);
        assert.equal((await server.call("slow_for_logger", {})).kind, "promise"); // signs a token: no secret
      } finally {
        if (configured !== undefined) process.env.MCPLITE_SECRET = configured;
      }
    });
    assert.deepEqual(printed, []);
    const warnings = records.filter((r) => r.method === "warn").map((r) => String(r.args[0]));
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.match(warnings[0], /tool "bare_for_logger" has no \.describe\(\)/);
    assert.match(warnings[1], /no secret configured/);
  });

  it("gets the errors a handler's failure masked, with the tool, when no onError is given", async () => {
    const { logger, records } = recordingLogger();
    const crash = defineTool("crash").describe("Crashes").handle(() => {
      throw new Error("database password rejected");
    });
    const server = createServer({ name: "errors", version: "1.0.0", logger, secret: "x".repeat(32) }).tool(crash);
    assert.equal((await server.call("crash", {})).kind, "failure");
    const [record] = records.filter((r) => r.method === "error");
    const [fields, message] = record.args as [Record<string, unknown>, string];
    assert.equal(fields.tool, "crash");
    assert.ok(fields.err instanceof Error);
    assert.equal(message, "database password rejected");
  });
});
