/**
 * `otelBudgets()` with the official OpenTelemetry SDK registered: each budget's usage and limit, and the
 * requests refused past one, by budget, read at collection.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { otelBudgets } from "../../src/otel/mod.ts";
import { post, toolsCall } from "../helpers/request.ts";
import { waitFor } from "../helpers/long-running.ts";
import { type Recorded, registerSdk } from "./telemetry.ts";

describe("otelBudgets()", () => {
  let recorded: Recorded;
  before(() => recorded = registerSdk());
  after(async () => await recorded.close());

  it("reports each budget's usage and limit, and the requests refused, by budget", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => release = resolve);
    const server = createServer({ name: "busy", version: "1.0.0", limits: { calls: 1, perCaller: false } })
      .tool(
        defineTool("slow").describe("Answers once released").input(v.object({})).handle(async () => {
          await gate;
          return "done";
        }),
      );
    const stop = otelBudgets(server);
    const value = async (name: string, budget?: string) => {
      const points = await recorded.histogram(name);
      const point = points.find((p) => budget === undefined || p.attributes["mcplite.budget"] === budget);
      return point?.value as unknown as number | undefined;
    };
    const running = server.fetch(post("/mcp-lite/v1/calltools", toolsCall("slow", {})));
    await waitFor(async () => await value("mcplite.server.budget.calls.usage") === 1);
    assert.equal((await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("slow", {})))).status, 503);
    assert.equal(await value("mcplite.server.budget.calls.limit"), 1);
    assert.equal(await value("mcplite.server.budget.body_bytes.limit"), 16 * 1024 * 1024);
    assert.equal(await value("mcplite.server.budget.refused", "calls"), 1);
    assert.equal(await value("mcplite.server.budget.refused", "jobs"), 0);
    release();
    assert.equal((await running).status, 200);
    assert.equal(await value("mcplite.server.budget.calls.usage"), 0);
    stop();
  });
});
