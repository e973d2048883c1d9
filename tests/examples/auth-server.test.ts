/**
 * examples/auth-server/README.md, run as it is written: its IdP and its notes service started with the README's
 * command lines for the runtime running the tests (Deno's under `deno test`, Bun's under `bun test`) and its settings
 * (the ports are this test's), then step 3 in bash: the metadata name the authorization server and the JWT-bearer
 * grant, and the client, with `enterpriseAuth()`, prints what the README says.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { describe, it } from "node:test";
import { freePort, listening, ROOT, run } from "../helpers/process.ts";
import { killedAfter, readmeCommands } from "../helpers/readme-commands.ts";

const README = "examples/auth-server/README.md";
const { runtime: RUNTIME, blocks, settings, commandOf } = readmeCommands(README);
const callBlock = blocks.find((block) => block.code.includes("examples/auth-server/client.ts"));

const children = killedAfter();

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
    const [idpPort, mcpPort] = [String(await freePort()), String(await freePort())];
    const ours = (text: string) =>
      text.replaceAll("127.0.0.1:8788", `127.0.0.1:${idpPort}`).replaceAll("127.0.0.1:8787", `127.0.0.1:${mcpPort}`);
    const env = Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, ours(value)]));
    const start = (file: string, port: string) => {
      const { argv } = commandOf(file);
      const child = spawn(process.execPath, argv.slice(1), {
        cwd: ROOT,
        env: { ...process.env, ...env, HOSTNAME: "127.0.0.1", PORT: port },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      return child;
    };
    await listening(start("examples/auth-server/idp.ts", idpPort), 60_000);
    await listening(start("examples/auth-server/server.ts", mcpPort), 60_000);

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
    assert.deepEqual(JSON.parse(resource).authorization_servers, [`http://127.0.0.1:${mcpPort}/oauth`]);
    assert.ok(JSON.parse(as).grant_types_supported.includes("urn:ietf:params:oauth:grant-type:jwt-bearer"), as);
    assert.equal(whoami, "ada (notes:read notes:write)");
  });
});
