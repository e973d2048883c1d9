/**
 * The 2025-era session table: bounded, least recently used first out. A request whose session was
 * forgotten is still served, with the defaults (every log level).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mcpBinding } from "../../../mod.ts";
import { SessionTable } from "../../../src/bindings/mcp/sessions.ts";
import { legacyRequest } from "../../helpers/request.ts";
import { readSse } from "../../helpers/sse.ts";
import { mcpServer } from "./mcp-helpers.ts";

const SESSION = { protocolVersion: "2025-11-25", capabilities: undefined, clientInfo: undefined, logLevel: undefined };

describe("the 2025 session table", () => {
  it("keeps at most its limit, dropping the least recently used", () => {
    const table = new SessionTable(2);
    const a = table.open({ ...SESSION });
    const b = table.open({ ...SESSION });
    assert.ok(table.get(a)); // a is now the most recently used
    const c = table.open({ ...SESSION });
    assert.equal(table.get(b), undefined, "b was the least recently used");
    assert.ok(table.get(a));
    assert.ok(table.get(c));
    assert.equal(table.get(null), undefined);
  });

  it("forgets a session beyond the limit; its requests are still served, at every log level", async () => {
    const server = mcpServer({ bindings: [mcpBinding({ sessionLimit: 1 })] });
    const open = async () => {
      const response = await server.fetch(legacyRequest("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      }));
      await response.body?.cancel();
      return response.headers.get("mcp-session-id")!;
    };
    const levels = async (session: string) => {
      const response = await server.fetch(
        legacyRequest("tools/call", { name: "chatty", arguments: {} }, 2, "2025-11-25", { "mcp-session-id": session }),
      );
      const messages = (await readSse(response)).map((e) => JSON.parse(e.data));
      return messages.filter((m) => m.method === "notifications/message").map((m) => m.params.level);
    };
    const a = await open();
    const set = await server.fetch(
      legacyRequest("logging/setLevel", { level: "error" }, 3, "2025-11-25", { "mcp-session-id": a }),
    );
    assert.equal(set.status, 200);
    assert.deepEqual(await levels(a), ["error"]); // remembered
    await open(); // the limit is 1: a is forgotten
    assert.deepEqual(await levels(a), ["debug", "info", "warning", "error"]);
  });
});
