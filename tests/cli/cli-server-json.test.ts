/**
 * `mcplite server-json`: the MCP Registry's `server.json`, made from a server module and its project's
 * `package.json` and `jsr.json`, valid against the registry's published JSON Schema, and `--check` that
 * fails once the package's version moves on without it, or once the npm package's `mcpName` (in
 * package.json, or as published on a fake npm registry on 127.0.0.1) is not the server's name. The schema
 * is pinned in `fixtures/server.schema.json`: github.com/modelcontextprotocol/registry,
 * internal/validators/schemas/2025-12-11.json at commit e361b5ff5a925b36a38eda0544bca8230a84558b, the
 * schema the registry itself validates with; the output's `$schema` is its `$id`.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { join, relative } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT } from "../helpers/process.ts";
import { buildNodeBundle, runCli, runProgram } from "./cli-helpers.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const REGISTRY_SCHEMA = JSON.parse(readFileSync(new URL("./fixtures/server.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv({ strict: false });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
const validServerJson = ajv.compile(REGISTRY_SCHEMA);

const ICON = { src: "https://weather.example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] };

/** A project: a protected server module, its package.json and jsr.json. */
function project(version = "1.2.0"): string {
  const dir = scratchDir("mcplite-server-json-");
  writeFileSync(
    join(dir, "server.ts"),
    `import { createServer, defineTool } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
      `import { protectedResource } from ${JSON.stringify(`${ROOT}src/auth/mod.ts`)};\n` +
      `export default createServer({\n` +
      `  name: "weather", version: ${
        JSON.stringify(version)
      }, title: "Weather", description: "Forecasts and alerts",\n` +
      `  icons: [${JSON.stringify(ICON)}, { src: "data:image/png;base64,iVBORw0KGgo=" }],\n` +
      `  auth: protectedResource({ resource: "https://weather.example.com/mcp", ` +
      `authorizationServers: ["https://auth.example.com"], verify: () => undefined }),\n` +
      `}).tool(defineTool("forecast").describe("Tomorrow's weather").handle(() => "sunny"));\n`,
  );
  writePackage(dir, version);
  writeFileSync(join(dir, "jsr.json"), JSON.stringify({ name: "@example/weather", version, exports: "./server.ts" }));
  return dir;
}

function writePackage(dir: string, version: string): void {
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "@example/weather-mcp",
      version,
      mcpName: "io.github.example/weather",
      repository: { type: "git", url: "git+https://github.com/example/weather-mcp.git" },
    }),
  );
}

const serverJsonArgs = (dir: string) => [
  "server-json",
  join(dir, "server.ts"),
  "--dir",
  dir,
  "--remote",
  "https://weather.example.com",
];

/** What the fake npm registry publishes: `/<name>/<version>` → that version's package.json. */
const published = new Map<string, Record<string, unknown>>();
let registry: Server;

before(async () => {
  registry = createHttpServer((request, response) => {
    const manifest = published.get(decodeURIComponent(request.url ?? ""));
    response.writeHead(manifest ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(manifest ?? { error: "Not found" }));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  // npm's own variable, read by the CLI (and inherited by its child processes): never the real registry here.
  process.env.npm_config_registry = `http://127.0.0.1:${(registry.address() as { port: number }).port}`;
});
after(() => new Promise<void>((resolve) => registry.close(() => resolve())));

describe("mcplite server-json", () => {
  it("writes a server.json the registry's schema accepts, with the npm package (not JSR's npm mirror), the remote and its auth", async () => {
    const dir = project();
    const { code, stdout, stderr } = await runCli(serverJsonArgs(dir), { timeoutMs: 30_000 });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Wrote .*server\.json \(io\.github\.example\/weather 1\.2\.0\)/);
    assert.match(stderr, /icon "data:image\/png;base64,iVBORw0KGgo=" left out/);
    assert.match(
      stderr,
      /@example\/weather \(JSR\) is not listed: the MCP Registry takes npm packages from registry\.npmjs\.org only/,
    );
    const document = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
    assert.ok(validServerJson(document), JSON.stringify(validServerJson.errors));
    assert.deepEqual(document, {
      $schema: REGISTRY_SCHEMA.$id,
      name: "io.github.example/weather",
      description: "Forecasts and alerts",
      version: "1.2.0",
      title: "Weather",
      repository: { url: "https://github.com/example/weather-mcp", source: "github" },
      icons: [ICON],
      packages: [
        { registryType: "npm", identifier: "@example/weather-mcp", version: "1.2.0", transport: { type: "stdio" } },
      ],
      remotes: [{
        type: "streamable-http",
        url: "https://weather.example.com/mcp",
        headers: [{
          name: "Authorization",
          description: "An OAuth 2.1 bearer token; its authorization servers are listed at " +
            "https://weather.example.com/.well-known/oauth-protected-resource/mcp",
          isRequired: true,
          isSecret: true,
        }],
      }],
    });
  });

  it("--check passes while in step, and fails naming the drift once package.json's version is bumped", async () => {
    const dir = project();
    assert.equal((await runCli(serverJsonArgs(dir), { timeoutMs: 30_000 })).code, 0);
    const inStep = await runCli([...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
    assert.equal(inStep.code, 0, inStep.stderr);
    assert.match(inStep.stdout, /server\.json is in step/);
    assert.match(inStep.stderr, /@example\/weather-mcp@1\.2\.0 is not on http:\/\/127\.0\.0\.1:\d+ yet/);
    writePackage(dir, "1.3.0");
    const drifted = await runCli([...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
    assert.equal(drifted.code, 1, drifted.stderr);
    assert.match(drifted.stderr, /server\.json has drifted/);
    assert.match(drifted.stderr, /~ version: "1\.2\.0" → "1\.3\.0"/);
    assert.match(drifted.stderr, /~ packages\[0\]\.version: "1\.2\.0" → "1\.3\.0"/);
    assert.match(drifted.stderr, /the server reports version "1\.2\.0", the package "1\.3\.0"/);
    assert.equal(JSON.parse(readFileSync(join(dir, "server.json"), "utf8")).version, "1.2.0", "--check writes nothing");
  });

  it("--check fails when the file is missing; a project without a reverse-DNS name is refused", async () => {
    const dir = project();
    const missing = await runCli([...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /server\.json is missing/);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "weather-mcp", version: "1.2.0" }));
    writeFileSync(
      join(dir, "server.ts"),
      `import { createServer } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
        `export default createServer({ name: "weather", version: "1.2.0" });\n`,
    );
    const nameless = await runCli(serverJsonArgs(dir), { timeoutMs: 30_000 });
    assert.equal(nameless.code, 2);
    assert.match(nameless.stderr, /needs the server's name in reverse-DNS form/);
  });

  it("takes the name the server's card was given, and refuses a module that exports no server", async () => {
    const dir = project();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "weather-mcp", version: "1.2.0" }));
    writeFileSync(
      join(dir, "server.ts"),
      `import { createServer } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
        `export const server = createServer({ name: "weather", version: "1.2.0", serverCard: { name: "com.example/weather" } });\n`,
    );
    const named = await runCli(["server-json", join(dir, "server.ts"), "--dir", dir, "--no-packages"], {
      timeoutMs: 30_000,
    });
    assert.equal(named.code, 0, named.stderr);
    const document = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
    assert.equal(document.name, "com.example/weather");
    assert.equal(document.packages, undefined, "--no-packages");
    assert.ok(validServerJson(document), JSON.stringify(validServerJson.errors));
    writeFileSync(join(dir, "server.ts"), "export const answer = 42;\n");
    const none = await runCli(["server-json", join(dir, "server.ts"), "--dir", dir], { timeoutMs: 30_000 });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /exports no server: export it as `export const server = createServer/);
  });

  it("reads an unpinned card at the public origin it is told, though the card answers only allowed hosts", async () => {
    // The card of a server without a pinned origin refuses a Host outside allowedHosts (a forged one); the
    // command reads it in process, at localhost and at the --remote's origin, whatever allowedHosts says.
    const dir = project();
    writeFileSync(
      join(dir, "server.ts"),
      `import { createServer } from ${JSON.stringify(`${ROOT}mod.ts`)};\n` +
        `export const server = createServer({ name: "weather", version: "1.2.0", description: "Forecasts and alerts", ` +
        `allowedHosts: ["api.example.com"] });\n`,
    );
    const made = await runCli([...serverJsonArgs(dir), "--no-packages"], { timeoutMs: 30_000 });
    assert.equal(made.code, 0, made.stderr);
    const document = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
    assert.equal(document.description, "Forecasts and alerts");
    assert.deepEqual(document.remotes, [{ type: "streamable-http", url: "https://weather.example.com/mcp" }]);
  });

  it("--check fails when package.json's mcpName, or the published package's, is not the server's name", async () => {
    const dir = project();
    assert.equal((await runCli(serverJsonArgs(dir), { timeoutMs: 30_000 })).code, 0);
    published.set("/@example/weather-mcp/1.2.0", { name: "@example/weather-mcp", version: "1.2.0" });
    const unnamed = await runCli([...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
    assert.equal(unnamed.code, 1, unnamed.stderr);
    assert.match(
      unnamed.stderr,
      /@example\/weather-mcp@1\.2\.0 as published on .* has no "mcpName", not the server's name "io\.github\.example\/weather": the registry refuses it/,
    );
    published.set("/@example/weather-mcp/1.2.0", {
      name: "@example/weather-mcp",
      mcpName: "io.github.example/weather",
    });
    const good = await runCli([...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
    assert.equal(good.code, 0, good.stderr);
    const renamed = await runCli([...serverJsonArgs(dir), "--name", "io.github.example/forecast", "--check"], {
      timeoutMs: 30_000,
    });
    assert.equal(renamed.code, 1, renamed.stderr);
    assert.match(
      renamed.stderr,
      /package\.json's "mcpName" is "io\.github\.example\/weather", not the server's name "io\.github\.example\/forecast"/,
    );
  });

  it("says why a private package is not listed; resolves --out from the working directory", async () => {
    const dir = project();
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...pkg, private: true }));
    const out = relative(process.cwd(), join(dir, "custom.json"));
    const made = await runCli([...serverJsonArgs(dir), "--out", out], { timeoutMs: 30_000 });
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /package\.json says "private": true, so no npm package is listed/);
    const document = JSON.parse(readFileSync(join(dir, "custom.json"), "utf8"));
    assert.equal(document.packages, undefined);
    assert.ok(validServerJson(document), JSON.stringify(validServerJson.errors));
  });

  it("--workflow writes a GitHub Actions workflow: publish, server-json --check, mcp-publisher with OIDC", async () => {
    const dir = project();
    const made = await runCli([...serverJsonArgs(dir), "--workflow"], { timeoutMs: 30_000 });
    assert.equal(made.code, 0, made.stderr);
    const yaml = readFileSync(join(dir, ".github/workflows/publish-mcp.yml"), "utf8");
    const order = [
      "id-token: write",
      "run: npm install",
      "run: npm publish --provenance --access public",
      "run: npx jsr publish",
      "run: npx mcplite server-json server.ts --remote https://weather.example.com --check",
      "mcp-publisher_$(uname -s",
      "run: ./mcp-publisher login github-oidc",
      "run: ./mcp-publisher publish",
    ].map((line) => yaml.indexOf(line));
    assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), yaml);
    assert.ok(existsSync(join(dir, "server.json")));
  });

  it(
    "runs on Node 22 from the CLI's Node bundle, importing the TypeScript module",
    { skip: ONCE_PER_RUN },
    async (t) => {
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      const dir = project();
      writeFileSync(
        join(dir, "package.json"),
        readFileSync(join(dir, "package.json"), "utf8").replace("{", '{"type":"module",'),
      );
      const bin = await buildNodeBundle();
      const wrote = await runProgram(node, [bin, ...serverJsonArgs(dir)], { timeoutMs: 30_000 });
      assert.equal(wrote.code, 0, wrote.stderr);
      const document = JSON.parse(readFileSync(join(dir, "server.json"), "utf8"));
      assert.ok(validServerJson(document), JSON.stringify(validServerJson.errors));
      writePackage(dir, "2.0.0");
      const drifted = await runProgram(node, [bin, ...serverJsonArgs(dir), "--check"], { timeoutMs: 30_000 });
      assert.equal(drifted.code, 1, drifted.stderr);
      assert.match(drifted.stderr, /~ version: "1\.2\.0" → "2\.0\.0"/);
    },
  );
});
