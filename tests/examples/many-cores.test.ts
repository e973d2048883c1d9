/**
 * examples/many-cores.ts: two processes of the same script on one port (`serve(server, { reusePort: true })`),
 * on each runtime here (Bun, Deno, and Node 22 when `bash .ci/node22.sh` installed it), and both answer: calls
 * on new connections reach both processes, as the kernel spreads them (`SO_REUSEPORT`, Linux). And the guide's
 * `node:cluster` recipe (docs/guides/many-instances.md, "Many cores"), run as written on Node 22 (its imports pointed at
 * this checkout and at a server with `whoami`, on port 0: its workers share the port the primary got): the workers it
 * forks all answer.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, type StartedServer, startServer } from "../helpers/process.ts";
import { tsBlocks } from "../helpers/markdown.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { readUntil } from "../helpers/wait.ts";

const LINUX = (globalThis as { process?: { platform?: string } }).process?.platform === "linux";
const started: StartedServer[] = [];
after(async () => {
  for (const server of started.splice(0)) await server.stop();
});

/** Calls `whoami` over MCP-lite on a connection of its own (no keep-alive): the process that answered. */
function whoami(port: number): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "whoami", arguments: {} },
  });
  return new Promise((resolve, reject) => {
    const call = request({
      host: "127.0.0.1",
      port,
      path: "/mcp-lite/v1/calltools",
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", connection: "close" },
    }, (response) => {
      let text = "";
      response.on("data", (chunk) => text += chunk);
      response.on("end", () => resolve(JSON.parse(text).result.content[0].text));
      response.on("error", reject);
    });
    call.on("error", reject);
    call.end(body);
  });
}

/**
 * Calls `whoami` on new connections until `count` processes answered (at most 60 s): the kernel picks a process per
 * connection, so a fixed number of calls would decide by chance; and the cluster's second worker may start listening
 * seconds after the first, which said where it listens.
 */
async function answerers(port: number, count: number): Promise<Set<string>> {
  const seen = new Set<string>();
  await readUntil(() => whoami(port), (who) => seen.add(who).size >= count, `${count} processes answering`, {
    everyMs: 20,
  }).catch((error: Error) => assert.fail(`${error.message}; answered by ${[...seen].join(", ")}`));
  return seen;
}

/**
 * Starts two processes of the example with `command` on one port: the first on port 0, the second on the port the
 * first got and holds (`SO_REUSEPORT`); checks both answer, then stops them.
 */
async function twoOnOnePort(command: string, args: string[]): Promise<void> {
  const script = `${ROOT}examples/many-cores.ts`;
  const a = await startServer(command, [...args, script], ROOT, { PORT: "0" });
  started.push(a);
  const port = Number(new URL(a.origin).port);
  const b = await startServer(command, [...args, script], ROOT, { PORT: String(port) });
  started.push(b);
  assert.notEqual(port, 0);
  assert.equal(new URL(b.origin).port, String(port));
  const seen = await answerers(port, 2);
  assert.deepEqual([...seen].sort(), [`process ${a.pid}`, `process ${b.pid}`].sort());
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  assert.equal((await health.json()).status, "ok");
  await Promise.all([a.stop(), b.stop()]);
}

describe("examples/many-cores.ts: two processes on one port", {
  skip: !LINUX && "SO_REUSEPORT spreads connections on Linux",
}, () => {
  it("on Bun", { timeout: 120_000 }, async () => {
    await twoOnOnePort(`${ROOT}node_modules/.bin/bun`, ["run"]);
  });

  it("on Deno", { timeout: 120_000 }, async () => {
    await twoOnOnePort(`${ROOT}node_modules/.bin/deno`, ["run", "-A", "--unstable-net"]);
  });

  it("on Node 22", { timeout: 180_000 }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    await twoOnOnePort(node, []);
  });

  it("the guide's node:cluster recipe on Node 22: the primary forks the workers, and each answers", {
    timeout: 180_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const guide = "docs/guides/many-instances.md";
    const block = tsBlocks(readFileSync(`${ROOT}${guide}`, "utf8"), guide).find((b) => b.code.includes("node:cluster"));
    assert.ok(block !== undefined, "the guide's cluster recipe");
    const dir = scratchDir("mcplite-cluster-");
    // The recipe's server: one that says which process answered (the example's tool), from this checkout.
    writeFileSync(
      join(dir, "server.ts"),
      `import process from "node:process";\nimport { createServer, defineTool } from "${ROOT}mod.ts";\n` +
        `export const server = createServer({ name: "cluster", version: "1.0.0" })\n` +
        `  .tool(defineTool("whoami").describe("Says which process answered").handle(() => \`process \${process.pid}\`));\n`,
    );
    // Port 0 in a cluster's workers: the primary binds a port once, and hands every worker's listen the same one.
    const code = block.code.replace(`from "@mcplite/sdk"`, `from "${ROOT}mod.ts"`).replace("port: 8000", "port: 0");
    assert.notEqual(code, block.code);
    writeFileSync(join(dir, "cluster.ts"), code);
    const primary = await startServer(node, [join(dir, "cluster.ts")], dir);
    started.push(primary);
    const seen = await answerers(Number(new URL(primary.origin).port), 2);
    assert.equal(seen.size, 2, `answered by ${[...seen].join(", ")}`);
    assert.ok(!seen.has(`process ${primary.pid}`), "the workers answer, not the primary");
    await primary.stop();
  });
});
