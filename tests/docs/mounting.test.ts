/**
 * docs/guides/mounting.md's framework recipes run as written, from the packed npm package: each named
 * block is saved in a project outside the repository that installed the tarball and the frameworks,
 * started on port 0 (`PORT`; each says where it listens) and called with the official MCP client (`@modelcontextprotocol/sdk`
 * v1: initialize, tools/list, tools/call). Express 5, Fastify 5 (its JSON parser on, and its parsers
 * passed by), Koa 3 and Hono on Node 22, Bun and Deno (Hono on Node through `@hono/node-server`, on Bun
 * and Deno by their own servers); Elysia on Bun; the Next.js route handler built with `next build` and
 * served by `next start` on Node 22. The Getting started page's Express block is the recipe's. Installed
 * once, by the first test that needs it; Next.js and React by the Next.js build alone.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client";
import { tsBlocks } from "../helpers/markdown.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { BIN, consumerProject, linkPackages, offline, withBin } from "../helpers/npm-pack.ts";
import { ONCE_PER_RUN, RECIPE_BUILD, skipOutsideCi } from "../helpers/once-per-run.ts";
import { output, ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load the transport by a computed specifier (typed here by hand), as a user on Node would.
type V1Transport = Parameters<Client["connect"]>[0];
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => V1Transport;
};

/**
 * The first test installs the recipes' project for all (the Next.js build adds Next.js and React): 146 s in a quiet CI
 * run with Next.js, 233 s with the other core busy. A bound on waiting for npm, as cli-init.test.ts's, not a measure.
 */
const LONG = { timeout: 600_000, skip: ONCE_PER_RUN };
const PAGE = "docs/guides/mounting.md";
const blocks = new Map(tsBlocks(readFileSync(`${ROOT}${PAGE}`, "utf8"), PAGE).map((block) => [block.file, block]));

/**
 * The frameworks the recipes import: at the version this repository's own checks use (its devDependencies: the
 * docs' blocks type-check against them), or, for those only the recipes' project installs (Next.js and React), at
 * the version pinned here: the repository itself never loads them, so `npm ci` does not install them too.
 */
const FRAMEWORKS = [
  "express",
  "fastify",
  "koa",
  "@koa/bodyparser",
  "hono",
  "@hono/node-server",
  "elysia",
  "next",
  "react",
  "react-dom",
  "@types/react", // next build type-checks a TypeScript app only with it (create-next-app installs it)
  "typescript",
];
const RECIPES_ONLY: Record<string, string> = {
  next: "16.4.6",
  react: "19.3.1",
  "react-dom": "19.3.1",
  "@types/react": "19.3.0",
};

const dir = scratchDir("mcplite-mounting-");
let installed: Promise<{ app: string } | string> | undefined;

/**
 * Whether this run builds the Next.js route handler: only then does the project install Next.js and React (minutes of
 * a 2-core run's CPU), since only that build needs them, and it runs only when a recipe changed ({@link RECIPE_BUILD}).
 */
const BUILDS_NEXT = !ONCE_PER_RUN && !RECIPE_BUILD;

/** A project with the package (from its tarball), valibot, the frameworks and each recipe: its folder, or why not. */
function install(): Promise<{ app: string } | string> {
  installed ??= (async () => {
    const app = join(dir, "app");
    // The run's one `npm install` of the tarball and valibot, copied; Next.js and React installed there by npm when
    // this run builds them; the other frameworks, at the versions the repository pins, linked from its node_modules
    // (after that install, which would drop links it did not make).
    const missing = await consumerProject(app);
    if (missing !== undefined) return missing;
    mkdirSync(join(app, "next-app", "app", "mcp"), { recursive: true });
    for (const block of blocks.values()) {
      const file = block.file === "route.ts" ? join("next-app", "app", "mcp", "route.ts") : block.file;
      writeFileSync(join(app, file), `${block.code}\n`);
    }
    if (BUILDS_NEXT) {
      const wanted = Object.entries(RECIPES_ONLY).map(([name, version]) => `${name}@${version}`);
      const args = ["install", "--prefer-offline", "--no-audit", "--no-fund", ...wanted];
      const added = await run("npm", args, 240_000, app, withBin());
      if (offline(added)) return `needs the npm registry once (${Object.keys(RECIPES_ONLY).join(", ")})`;
      assert.equal(added.code, 0, added.stderr);
    }
    linkPackages(app, [...FRAMEWORKS.filter((name) => RECIPES_ONLY[name] === undefined), "@types/node"]);
    return { app };
  })();
  return installed;
}

/**
 * A recipe's server, started on port 0 (`PORT`, and in `args` where `{port}` is); resolves once it says where it
 * listens: each recipe prints its MCP endpoint (`MCP at http://…`), and `bun`, `deno serve` and `next start` their own
 * address, each once it listens.
 */
async function start(
  command: string,
  template: string[],
  cwd: string,
): Promise<{ origin: string; child: ChildProcess; stop(): Promise<void> }> {
  const args = template.map((arg) => arg.replace("{port}", "0"));
  const env = { ...withBin(), PORT: "0", NEXT_TELEMETRY_DISABLED: "1" };
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  };
  try {
    const port = (await output(child).until(/http:\/\/[\w.-]+:(\d+)[/\s]/, 90_000))[1];
    return { origin: `http://127.0.0.1:${port}`, child, stop };
  } catch (error) {
    await stop();
    throw new Error(`${args.join(" ")} did not listen: ${(error as Error).message}`);
  }
}

/** What the official client learns from the MCP endpoint at `url`: the tools' names and `add`'s result. */
async function officialClient(url: string): Promise<{ tools: string[]; sum: unknown }> {
  const client = new Client({ name: "mounting-docs", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 20_000 });
  try {
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }, undefined, { timeout: 20_000 });
    return { tools: tools.map((tool) => tool.name), sum: (result.structuredContent as { sum?: unknown })?.sum };
  } finally {
    await client.close();
  }
}

/** Starts a recipe, calls it with the official client at `path`, and stops it. */
async function recipe(command: string, args: string[], cwd: string, path = "/mcp/mcp"): Promise<void> {
  const server = await start(command, args, cwd);
  try {
    assert.deepEqual(await officialClient(`${server.origin}${path}`), { tools: ["add"], sum: 5 }, args.join(" "));
  } finally {
    await server.stop();
  }
}

/** The recipes for `node:http` (Bun and Deno run them too); Hono's on Node, through `@hono/node-server`. */
const NODE_RECIPES = ["express.ts", "fastify.ts", "fastify-stream.ts", "koa.ts"];
const DENO = `${BIN}/deno`;
const BUN = `${BIN}/bun`;

describe("docs/guides/mounting.md, run from the npm package", () => {
  it("names a block for each framework", () => {
    for (const file of [...NODE_RECIPES, "hono.ts", "hono-app.ts", "elysia.ts", "route.ts", "tools.ts"]) {
      assert.ok(blocks.has(file), file);
    }
  });

  it("is what the Getting started page shows for Express", () => {
    const page = "docs/getting-started/index.md";
    const shown = tsBlocks(readFileSync(`${ROOT}${page}`, "utf8"), page).find((block) => block.file === "express.ts");
    assert.equal(shown?.code, blocks.get("express.ts")!.code);
  });

  it("serves each Node recipe and Hono on Node 22 to the official client", LONG, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const { app } = ready;
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    for (const file of [...NODE_RECIPES, "hono.ts"]) await recipe(node, [file], app);
  });

  it("serves each Node recipe, Hono's app and Elysia on Bun to the official client", LONG, async (t) => {
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const { app } = ready;
    for (const file of [...NODE_RECIPES, "hono-app.ts", "elysia.ts"]) await recipe(BUN, [file], app);
  });

  it("serves each Node recipe and Hono's app (deno serve) on Deno to the official client", LONG, async (t) => {
    const ready = await install();
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const { app } = ready;
    for (const file of NODE_RECIPES) await recipe(DENO, ["run", "-A", "--unstable-no-legacy-abort", file], app);
    const serve = ["serve", "-A", "--unstable-no-legacy-abort", "--host", "127.0.0.1", "--port", "{port}"];
    await recipe(DENO, [...serve, "hono-app.ts"], app);
  });

  it("builds the Next.js route handler with next build and serves it with next start on Node 22", {
    ...LONG,
    skip: BUILDS_NEXT ? false : ONCE_PER_RUN || RECIPE_BUILD,
  }, async (t) => {
    const [ready, node] = await Promise.all([install(), node22()]);
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const { app } = ready;
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const next = join(app, "node_modules", "next", "dist", "bin", "next");
    const env = { ...withBin(), NEXT_TELEMETRY_DISABLED: "1" };
    const built = await run(node, [next, "build", "next-app"], 240_000, app, env);
    assert.equal(built.code, 0, built.stdout + built.stderr);
    assert.match(built.stdout, /\/mcp/);
    await recipe(node, [next, "start", "next-app", "--hostname", "127.0.0.1"], app, "/mcp");
  });
});
