/**
 * `mcplite … --login`: the CLI connects to a server behind OAuth (our `jwtAuth()` server and a real
 * `oidc-provider`). The user is played by the test: it reads the authorization URL the CLI prints on
 * stderr, logs in and consents headlessly, and follows the redirect to the CLI's loopback listener.
 * A second run reuses the stored tokens without a login; the token file is mode 0600.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { APP_CLIENT, authorizeHeadlessly } from "../helpers/authorization-server.ts";
import { type ProtectedServer, startProtectedServer } from "../helpers/protected-server.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT } from "../helpers/process.ts";
import { runCli, runProgram } from "./cli-helpers.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

let server: ProtectedServer;
let dir: string;
before(async () => {
  server = await startProtectedServer([mcpLiteBinding(), mcpBinding()]);
  dir = mkdtempSync(join(tmpdir(), "mcplite-login-"));
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("mcplite --login", () => {
  it("authorizes through the printed URL, calls the protected tool, and reuses the stored tokens", async () => {
    const tokens = join(dir, "tokens.json");
    const user = theUser(server);
    const first = await runCli(
      ["call", `${server.listener.url}/mcp`, "read_doc", "--arg", "id=7", "--login", "--tokens", tokens],
      { onStderr: user.onStderr },
    );
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), "doc 7");
    assert.ok(user.redirectUri());
    assert.equal(statSync(tokens).mode & 0o777, 0o600);
    const second = await runCli([
      "call",
      `${server.listener.url}/mcp`,
      "read_doc",
      "--arg",
      "id=8",
      "--login",
      "--tokens",
      tokens,
    ]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), "doc 8");
    assert.doesNotMatch(second.stderr, /open this URL/);
  });

  it(
    "authorizes and calls with the CLI running on Node 22 (its loopback listener is serve())",
    { skip: ONCE_PER_RUN },
    async (t) => {
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      const user = theUser(server);
      const args = ["call", `${server.listener.url}/mcp`, "read_doc", "--arg", "id=9", "--login"];
      const called = await runProgram(node, [`${ROOT}src/cli/bin.mjs`, ...args, "--tokens", join(dir, "node.json")], {
        onStderr: user.onStderr,
      });
      assert.equal(called.code, 0, called.stderr);
      assert.equal(called.stdout.trim(), "doc 9");
      assert.ok(user.redirectUri());
    },
  );

  it("without --login, a protected server is a clear error (exit 2) that suggests --login", async () => {
    const run = await runCli(["list", `${server.listener.url}/mcp`]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /401|unauthori[sz]ed|authoriz/i);
    assert.match(run.stderr, /\(the server wants authorization: run again with --login\)\n$/);
    const json = await runCli(["list", `${server.listener.url}/mcp`, "--json"]);
    const report = JSON.parse(json.stdout);
    assert.equal(report.exitCode, 2);
    assert.equal(report.error.status, 401);
    assert.match(report.error.message, /--login/);
  });

  it("--dpop: DPoP-bound tokens for a server that requires them, the key kept in the token file for the next run", async () => {
    const bound = await startProtectedServer([mcpLiteBinding(), mcpBinding()], { dpop: "required" });
    try {
      const tokens = join(dir, "dpop-tokens.json");
      const args = (id: string) => [
        "call",
        `${bound.listener.url}/mcp`,
        "read_doc",
        "--arg",
        `id=${id}`,
        "--login",
        "--dpop",
        "--tokens",
        tokens,
      ];
      const user = theUser(bound);
      const first = await runCli(args("1"), { onStderr: user.onStderr });
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout.trim(), "doc 1");
      const stored = JSON.parse(readFileSync(tokens, "utf8"))[bound.listener.url];
      assert.equal(stored.tokens.tokenType, "dpop");
      assert.equal(stored.dpopKey.jwks[0].kty, "EC");
      // A new process: the key from the file signs the proofs for the token from the file.
      const second = await runCli(args("2"));
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.stdout.trim(), "doc 2");
      assert.doesNotMatch(second.stderr, /open this URL/);
    } finally {
      await bound.close();
    }
  });

  it("--redirect-port listens where an authorization server that registered an exact redirect URI sends back", async () => {
    // The registered port: one below Linux's ephemeral range (ip(7), ip_local_port_range), which no outgoing
    // connection takes, picked at random and not probed: the CLI's own listen is the probe, and a port another
    // process listens on (its "cannot listen … already in use") is picked again. The feature is a fixed port.
    for (let attempt = 1;; attempt++) {
      const port = 20_000 + Math.floor(Math.random() * 12_768);
      const exact = await startProtectedServer([mcpLiteBinding(), mcpBinding()], {
        appRedirectUri: `http://127.0.0.1:${port}/callback`,
      });
      try {
        const user = theUser(exact);
        const login = ["--login", "--client-id", APP_CLIENT.id, "--redirect-port", String(port)];
        const tokens = ["--tokens", join(dir, "exact-tokens.json")];
        const run = await runCli(
          ["call", `${exact.listener.url}/mcp`, "read_doc", "--arg", "id=9", ...login, ...tokens],
          {
            onStderr: user.onStderr,
          },
        );
        if (attempt < 5 && run.code !== 0 && /cannot listen on .* already in use/.test(run.stderr)) continue;
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stdout.trim(), "doc 9");
        assert.equal(user.redirectUri(), `http://127.0.0.1:${port}/callback`);
        return;
      } finally {
        await exact.close();
      }
    }
  });
});

/**
 * The user at the browser: reads the authorization URL the CLI prints on stderr, logs in and consents
 * headlessly, and follows the redirect back to the CLI's listener.
 */
function theUser(server: ProtectedServer) {
  let redirectUri: string | null = null;
  const onStderr = (text: string) => {
    const match = /open this URL to authorize: (\S+)/.exec(text);
    if (match === null || redirectUri !== null) return;
    const url = new URL(match[1]);
    redirectUri = url.searchParams.get("redirect_uri");
    void (async () => {
      const { params } = await authorizeHeadlessly(url, server.as.user);
      await fetch(`${redirectUri}?${params}`); // the browser coming back
    })();
  };
  return { onStderr, redirectUri: () => redirectUri };
}
