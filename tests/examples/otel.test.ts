/**
 * `examples/otel.ts` run as its README says, in a process of its own: its spans reach an OTLP/HTTP
 * receiver this test starts on 127.0.0.1 (the official exporter, JSON encoding), its `ctx.log()` line
 * reaches `console` with the trace id, and `/healthz` answers.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { SPAN_KIND_SERVER, startOtlpReceiver } from "../otel/otlp-receiver.ts";
import { toolsCall } from "../helpers/request.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { listening, output } from "../helpers/process.ts";

const EXAMPLE = fileURLToPath(new URL("../../examples/otel.ts", import.meta.url));

describe("examples/otel.ts", () => {
  it("exports its spans over OTLP/HTTP, logs with the trace id and answers /healthz", async () => {
    const receiver = await startOtlpReceiver();
    const { command, args } = runtimeCommand(EXAMPLE);
    const child = spawn(command, args, {
      env: {
        ...process.env,
        PORT: "0",
        HOSTNAME: "127.0.0.1",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
        OTEL_SERVICE_NAME: "notes-under-test",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout = output(child, ["stdout"]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const url = await listening(child, 20_000); // rejects, with its stderr, when the example did not start
      assert.ok(url !== undefined, "the example started");
      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).name, "notes");
      const call = await fetch(`${url}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("add_note", { title: "otel", text: "traced" })),
      });
      assert.equal((await call.json()).result.content[0].text, 'Saved "otel"');
    } finally {
      child.kill("SIGTERM"); // the example flushes its batch on SIGTERM
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]); // a bound on its exit
      await receiver.close();
    }
    const span = await receiver.waitFor(
      (span) => span.name === "tools/call add_note" && span.kind === SPAN_KIND_SERVER,
      0,
    );
    const names = receiver.received.map(({ span }) => span.name).join(", ");
    assert.ok(span !== undefined, `no SERVER span arrived: ${names}`);
    assert.equal(span.service, "notes-under-test");
    assert.match(stdout.text(), new RegExp(`trace_id: ["']${span.span.traceId}["'][\\s\\S]*saved note "otel"`));
  });
});
