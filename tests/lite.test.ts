/**
 * `@mcplite/sdk/lite`: the main entry's API with MCP-lite as the one default wire, so that a bundler
 * leaves the MCP binding out of a server that does not list it (issue 32, goal 3).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as v from "valibot";
import * as lite from "../src/lite/mod.ts";
import * as main from "../mod.ts";
import { protectedResource } from "../src/auth/mod.ts";
import { modernRequest, post, toolsCall } from "./helpers/request.ts";
import { readUntil } from "./helpers/wait.ts";

const ROOT = new URL("..", import.meta.url).pathname;

const add = lite.defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

const report = lite.defineTool("report")
  .describe("Builds a report, later")
  .input(v.object({ id: v.string() }))
  .handle(({ id }, ctx) => ctx.promise({ state: { id } }))
  .redeem(({ id }) => `report ${id}`);

const later = lite.defineTool("later")
  .describe("Works in the background")
  .input(v.object({}))
  .longRunning()
  .handle((_args, ctx) => ctx.defer(() => "done"));

describe("@mcplite/sdk/lite", () => {
  it("serves MCP-lite by default, and no MCP endpoint", async () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0" }).tool(add);
    const call = await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("add", { a: 1, b: 2 })));
    assert.equal(call.status, 200);
    assert.deepEqual((await call.json()).result.structuredContent, { sum: 3 });
    const mcp = await server.fetch(modernRequest("tools/list"));
    assert.equal(mcp.status, 404);
  });

  it("serves the wires the caller lists, MCP included", async () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0", bindings: [lite.mcpBinding()] }).tool(add);
    const listed = await server.fetch(modernRequest("tools/list"));
    assert.equal(listed.status, 200);
    assert.deepEqual((await listed.json()).result.tools.map((t: { name: string }) => t.name), ["add"]);
    const mcpLite = await server.fetch(post("/mcp-lite/v1/listtools", {}));
    assert.equal(mcpLite.status, 404);
  });

  it("refuses a long-running tool without the support, naming the fix; nothing is registered", () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0" });
    for (const tool of [report, later]) {
      assert.throws(() => server.tool(tool), (error: unknown) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /is long-running/);
        assert.match(error.message, /createServer\(\{ \.\.\., longRunning \}\)/);
        return true;
      });
    }
    assert.deepEqual(server.tools.map((t) => t.name), []);
  });

  it("runs promises, redeem and deferred work over MCP-lite when given longRunning", async () => {
    const server = lite.createServer({ name: "lite", version: "1.0.0", longRunning: lite.longRunning })
      .tool(report)
      .tool(later);
    assert.deepEqual(server.tools.map((t) => t.name).sort(), ["later", "redeem", "report"]);
    const promised = await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("report", { id: "q3" }))))
      .json();
    const token = promised.result._meta.promise_token as string;
    const redeemed = await (await server.fetch(post("/mcp-lite/v1/calltools", toolsCall("redeem", { promise: token }))))
      .json();
    assert.equal(redeemed.result.content[0].text, "report q3");
    const deferred = await server.call("later", {});
    assert.equal(deferred.kind, "promise");
    if (deferred.kind !== "promise") return;
    const redeem = () => server.call("redeem", { promise: deferred.token });
    const outcome = await readUntil(redeem, (outcome) => outcome.kind === "answer", "the deferred work's answer", {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    assert.equal(outcome.kind === "answer" && outcome.result.content[0].type, "text");
  });

  it("answers a promise from a tool that did not declare it with a failure, and keeps serving", async () => {
    const sneaky = lite.defineTool("sneaky")
      .describe("Answers a promise without .redeem()")
      .input(v.object({}))
      .handle((_args, ctx) => ctx.promise({ state: {} }) as never);
    const errors: unknown[] = [];
    const server = lite.createServer({ name: "lite", version: "1.0.0", onError: (e) => void errors.push(e) })
      .tool(sneaky)
      .tool(add);
    const outcome = await server.call("sneaky", {});
    assert.notEqual(outcome.kind, "promise");
    const fix = /"not done yet": that needs createServer\(\{ \.\.\., longRunning \}\)/;
    assert.ok(errors.some((e) => e instanceof TypeError && fix.test(e.message)));
    assert.equal((await server.call("add", { a: 1, b: 2 })).kind, "answer");
  });

  it("exports what the main entry exports, the same objects but createServer, and the capabilities", () => {
    const capabilities = ["group", "inputRounds", "longRunning"];
    assert.deepEqual(Object.keys(lite).sort(), [...Object.keys(main), ...capabilities].sort());
    for (const name of Object.keys(main) as (keyof typeof main)[]) {
      if (name !== "createServer") assert.equal(lite[name], main[name], name);
    }
    assert.notEqual(lite.createServer, main.createServer);
  });

  it("groups another server only when given group, naming the fix otherwise", async () => {
    const child = lite.createServer({ name: "git", version: "1.0.0" }).tool(add);
    const bare = lite.createServer({ name: "app", version: "1.0.0" });
    assert.throws(() => bare.group("git", child), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /createServer\(\{ \.\.\., group \}\)/);
      return true;
    });
    assert.deepEqual(bare.tools, []);
    const app = lite.createServer({ name: "app", version: "1.0.0", group: lite.group }).group("git", child);
    assert.deepEqual(app.tools.map((t) => t.name), ["git.add"]);
    assert.equal((await app.call("git.add", { a: 1, b: 2 })).kind, "answer");
  });

  it("answers CORS given cors(), and refuses a plain object of options naming the fix", async () => {
    const server = lite.createServer({
      name: "web",
      version: "1.0.0",
      cors: lite.cors({ origins: ["https://app.example"] }),
    }).tool(add);
    const preflight = await server.fetch(
      new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
    const call = await server.fetch(
      new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { origin: "https://app.example", "content-type": "application/json" },
        body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
      }),
    );
    assert.equal(call.status, 200);
    assert.equal(call.headers.get("access-control-allow-origin"), "https://app.example");
    const plain = { origins: ["https://app.example"] } as unknown as ReturnType<typeof lite.cors>;
    assert.throws(
      () => lite.createServer({ name: "web", version: "1.0.0", cors: plain }),
      (error: Error) =>
        error instanceof TypeError &&
        /takes cors\(\{ origins \}\) \(import \{ cors \} from "@mcplite\/sdk"\)/.test(error.message),
    );
    assert.equal(lite.cors, main.cors); // one function, the root's
  });

  it("authenticates given protectedResource(), with the challenge and the metadata; a plain ServerAuth is refused by both entries", async () => {
    const auth = {
      resource: "http://localhost",
      authorizationServers: ["https://auth.example.com"],
      verify: (token: string) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
    };
    const server = lite.createServer({ name: "docs", version: "1.0.0", auth: protectedResource(auth) }).tool(add);
    const call = (headers: Record<string, string>) =>
      server.fetch(
        new Request("http://localhost/mcp-lite/v1/calltools", {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
        }),
      );
    const refused = await call({});
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get("www-authenticate"),
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp-lite/v1/calltools"',
    );
    await refused.body?.cancel();
    const allowed = await call({ authorization: "Bearer good" });
    assert.equal(allowed.status, 200);
    assert.deepEqual((await allowed.json()).result.structuredContent, { sum: 3 });
    const metadata = await server.fetch(new Request("http://localhost/.well-known/oauth-protected-resource"));
    assert.deepEqual((await metadata.json()).authorization_servers, ["https://auth.example.com"]);
    // A plain object brings no code to serve it: refused by both entries alike, naming the fix.
    for (const entry of [lite, main]) {
      assert.throws(
        () => entry.createServer({ name: "docs", version: "1.0.0", auth }),
        (error: Error) =>
          error instanceof TypeError &&
          error.message.includes("takes protectedResource({ ... }) or jwtAuth({ ... }), not a plain object") &&
          error.message.includes('import { protectedResource } from "@mcplite/sdk/auth"'),
      );
    }
    assert.equal("oauth" in lite, false); // the lite entry's oauth() is gone: protectedResource() serves both
    // The same value on the root entry.
    const root = main.createServer({ name: "docs", version: "1.0.0", auth: protectedResource(auth) }).tool(add);
    const answer = await root.fetch(
      new Request("http://localhost/mcp-lite/v1/calltools", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
      }),
    );
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get("www-authenticate"), refused.headers.get("www-authenticate"));
    await answer.body?.cancel();
    assert.throws(() => protectedResource({ ...auth, resource: "not a url" }), TypeError); // refused when made
  });

  it("runs input rounds given inputRounds; without it, a handler that asks fails naming the fix", async () => {
    const requestedSchema = { type: "object", properties: { name: { type: "string" } } };
    const greet = lite.defineTool("greet")
      .describe("Greets the user, asking the name")
      .input(v.object({}))
      .handle(async (_args, ctx) => {
        const answer = await ctx.elicit("name", { message: "Your name?", requestedSchema });
        return `hello ${answer.content?.name}`;
      });
    const errors: unknown[] = [];
    const bare = lite.createServer({ name: "g", version: "1.0.0", onError: (e) => void errors.push(e) }).tool(greet);
    const failed = await bare.call("greet", {});
    assert.notEqual(failed.kind, "input_required");
    assert.ok(
      errors.some((e) => e instanceof TypeError && /createServer\(\{ \.\.\., inputRounds \}\)/.test(e.message)),
    );
    const secret = "s".repeat(32);
    const server = lite.createServer({ name: "g", version: "1.0.0", secret, inputRounds: lite.inputRounds }).tool(
      greet,
    );
    const asked = await server.call("greet", {});
    assert.equal(asked.kind, "input_required");
    if (asked.kind !== "input_required") return;
    const answered = await server.call("greet", {}, {
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: asked.requestState,
    });
    assert.equal(answered.kind, "answer");
    if (answered.kind === "answer") assert.deepEqual(answered.result.content, [{ type: "text", text: "hello Ada" }]);
  });

  it("bundles a one-tool server without the MCP binding nor any capability; the main entry's bundles them, but no CORS, OAuth nor DPoP", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-lite-"));
    try {
      const bundled = (entry: string, name: string): string[] => {
        const file = join(ROOT, "tests", `.lite-bundle-${name}-${process.pid}.ts`);
        writeFileSync(
          file,
          `import * as v from "valibot";\nimport { createServer, defineTool } from "${entry}";\n` +
            `export default createServer({ name: "b", version: "1.0.0" })` +
            `.tool(defineTool("add").describe("Adds").input(v.object({ a: v.number() })).handle(({ a }) => a));\n`,
        );
        try {
          const meta = join(dir, `${name}.json`);
          const built = spawnSync(
            join(ROOT, "node_modules", ".bin", "bun"),
            ["build", file, "--minify", `--outfile=${join(dir, `${name}.js`)}`, `--metafile=${meta}`],
            { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
          );
          assert.equal(built.status, 0, built.stderr);
          const outputs = JSON.parse(readFileSync(meta, "utf8")).outputs as Record<
            string,
            { inputs: Record<string, { bytesInOutput: number }> }
          >;
          return Object.values(outputs).flatMap((output) =>
            Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path)
          );
        } finally {
          rmSync(file, { force: true });
        }
      };
      const MCP_DISPATCH = "src/bindings/mcp/dispatch.ts";
      // The deferred-work machinery: the job runner, the promise outcome, the redeem tool, the following of tasks.
      const LONG_RUNNING = [
        "src/jobs/continuations.ts",
        "src/jobs/running-jobs.ts",
        "src/jobs/leases.ts",
        "src/jobs/job.ts",
        "src/jobs/promise-outcome.ts",
        "src/jobs/redeem.ts",
        "src/jobs/promise-task.ts",
        "src/jobs/follow-promise.ts",
      ];
      // Each capability the lite entry takes as a value: CORS, OAuth, group(), input rounds' token codec.
      const CAPABILITIES = [
        "src/server/cors.ts",
        "src/server/cors-edge.ts",
        "src/server/auth-edge.ts",
        "src/server/protected-resource.ts",
        "src/server/server-group.ts",
        "src/core/instance/tokens.ts",
        "src/codec/key-primitives.ts",
      ];
      const fromLite = bundled("../src/lite/mod.ts", "lite");
      assert.ok(fromLite.some((path) => path.endsWith("src/bindings/mcplite/handler.ts")), "MCP-lite is bundled");
      assert.ok(!fromLite.some((path) => path.endsWith(MCP_DISPATCH)), "the MCP binding is left out");
      for (const file of [...LONG_RUNNING, ...CAPABILITIES]) {
        assert.ok(!fromLite.some((path) => path.endsWith(file)), `${file} is left out`);
      }
      // Modules a lite server imports without using (the entry re-exports `mcpBinding()`), whose top-level tables,
      // cache slots, errors and encoders are side-effect free: none of their bytes come along (issue 54).
      for (const path of fromLite) {
        assert.doesNotMatch(
          path,
          /src\/bindings\/mcp\/|src\/server\/(server-card|challenge)\.ts$/,
          `${path} is left out`,
        );
      }
      const fromMain = bundled("../mod.ts", "main");
      assert.ok(fromMain.some((path) => path.endsWith(MCP_DISPATCH)), "the main entry's default bundles MCP");
      // CORS and OAuth are values on both entries (`cors({ origins })`, `protectedResource({ … })`): a server
      // without them bundles none of their code (their challenges neither).
      const EDGE_VALUES = [
        "src/server/cors.ts",
        "src/server/cors-edge.ts",
        "src/server/auth-edge.ts",
        "src/server/protected-resource.ts",
        "src/server/challenge.ts",
      ];
      for (const file of [...LONG_RUNNING, ...CAPABILITIES.filter((file) => !EDGE_VALUES.includes(file))]) {
        assert.ok(fromMain.some((path) => path.endsWith(file)), `main bundles ${file}`);
      }
      for (const file of EDGE_VALUES) {
        assert.ok(!fromMain.some((path) => path.endsWith(file)), `main leaves ${file} out`);
      }
      // DPoP (RFC 9449) comes with the policy `jwtAuth({ dpop })` makes: a server without it bundles none
      // of its checks, whichever entry it is built from.
      const DPOP = /\/(auth|server)\/dpop[^/]*\.ts$/;
      for (const path of [...fromLite, ...fromMain]) {
        assert.doesNotMatch(path, DPOP, `${path}: bundled by a server without DPoP`);
        // Tool search comes with `toolSearch()`: its tokenizer's tables are built only where it is used.
        assert.doesNotMatch(path, /src\/tool-search\//, `${path}: bundled by a server without tool search`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
