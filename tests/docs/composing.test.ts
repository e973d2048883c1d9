/**
 * docs/guides/composing.md's group, proxy and gateway sections run as written (transforms and search:
 * tests/docs/composing-sections.test.ts), on Deno, in a project outside the repository that maps
 * `@mcplite/sdk` to this checkout: the group and proxy blocks run to their assertions; the gateway's
 * remotes (`tickets-server.ts` on port 0, `files-server.ts` started over stdio by the gateway) are
 * served behind `jwtAuth` on MCP, MCP-lite and gRPC with no authorization server (the gateway's own key), and
 * the page's client block calls both through it with the token the gateway prints; without one, each wire
 * refuses.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { exampleProject, tsBlocks } from "../helpers/markdown.ts";
import { listening, output, ROOT, run } from "../helpers/process.ts";
import { callGrpcJs } from "../proxy/gateway.ts";

const PAGE = "docs/guides/composing.md";
const DENO = `${ROOT}node_modules/.bin/deno`;

describe(PAGE, () => {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-composing-"));
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  exampleProject(dir);
  const blocks = tsBlocks(readFileSync(`${ROOT}${PAGE}`, "utf8"), PAGE);
  for (const block of blocks) writeFileSync(join(dir, block.file), block.code);
  // The gateway starts `deno` for its stdio remote: the one this repository installed.
  const env = { ...process.env, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` };
  const deno = (file: string, extra: Record<string, string> = {}) =>
    run(DENO, ["run", "-A", "--quiet", file], 60_000, dir, { ...env, ...extra });
  /** Starts a block on port 0 (the ports it reads, and the ones `extra` names); what it prints on each stream. */
  const start = (file: string, extra: Record<string, string>) => {
    const child = spawn(DENO, ["run", "-A", "--quiet", file], { cwd: dir, env: { ...env, PORT: "0", ...extra } });
    children.push(child);
    return { child, stdout: output(child, ["stdout"]), stderr: output(child, ["stderr"]) };
  };

  it("names the blocks the gateway needs", () => {
    const files = blocks.map((b) => b.file);
    for (
      const name of ["group.ts", "proxy.ts", "tickets-server.ts", "files-server.ts", "gateway.ts", "call-gateway.ts"]
    ) {
      assert.ok(files.includes(name), `${PAGE} has no block named ${name}`);
    }
  });

  it("runs the group and proxy blocks to their assertions", async () => {
    for (const file of ["group.ts", "proxy.ts"]) {
      const out = await deno(file);
      assert.equal(out.code, 0, `${file}: ${out.stderr}`);
    }
  });

  it("serves two remotes, one over stdio, behind jwtAuth on MCP, MCP-lite and gRPC, with no issuer", {
    timeout: 120_000,
  }, async () => {
    const tickets = await listening(start("tickets-server.ts", {}).child, 60_000);
    const started = start("gateway.ts", { TICKETS_URL: `${tickets}/mcp`, GRPC_PORT: "0" });
    const gateway = await listening(started.child, 60_000);
    // It prints where its gRPC listener listens (once it does), then the token.
    const grpcPort = (await started.stderr.until(/^gRPC on http:\/\/127\.0\.0\.1:(\d+)\n/m))[1];
    const token = (await started.stdout.until(/^TOKEN=(\S+)\n/m))[1];

    const called = await deno("call-gateway.ts", { GATEWAY_URL: gateway, TOKEN: token });
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /id: 42/);
    assert.match(called.stdout, /the contents of README\.md/);

    const anonymous = await fetch(`${gateway}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "files.read_file" } }),
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();

    const address = `127.0.0.1:${grpcPort}`;
    const rpc = await callGrpcJs(address, "tickets.open_ticket", { title: "on fire" }, token);
    assert.deepEqual(rpc.result.structuredContent, { id: 42, title: "on fire" });
    assert.equal((await callGrpcJs(address, "tickets.open_ticket", { title: "x" })).code, "UNAUTHENTICATED");
  });
});
