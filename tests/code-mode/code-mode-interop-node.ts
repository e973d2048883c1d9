/**
 * Run by Node 22 (tests/code-mode/code-mode-interop.test.ts): the interop servers on node:http, the official v1
 * MCP client and ours each running the program through `execute_code` once, and what they got, printed as JSON.
 */
import process from "node:process";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../src/client/mod.ts";
import { PROGRAM, startServers } from "./interop-servers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as Any;

const servers = await startServers();
const v1 = new ClientV1({ name: "v1", version: "1.0.0" });
try {
  await v1.connect(new StreamableHTTPClientTransport(new URL(servers.url)));
  const before = { ...servers.calls };
  const official = await v1.callTool({ name: "execute_code", arguments: { code: PROGRAM } }) as Any;
  const afterOfficial = { ...servers.calls };
  const client = createClient(servers.url);
  const ours = await client.call("execute_code", { code: PROGRAM });
  await client.close();
  process.stdout.write(JSON.stringify({
    official: official.structuredContent,
    ours,
    officialCalls: { gateway: afterOfficial.gateway - before.gateway, tracker: afterOfficial.tracker - before.tracker },
    runtime: process.version,
  }));
} finally {
  await v1.close();
  // On Node 22 the remote's listener does not finish closing after the official client's execute_code (a request
  // it still counts in flight; not on Bun or Deno): the process ends once the answer is out.
  await Promise.race([servers.close(), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  process.exit(0);
}
