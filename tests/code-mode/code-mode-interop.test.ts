/**
 * Code mode over `proxy()`: the official v1 MCP client and ours run, through the gateway's `execute_code`, a
 * program that calls three tools of a proxied server of ours and answers a filtered result, in one round trip
 * (one `tools/call` at the gateway, three at the remote), on the runtime running the test and on Node 22.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../src/client/mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { EXPECTED, type InteropServers, PROGRAM, startServers } from "./interop-servers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;

describe("code mode over proxy(), from the official v1 client and ours", () => {
  let servers: InteropServers;
  before(async () => servers = await startServers());
  after(() => servers.close());

  it("runs the program in one tools/call of the official v1 client: three calls at the remote, the filtered answer", async () => {
    const v1 = new ClientV1({ name: "v1", version: "1.0.0" });
    await v1.connect(new HttpV1(new URL(servers.url)));
    try {
      const listed = (await v1.listTools()).tools.map((tool: { name: string }) => tool.name).sort();
      assert.deepEqual(listed, ["discover_tools", "execute_code", "redeem"]);
      const before = { ...servers.calls };
      const result = await v1.callTool({ name: "execute_code", arguments: { code: PROGRAM } }) as Any;
      assert.deepEqual(result.structuredContent, { result: EXPECTED, logs: [] });
      assert.deepEqual({
        gateway: servers.calls.gateway - before.gateway,
        tracker: servers.calls.tracker - before.tracker,
      }, {
        gateway: 1,
        tracker: 3,
      });
    } finally {
      await v1.close();
    }
  });

  it("runs it from our client, and discovers the proxied tools' declarations", async () => {
    const client = createClient(servers.url);
    assert.deepEqual(await client.call("execute_code", { code: PROGRAM }), { result: EXPECTED, logs: [] });
    const found = await client.call("discover_tools", { names: ["tracker.issues"] }) as { tools: { name: string }[] };
    assert.deepEqual(found.tools.map((tool) => tool.name), ["tracker.issues"]);
  });
});

describe("code mode over proxy() on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("gives both clients the filtered answer in one round trip", { timeout: 60_000 }, async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/code-mode/code-mode-interop-node.ts`], 60_000, ROOT);
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout);
    assert.match(printed.runtime, /^v22\./);
    assert.deepEqual(printed.official, { result: EXPECTED, logs: [] });
    assert.deepEqual(printed.ours, { result: EXPECTED, logs: [] });
    assert.deepEqual(printed.officialCalls, { gateway: 1, tracker: 3 });
  });
});
