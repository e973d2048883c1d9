/**
 * One extension (SEP-2133), `org.example/ledger` (`ledger-server.ts`), spoken by three clients over
 * Streamable HTTP (a server on 127.0.0.1) and stdio (the server launched as a child on the runtime running
 * the tests), each on MCP 2026-07-28 and 2025-11-25: the official TypeScript SDK's v2 client
 * (`@modelcontextprotocol/client` 2.4: `request({ method, params }, schema)`, `notification()`,
 * `setNotificationHandler(method, { params }, h)`, `setRequestHandler(method, { params }, h)`,
 * `capabilities.extensions`), the Python SDK's client (`mcp` 2.3.0: `send_request`, `send_notification`, a
 * `ClientExtension` with a `NotificationBinding`), and ours (`extensions`, `request()`, `notify()`,
 * `onNotification()`), which also speaks it over MCP-lite on a WebSocket. Each declares the extension, reads
 * the server's advertisement, calls `org.example/ledger/get` and hears the `org.example/ledger/changed` it sends
 * on the request's own stream, and sends `org.example/ledger/touched`, read back with
 * `org.example/ledger/touches`; the server answers with what the client declared (`ctx.client.extensions`).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { type Client, createClient } from "../../src/client/mod.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { waitFor } from "../helpers/long-running.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { ADVERTISED, DECLARED, LEDGER, ledgerServer } from "./ledger-server.ts";

const STDIO = runtimeCommand(new URL("./ledger-server.ts", import.meta.url).pathname);
const ENTRY = v.object({
  id: v.string(),
  balance: v.number(),
  declared: v.nullable(v.record(v.string(), v.unknown())),
});
const CHANGED = v.object({ id: v.string(), balance: v.number() });
const TOUCHES = v.object({ touched: v.array(v.string()) });
const CONFIRMED = v.object({ approved: v.nullable(v.boolean()), reason: v.optional(v.string()) });

let listener: Listener;
before(async () => listener = await serve(ledgerServer(), { port: 0, hostname: "127.0.0.1", quiet: true }));
after(async () => await listener.close());

const ERAS = [["2026-07-28", "pinned"], ["2025-11-25", "legacy"]] as const;

for (const transport of ["http", "stdio"] as const) {
  for (const [revision, mode] of ERAS) {
    describe(`the official v2 client over ${transport}, ${mode} (${revision})`, () => {
      let client: OfficialClient;
      const changed: unknown[] = [];
      const id = `ts-${transport}-${mode}`;
      before(async () => {
        client = new OfficialClient({ name: "v2", version: "2.4.0" }, {
          capabilities: { extensions: { [LEDGER]: DECLARED } },
          ...(mode === "pinned" ? { versionNegotiation: { mode: { pin: "2026-07-28" as const } } } : {}),
        });
        client.setNotificationHandler(`${LEDGER}/changed`, { params: CHANGED }, (params) => void changed.push(params));
        client.setRequestHandler(`${LEDGER}/approve`, { params: v.object({ id: v.string() }) }, () => ({
          approved: true,
        }));
        await client.connect(
          transport === "http"
            ? new StreamableHTTPClientTransport(new URL(`${listener.url}/mcp`))
            : new StdioClientTransport({ ...STDIO, stderr: "pipe" }),
        );
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
      });
      after(async () => await client.close());

      it("reads the server's advertisement", () => {
        const extensions = client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined;
        assert.deepEqual(extensions?.[LEDGER], ADVERTISED);
      });

      it("calls the request, hears its notification, and the server saw the declared extension", async () => {
        const entry = await client.request({ method: `${LEDGER}/get`, params: { id } }, ENTRY);
        assert.deepEqual(entry, { id, balance: 42, declared: DECLARED });
        await waitFor(() => changed.length > 0); // the server's notification, delivered on its own
        assert.deepEqual(changed, [{ id, balance: 42 }]);
      });

      it("sends the notification, which the server handles", async () => {
        await client.notification({ method: `${LEDGER}/touched`, params: { id } });
        await waitFor(async () => {
          const { touched } = await client.request({ method: `${LEDGER}/touches`, params: {} }, TOUCHES);
          return touched.includes(id);
        }); // the server to handle the notification
      });

      it(
        mode === "legacy"
          ? "answers the server's request on the call's stream (2025 only)"
          : "gets none of the server's requests (2026-07-28 has none)",
        async () => {
          const confirmed = await client.request({ method: `${LEDGER}/confirm`, params: { id } }, CONFIRMED);
          assert.deepEqual(
            confirmed,
            mode === "legacy" ? { approved: true } : { approved: null, reason: "unsupported" },
          );
        },
      );
    });
  }
}

const PYTHON = process.env.INTEROP_PYTHON ??
  (existsSync(`${ROOT}.venv-py/bin/python`)
    ? `${ROOT}.venv-py/bin/python`
    : "/root/.cache/mcplite/venv-py-mcp-2.3.0-fastmcp-4.0.10/bin/python");
const MISSING: string | false = missingOutsideCi(
  !existsSync(PYTHON)
    ? `no Python at ${PYTHON}: python3 -m venv .venv-py && .venv-py/bin/pip install mcp==2.3.0, or set INTEROP_PYTHON`
    : spawnSync(PYTHON, ["-c", "import importlib.metadata as m; m.version('mcp')"]).status !== 0
    ? `${PYTHON} lacks mcp: .venv-py/bin/pip install mcp==2.3.0`
    : false,
);
if (MISSING) console.error(`ledger-interop: the Python client is skipped: ${MISSING}`);

/** What ledger_client.py reports for one scenario. */
interface PythonSeen {
  error?: string;
  protocolVersion: string;
  advertised: unknown;
  entry: unknown;
  changed: unknown[];
  touched: string[];
  invalid: unknown;
}

describe("the Python SDK client (mcp 2.3.0)", { skip: MISSING }, () => {
  const scenarios = (["http", "stdio"] as const).flatMap((transport) =>
    ERAS.map(([revision, mode]) => ({ name: `${transport}, ${mode}`, transport, revision, mode }))
  );
  // One Python process drives every scenario (its start-up is slow), awaited by each test under its own timeout.
  let running: Promise<Record<string, PythonSeen>> | undefined;
  const seen = () =>
    running ??= (async () => {
      const targets = scenarios.map(({ name, transport, mode }) => ({
        name,
        mode: mode === "legacy" ? "legacy" : "2026-07-28",
        id: `py-${transport}-${mode}`,
        ...(transport === "http" ? { url: `${listener.url}/mcp` } : { command: [STDIO.command, ...STDIO.args] }),
      }));
      const ran = await run(PYTHON, [`${ROOT}tests/extension/ledger_client.py`, JSON.stringify(targets)], 120_000);
      assert.equal(ran.code, 0, ran.stderr);
      return JSON.parse(ran.stdout);
    })();

  for (const { name, transport, revision, mode } of scenarios) {
    it(`${name} (${revision}): the ad, the request and its notification, the notification, invalid params`, {
      timeout: 150_000,
    }, async () => {
      const got = (await seen())[name];
      const id = `py-${transport}-${mode}`;
      assert.equal(got.error, undefined, `the client failed: ${got.error}`);
      assert.equal(got.protocolVersion, revision);
      assert.deepEqual(got.advertised, ADVERTISED);
      assert.deepEqual(got.entry, { id, balance: 42, declared: DECLARED });
      assert.deepEqual(got.changed, [{ id, balance: 42 }]);
      assert.ok(got.touched.includes(id), `touched: ${got.touched}`);
      assert.equal(got.invalid, -32602);
    });
  }
});

/** How our client reaches the server, by transport and revision. */
const OURS: Record<string, (revision: string) => Client> = {
  http: (revision) =>
    createClient(`${listener.url}/mcp`, {
      transport: "mcp",
      protocolVersion: revision,
      extensions: { [LEDGER]: DECLARED },
    }),
  stdio: (revision) =>
    createClient(createStdioTransport({ ...STDIO, protocolVersion: revision }), { extensions: { [LEDGER]: DECLARED } }),
};

for (const transport of ["http", "stdio"] as const) {
  for (const [revision] of ERAS) {
    describe(`our client over ${transport}, ${revision}`, () => {
      let client: Client;
      const changed: unknown[] = [];
      const id = `ours-${transport}-${revision}`;
      before(() => {
        client = OURS[transport](revision);
        client.onNotification(`${LEDGER}/changed`, (params) => void changed.push(params));
      });
      after(async () => await client.close());

      it("reads the server's advertisement", async () => {
        const server = await client.discover();
        const capabilities = server?.capabilities as { extensions?: Record<string, unknown> } | undefined;
        assert.deepEqual(capabilities?.extensions?.[LEDGER], ADVERTISED);
        assert.equal(server?.protocolVersion ?? (server?.supportedVersions as string[])[0], revision);
      });

      it("calls the request and hears its notification; the server saw the declared extension", async () => {
        const entry = await client.request(`${LEDGER}/get`, { id });
        assert.deepEqual(v.parse(ENTRY, entry), { id, balance: 42, declared: DECLARED });
        assert.deepEqual(changed, [{ id, balance: 42 }]); // heard before the result
      });

      it("stops hearing once unsubscribed", async () => {
        const more: unknown[] = [];
        const stop = client.onNotification(`${LEDGER}/changed`, (params) => void more.push(params));
        stop();
        await client.request(`${LEDGER}/get`, { id });
        assert.deepEqual(more, []);
        assert.equal(changed.length, 2);
      });

      it("sends the notification, which the server handles", async () => {
        await client.notify(`${LEDGER}/touched`, { id });
        await waitFor(async () => {
          const { touched } = v.parse(TOUCHES, await client.request(`${LEDGER}/touches`));
          return touched.includes(id);
        }); // the server to handle the notification
      });

      it("gets invalid params as -32602 and an unknown method as -32601", async () => {
        const failure = (call: Promise<unknown>) => call.then(() => assert.fail("expected a failure"), (e) => e);
        const invalid = await failure(client.request(`${LEDGER}/get`, { id: 7 }));
        assert.ok(invalid instanceof McpliteError && invalid.code === "invalid_params", String(invalid));
        assert.equal(invalid.rpcCode, -32602);
        const unknown = await failure(client.request(`${LEDGER}/nope`));
        assert.ok(unknown instanceof McpliteError && unknown.code === "method_not_found", String(unknown));
        assert.equal(unknown.rpcCode, -32601);
      });

      it("cannot answer the server's own request (our client answers none but elicitation, sampling, roots)", async () => {
        const confirmed = v.parse(CONFIRMED, await client.request(`${LEDGER}/confirm`, { id }));
        assert.equal(confirmed.approved, null);
      });
    });
  }
}

describe("our client over MCP-lite on a WebSocket", () => {
  let client: Client;
  before(() => {
    client = createClient(createWebSocketTransport(`${listener.url.replace(/^http/, "ws")}/mcp-lite/v1/ws`));
  });
  after(async () => await client.close());

  it("calls the request (MCP-lite declares no capabilities) and sends the notification", async () => {
    const entry = await client.request(`${LEDGER}/get`, { id: "ws" });
    assert.deepEqual(v.parse(ENTRY, entry), { id: "ws", balance: 42, declared: null });
    await client.notify(`${LEDGER}/touched`, { id: "ws" });
    const { touched } = v.parse(TOUCHES, await client.request(`${LEDGER}/touches`));
    assert.ok(touched.includes("ws"));
  });
});

describe("our client over MCP-lite on HTTP", () => {
  it("calls the request at /rpc and sends the notification as one, with -32601 for an unknown method", async () => {
    const client = createClient(`${listener.url}/mcp-lite/v1`, { transport: "mcp-lite" });
    const entry = await client.request(`${LEDGER}/get`, { id: "lite" });
    assert.deepEqual(v.parse(ENTRY, entry), { id: "lite", balance: 42, declared: null });
    await client.notify(`${LEDGER}/touched`, { id: "lite" });
    const { touched } = v.parse(TOUCHES, await client.request(`${LEDGER}/touches`));
    assert.ok(touched.includes("lite"));
    const unknown = await client.request(`${LEDGER}/nope`).then(() => undefined, (e) => e);
    assert.ok(unknown instanceof McpliteError && unknown.rpcCode === -32601, String(unknown));
  });
});
