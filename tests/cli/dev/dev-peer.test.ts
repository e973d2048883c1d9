/**
 * `mcplite dev` keeps to this machine: it listens on 127.0.0.1 whatever `HOSTNAME` says (Docker and
 * Kubernetes set it; `serve()` reads it), and its page (`/_dev`, which holds the secret that runs tools)
 * answers loopback peers only, by the address the socket reports, not by the `Host` a peer sends;
 * `--host` opens both to the network. The peer check at the handler, with the peer given as a listener
 * gives it (a peer off this machine is an RFC 5737 documentation address: no socket reaches one here);
 * then over real sockets on loopback only (Deno's `info.remoteAddr`, Bun's `server.requestIP()`, Node's
 * `socket.remoteAddress`), on the runtime running the test, on `node:http` there, and on Node 22.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { devApi, type DevApiSource } from "../../../src/cli/dev/dev-api.ts";
import { devHandler } from "../../../src/cli/dev/dev-proxy.ts";
import type { DevSupervisor } from "../../../src/cli/dev/dev-supervisor.ts";
import { node22, NODE22_MISSING } from "../../helpers/node22.ts";
import { ROOT, run } from "../../helpers/process.ts";
import { runCli } from "../cli-helpers.ts";
import { hasOtherLoopback, OTHER_LOOPBACK, probePage, statusOf } from "./dev-peer-probe.ts";
import { startDev } from "./dev-session.ts";
import { ONCE_PER_RUN } from "../../helpers/once-per-run.ts";
import { scratchDir } from "../../helpers/scratch-dir.ts";

const SERVER = `export default { fetch: () => new Response("served") };\n`;
const NO_OTHER_LOOPBACK = `this machine cannot use ${OTHER_LOOPBACK} (only Linux routes all of 127.0.0.0/8)`;
/** Peers and an address off this machine, for the handler only (RFC 5737 §3: documentation addresses). */
const AWAY = "203.0.113.7";
const AWAY_HOST = "198.51.100.2:8000";

/** The page's handler, asked for a path by a peer (as `Deno.serve` tells it: `info.remoteAddr`). */
async function askPage(path: string, host: string, peer: string | undefined, open = false): Promise<number> {
  const source: DevApiSource = {
    state: () => ({ phase: "starting", generation: 0 }),
    endpoints: () => [],
    warm: () => false,
    open,
  };
  const api = devApi(source);
  try {
    const env = peer === undefined ? undefined : { remoteAddr: { hostname: peer } };
    const response = await devHandler({} as DevSupervisor, api)(new Request(`http://${host}${path}`), env);
    await response.body?.cancel();
    return response.status;
  } finally {
    await api.close();
  }
}

describe("mcplite dev keeps to this machine", () => {
  it("answers the page to loopback peers only, whatever Host they send, unless --host opened it", async () => {
    for (const peer of ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"]) {
      assert.equal(await askPage("/_dev", "127.0.0.1:8000", peer), 200, peer);
    }
    // A peer off this machine that names a loopback host (the page holds the secret that runs tools).
    for (const path of ["/_dev", "/_dev/state", "/_dev/events", "/_dev/call"]) {
      assert.equal(await askPage(path, "127.0.0.1:8000", AWAY), 404, path);
      assert.equal(await askPage(path, "localhost:8000", `::ffff:${AWAY}`), 404, path);
    }
    assert.equal(await askPage("/_dev", "127.0.0.1:8000", undefined), 404, "no listener said: refused");
    assert.equal(await askPage("/_dev", "rebound.example:8000", "127.0.0.1"), 404, "DNS rebinding");
    // --host 0.0.0.0: any peer, at a loopback name or an address, still no other name.
    assert.equal(await askPage("/_dev", AWAY_HOST, AWAY, true), 200);
    assert.equal(await askPage("/_dev", "localhost:8000", AWAY, true), 200);
    assert.equal(await askPage("/_dev", "rebound.example:8000", AWAY, true), 404);
  });

  it("reads the peer from the socket on this runtime, natively and on node:http", async () => {
    for (const httpServer of ["native", "node:http"] as const) {
      assert.equal(await probePage(httpServer), 200, httpServer);
    }
  });

  it("reads the peer from the socket on Node 22", { skip: ONCE_PER_RUN }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    const script = join(scratchDir("mcplite-dev-peer-"), "probe.ts");
    writeFileSync(
      script,
      `import { probePage } from ${JSON.stringify(`${ROOT}tests/cli/dev/dev-peer-probe.ts`)};\n` +
        `console.log(JSON.stringify(await probePage()));\n`,
    );
    const { code, stdout, stderr } = await run(node, [script], 30_000);
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout), 200);
  });

  it("listens on 127.0.0.1 only with HOSTNAME=0.0.0.0", async (t) => {
    const dev = await startDev({ "server.ts": SERVER }, undefined, { env: { HOSTNAME: "0.0.0.0" } });
    try {
      const { hostname, port } = new URL(dev.origin);
      const host = `127.0.0.1:${port}`;
      assert.equal(hostname, "127.0.0.1");
      await dev.waitFor(/ready in \d+ ms/);
      assert.doesNotMatch(dev.stderr(), /whoever reaches it/);
      assert.equal(await statusOf("127.0.0.1", Number(port), "/_dev", host), 200);
      if (!(await hasOtherLoopback())) return t.skip(NO_OTHER_LOOPBACK);
      // A listener on 0.0.0.0 would answer at any address of this machine, 127.0.0.2 too.
      await assert.rejects(statusOf(OTHER_LOOPBACK, Number(port), "/_dev", host), /ECONNREFUSED|refused/i);
    } finally {
      await dev.stop();
    }
  });

  it("listens on the address --host names, with the page opened and a warning", async (t) => {
    const bad = await runCli(["dev", "examples/quickstart.ts", "--host", "a b"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--host takes an address, not "a b"/);
    if (!(await hasOtherLoopback())) return t.skip(NO_OTHER_LOOPBACK);
    const opened = await startDev({ "server.ts": SERVER }, undefined, { args: ["--host", "0.0.0.0"] });
    try {
      const { hostname, port } = new URL(opened.origin);
      assert.equal(hostname, "0.0.0.0");
      await opened.waitFor(
        /listening on 0\.0\.0\.0: whoever reaches it can open the dev page and call the server's tools/,
      );
      const other = `${OTHER_LOOPBACK}:${port}`;
      assert.equal(await statusOf(OTHER_LOOPBACK, Number(port), "/_dev", other), 200);
    } finally {
      await opened.stop();
    }
  });
});
