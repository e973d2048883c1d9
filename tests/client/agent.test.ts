/**
 * examples/agent.ts: the scripted agent runs every call to its end, in process and over 127.0.0.1.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runAgent, server } from "../../examples/agent.ts";
import { serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";

const confirm = () => ({ action: "accept" as const, content: { confirm: true } });

describe("examples/agent.ts", () => {
  it("lists the tools in both model shapes and runs the script, printing progress", async () => {
    const lines: string[] = [];
    const steps = await runAgent(createClient(server, { onElicit: confirm }), (line) => lines.push(line));
    assert.deepEqual(steps.map((s) => s.isError), [false, false, false, false]);
    assert.match(steps[0].text, /MCP-lite specification/);
    assert.match(steps[1].text, /## Outlook \(Q4\)/);
    assert.match(steps[2].text, /"rows":12329/);
    assert.equal(steps[3].text, "deleted doc-2");
    assert.ok(lines.includes("  progress 3/3 Outlook"));
    assert.ok(lines.some((l) => l.startsWith("Anthropic tools:") && !l.includes("redeem")));
  });

  it("does the same over the network", async () => {
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    try {
      const steps = await runAgent(createClient(listener.url, { onElicit: confirm }), () => {});
      assert.equal(steps.length, 4);
      assert.equal(steps.at(-1)!.text, "deleted doc-2");
    } finally {
      await listener.close();
    }
  });
});
