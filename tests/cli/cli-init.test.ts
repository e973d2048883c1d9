/**
 * `mcplite init` as a new user runs it: a project for each runtime (Deno, Bun, Node, Cloudflare
 * Workers) written into an empty directory, the package installed from this checkout's tarball (as
 * the registry would give it), the project started and its tool called over MCP-lite and MCP, and the
 * project's own test command passing. Node runs Node 22; the Worker runs on workerd through miniflare.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, describe, it } from "node:test";
import { Miniflare } from "miniflare";
import { SDK_VERSION } from "../../src/internal/version.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { BIN, offline, packOnce, withBin } from "../helpers/npm-pack.ts";
import { listening, ROOT, run } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";
import { runCli } from "./cli-helpers.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

const dir = mkdtempSync(join(tmpdir(), "mcplite-init-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const LONG = { timeout: 240_000 };

function json(path: string) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Runs `mcplite init <name> --runtime <runtime>` in the temporary directory. */
async function init(name: string, runtime: string) {
  const project = join(dir, name);
  const done = await runCli(["init", project, "--runtime", runtime], { timeoutMs: 30_000 });
  return { project, ...done };
}

let installed: Promise<string> | undefined;

/**
 * One install of the packed tarball (with valibot, and @types/node, which Deno's type check of the
 * npm declarations reads) that every project links as its node_modules; a skip reason, or "".
 */
function install(): Promise<string> {
  installed ??= (async () => {
    const packed = await packOnce();
    if (typeof packed === "string") return packed;
    const shared = join(dir, "shared");
    mkdirSync(shared);
    writeFileSync(join(shared, "package.json"), JSON.stringify({ name: "shared", private: true, type: "module" }));
    const pkg = json(`${ROOT}package.json`);
    const types = json(`${ROOT}node_modules/@types/node/package.json`).version;
    const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", packed.tarball];
    const added = await run(
      "npm",
      [...args, `valibot@${pkg.dependencies.valibot}`, `@types/node@${types}`],
      180_000,
      shared,
      withBin(),
    );
    if (offline(added)) return "needs the npm registry once (valibot, @types/node and the package's dependencies)";
    assert.equal(added.code, 0, added.stderr);
    return "";
  })();
  return installed;
}

/** Links the shared node_modules into a project. */
function link(project: string): void {
  symlinkSync(join(dir, "shared", "node_modules"), join(project, "node_modules"), "dir");
}

/** Starts a project's server (PORT=0) and answers its URL, from the "Listening on" line, and a stop. */
async function start(command: string, args: string[], cwd: string, path?: string) {
  const child = spawn(command, args, { cwd, env: { ...withBin(path), PORT: "0", NO_COLOR: "1" } });
  const url = await listening(child);
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

/** Calls `greet` over MCP-lite and over MCP 2025-11-25 and answers both greetings. */
async function greet(url: string): Promise<[unknown, string]> {
  const lite = await fetch(`${url}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall("greet", { name: "Ada" })),
  });
  assert.equal(lite.status, 200);
  const mcp = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(toolsCall("greet", { name: "Grace" }, 2)),
  });
  assert.equal(mcp.status, 200);
  const text = await mcp.text();
  return [(await lite.json()).result.structuredContent, /Hello, Grace!/.exec(text)?.[0] ?? text];
}

describe("mcplite init", () => {
  it("depends on this version of the SDK", () => {
    assert.equal(SDK_VERSION, json(`${ROOT}package.json`).version);
    assert.equal(SDK_VERSION, json(`${ROOT}jsr.json`).version);
  });

  it("refuses a directory that is not empty, and a runtime it does not know", async () => {
    const taken = join(dir, "taken");
    mkdirSync(taken);
    writeFileSync(join(taken, "notes.txt"), "mine");
    const refused = await runCli(["init", taken, "--runtime", "node"], { timeoutMs: 30_000 });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is not empty/);
    assert.equal(readFileSync(join(taken, "notes.txt"), "utf8"), "mine");
    const unknown = await runCli(["init", join(dir, "x"), "--runtime", "python"], { timeoutMs: 30_000 });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--runtime is deno, bun, node or workers/);
  });

  it("lists init in --help", async () => {
    const help = await runCli(["--help"], { timeoutMs: 30_000 });
    assert.match(help.stdout, /mcplite init \[dir\] \[--runtime deno\|bun\|node\|workers\]/);
  });

  // The projects install the packed package (prepack builds dist/ with tsc): once per CI run, under bun test.
  const heavy = ONCE_PER_RUN;

  it(
    "writes a Node project that starts on Node 22, answers its tool and passes npm test",
    { ...LONG, skip: heavy },
    async (t) => {
      const [made, ready, node] = await Promise.all([init("node-app", "node"), install(), node22()]);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /cd .*node-app\n {2}npm install\n {2}npm start/);
      assert.equal(json(join(made.project, "package.json")).dependencies["@mcplite/sdk"], `^${SDK_VERSION}`);
      if (ready !== "") return t.skip(ready);
      if (!node) return t.skip(NODE22_MISSING);
      link(made.project);
      const server = await start(node, ["main.ts"], made.project);
      try {
        assert.deepEqual(await greet(server.url), [{ greeting: "Hello, Ada!" }, "Hello, Grace!"]);
      } finally {
        await server.stop();
      }
      const tested = await run("npm", ["test"], 60_000, made.project, withBin(dirname(node)));
      assert.equal(tested.code, 0, tested.stdout + tested.stderr);
      assert.match(tested.stdout, /# pass 1\n# fail 0/);
    },
  );

  it("writes a Bun project that starts, answers its tool and passes bun test", { ...LONG, skip: heavy }, async (t) => {
    const [made, ready] = await Promise.all([init("bun-app", "bun"), install()]);
    assert.equal(made.code, 0, made.stderr);
    if (ready !== "") return t.skip(ready);
    link(made.project);
    const server = await start(`${BIN}/bun`, ["run", "start"], made.project);
    try {
      assert.deepEqual(await greet(server.url), [{ greeting: "Hello, Ada!" }, "Hello, Grace!"]);
    } finally {
      await server.stop();
    }
    const tested = await run(`${BIN}/bun`, ["test"], 60_000, made.project, withBin());
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stderr, /1 pass\n 0 fail/);
  });

  it(
    "writes a Deno project that starts, answers its tool and passes deno task test",
    { ...LONG, skip: heavy },
    async (t) => {
      const [made, ready] = await Promise.all([init("deno-app", "deno"), install()]);
      assert.equal(made.code, 0, made.stderr);
      const config = json(join(made.project, "deno.json"));
      assert.equal(config.imports["@mcplite/sdk"], `jsr:@mcplite/sdk@^${SDK_VERSION}`);
      if (ready !== "") return t.skip(ready);
      // Until a release is on JSR, the project reads the packed package from node_modules instead.
      delete config.imports["@mcplite/sdk"];
      delete config.imports.valibot;
      writeFileSync(join(made.project, "deno.json"), JSON.stringify({ ...config, nodeModulesDir: "manual" }));
      writeFileSync(
        join(made.project, "package.json"),
        JSON.stringify({ dependencies: { "@mcplite/sdk": "*", valibot: "*" } }),
      );
      link(made.project);
      const server = await start(`${BIN}/deno`, ["task", "start"], made.project);
      try {
        assert.deepEqual(await greet(server.url), [{ greeting: "Hello, Ada!" }, "Hello, Grace!"]);
      } finally {
        await server.stop();
      }
      const tested = await run(`${BIN}/deno`, ["task", "test"], 120_000, made.project, { ...withBin(), NO_COLOR: "1" });
      assert.equal(tested.code, 0, tested.stdout + tested.stderr);
      assert.match(tested.stdout, /ok \| 1 passed \| 0 failed/);
    },
  );

  it(
    "writes a Worker that answers its tool on workerd and passes npm test on Node 22",
    { ...LONG, skip: heavy },
    async (t) => {
      const [made, ready, node] = await Promise.all([init("worker-app", "workers"), install(), node22()]);
      assert.equal(made.code, 0, made.stderr);
      const wrangler = json(join(made.project, "wrangler.jsonc"));
      assert.equal(wrangler.main, "src/index.ts");
      if (ready !== "") return t.skip(ready);
      if (!node) return t.skip(NODE22_MISSING);
      link(made.project);
      // What `wrangler deploy` uploads: one ES module bundle of src/index.ts (Bun's bundler stands in for esbuild).
      const bundled = await run(
        `${BIN}/bun`,
        ["build", "--target=browser", "--format=esm", "src/index.ts"],
        60_000,
        made.project,
      );
      assert.equal(bundled.code, 0, bundled.stderr);
      const mf = new Miniflare({
        modules: true,
        script: bundled.stdout,
        compatibilityDate: wrangler.compatibility_date,
      });
      try {
        const url = (await mf.ready).origin;
        assert.deepEqual(await greet(url), [{ greeting: "Hello, Ada!" }, "Hello, Grace!"]);
      } finally {
        await mf.dispose();
      }
      const tested = await run("npm", ["test"], 60_000, made.project, withBin(dirname(node)));
      assert.equal(tested.code, 0, tested.stdout + tested.stderr);
      assert.match(tested.stdout, /# pass 1\n# fail 0/);
    },
  );
});

process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
