/**
 * Servers that start slowly over stdio (`uv run`, `npx`, a Python import): `server/discover` goes
 * unanswered past the probe's wait, the client sends `initialize` too, and whichever answer decides
 * the era wins: a late -32601 means 2025, a late discover result means 2026-07-28 (the result is used).
 * A server that answers nothing fails with an error naming its command and the time waited. The probe's
 * wait is the test's (`probeWaitMs`), and the slow start lasts until `initialize` came: the order is
 * what is asserted, not the clock.
 */
import assert from "node:assert/strict";
import { fastmcpMissing, PYTHON } from "../../helpers/fastmcp.ts";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { createClient } from "../../../src/client/mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../../src/errors/mod.ts";
import { createStdioTransport } from "../../../src/client/transports/stdio.ts";
import { runtimeCommand } from "../../helpers/stdio.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/**
 * How long the FastMCP server sleeps before it reads stdin: past its probe wait (`PROBE_WAIT_MS`) on an
 * idle machine. Its case asserts the call either way (a loaded machine may let the server read first).
 */
const SLOW_MS = 2000;
/** The probe's wait in these tests: the server's slow start outlasts it by order, whatever it is. */
const PROBE_WAIT_MS = 50;
/** `delay`: `initialize` (the start lasts until initialize came), or ms (0: no slow start). */
const slow = (era: string, delay: "initialize" | number = "initialize", protocolVersion?: string) => {
  const { command, args } = runtimeCommand(`${ROOT}tests/helpers/slow-stdio-server.ts`);
  return createStdioTransport({
    command,
    args: [...args, String(delay), era],
    closeGraceMs: 500,
    protocolVersion,
    probeWaitMs: PROBE_WAIT_MS,
  });
};

describe("stdio servers that start slowly", () => {
  it("a slow 2025 server: its late -32601 to server/discover selects the 2025 handshake", async () => {
    const client = createClient(slow("2025"));
    try {
      const seen = String(await client.call("seen", {})).split(" ");
      assert.deepEqual(seen, ["server/discover", "initialize", "tools/call"]);
      assert.equal(((await client.discover())?.serverInfo as { name: string }).name, "slow-2025");
    } finally {
      await client.close();
    }
  });

  it("a slow 2026-07-28 server: its late discover result is used, though initialize went out meanwhile", async () => {
    const client = createClient(slow("2026"));
    try {
      const server = await client.discover();
      assert.equal((server?.serverInfo as { name: string }).name, "slow-2026");
      assert.deepEqual(server?.supportedVersions, ["2026-07-28"]);
      // The server refused the pipelined initialize (-32022); the client never asked again.
      const seen = String(await client.call("seen", {})).split(" ");
      assert.deepEqual(seen, ["server/discover", "initialize", "tools/list", "tools/call"]);
    } finally {
      await client.close();
    }
  });

  it("a slow server the host says speaks 2026-07-28 gets server/discover alone, answered however late", async () => {
    // It reads stdin 300 ms after it starts, six probe waits: no initialize goes out meanwhile (it would speak 2025).
    const client = createClient(slow("2026", 300, "2026-07-28"));
    try {
      assert.deepEqual(String(await client.call("seen", {})).split(" "), [
        "server/discover",
        "tools/list",
        "tools/call",
      ]);
    } finally {
      await client.close();
    }
  });

  it("a 2025 server that never answers server/discover gets the 2025 handshake after the probe's wait", async () => {
    const client = createClient(slow("silent", 0));
    try {
      // The probe the handshake overtook is cancelled: nothing waits for it any more.
      assert.deepEqual(String(await client.call("seen", {})).split(" "), [
        "server/discover",
        "initialize",
        "notifications/cancelled",
        "tools/call",
      ]);
    } finally {
      await client.close();
    }
  });

  it("a server that answers nothing fails with its command and the time waited", async () => {
    const transport = slow("mute", 0);
    const client = createClient(transport, { timeoutMs: 1000 });
    try {
      await assert.rejects(client.listTools(), (error: Error) => {
        assert.ok(error instanceof McpliteError && !(error instanceof ProtocolError), String(error));
        assert.equal(error.code, ErrorCode.Timeout);
        assert.match(error.message, /slow-stdio-server\.ts 0 mute answered nothing in 1000 ms/);
        assert.match(error.message, /neither server\/discover nor initialize/);
        return true;
      });
    } finally {
      await client.close();
    }
    const legacy = createClient(slow("mute", 0, "2025-11-25"), { timeoutMs: 500 });
    try {
      await assert.rejects(legacy.listTools(), /mute answered nothing in 500 ms: initialize went unanswered/);
    } finally {
      await legacy.close();
    }
    const modern = createClient(slow("mute", 0, "2026-07-28"), { timeoutMs: 500 });
    try {
      await assert.rejects(modern.listTools(), /mute answered nothing in 500 ms: server\/discover went unanswered/);
    } finally {
      await modern.close();
    }
  });

  it("refuses a probe wait that is not a number of ms", () => {
    for (const probeWaitMs of [-1, Number.NaN, Infinity]) {
      assert.throws(() => createStdioTransport({ command: "x", probeWaitMs }), /probeWaitMs must be 0 ms or more/);
    }
  });
});

const NO_FASTMCP = fastmcpMissing("slow FastMCP over stdio");

describe("a slow FastMCP (Python) server over stdio", { skip: NO_FASTMCP }, () => {
  it("createClient(stdio) calls its tool though it reads stdin only after the probe's wait", {
    timeout: 120_000,
  }, async () => {
    const transport = createStdioTransport({
      command: PYTHON,
      args: [`${ROOT}tests/interop/python/slow_stdio_server.py`, String(SLOW_MS / 1000)],
      closeGraceMs: 1000,
      probeWaitMs: PROBE_WAIT_MS,
    });
    const client = createClient(transport, { timeoutMs: 90_000 });
    try {
      assert.deepEqual(await client.call("add", { a: 2, b: 3 }), { result: 5 });
      assert.equal(((await client.discover())?.serverInfo as { name: string }).name, "slow-python");
    } finally {
      await client.close();
    }
  });
});
