/**
 * examples/auth-server/README.md, run as it is written: its IdP and its notes service started with the README's
 * command lines for the runtime running the tests (Deno's under `deno test`, Bun's under `bun test`) and its settings
 * (the addresses are this test's), then step 3 in bash: the metadata name the authorization server and the JWT-bearer
 * grant, and the client, with `enterpriseAuth()`, prints what the README says. Each names the other's URL, so each
 * starts on port 0: the IdP first, its issuer where it listens; the notes service behind a TCP front the test holds
 * (its `PUBLIC_URL`, as behind a proxy), whose URL the IdP is told before either starts.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import process from "node:process";
import { describe, it } from "node:test";
import { listening, ROOT, run } from "../helpers/process.ts";
import { killedAfter, readmeCommands } from "../helpers/readme-commands.ts";

const README = "examples/auth-server/README.md";
const { runtime: RUNTIME, blocks, settings, commandOf } = readmeCommands(README);
const callBlock = blocks.find((block) => block.code.includes("examples/auth-server/client.ts"));

const children = killedAfter();

/** A TCP front on 127.0.0.1 (port 0, held by the test), passing each connection through to a port set later. */
async function tcpFront(): Promise<{ url: string; to(port: number): void; close(): Promise<void> }> {
  let target = 0;
  const open = new Set<Socket>();
  const front = createServer((socket) => {
    const back = connect(target, "127.0.0.1");
    for (const end of [socket, back]) {
      open.add(end);
      end.on("close", () => open.delete(end));
      end.on("error", () => (socket.destroy(), back.destroy()));
    }
    socket.pipe(back).pipe(socket);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    to: (port) => target = port,
    close: () => {
      for (const end of open) end.destroy();
      return new Promise((resolve) => front.close(() => resolve()));
    },
  };
}

describe(`${README}: Acme's user calls the notes service through its authorization server`, () => {
  it("names the settings, the command lines on this runtime, and the block to run", () => {
    assert.equal(settings.IDP_ISSUER, "http://127.0.0.1:8788");
    assert.equal(settings.MCP_URL, "http://127.0.0.1:8787");
    assert.equal(commandOf("examples/auth-server/idp.ts").env.PORT, "8788");
    assert.equal(commandOf("examples/auth-server/server.ts").env.PORT, "8787");
    assert.ok(callBlock);
  });

  it("publishes both metadata, and the client's enterpriseAuth() call prints the user and the scopes", {
    timeout: 180_000,
  }, async () => {
    const front = await tcpFront();
    try {
      await readmeRun(front);
    } finally {
      await front.close();
    }
  });
});

/** The README's processes and step 3, with the notes service at `front`. */
async function readmeRun(front: Awaited<ReturnType<typeof tcpFront>>): Promise<void> {
  const mcp = front.url;
  const start = (file: string, env: Record<string, string>) => {
    const { argv } = commandOf(file);
    const child = spawn(process.execPath, argv.slice(1), {
      cwd: ROOT,
      env: { ...process.env, ...env, HOSTNAME: "127.0.0.1", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    return child;
  };
  // The IdP: its issuer where it listens (no IDP_ISSUER), the service's authorization server its audience.
  const { IDP_ISSUER: _, ...idpSettings } = settings;
  const idp = await listening(
    start("examples/auth-server/idp.ts", { ...idpSettings, AS_ISSUER: `${mcp}/oauth` }),
    60_000,
  );
  const ours = (text: string) => text.replaceAll("http://127.0.0.1:8788", idp).replaceAll("http://127.0.0.1:8787", mcp);
  const env = Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, ours(value)]));
  const notes = await listening(start("examples/auth-server/server.ts", { ...env, PUBLIC_URL: mcp }), 60_000);
  front.to(Number(new URL(notes).port));

  const path = `${ROOT}node_modules/.bin:${process.env.PATH}`;
  // The block's client line runs on this test's runtime, as the other terminal would.
  const code = ours(callBlock!.code).replace(
    /^deno run -A (examples\S+)/m,
    `${RUNTIME} ${RUNTIME === "deno" ? "run -A " : ""}$1`,
  );
  const ran = await run("bash", ["-e", "-o", "pipefail", "-c", code], 120_000, ROOT, {
    ...process.env,
    ...env,
    PATH: path,
  });
  assert.equal(ran.code, 0, `${ran.stdout}${ran.stderr}`);
  const [resource, as, whoami] = ran.stdout.split("\n").filter(Boolean);
  assert.deepEqual(JSON.parse(resource).authorization_servers, [`${mcp}/oauth`]);
  assert.ok(JSON.parse(as).grant_types_supported.includes("urn:ietf:params:oauth:grant-type:jwt-bearer"), as);
  assert.equal(whoami, "ada (notes:read notes:write)");
}
