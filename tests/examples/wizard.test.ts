import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEMO_ANSWERS, reservations, server } from "../../examples/wizard.ts";
import type { InputRequest } from "../../src/types.ts";
import { driveLegacy, driveLite, driveModern } from "../bindings/mcp/wires.ts";

/** Answers the wizard's questions: by key where the wire names them, by message on the 2025 stream. */
function byMessage(request: InputRequest): unknown {
  const message = String(request.params.message);
  const key = message.startsWith("A new project")
    ? "basics"
    : message.startsWith("Who can see")
    ? "sharing"
    : "confirm";
  return DEMO_ANSWERS[key];
}

describe("examples/wizard.ts", () => {
  it("runs the same three-step wizard on MCP-lite, MCP 2026-07-28 and MCP 2025, reserving once per run", async () => {
    const before = reservations.length;
    const lite = await driveLite(server, "setup_project", { workspace: "acme" }, byMessage);
    const latest = await driveModern(server, "setup_project", { workspace: "acme" }, byMessage, { elicitation: {} });
    const older = await driveLegacy(server, "setup_project", { workspace: "acme" }, byMessage);
    assert.deepEqual(lite.rounds, [["basics"], ["sharing"], ["confirm"]]);
    assert.deepEqual(latest.rounds, [["basics"], ["sharing"], ["confirm"]]);
    assert.deepEqual(older.rounds, [["elicitation/create"], ["elicitation/create"], ["elicitation/create"]]);
    assert.equal(reservations.length, before + 3); // one reservation per run, however many rounds
    for (const [i, { result }] of [lite, latest, older].entries()) {
      assert.deepEqual(result.structuredContent, {
        id: `acme/moon-base-${before + i + 1}`,
        name: "Moon Base",
        template: "web-app",
        visibility: "team",
        invited: ["ada@example.com", "linus@example.com"],
      });
    }
  });

  it("stops without creating anything when the user declines", async () => {
    const declined = await driveModern(server, "setup_project", { workspace: "acme" }, () => ({ action: "decline" }), {
      elicitation: {},
    });
    assert.equal(declined.result.isError, true);
    assert.match(declined.result.content[0].text, /declined|decline/);
  });
});
