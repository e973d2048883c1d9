/**
 * Our server from the Python side: the Python MCP SDK's client (`mcp` 2.3.0) and FastMCP's
 * (`fastmcp` 4.0.10), each over stdio (launching `tests/interop/peer-server.ts`) and Streamable HTTP (a
 * server this test starts on 127.0.0.1), in each client's legacy mode (the 2025-11-25 `initialize`
 * handshake) and pinned to 2026-07-28 (`server/discover`, then the per-request envelope), plus the
 * `mcp` client's default `auto` mode, which must choose 2026-07-28. Each lists the tools, calls one with
 * structured output and one that fails (`isError`), and asks the server which revision it read, so a
 * silent fallback fails. One Python process drives every scenario (its start-up is slow).
 *
 * The clients live in a virtualenv `.ci/run` creates (`.venv-py`, or `INTEROP_PYTHON` naming its
 * python); without it the suite skips, saying how to make one.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { after, describe, it } from "node:test";
import { serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { missingOutsideCi } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { peerServer } from "./peer-server.ts";

const PYTHON = process.env.INTEROP_PYTHON ?? `${ROOT}.venv-py/bin/python`;
const INSTALL = "python3 -m venv .venv-py && .venv-py/bin/pip install mcp==2.3.0 fastmcp==4.0.10 (or run .ci/run)";

/** Why the suite skips, or `false` when both Python clients are installed. */
const missing: string | false = missingOutsideCi(
  !existsSync(PYTHON)
    ? `no Python at ${PYTHON}: ${INSTALL}, or set INTEROP_PYTHON`
    : spawnSync(PYTHON, ["-c", "import importlib.metadata as m; m.version('mcp'); m.version('fastmcp')"]).status !== 0
    ? `${PYTHON} lacks mcp or fastmcp: ${INSTALL}`
    : false,
);
if (missing) console.error(`python-clients: skipped: ${missing}`);

/** One connection of one Python client. */
interface Scenario {
  name: string;
  library: "mcp" | "fastmcp";
  /** The client's `mode`: "legacy", "auto" or a pinned modern revision. */
  mode: string;
  /** The revision the test is named for: what the client and the server must both have spoken. */
  revision: string;
  transport: "stdio" | "http";
}

/** A tool result as the Python client received it. */
interface Result {
  content: { type: string; text: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** What client.py reports for one scenario. */
interface Seen {
  error?: string;
  protocolVersion: string;
  tools: string[];
  add: Result;
  fails: Result;
  revision: Result;
}

const scenarios: Scenario[] = (["mcp", "fastmcp"] as const).flatMap((library) =>
  (["stdio", "http"] as const).flatMap((transport) => [
    { name: `${library}, ${transport}, legacy mode`, library, mode: "legacy", revision: "2025-11-25", transport },
    { name: `${library}, ${transport}, pinned`, library, mode: "2026-07-28", revision: "2026-07-28", transport },
  ])
);
scenarios.push({
  name: "mcp, http, auto mode",
  library: "mcp",
  mode: "auto",
  revision: "2026-07-28",
  transport: "http",
});

describe("the Python MCP SDK and FastMCP clients", { skip: missing }, () => {
  let listener: Listener | undefined;
  // Every scenario runs in one Python process, started once and awaited by each test under its own
  // timeout: Bun's --timeout bounds a before hook too, whatever its own option says.
  let running: Promise<Record<string, Seen>> | undefined;
  const clients = () =>
    running ??= (async () => {
      listener = await serve(peerServer(), { port: 0, hostname: "127.0.0.1" });
      const stdio = runtimeCommand(`${ROOT}tests/interop/peer-server.ts`);
      const targets = scenarios.map(({ transport, ...scenario }) =>
        transport === "stdio"
          ? { ...scenario, command: [stdio.command, ...stdio.args] }
          : { ...scenario, url: `${listener!.url}/mcp` }
      );
      const ran = await run(PYTHON, [`${ROOT}tests/interop/python/client.py`, JSON.stringify(targets)], 120_000);
      assert.equal(ran.code, 0, ran.stderr);
      return JSON.parse(ran.stdout);
    })();
  after(async () => await listener?.close());

  for (const scenario of scenarios) {
    it(`${scenario.name}: speaks ${scenario.revision}, calls a tool and sees a failing one as isError`, {
      timeout: 150_000,
    }, async () => {
      const got = (await clients())[scenario.name];
      assert.equal(got.error, undefined, `the client failed: ${got.error}`);
      assert.equal(got.protocolVersion, scenario.revision, "the revision the client negotiated");
      assert.equal(got.revision.content[0].text, scenario.revision, "the revision the server read");
      assert.deepEqual(got.tools, ["add", "echo", "fails", "crashes", "countdown", "slow", "revision"]);
      assert.deepEqual(got.add.structuredContent, { sum: 5 });
      assert.equal(got.add.isError, false);
      assert.equal(got.fails.isError, true);
      assert.deepEqual(got.fails.content, [{ type: "text", text: "the quota is exhausted" }]);
    });
  }
});
