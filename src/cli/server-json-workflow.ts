/**
 * The GitHub Actions workflow `mcplite server-json --workflow` writes: on a version tag, publish the
 * package (npm, JSR), check `server.json` against the server and the published package
 * (`server-json --check`), then publish it to the MCP Registry with `mcp-publisher`, logged in with
 * GitHub OIDC (registry docs, "How to Automate Publishing with GitHub Actions").
 *
 * @module
 */

/** Where the workflow is written, under the project. */
export const WORKFLOW_PATH = ".github/workflows/publish-mcp.yml";

/** What the project publishes, and how its CLI runs. */
export interface WorkflowProject {
  /** The runtime the project uses: Deno (a deno.json, no package.json), Bun (a bun.lock), else Node. */
  readonly runtime: "node" | "bun" | "deno";
  /** Whether an npm package is listed (package.json, not private). */
  readonly npm: boolean;
  /** Whether the project publishes to JSR (jsr.json or deno.json with a name). */
  readonly jsr: boolean;
  /** Whether the project has a package-lock.json (`npm ci`), else `npm install`. */
  readonly lockfile: boolean;
  /** The `server-json` arguments after the command (module, --name, --remote…), `--check` added. */
  readonly checkArgs: readonly string[];
}

/** The `mcp-publisher` release for the runner's OS and CPU (the registry's install line). */
const INSTALL_PUBLISHER = `curl -L "https://github.com/modelcontextprotocol/registry/releases/latest/download/` +
  `mcp-publisher_$(uname -s | tr '[:upper:]' '[:lower:]')_$(uname -m | sed 's/x86_64/amd64/;s/aarch64/arm64/')` +
  `.tar.gz" | tar xz mcp-publisher`;

/** A shell word, quoted when it needs to be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The workflow's YAML.
 *
 * @param project What the project publishes and runs on.
 * @returns The file's text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { publishWorkflow } from "./server-json-workflow.ts";
 * const yaml = publishWorkflow({ runtime: "node", npm: true, jsr: false, lockfile: true, checkArgs: ["server.ts"] });
 * assert.match(yaml, /mcp-publisher login github-oidc/);
 * ```
 */
export function publishWorkflow(project: WorkflowProject): string {
  const cli = { node: "npx mcplite", bun: "bunx --bun mcplite", deno: "deno run -A jsr:@mcplite/sdk/cli" }[
    project.runtime
  ];
  const check = [cli, "server-json", ...project.checkArgs, "--check"].map((w, i) => i === 0 ? w : shellWord(w));
  const steps: string[][] = [["name: Check out", "uses: actions/checkout@v5"]];
  if (project.runtime === "deno") {
    steps.push(["name: Set up Deno", "uses: denoland/setup-deno@v2", "with:", "  deno-version: v2.x"]);
  } else {
    steps.push([
      "name: Set up Node.js",
      "uses: actions/setup-node@v5",
      "with:",
      '  node-version: "22"',
      "  registry-url: https://registry.npmjs.org",
    ]);
    if (project.runtime === "bun") steps.push(["name: Set up Bun", "uses: oven-sh/setup-bun@v2"]);
    steps.push([
      "name: Install dependencies",
      `run: ${project.runtime === "bun" ? "bun install" : project.lockfile ? "npm ci" : "npm install"}`,
    ]);
  }
  if (project.npm) {
    steps.push([
      "name: Publish to npm",
      "run: npm publish --provenance --access public",
      "env:",
      "  NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
    ]);
  }
  if (project.jsr) {
    steps.push(["name: Publish to JSR", `run: ${project.runtime === "deno" ? "deno publish" : "npx jsr publish"}`]);
  }
  steps.push(
    ["name: Check server.json against the server and the published package", `run: ${check.join(" ")}`],
    ["name: Install mcp-publisher", "run: |", `  ${INSTALL_PUBLISHER}`],
    ["name: Log in to the MCP Registry (GitHub OIDC)", "run: ./mcp-publisher login github-oidc"],
    ["name: Publish server.json to the MCP Registry", "run: ./mcp-publisher publish"],
  );
  return [
    "# Written by mcplite server-json --workflow: on a version tag, publish the package, check server.json",
    "# against the server and the published package, then publish it to the MCP Registry.",
    "name: Publish to the MCP Registry",
    "",
    "on:",
    "  push:",
    '    tags: ["v*"]',
    "",
    "jobs:",
    "  publish:",
    "    runs-on: ubuntu-latest",
    "    permissions:",
    "      contents: read",
    "      id-token: write # GitHub OIDC: mcp-publisher login github-oidc, npm provenance, JSR",
    "    steps:",
    ...steps.flatMap((step) => step.map((line, i) => `${i === 0 ? "      - " : "        "}${line}`)),
    "",
  ].join("\n");
}
