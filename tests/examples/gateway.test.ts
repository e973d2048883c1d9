/**
 * examples/gateway.ts started as its header says (on the runtime running the test, and on Node 22 itself): through
 * it, our client and the official v1 client call a tool of each remote (server-everything over stdio, the tickets
 * server over HTTP) with the token it prints; without a token each wire answers 401; stopped, it leaves no process
 * of server-everything behind (its stdin closes with the gateway).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import process from "node:process";
import { describe, it } from "node:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";
import { createClient } from "../../src/client/mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run, startServer } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";
import { waitFor } from "../proxy/gateway.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { StreamableHTTPClientTransport: HttpV1 } = await import(`${V1}/client/streamableHttp.js`) as Any;

const FILE = `${ROOT}examples/gateway.ts`;
const deno = "Deno" in globalThis;
/** The runtime running the test, started as the example's header says. */
const here = deno ? ["run", "-A", "--unstable-no-legacy-abort", FILE] : ["run", FILE];

/** The process ids of the server-everything processes a process started. */
async function everythingStartedBy(parent: number): Promise<number[]> {
  const listed = await run("ps", ["-e", "-o", "pid=,ppid=,args="]);
  return listed.stdout.split("\n").map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === parent && args.join(" ").includes("server-everything"))
    .map(([pid]) => Number(pid));
}

/**
 * Whether a process runs. One that exited after its parent did is a zombie until the machine's init reaps it, and a
 * container's init may never (`/proc/<pid>/stat` says `Z`): that one has exited.
 */
function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").at(-1)?.[0] !== "Z";
  } catch {
    return true; // no /proc (macOS): signal 0 reached it
  }
}

/** Starts the example, calls both remotes through it, checks the refusals, and stops it. */
async function callsThroughTheGateway(command: string, args: string[]) {
  const gateway = await startServer(command, args); // PORT=0: on the port the system gives it, which it prints
  try {
    // It prints the token in the lines after the one that says where it listens.
    const token = (await gateway.until(/TOKEN=(\S+)\s/))[1];
    const authorization = `Bearer ${token}`;
    assert.match(gateway.output, new RegExp(`curl -s ${gateway.origin}/mcp-lite/v1/calltools`));

    const ours = createClient(`${gateway.origin}/mcp`, { headers: { authorization } });
    try {
      assert.deepEqual(await ours.call("tickets.open_ticket", { title: "The printer is on fire" }), {
        id: 42,
        title: "The printer is on fire",
      });
      assert.equal(await ours.call("everything.echo", { message: "hi" }), "Echo: hi");
    } finally {
      await ours.close();
    }

    const v1 = new ClientV1({ name: "v1", version: "1.32.2" });
    await v1.connect(new HttpV1(new URL(`${gateway.origin}/mcp`), { requestInit: { headers: { authorization } } }));
    try {
      const sum = await v1.callTool({ name: "everything.get-sum", arguments: { a: 2, b: 3 } }) as Any;
      assert.match(sum.content[0].text, /\b5\b/);
      const ticket = await v1.callTool({ name: "tickets.open_ticket", arguments: { title: "x" } }) as Any;
      assert.deepEqual(ticket.structuredContent, { id: 42, title: "x" });
    } finally {
      await v1.close();
    }

    // The pasted call, without its token: refused on each wire, with the challenge that names the metadata.
    for (const path of ["/mcp-lite/v1/calltools", "/mcp"]) {
      const refused = await fetch(gateway.origin + path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(toolsCall("everything.echo", { message: "hi" })),
      });
      await refused.body?.cancel();
      assert.equal(refused.status, 401, path);
      assert.match(refused.headers.get("www-authenticate") ?? "", /^Bearer resource_metadata="/);
      // Its resource is where it listens: the port it got, not the 0 it was given.
      assert.ok(refused.headers.get("www-authenticate")!.startsWith(`Bearer resource_metadata="${gateway.origin}/`));
    }
    const everything = await everythingStartedBy(gateway.pid);
    assert.equal(everything.length, 1, "the gateway runs one server-everything");
    await gateway.stop();
    await waitFor("server-everything to exit with its gateway", () => !runs(everything[0]));
  } finally {
    await gateway.stop();
  }
}

describe("examples/gateway.ts", () => {
  it(`serves both remotes behind its token on ${deno ? "Deno" : "Bun"}`, { timeout: 120_000 }, async () => {
    await callsThroughTheGateway(process.execPath, here);
  });

  it("serves both remotes behind its token on Node 22", { skip: ONCE_PER_RUN, timeout: 150_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await callsThroughTheGateway(node, [FILE]);
  });
});
