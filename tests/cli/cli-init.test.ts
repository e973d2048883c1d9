/**
 * `mcplite init` as a new user runs it before a release: a project for each runtime (Deno, Bun, Node,
 * Cloudflare Workers) written into an empty directory by the CLI of the packed tarball (`npx <tarball>
 * init`, `node_modules/.bin/mcplite init`), which then depends on that tarball; the project installed with
 * its runtime's own package manager and only the packages it declares; type-checked with the tsconfig the
 * docs recommend; started (the Worker with `wrangler dev --local`, offline) and its tool called with the
 * official MCP client and over MCP-lite; and its own test command passing. Node runs Node 22.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client";
import { SDK_VERSION } from "../../src/internal/version.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { BIN, offline, packOnce, withBin } from "../helpers/npm-pack.ts";
import { ROOT, run } from "../helpers/process.ts";
import { toolsCall } from "../helpers/request.ts";
import { runCli } from "./cli-helpers.ts";
import { ONCE_PER_RUN, RECIPE_BUILD, skipOutsideCi } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: loaded by a computed specifier (typed here by hand), as a user on Node would.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<Client["connect"]>[0];
};

const dir = scratchDir("mcplite-init-");

const LONG = { timeout: 600_000 };
const RUNTIMES = ["node", "bun", "deno", "workers"] as const;

function json(path: string) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** The tsconfig.json docs/getting-started/index.md recommends (its TypeScript notes' JSON block). */
function docsTsconfig(): unknown {
  const page = readFileSync(`${ROOT}docs/getting-started/index.md`, "utf8");
  const notes = page.slice(page.indexOf("## TypeScript notes"));
  const block = /```json\n([\s\S]*?)```/.exec(notes)?.[1];
  assert.ok(block, "the TypeScript notes give a tsconfig.json");
  return JSON.parse(block);
}

/** Every file of a project (node_modules aside), by path. */
function projectTexts(project: string, under = ""): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const entry of readdirSync(join(project, under), { withFileTypes: true })) {
    const path = under === "" ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== "node_modules") Object.assign(texts, projectTexts(project, path));
    else if (entry.isFile()) texts[path] = readFileSync(join(project, path), "utf8");
  }
  return texts;
}

/** The packages a project's TypeScript files need: each bare import's package, and @types/node for `node:`. */
function importedPackages(texts: Record<string, string>): Set<string> {
  const needed = new Set<string>();
  for (const [path, text] of Object.entries(texts)) {
    if (!path.endsWith(".ts")) continue;
    for (const [, spec] of text.matchAll(/^import (?:type )?.+ from "([^"]+)";$/gm)) {
      if (spec.startsWith(".")) continue;
      if (spec.startsWith("node:")) needed.add("@types/node");
      else needed.add(spec.split("/").slice(0, spec.startsWith("@") ? 2 : 1).join("/"));
    }
  }
  return needed;
}

/** What a project declares: package.json's dependencies and devDependencies, deno.json's imports. */
function declaredPackages(texts: Record<string, string>): Set<string> {
  const pkg = texts["package.json"] === undefined ? {} : JSON.parse(texts["package.json"]);
  const deno = texts["deno.json"] === undefined ? {} : JSON.parse(texts["deno.json"]);
  return new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(deno.imports ?? {}),
  ]);
}

describe("mcplite init", () => {
  it("depends on this version of the SDK", () => {
    assert.equal(SDK_VERSION, json(`${ROOT}package.json`).version);
    assert.equal(SDK_VERSION, json(`${ROOT}jsr.json`).version);
  });

  it("refuses a directory that is not empty, a runtime it does not know, and an --sdk that is not there", async () => {
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
    const missing = await runCli(["init", join(dir, "y"), "--sdk", join(dir, "nowhere.tgz")], { timeoutMs: 30_000 });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--sdk .*nowhere\.tgz: no such file or directory/);
    assert.equal(existsSync(join(dir, "y")), false);
  });

  it("lists init and its options in --help", async () => {
    const help = await runCli(["--help"], { timeoutMs: 30_000 });
    assert.match(help.stdout, /mcplite init \[dir\] \[--runtime deno\|bun\|node\|workers\]/);
    assert.match(help.stdout, /\[--sdk <tarball\|checkout\|registry>\]/);
  });

  it("writes projects that declare every package they import, and the docs' tsconfig", async () => {
    const tarball = join(dir, "packs", "mcplite-sdk-0.0.0.tgz");
    mkdirSync(dirname(tarball));
    writeFileSync(tarball, "");
    for (const sdk of [tarball, "registry"]) {
      for (const runtime of RUNTIMES) {
        const project = join(dir, "declared", `${runtime}-${sdk === "registry" ? "registry" : "tarball"}`);
        const made = await runCli(["init", project, "--runtime", runtime, "--sdk", sdk], { timeoutMs: 30_000 });
        assert.equal(made.code, 0, made.stderr);
        if (runtime === "node") assert.match(made.stdout, /npm install +# Node 22\.19 or later/);
        const texts = projectTexts(project);
        const declared = declaredPackages(texts);
        // Deno has Node's types built in; from npm's node_modules, it reads them from @types/node.
        const needed = [...importedPackages(texts)].filter((name) =>
          !(runtime === "deno" && sdk === "registry" && name === "@types/node")
        );
        for (const name of needed) assert.ok(declared.has(name), `${runtime} (${sdk}) imports ${name} undeclared`);
        if (texts["package.json"] !== undefined) {
          const { dependencies } = JSON.parse(texts["package.json"]);
          const expected = sdk === "registry" ? `^${SDK_VERSION}` : `file:${relative(project, tarball)}`;
          assert.equal(dependencies["@mcplite/sdk"], expected, runtime);
          assert.ok(dependencies.valibot, `${runtime}: valibot is a dependency, not borrowed from the SDK's`);
        }
        if (runtime === "deno") {
          const config = JSON.parse(texts["deno.json"]);
          if (sdk === "registry") assert.equal(config.imports["@mcplite/sdk"], `jsr:@mcplite/sdk@^${SDK_VERSION}`);
          else assert.equal(config.nodeModulesDir, "manual");
        } else {
          assert.deepEqual(JSON.parse(texts["tsconfig.json"]), docsTsconfig(), runtime);
        }
      }
    }
  });

  // The projects install the packed package (prepare builds dist/ with tsc) and the templates' packages from npm: once
  // per run, under bun test, when a template changed (RECIPE_BUILD) or under npm run test:all.
  const heavy = ONCE_PER_RUN || RECIPE_BUILD;

  /** The packed tarball and Node 22, or why not. */
  async function prerequisites(): Promise<string | { tarball: string; node: string }> {
    const [packed, node] = await Promise.all([packOnce(), node22()]);
    if (typeof packed === "string") return packed;
    if (node === undefined) return NODE22_MISSING;
    return { tarball: packed.tarball, node };
  }

  /** An installed project: its directory, its environment (Node 22 first), the tarball, what init printed. */
  interface Made {
    path: string;
    env: Record<string, string | undefined>;
    node: string;
    tarball: string;
    made: { stdout: string };
  }

  let first: Promise<string | Made> | undefined;

  /**
   * The project a user makes first: a Node project, with `npx <tarball> init`, installed with npm on Node 22.
   * Its `node_modules/.bin/mcplite` (the packed CLI as a dependency installs it) makes the other projects, as
   * that user's next ones, with no install of the CLI of its own.
   */
  function nodeProject(): Promise<string | Made> {
    first ??= project("node", "npx");
    return first;
  }

  /** The installed CLI of the first project, or why not. */
  async function installedCli(): Promise<string | { tarball: string; bin: string; node: string }> {
    const made = await nodeProject();
    if (typeof made === "string") return made;
    return { tarball: made.tarball, bin: join(made.path, "node_modules", ".bin", "mcplite"), node: made.node };
  }

  /** Makes a project with the installed CLI (or with `npx <tarball>`), checks it names the tarball, installs it. */
  async function project(runtime: typeof RUNTIMES[number], via: "bin" | "npx" = "bin"): Promise<string | Made> {
    const ready: string | { tarball: string; node: string; bin?: string } = via === "npx"
      ? await prerequisites()
      : await installedCli();
    if (typeof ready === "string") return ready;
    const path = join(dir, `${runtime}-app`);
    const env = withBin(dirname(ready.node));
    // npx takes a tarball by a relative path, as a user types it (an absolute one it runs as a command).
    const npx = ["--yes", "--prefer-offline", relative(dir, ready.tarball), "init", path, "--runtime", runtime];
    const made = ready.bin === undefined
      ? await run("npx", npx, 180_000, dir, env)
      : await run(ready.bin, ["init", path, "--runtime", runtime], 60_000, dir, env);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, new RegExp(`@mcplite/sdk from file:.*mcplite-sdk-${SDK_VERSION}\\.tgz`));
    assert.equal(
      json(join(path, "package.json")).dependencies["@mcplite/sdk"],
      `file:${relative(path, ready.tarball)}`,
    );
    // Isolated installs (Bun's, npm's nested) show a package only the project declares at its top, so that
    // an undeclared import (valibot, borrowed from the SDK's own copy when hoisted) fails; wrangler's tree,
    // nested, would be a long install, so the Worker's is npm's default.
    const installed = runtime === "bun"
      ? await run(`${BIN}/bun`, ["install", "--linker", "isolated"], 180_000, path, env)
      : await run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          ...(runtime === "workers" ? [] : ["--install-strategy=nested"]),
        ],
        240_000,
        path,
        env,
      );
    if (offline(installed)) {
      return "needs the npm registry (the SDK's dependencies, valibot, @types/node, typescript, wrangler)";
    }
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    return { path, env, node: ready.node, tarball: ready.tarball, made };
  }

  /** `npm run typecheck` (`bun run` on Bun: tsc with the docs' tsconfig): clean, our declarations included. */
  async function typecheck(path: string, env: Record<string, string | undefined>, runner = "npm") {
    assert.deepEqual(json(join(path, "tsconfig.json")), docsTsconfig());
    const checked = await run(runner, ["run", "typecheck"], 120_000, path, env);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  }

  /** Starts a project (its own process group) until a line gives its URL; answers the URL and a stop. */
  async function start(command: string, args: string[], cwd: string, env: Record<string, string | undefined>) {
    const child = spawn(command, args, { cwd, env: { ...env, PORT: "0", NO_COLOR: "1" }, detached: true });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command} did not listen in 90 s:\n${output}`)), 90_000);
      const read = (chunk: unknown) => {
        output += String(chunk);
        const found = /(?:Listening on|Ready on) (http:\/\/[\w.:[\]]+)/.exec(output)?.[1];
        if (found === undefined) return;
        clearTimeout(timer);
        resolve(found);
      };
      child.stdout!.on("data", read);
      child.stderr!.on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} exited with ${code}:\n${output}`));
      });
    });
    const stop = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid!, "SIGTERM"); // the group: npm's, deno task's and wrangler's children too
      });
    return { url, stop };
  }

  /** Calls `greet` with the official MCP client (listing it first) and over MCP-lite. */
  async function greet(url: string) {
    const client = new Client({ name: "init-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["greet"]);
      const called = await client.callTool({ name: "greet", arguments: { name: "Grace" } });
      assert.deepEqual(called.structuredContent, { greeting: "Hello, Grace!" });
    } finally {
      await client.close();
    }
    const lite = await fetch(`${url}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(toolsCall("greet", { name: "Ada" })),
    });
    assert.equal(lite.status, 200);
    assert.deepEqual((await lite.json()).result.structuredContent, { greeting: "Hello, Ada!" });
  }

  /** Runs a start command, calls the tool, stops it. */
  async function serveAndCall(command: string, args: string[], cwd: string, env: Record<string, string | undefined>) {
    const server = await start(command, args, cwd, env);
    try {
      await greet(server.url);
    } finally {
      await server.stop();
    }
  }

  it("makes a Node project with npx <tarball> that installs, type-checks, serves and tests on Node 22", {
    ...LONG,
    skip: heavy,
  }, async (t) => {
    const made = await nodeProject();
    if (typeof made === "string") return skipOutsideCi(t, made);
    assert.match(made.made.stdout, /cd .*node-app\n {2}npm install {8}# Node 22\.19 or later.*\n {2}npm start/);
    await typecheck(made.path, made.env);
    await serveAndCall("npm", ["start"], made.path, made.env);
    const tested = await run("npm", ["test"], 60_000, made.path, made.env);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /# pass 1\n# fail 0/);
  });

  it("makes a Bun project that bun install installs, type-checks, serves and passes bun test", {
    ...LONG,
    skip: heavy,
  }, async (t) => {
    const made = await project("bun");
    if (typeof made === "string") return skipOutsideCi(t, made);
    await typecheck(made.path, made.env, `${BIN}/bun`);
    await serveAndCall(`${BIN}/bun`, ["run", "start"], made.path, made.env);
    const tested = await run(`${BIN}/bun`, ["test"], 60_000, made.path, made.env);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stderr, /1 pass\n 0 fail/);
  });

  it("makes a Deno project that npm installs, then serves and passes deno task test", {
    ...LONG,
    skip: heavy,
  }, async (t) => {
    const made = await project("deno");
    if (typeof made === "string") return skipOutsideCi(t, made);
    assert.match(made.made.stdout, /npm install {8}# fills node_modules/);
    const env = { ...made.env, NO_COLOR: "1" };
    const checked = await run(`${BIN}/deno`, ["check", "main.ts", "server.test.ts"], 120_000, made.path, env);
    assert.equal(checked.code, 0, checked.stderr);
    await serveAndCall(`${BIN}/deno`, ["task", "start"], made.path, env);
    // `--no-check` appended to the task's `deno test`: the check just above read server.test.ts already (a second
    // one, of other roots, misses Deno's cache: about 7 s of CPU again).
    const tested = await run(`${BIN}/deno`, ["task", "test", "--no-check"], 120_000, made.path, env);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /ok \| 1 passed \| 0 failed/);
  });

  it("makes a Worker that serves under wrangler dev --local, offline, and passes npm test on Node 22", {
    ...LONG,
    skip: heavy,
  }, async (t) => {
    const made = await project("workers");
    if (typeof made === "string") return skipOutsideCi(t, made);
    assert.equal(json(join(made.path, "wrangler.jsonc")).main, "src/index.ts");
    await typecheck(made.path, made.env);
    // The project's `dev` script, on a free port, with no account and no telemetry.
    const env = { ...made.env, WRANGLER_SEND_METRICS: "false", CI: "1" };
    await serveAndCall("npm", ["run", "dev", "--", "--local", "--port", "0", "--ip", "127.0.0.1"], made.path, env);
    const tested = await run("npm", ["test"], 60_000, made.path, made.env);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /# pass 1\n# fail 0/);
  });

  it("makes a Node project whose install on a Node older than 22.18 fails saying which Node it needs", {
    ...LONG,
    skip: heavy,
  }, async (t) => {
    // A Node on the PATH without type stripping (Debian's, here), where `node main.ts` would fail with
    // ERR_UNKNOWN_FILE_EXTENSION: npm refuses the install first, naming the version (engines, engine-strict).
    const path = (process.env.PATH ?? "").split(":").find((bin) =>
      existsSync(join(bin, "node")) && existsSync(join(bin, "npm"))
    );
    const old = path === undefined ? undefined : await run(join(path, "node"), ["--version"]);
    const [major, minor] = (old?.stdout.trim().slice(1) ?? "99").split(".").map(Number);
    if (path === undefined || major > 22 || (major === 22 && minor >= 18)) {
      return t.skip("needs a Node older than 22.18 on the PATH");
    }
    const ready = await installedCli();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const app = join(dir, "old-node-app");
    const made = await run(ready.bin, ["init", app, "--runtime", "node"], 60_000, dir, withBin(dirname(ready.node)));
    assert.equal(made.code, 0, made.stderr);
    // npm refuses on the project's own `engines` (engine-strict, its .npmrc) once it has resolved the whole tree
    // (about 2 s of CPU with the tarball's, and its registry lookups): the project's package.json and .npmrc
    // without its dependencies meet the same refusal, before anything is resolved or written.
    const engines = join(dir, "old-node-engines");
    mkdirSync(engines);
    const { dependencies: _, devDependencies: __, ...manifest } = json(join(app, "package.json"));
    writeFileSync(join(engines, "package.json"), JSON.stringify(manifest));
    writeFileSync(join(engines, ".npmrc"), readFileSync(join(app, ".npmrc")));
    const installed = await run(join(path, "npm"), ["install", "--offline", "--no-audit"], 120_000, engines, {
      ...process.env,
      PATH: `${path}:${process.env.PATH}`,
    });
    assert.notEqual(installed.code, 0);
    assert.match(installed.stderr, /EBADENGINE/);
    assert.match(installed.stderr, /Required: \{"node":">=22\.19"\}/);
    assert.deepEqual(readdirSync(engines).sort(), [".npmrc", "package.json"], "npm wrote nothing");
  });
});

process.once("exit", () => {
  rmSync(dir, { recursive: true, force: true });
  // npx installs `npx <tarball>` in its cache under a hash of the spec: this run's tarball is gone now.
  const npx = join(homedir(), ".npm", "_npx");
  for (const entry of existsSync(npx) ? readdirSync(npx) : []) {
    const manifest = join(npx, entry, "package.json");
    if (existsSync(manifest) && readFileSync(manifest, "utf8").includes("mcplite-pack-")) {
      rmSync(join(npx, entry), { recursive: true, force: true });
    }
  }
});
