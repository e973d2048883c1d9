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

/** The server, which main.ts serves and the test calls. */
const SERVER = `${TOOL}
export const server = createServer({ name: "NAME", version: "0.1.0" }).tool(greet);
`;

/** Listens with the runtime's own server (Deno.serve, Bun.serve, node:http). */
const MAIN = `${imports(["{ serve }", "@mcplite/sdk"], ["{ server }", "./server.ts"])}

// MCP-lite at /mcp-lite/v1, MCP at /mcp; PORT and HOSTNAME from the environment (8000, 127.0.0.1).
await serve(server);
`;

/** The project's own test: the tool, called over MCP-lite (spec v0.042 §3) on `server.fetch`. */
const TEST = (serverImport: [string, string]) =>
  `${imports(["assert", "node:assert/strict"], ["{ test }", "node:test"], serverImport)}

test("greet answers over MCP-lite", async () => {
  const response = await server.fetch(
    new Request("http://localhost/mcp-lite/v1/calltools", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "greet", arguments: { name: "Ada" } },
      }),
    }),
  );
  assert.equal(response.status, 200);
  const { result } = await response.json();
  assert.deepEqual(result.structuredContent, { greeting: "Hello, Ada!" });
});
`;

/** The worker: the server is a module worker (`fetch(request, env, ctx)`). */
const WORKER = `${TOOL}
// MCP-lite at /mcp-lite/v1, MCP at /mcp.
export default createServer({ name: "NAME", version: "0.1.0" }).tool(greet);
`;

const GITIGNORE = "node_modules/\n.wrangler/\n";

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

function packageJson(name: string, scripts: Record<string, string>, dev: Record<string, string> = {}): string {
  return json({
    name,
    private: true,
    type: "module",
    scripts,
    dependencies: { "@mcplite/sdk": `^${SDK_VERSION}`, valibot: VALIBOT_RANGE },
    ...(Object.keys(dev).length > 0 ? { devDependencies: dev } : {}),
  });
}

/**
 * The files of a new project, by path relative to its directory.
 *
 * @param runtime The runtime it runs on.
 * @param name The project's name (its directory's).
 * @returns Each file's path and text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectFiles } from "./init-templates.ts";
 * assert.ok("wrangler.jsonc" in projectFiles("workers", "hello"));
 * ```
 */
export function projectFiles(runtime: Runtime, name: string): Record<string, string> {
  const server = SERVER.replace("NAME", name);
  const test = TEST(["{ server }", "./server.ts"]);
  const common = { "server.ts": server, "main.ts": MAIN, "server.test.ts": test };
  switch (runtime) {
    case "node":
      return {
        ...common,
        "package.json": packageJson(name, { start: "node main.ts", test: "node --test server.test.ts" }),
        ".gitignore": GITIGNORE,
      };
    case "bun":
      return {
        ...common,
        "package.json": packageJson(name, { start: "bun run main.ts", test: "bun test" }),
        ".gitignore": GITIGNORE,
      };
    case "deno":
      return {
        ...common,
        "deno.json": json({
          tasks: {
            start: "deno run --allow-net --allow-env --unstable-no-legacy-abort main.ts",
            test: "deno test --allow-env",
          },
          imports: { "@mcplite/sdk": `jsr:@mcplite/sdk@^${SDK_VERSION}`, valibot: `npm:valibot@${VALIBOT_RANGE}` },
        }),
      };
    case "workers":
      return {
        "src/index.ts": WORKER.replace("NAME", name),
        "src/index.test.ts": TEST(["server", "./index.ts"]),
        "package.json": packageJson(
          name,
          { dev: "wrangler dev", deploy: "wrangler deploy", test: "node --test src/index.test.ts" },
          { wrangler: "^4.0.0" },
        ),
        "wrangler.jsonc": json({ name, main: "src/index.ts", compatibility_date: "2026-04-01" }),
        ".gitignore": GITIGNORE,
      };
  }
}

/**
 * What to run next, as `mcplite init` prints it.
 *
 * @param runtime The runtime.
 * @param dir The directory, as the user named it.
 * @returns Lines to print.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nextSteps } from "./init-templates.ts";
 * assert.match(nextSteps("deno", "hello"), /deno task start/);
 * ```
 */
export function nextSteps(runtime: Runtime, dir: string): string {
  const steps = {
    node: ["npm install", "npm start          # serves on http://127.0.0.1:8000", "npm test"],
    bun: ["bun install", "bun run start      # serves on http://127.0.0.1:8000", "bun test"],
    deno: ["deno task start    # serves on http://127.0.0.1:8000", "deno task test"],
    workers: ["npm install", "npm run dev        # wrangler dev", "npm test", "npm run deploy"],
  }[runtime];
  const url = runtime === "workers" ? "http://localhost:8787" : "http://127.0.0.1:8000";
  const cli = {
    node: "npx mcplite",
    bun: "bunx mcplite",
    deno: "deno run -A jsr:@mcplite/sdk/cli",
    workers: "npx mcplite",
  };
  return [
    `Next steps:`,
    `  cd ${dir}`,
    ...steps.map((line) => `  ${line}`),
    `Then call the tool: ${cli[runtime]} call ${url} greet --arg name=Ada`,
    "",
  ].join("\n");
}
