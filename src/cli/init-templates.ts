/**
 * The files `mcplite init` writes: one project per runtime (Deno, Bun, Node, Cloudflare Workers), each
 * with a tool, a way to start it, and a test of its own that calls the tool over MCP-lite in process.
 *
 * @module
 */
import { SDK_VERSION } from "../internal/version.ts";

/** The runtimes `mcplite init --runtime` knows. */
export const RUNTIMES = ["deno", "bun", "node", "workers"] as const;

/** One of {@link RUNTIMES}. */
export type Runtime = typeof RUNTIMES[number];

/** The valibot a new project depends on: the major version the SDK is built with. */
const VALIBOT_RANGE = "^1.1.0";

/** Import declarations, one a line, from `[names, specifier]` pairs. */
function imports(...pairs: [string, string][]): string {
  return pairs.map(([names, spec]) => `import ${names} from ${JSON.stringify(spec)};`).join("\n");
}

/** One typed tool, and the imports it needs. */
const TOOL = `${imports(["* as v", "valibot"], ["{ createServer, defineTool }", "@mcplite/sdk"])}

const greet = defineTool("greet")
  .describe("Greets someone by name")
  .input(v.object({ name: v.string() }))
  .output(v.object({ greeting: v.string() }))
  .handle(({ name }) => ({ greeting: \`Hello, \${name}!\` }));
`;

/**
 * The version is read from the manifest (`MANIFEST`: package.json, or deno.json), the one place it is
 * written: `mcplite server-json` and the registries read it there too.
 */
const SERVER = `${TOOL}
export const server = createServer({ name: "NAME", version: manifest.version }).tool(greet);
`;

/** The manifest's import, which every runtime (Node 22, Bun, Deno, wrangler's bundler) reads as JSON. */
const manifestImport = (path: string) => `import manifest from ${JSON.stringify(path)} with { type: "json" };\n`;

/** The first version of a new project, in its manifest only. */
const VERSION = "0.1.0";

/**
 * The MCP Registry name `init` writes as `mcpName`, to be made the user's own before publishing: the
 * registry grants `io.github.<user>/…` to that GitHub user only.
 */
const mcpName = (name: string) => `io.github.your-github-user/${name}`;

/** Listens with the runtime's own server (Deno.serve, Bun.serve, node:http). */
const MAIN = `${imports(["{ serve }", "@mcplite/sdk"], ["{ server }", "./server.ts"])}

// MCP-lite at /mcp-lite/v1, MCP at /mcp; PORT and HOSTNAME from the environment (8000, 127.0.0.1).
await serve(server);
`;

/** The project's own test: the tool, called with the typed client in process (MCP-lite on `server.fetch`). */
const TEST = (serverImport: [string, string]) =>
  `${
    imports(
      ["assert", "node:assert/strict"],
      ["{ test }", "node:test"],
      ["{ createClient }", "@mcplite/sdk/client"],
      serverImport,
    )
  }

test("greet answers", async () => {
  const client = createClient(server); // in process, through server.fetch: no port
  assert.deepEqual(await client.call("greet", { name: "Ada" }), { greeting: "Hello, Ada!" });
});
`;

/** The worker: the server is a module worker (`fetch(request, env, ctx)`). */
const WORKER = `${TOOL}
// MCP-lite at /mcp-lite/v1, MCP at /mcp.
export default createServer({ name: "NAME", version: manifest.version }).tool(greet);
`;

const GITIGNORE = "node_modules/\n.wrangler/\n";

/** Node's versions that run a `.ts` file (type stripping, 22.18) and the SDK (package.json `engines`). */
const NODE_ENGINES = { node: ">=22.19" };

/**
 * npm refuses to install on a Node older than `engines` says, naming the version needed, where the
 * project would otherwise fail at start with Node's ERR_UNKNOWN_FILE_EXTENSION for `.ts`.
 */
const NPMRC = "engine-strict=true\n";

/**
 * The type check docs/getting-started/index.md recommends (tests/cli/cli-init.test.ts keeps them equal):
 * Node's own types, no DOM library, every declaration checked; `.ts` import paths, which Node's type
 * stripping runs as written, with nothing emitted.
 */
const TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    target: "es2023",
    lib: ["es2023"],
    types: ["node"],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    allowImportingTsExtensions: true,
  },
};

/** What a project's tsconfig.json needs installed: tsc, and the types it names. */
const TYPE_CHECK = { "@types/node": "^22.19.0", typescript: "^7.0.2" };

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** The packages every project imports: the SDK (`sdk`, else the registry's version) and valibot. */
function dependencies(sdk: string | undefined): Record<string, string> {
  return { "@mcplite/sdk": sdk ?? `^${SDK_VERSION}`, valibot: VALIBOT_RANGE };
}

function packageJson(
  name: string,
  sdk: string | undefined,
  scripts: Record<string, string>,
  more: { devDependencies?: Record<string, string>; engines?: Record<string, string> } = {},
): string {
  return json({
    name,
    version: VERSION,
    // The MCP Registry verifies an npm package by this name (its npm validator reads "mcpName").
    mcpName: mcpName(name),
    private: true,
    type: "module",
    ...(more.engines ? { engines: more.engines } : {}),
    ...(Object.keys(scripts).length > 0 ? { scripts } : {}),
    dependencies: dependencies(sdk),
    ...(more.devDependencies ? { devDependencies: more.devDependencies } : {}),
  });
}

/** Deno's configuration: the registries' SDK (JSR) and valibot, or with `sdk`, the package.json beside it. */
function denoFiles(name: string, sdk: string | undefined): Record<string, string> {
  const tasks = {
    start: "deno run --allow-net --allow-env --unstable-no-legacy-abort main.ts",
    // The CLI from the registry the SDK came from: JSR, or npm's node_modules (the file: package).
    dev: `deno run -A ${
      sdk === undefined ? `jsr:@mcplite/sdk@^${SDK_VERSION}/cli` : "npm:@mcplite/sdk/cli"
    } dev server.ts`,
    test: "deno test --allow-env",
  };
  const manifest = { version: VERSION, mcpName: mcpName(name) };
  if (sdk === undefined) {
    return {
      "deno.json": json({
        ...manifest,
        tasks,
        imports: { "@mcplite/sdk": `jsr:@mcplite/sdk@^${SDK_VERSION}`, valibot: `npm:valibot@${VALIBOT_RANGE}` },
      }),
    };
  }
  // A `file:` package is read from node_modules as npm fills it: Deno 2's own install leaves a tarball's
  // folder empty, and imports one only with nodeModulesDir "manual". Deno's type check of an npm
  // package's declarations reads @types/node from there too.
  return {
    "deno.json": json({ ...manifest, nodeModulesDir: "manual", tasks }),
    "package.json": packageJson(name, sdk, {}, { devDependencies: { "@types/node": TYPE_CHECK["@types/node"] } }),
  };
}

/**
 * The files of a new project, by path relative to its directory.
 *
 * @param runtime The runtime it runs on.
 * @param name The project's name (its directory's).
 * @param sdk The SDK's dependency specifier (`file:../mcplite-sdk-1.0.0.tgz`); by default the registry's
 *   version of this SDK.
 * @returns Each file's path and text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectFiles } from "./init-templates.ts";
 * assert.ok("wrangler.jsonc" in projectFiles("workers", "hello"));
 * ```
 */
export function projectFiles(runtime: Runtime, name: string, sdk?: string): Record<string, string> {
  const manifest = runtime === "deno" ? "./deno.json" : "./package.json";
  const server = SERVER.replace("NAME", name).replace(
    /^(import \{ createServer[^\n]*\n)/m,
    `$1${manifestImport(manifest)}`,
  );
  const test = TEST(["{ server }", "./server.ts"]);
  const common = { "server.ts": server, "main.ts": MAIN, "server.test.ts": test };
  const typed = { "tsconfig.json": json(TSCONFIG) };
  switch (runtime) {
    case "node":
    case "bun": {
      const { scripts, extra, npmrc } = NPM_PROJECTS[runtime];
      return {
        ...common,
        "package.json": packageJson(name, sdk, scripts, extra),
        ...typed,
        ...(npmrc ? { ".npmrc": NPMRC } : {}),
        ".gitignore": GITIGNORE,
      };
    }
    case "deno":
      return { ...common, ...denoFiles(name, sdk), ...(sdk === undefined ? {} : { ".gitignore": GITIGNORE }) };
    case "workers":
      return {
        "src/index.ts": WORKER.replace("NAME", name).replace(
          /^(import \{ createServer[^\n]*\n)/m,
          `$1${manifestImport("../package.json")}`,
        ),
        "src/index.test.ts": TEST(["server", "./index.ts"]),
        "package.json": packageJson(
          name,
          sdk,
          { dev: "wrangler dev", deploy: "wrangler deploy", test: "node --test src/index.test.ts", typecheck: "tsc" },
          { engines: NODE_ENGINES, devDependencies: { ...TYPE_CHECK, wrangler: "^4.0.0" } },
        ),
        "wrangler.jsonc": json({ name, main: "src/index.ts", compatibility_date: "2026-04-01" }),
        ...typed,
        ".npmrc": NPMRC,
        ".gitignore": GITIGNORE,
      };
  }
}

/** What a Node and a Bun project's package.json say, and whether it pins npm's settings (`.npmrc`). */
const NPM_PROJECTS = {
  node: {
    scripts: {
      start: "node main.ts",
      dev: "mcplite dev server.ts",
      test: "node --test server.test.ts",
      typecheck: "tsc",
    },
    extra: { engines: NODE_ENGINES, devDependencies: TYPE_CHECK },
    npmrc: true,
  },
  bun: {
    // bunx --bun: the bin's shebang names Node, which Bun would otherwise run it with.
    scripts: { start: "bun run main.ts", dev: "bunx --bun mcplite dev server.ts", test: "bun test", typecheck: "tsc" },
    extra: { devDependencies: TYPE_CHECK },
    npmrc: false,
  },
};

/**
 * What to run next, as `mcplite init` prints it.
 *
 * @param runtime The runtime.
 * @param dir The directory, as the user named it.
 * @param fromFile Whether the SDK comes from a tarball or a checkout (a Deno project then installs with npm).
 * @returns Lines to print.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextSteps } from "./init-templates.ts";
 * assert.match(nextSteps("deno", "hello"), /deno task start/);
 * ```
 */
export function nextSteps(runtime: Runtime, dir: string, fromFile = false): string {
  const steps = {
    node: [
      "npm install        # Node 22.19 or later: it runs the .ts files as they are",
      "npm start          # serves on http://127.0.0.1:8000",
      "npm run dev        # mcplite dev: restarts on each edit; call the tools at /_dev",
      "npm test",
      "npm run typecheck",
    ],
    bun: [
      "bun install",
      "bun run start      # serves on http://127.0.0.1:8000",
      "bun run dev        # mcplite dev: restarts on each edit; call the tools at /_dev",
      "bun test",
      "bun run typecheck",
    ],
    deno: [
      ...(fromFile ? ["npm install        # fills node_modules from the file:, which Deno reads"] : []),
      "deno task start    # serves on http://127.0.0.1:8000",
      "deno task dev      # mcplite dev: restarts on each edit; call the tools at /_dev",
      "deno task test",
    ],
    workers: ["npm install", "npm run dev        # wrangler dev", "npm test", "npm run typecheck", "npm run deploy"],
  }[runtime];
  const url = runtime === "workers" ? "http://localhost:8787" : "http://127.0.0.1:8000";
  const cli = {
    node: "npx mcplite",
    // The bin's shebang names Node (22.19+): --bun runs it on Bun.
    bun: "bunx --bun mcplite",
    deno: fromFile ? "deno run -A npm:@mcplite/sdk/cli" : "deno run -A jsr:@mcplite/sdk/cli",
    workers: "npx mcplite",
  };
  return [
    `Next steps:`,
    `  cd ${dir}`,
    ...steps.map((line) => `  ${line}`),
    `Then call the tool: ${cli[runtime]} call ${url} greet --arg name=Ada`,
    `Before publishing to the MCP Registry, make "mcpName" (${
      runtime === "deno" ? "deno.json" : "package.json"
    }) yours, then: ${cli[runtime]} server-json ${
      runtime === "workers" ? "src/index.ts --remote <your URL>" : "server.ts"
    }`,
    "",
  ].join("\n");
}
