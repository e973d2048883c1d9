/**
 * A block of the README or the docs site that calls a server on this machine (`createClient("http://127.0.0.1:8000")`,
 * a transport given such a URL) runs, as written, against the server it imports (`import type { server } from
 * "./server.ts"`: the page's own block of that name, else the one another page names, the Getting started page's
 * first, as tests/docs/code-blocks.test.ts resolves it). The server block is served on a free port (itself when it calls
 * `serve()`, else by `serve(server)`), the block's origin is replaced by the server's, and the block must exit 0, on
 * Deno and on Bun. A shell block that calls one (`curl localhost:8000/…`) names it, `<!-- run-against: server.ts -->`
 * (a named block, found as an import is) or a repository file (`examples/webtools.ts`), and runs in bash with
 * `set -e -o pipefail` against it, on Deno: every command succeeds, and none is answered a JSON-RPC protocol error.
 * `npx mcplite` and `jsr:@mcplite/sdk/cli` there run this checkout's CLI (src/cli/main.ts), as the package's bin does.
 * A block that only illustrates says why with `<!-- not-run: why -->` (tests/helpers/markdown.ts).
 * The Getting started pages are run by tests/docs/getting-started.test.ts and the `mcplite init` tests.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { entryPointImports } from "../helpers/entry-points.ts";
import {
  type Block,
  exampleProject,
  markdownFiles,
  type ShellBlock,
  shellBlocks,
  tsBlocks,
} from "../helpers/markdown.ts";
import { ROOT, run, type StartedServer, startServer } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;
const BUN = `${ROOT}node_modules/.bin/bun`;

/** A local server's origin passed to a call: `createClient("http://127.0.0.1:8000")`, `grpcTransport("http://…")`. */
const CALLS_LOCAL = /\(\s*["'`](?:https?|wss?):\/\/(?:localhost|127\.0\.0\.1)\b/;
const LOCAL_ORIGIN = /(https?|wss?):\/\/(?:localhost|127\.0\.0\.1):8000/g;
/** A shell block's call of a local server: `curl localhost:8000/…`, `mcplite list http://127.0.0.1:8000`. */
const SHELL_LOCAL = /\b(?:localhost|127\.0\.0\.1):\d+/;

const pages = [
  "README.md",
  ...markdownFiles(`${ROOT}docs`).filter((p) => !p.startsWith("getting-started/")).map((p) => `docs/${p}`),
].map((page) => {
  const markdown = readFileSync(`${ROOT}${page}`, "utf8");
  return { page, blocks: tsBlocks(markdown, page), shell: shellBlocks(markdown, page) };
});

/** Named blocks any page may import, with their page, the Getting started page's winning (as in code-blocks.test.ts). */
const shared = new Map<string, { block: Block; page: string }>();
const FIRST = "docs/getting-started/index.md";
for (const block of tsBlocks(readFileSync(`${ROOT}${FIRST}`, "utf8"), FIRST)) {
  if (!block.file.includes("-line-")) shared.set(block.file, { block, page: FIRST });
}
for (const { page, blocks } of pages) {
  for (const block of blocks) {
    if (!shared.has(block.file) && !block.file.includes("-line-")) shared.set(block.file, { block, page });
  }
}

/** The site's path of a docs page (`docs/getting-started/index.md` → `/getting-started/`). */
function sitePath(page: string): string {
  return page.replace(/^docs/, "").replace(/index\.md$/, "").replace(/\.md$/, "");
}

/** The prose a reader reads right before a block: back to the previous fence or heading. */
function proseBefore(page: string, line: number): string {
  const lines = readFileSync(`${ROOT}${page}`, "utf8").split("\n").slice(0, line - 1);
  const start = lines.findLastIndex((text) => /^\s*```|^#/.test(text));
  return lines.slice(start + 1).join("\n");
}

/** The relative files a block imports (`./server.ts`). */
function localImports(code: string): string[] {
  return [...code.matchAll(/from "\.\/([\w.-]+\.ts)"/g)].map((m) => m[1]);
}

/** A block with what it imports, transitively: the page's own blocks first, then the shared ones. */
function withImports(first: Block, page: string, blocks: Block[]): { files: Block[]; pageOf: Map<Block, string> } {
  const files = [first];
  const pageOf = new Map<Block, string>([[first, page]]);
  for (let i = 0; i < files.length; i++) {
    for (const name of localImports(files[i].code)) {
      const own = blocks.find((b) => b.file === name);
      const found = own !== undefined ? { block: own, page } : shared.get(name);
      if (found === undefined || files.includes(found.block)) continue;
      files.push(found.block);
      pageOf.set(found.block, found.page);
    }
  }
  return { files, pageOf };
}

/** A TypeScript block that calls a local server, with the page it is on and the blocks it needs. */
interface Claim {
  page: string;
  block: Block;
  /** Every block to save, the claim's own and what it imports, transitively. */
  files: Block[];
  /** The block that defines the server (`createServer(`). */
  server: Block;
  /** The page the server's block is on. */
  serverPage: string;
}

/** A shell block that calls a local server: a named block's server (with what it imports) or a repository file. */
interface ShellClaim {
  page: string;
  block: ShellBlock;
  server: { files: Block[]; server: Block } | { file: string };
}

const claims: Claim[] = [];
const shellClaims: ShellClaim[] = [];
const unresolved: string[] = [];
for (const { page, blocks, shell } of pages) {
  for (const block of blocks) {
    if (!CALLS_LOCAL.test(block.code) || block.notRun !== undefined || block.notChecked !== undefined) continue;
    const { files, pageOf } = withImports(block, page, blocks);
    const server = files.find((b) => b !== block && /\bcreateServer\(/.test(b.code));
    if (server === undefined) unresolved.push(`${page} line ${block.line}: import the block that defines its server`);
    else claims.push({ page, block, files, server, serverPage: pageOf.get(server)! });
  }
  for (const block of shell) {
    if (!SHELL_LOCAL.test(block.code) || block.notRun !== undefined) continue;
    const named = block.runAgainst;
    if (named === undefined) {
      unresolved.push(`${page} line ${block.line}: say <!-- run-against: … --> or <!-- not-run: why -->`);
    } else if (named.includes("/")) {
      if (existsSync(`${ROOT}${named}`)) shellClaims.push({ page, block, server: { file: named } });
      else unresolved.push(`${page} line ${block.line}: ${named} does not exist`);
    } else {
      const first = blocks.find((b) => b.file === named) ?? shared.get(named)?.block;
      if (first === undefined) unresolved.push(`${page} line ${block.line}: no block is named ${named}`);
      else shellClaims.push({ page, block, server: { files: withImports(first, page, blocks).files, server: first } });
    }
  }
}

/** Whether a server block listens itself (a statement `serve(…)` or `await serve(…)`, not a comment naming it). */
function servesItself(server: Block): boolean {
  return /^\s*(await\s+)?serve\(/m.test(server.code);
}

/** Saves blocks in a new project (the package mapped to this checkout, for Deno and for Bun); returns its folder. */
function project(files: Block[], rewrite: (block: Block) => string = (block) => block.code): string {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-docs-run-"));
  exampleProject(dir);
  const paths = Object.fromEntries(
    Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
  for (const block of files) writeFileSync(join(dir, block.file), `${rewrite(block)}\n`);
  return dir;
}

/**
 * The file that serves a server block in `dir`: the block itself when it listens, else a file that does what a reader
 * would with a server that only defines a fetch handler, `serve(server)`.
 */
function entry(dir: string, server: Block): string {
  if (servesItself(server)) return server.file;
  const name = /export default \w+/.test(server.code) ? "default as server" : "server";
  const code =
    `import { serve } from "@mcplite/sdk";\nimport { ${name} } from "./${server.file}";\nawait serve(server);\n`;
  writeFileSync(join(dir, "serve-it.ts"), code);
  return "serve-it.ts";
}

const args = (runtime: "deno" | "bun", file: string) =>
  runtime === "deno" ? ["run", "-A", "--unstable-no-legacy-abort", file] : ["run", file];

/** Starts a server on a free port; resolves when it says where it listens (`serve()`'s line, or an example's own). */
function start(runtime: "deno" | "bun", file: string, cwd: string): Promise<StartedServer> {
  return startServer(runtime === "deno" ? DENO : BUN, args(runtime, file), cwd);
}

/** Serves the claim's server on a free port, runs the block against it; resolves with the block's run. */
async function runClaim(claim: Claim, runtime: "deno" | "bun") {
  const serverDir = project(claim.files);
  const dirs = [serverDir];
  const server = await start(runtime, entry(serverDir, claim.server), serverDir);
  try {
    const clientDir = project(
      claim.files,
      (block) => block === claim.block ? block.code.replace(LOCAL_ORIGIN, server.origin) : block.code,
    );
    dirs.push(clientDir);
    return await run(runtime === "deno" ? DENO : BUN, args(runtime, claim.block.file), 90_000, clientDir);
  } finally {
    await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Serves a shell block's server on a free port (on Deno), runs the block in bash against it. */
async function runShellClaim(claim: ShellClaim) {
  const dir = "files" in claim.server ? project(claim.server.files) : ROOT;
  const file = "files" in claim.server ? entry(dir, claim.server.server) : claim.server.file;
  const server = await start("deno", file, dir);
  try {
    const cli = `${DENO} run -A ${ROOT}src/cli/main.ts`;
    const script = claim.block.code
      .replace(/\b(?:localhost|127\.0\.0\.1):8000\b/g, new URL(server.origin).host)
      .replace(/\bnpx mcplite\b/g, cli)
      .replace(/\bdeno run -A jsr:@mcplite\/sdk\/cli\b/g, cli);
    // Deno and Bun from node_modules/.bin, as after `npm ci` in a clone.
    const env = { ...process.env, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` };
    return await run("bash", ["-e", "-o", "pipefail", "-c", script], 90_000, ROOT, env);
  } finally {
    await server.stop();
    if (dir !== ROOT) rmSync(dir, { recursive: true, force: true });
  }
}

describe("the docs' blocks that call a server, run against it", () => {
  it("are found: every such block names its server or says why it does not run", () => {
    assert.deepEqual(unresolved, []);
    const where = [...claims, ...shellClaims].map((c) => c.page);
    for (const page of ["README.md", "docs/guides/client.md", "docs/index.md", "docs/guides/mcp-lite.md"]) {
      assert.ok(where.includes(page), `${page} has a block run against its server`);
    }
  });

  it("link the page of a server another page defines, right before the block", () => {
    // The README's Quick start and the Getting started page's are two servers, both saved as server.ts: a block
    // that calls "the Quick start's server" says which one, so that a reader saves the one it runs against.
    const unnamed = claims.filter((c) => c.serverPage !== c.page).filter((c) =>
      !proseBefore(c.page, c.block.line).includes(`](${sitePath(c.serverPage)}`)
    ).map((c) => `${c.page} line ${c.block.line}: link ${sitePath(c.serverPage)} (${c.server.file})`);
    assert.deepEqual(unnamed, []);
  });

  for (const claim of claims) {
    for (const runtime of ["deno", "bun"] as const) {
      it(
        `${claim.page} line ${claim.block.line}, against ${claim.server.file}, on ${runtime}`,
        { timeout: 180_000, skip: ONCE_PER_RUN },
        async () => {
          const ran = await runClaim(claim, runtime);
          assert.equal(ran.code, 0, `${ran.stdout}${ran.stderr}`);
        },
      );
    }
  }

  for (const claim of shellClaims) {
    const against = "file" in claim.server ? claim.server.file : claim.server.server.file;
    it(`${claim.page} line ${claim.block.line} (shell), against ${against}`, {
      timeout: 180_000,
      skip: ONCE_PER_RUN,
    }, async () => {
      const ran = await runShellClaim(claim);
      assert.equal(ran.code, 0, `${ran.stdout}${ran.stderr}`);
      assert.ok(ran.stdout.trim() !== "", "the commands print their answers");
      // -32700 … -32603: the request itself was refused (a tool or method the server does not have, bad params).
      assert.doesNotMatch(ran.stdout, /"error"\s*:\s*\{\s*"code"\s*:\s*-3260\d|-32700/, ran.stdout);
    });
  }
});
