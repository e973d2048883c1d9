/**
 * The architecture, checked by reading import specifiers (as Hono's validate-exports does) through
 * `tests/helpers/import-graph.ts`, `import()` included: the core knows no wire, the server knows no
 * binding (it gets them as a list), only the gRPC files load protobuf, `node:*` is imported statically
 * only by the HTTP/2 listener, the client reaches server code through `import type` only, and neither
 * files nor folders import each other in a cycle. Resources, prompts, completion and skills reach the MCP
 * binding only through the features their definitions bring (`src/core/definitions/feature.ts`). Bindings
 * and carriers see the core through one facade, `src/core/mod.ts`. The jobs layer (`src/jobs/`) stands above the
 * core: the core imports none of it and holds its engine through contracts of its own (`src/core/long-running/`);
 * bindings and carriers see the engine through one facade, `src/jobs/mod.ts`. The runtimes' globals are read only under `src/runtime/`, one
 * folder per runtime; the src root holds entry modules only, and base names are unique outside parallel
 * folders. No source file passes 600 lines, nor the README 250 (files past 450 lines and folders past 45 files are a
 * report read in review, tools/size-report.mjs, not a failure: docs/contributing.md, House rules).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";
import {
  cycles,
  fileGraph,
  groupGraph,
  importsOf,
  reachedFrom as reached,
  ROOT,
  sourceFiles,
  withoutComments,
} from "./helpers/import-graph.ts";

const files = sourceFiles("src", ["src/gen"]);
const reachedFrom = (...roots: string[]) => reached(roots);
/** The modules jsr.json exports: entry points, above the rooms they hand names on from. */
const ENTRY_MODULES = new Set(
  Object.values(JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8")).exports as Record<string, string>)
    .map((path) => path.replace(/^\.\//, "")),
);
const rel = (f: string) => relative(ROOT, join(ROOT, f));
/** The most names the core facade exports (issue 50: 60; 110 before the engine moved into the core, 98 before families became one object each). */
const FACADE_NAMES = 60;
/** The most lines of a hand-written source file; 450 and a folder's 45 files are the size report's (tools/size-report.mjs). */
const FILE_LINES = 600;

describe("dependency boundaries", () => {
  it("finds the source tree", () => assert.ok(files.length > 20));

  it("keeps the core and the DSL free of bindings, client, server and generated code, and the jobs layer but its worker", () => {
    // The worker runs a server (src/jobs/worker/): it stands above the server, as a carrier does.
    const jobs = (f: string) => f.startsWith("src/jobs/") && !f.startsWith("src/jobs/worker/");
    for (const file of files.filter((f) => f.startsWith("src/core/") || f.startsWith("src/tool/") || jobs(f))) {
      for (const { spec } of importsOf(file)) {
        assert.doesNotMatch(spec, /\/(bindings|client|gen|server)\//, `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("loads protobuf and Connect only in the gRPC binding and the client's gRPC transport", () => {
    for (const file of files) {
      const allowed = file.startsWith("src/bindings/grpc/") || file === "src/client/transports/grpc.ts";
      for (const { spec, typeOnly } of importsOf(file)) {
        if (/^@(bufbuild|connectrpc)\//.test(spec) || spec.includes("/gen/")) {
          assert.ok(allowed || typeOnly, `${rel(file)} imports ${spec}`);
        }
      }
    }
  });

  it("imports node:* statically only in the HTTP/2 listener", () => {
    // The listener, and its direct unary path, which it loads with it (only types from node:http2).
    const LISTENER = [
      "src/bindings/grpc/serve-grpc.ts",
      "src/bindings/grpc/node-unary.ts",
      "src/bindings/grpc/node-unary-request.ts",
    ];
    for (const file of files) {
      for (const { spec, dynamic } of importsOf(file)) {
        if (spec.startsWith("node:") && !dynamic) assert.ok(LISTENER.includes(file), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("reaches node:* outside the listeners only at run time: node:crypto for tokens, node:module for ws, node:http for serve() on Node", () => {
    // process.getBuiltinModule hands them over where the runtime has them; no import, so a bundle for a
    // browser or a Worker without nodejs_compat needs no polyfill (Web Crypto is the tokens' fallback).
    const ALLOWED: Record<string, string[]> = {
      "src/runtime/node-crypto.ts": ["node:crypto"],
      "src/runtime/node/websocket-upgrade.ts": ["node:module"],
      "src/runtime/node/listen.ts": ["node:http"],
      "src/runtime/threads.ts": ["node:worker_threads"],
      "src/runtime/thread-priority.ts": ["node:fs", "node:os"],
    };
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (!text.includes("getBuiltinModule")) continue;
      assert.ok(file in ALLOWED, `${rel(file)} reaches a node:* module`);
      assert.deepEqual([...text.matchAll(/getBuiltinModule\?\.\("([^"]+)"\)/g)].map((m) => m[1]), ALLOWED[file]);
    }
  });

  it("lets the client see server code through import type only", () => {
    for (const file of files.filter((f) => f.startsWith("src/client/"))) {
      for (const { spec, typeOnly } of importsOf(file)) {
        if (/\/(server|bindings|core|tool)\//.test(spec) || spec.endsWith("/mod.ts") && !spec.includes("client")) {
          assert.ok(typeOnly || /\/core\/results\/result\.ts$/.test(spec), `${rel(file)} imports ${spec} at run time`);
        }
      }
    }
  });

  it("keeps the server free of bindings: createServer() hands it the list", () => {
    for (const file of files.filter((f) => f.startsWith("src/server/"))) {
      for (const { spec } of importsOf(file)) assert.doesNotMatch(spec, /\/bindings\//, `${rel(file)} imports ${spec}`);
    }
  });

  it("reaches resources, prompts, completion, skills, apps and extensions only from their definitions, not from createServer()", () => {
    const reached = reachedFrom("src/assembly/create-server.ts", "src/tool/define-tool.ts");
    assert.ok(reached.has("src/bindings/mcp/tools.ts"), "the walk reaches the MCP binding");
    const served = [
      "src/bindings/mcp/resources.ts",
      "src/bindings/mcp/prompts.ts",
      "src/bindings/mcplite/prompts.ts",
      "src/bindings/render-prompt.ts",
      "src/bindings/mcp/completion.ts",
      "src/skills/skills-methods.ts",
      "src/assembly/served-apps.ts",
      "src/assembly/served-prompts.ts",
      "src/assembly/served-resources.ts",
      "src/assembly/served-skills.ts",
      "src/assembly/served-extensions.ts",
      "src/bindings/mcp/extensions.ts",
      "src/extension/define-extension.ts",
      "src/core/definitions/uri-template.ts",
    ];
    assert.deepEqual(served.filter((file) => reached.has(file)), []);
  });

  it("keeps OpenAPI out of a server that does not list its binding: createServer() never reaches its binding", () => {
    const reached = reachedFrom("mod.ts", "src/assembly/create-server.ts");
    assert.ok(reached.has("src/bindings/mcp/tools.ts"), "the walk reaches the default bindings");
    assert.deepEqual([...reached].filter((file) => /^src\/(bindings|tool)\/openapi\//.test(file)), []);
    for (const file of reached) {
      for (const { spec } of importsOf(file)) {
        assert.ok(
          !/^@(apidevtools|cfworker)\//.test(spec),
          `${rel(file)} imports ${spec}, which every server would bundle`,
        );
      }
    }
  });

  it("keeps the definitions free of wires: tools, prompts, resources, skills, apps, extensions and telemetry import no binding", () => {
    const definitions = files.filter((f) => /^src\/(tool|prompt|resource|skills|apps|extension|otel)\//.test(f));
    for (const file of definitions.filter((f) => !ENTRY_MODULES.has(f))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!target.startsWith("src/bindings/"), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("keeps each binding to itself: shared pieces live in src/bindings/*.ts or the core", () => {
    const bindingOf = (file: string) => file.match(/^src\/bindings\/([^/]+)\//)?.[1];
    const bindings = files.map(bindingOf).filter((b) => b !== undefined);
    assert.ok(bindings.includes("openapi"), "OpenAPI is a binding, under src/bindings");
    for (const file of files.filter((f) => f.startsWith("src/bindings/"))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        const other = bindingOf(target);
        assert.ok(other === undefined || other === bindingOf(file), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("runs no MCP binding code outside MCP: the core, the carriers, gRPC and MCP-lite import nothing of src/bindings/mcp", () => {
    // The long-running engine (promises as tasks, following, holding, cancellation) is the jobs layer's
    // (src/jobs/), above the core: gRPC CallToolStream and MCP-lite over sockets drive it through
    // streamCall(), never through MCP's code; MCP's socket carrier is MCP's (src/bindings/mcp/socket-carrier.ts),
    // handed to the stdio and WebSocket connections by src/assembly/socket-carriers.ts.
    const outside = files.filter((f) => /^src\/(core|jobs|stdio|websocket|bindings\/grpc|bindings\/mcplite)\//.test(f));
    assert.ok(outside.some((f) => f.startsWith("src/jobs/")), "the engine is in the jobs layer");
    for (const file of outside) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!target.startsWith("src/bindings/mcp/"), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("keeps the core facade (src/core/mod.ts) to the names bindings and carriers need", () => {
    const text = readFileSync(join(ROOT, "src/core/mod.ts"), "utf8");
    const names = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) =>
      m[1].split(",").map((part) => part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!).filter(Boolean)
    );
    assert.doesNotMatch(text, /^export\s+\*/m, "no wildcard re-export: every name is counted");
    assert.equal(new Set(names).size, names.length, "no name is exported twice");
    // Engine-only names stay out of the facade: the engine that uses them is the jobs layer's (src/jobs/).
    for (const engineOnly of ["runContinuation", "runCancellation", "continuationOwner", "restartOf", "PROMISE_KIND"]) {
      assert.ok(!names.includes(engineOnly), `${engineOnly} is exported`);
    }
    assert.ok(names.length <= FACADE_NAMES, `src/core/mod.ts exports ${names.length} names (at most ${FACADE_NAMES})`);
  });

  it("lets bindings, carriers, telemetry and apps see the core through its facade (src/core/mod.ts) only", () => {
    const reached = new Set<string>();
    for (const file of files.filter((f) => /^src\/(bindings|stdio|websocket|otel|apps)\//.test(f))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        if (target.startsWith("src/core/")) reached.add(target);
      }
    }
    assert.deepEqual([...reached], ["src/core/mod.ts"]);
  });

  it("keeps the jobs layer (src/jobs/) above the core: no file of src/core/ imports it, type imports included", () => {
    // The contracts the core calls (WorkContext, the engine it holds, REDEEM_TOOL, job kinds) are the core's own
    // (src/core/long-running/); the engine is handed to it (`LongRunning`, made by src/assembly/long-running-support.ts).
    const core = files.filter((f) => f.startsWith("src/core/"));
    assert.ok(core.includes("src/core/long-running/work-context.ts"), "the contracts live in the core");
    for (const file of core) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!target.startsWith("src/jobs/"), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("lets bindings and carriers see the jobs layer through its facade (src/jobs/mod.ts) only", () => {
    const reached = new Set<string>();
    for (const file of files.filter((f) => /^src\/(bindings|stdio|websocket)\//.test(f))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        if (target.startsWith("src/jobs/")) reached.add(target);
      }
    }
    assert.deepEqual([...reached], ["src/jobs/mod.ts"]);
  });

  it("keeps the worker free of features: it runs the job kinds they register (src/core/long-running/job-kinds.ts)", () => {
    const features = /^src\/(events|tool|prompt|resource|skills|apps|extension|otel|bindings|proxy|tool-search)\//;
    for (const file of files.filter((f) => f.startsWith("src/jobs/"))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!features.test(target), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("lets bindings and carriers see the server through its facade (src/server/mod.ts) only", () => {
    const reached = new Set<string>();
    for (const file of files.filter((f) => /^src\/(bindings|stdio|websocket)\//.test(f) && !ENTRY_MODULES.has(f))) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        if (target.startsWith("src/server/")) reached.add(target);
      }
    }
    assert.deepEqual([...reached], ["src/server/mod.ts"]);
  });

  it("keeps the DSL to definitions: bindings and the server build no tool, OpenAPI's generator knows no binding", () => {
    // Bindings read what they need of tools (the redeem tool's name) from the core facade; the entry
    // module `@mcplite/sdk/openapi` hands on the generator beside the binding.
    const builders = files.filter((f) => /^src\/(bindings|server)\//.test(f) && !ENTRY_MODULES.has(f));
    for (const file of builders) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!target.startsWith("src/tool/"), `${rel(file)} imports ${spec}`);
      }
    }
    const generator = files.filter((f) => f.startsWith("src/tool/openapi/"));
    assert.ok(generator.includes("src/tool/openapi/tools-from-openapi.ts"), "toolsFromOpenAPI() lives with the DSL");
    for (const file of generator) {
      for (const { spec } of importsOf(file)) {
        const target = normalize(join(dirname(file), spec));
        assert.ok(!/^src\/(bindings|server)\//.test(target), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("keeps YAML out of the client's static imports: a client that loads no skill never loads the parser", () => {
    const statically = reachedFrom("src/client/mod.ts");
    assert.ok(statically.has("src/client/client.ts"), "the walk reaches the client");
    assert.ok(
      reached(["src/client/mod.ts"], { dynamic: true }).has("src/client/client-skills.ts"),
      "the walk with import() reaches client.skills",
    );
    assert.ok(
      !statically.has("src/internal/frontmatter.ts"),
      "createClient() statically imports the frontmatter parser",
    );
    for (const file of statically) {
      for (const { spec, typeOnly } of importsOf(file)) {
        assert.ok(typeOnly || spec !== "yaml", `${rel(file)} imports yaml, which every client would then load`);
      }
    }
  });

  it("keeps what a one-call client never reaches out of the client's static imports (issue 54)", () => {
    // Each loads with its first use: skills, the 2025 session, a task's polling, answering input, the SSE parser.
    const statically = reachedFrom("src/client/mod.ts");
    const lazy = reached(["src/client/mod.ts"], { dynamic: true });
    for (
      const file of ["client-skills.ts", "transports/mcp-legacy.ts", "finish-task.ts", "input.ts", "retry-policy.ts"]
    ) {
      assert.ok(lazy.has(`src/client/${file}`), `the walk with import() reaches ${file}`);
      assert.ok(!statically.has(`src/client/${file}`), `createClient() statically imports ${file}`);
    }
    for (const file of statically) {
      for (const { spec, typeOnly, dynamic } of importsOf(file)) {
        assert.ok(
          typeOnly || dynamic || spec !== "eventsource-parser",
          `${rel(file)} imports the SSE parser statically`,
        );
      }
    }
  });

  it("keeps OpenTelemetry out of servers and clients that do not use @mcplite/sdk/otel", () => {
    const reached = reachedFrom("mod.ts", "src/client/mod.ts", "src/stdio/mod.ts", "src/bindings/grpc/mod.ts");
    assert.ok(reached.has("src/client/carry-trace.ts"), "the walk reaches the client's trace context carrier");
    for (const file of reached) {
      assert.ok(!file.startsWith("src/otel/"), `${file} is reached without importing @mcplite/sdk/otel`);
      for (const { spec } of importsOf(file)) {
        assert.ok(
          !spec.startsWith("@opentelemetry/"),
          `${rel(file)} imports ${spec}, which every user would then load`,
        );
      }
    }
    const otel = reachedFrom("src/otel/mod.ts");
    const external = [...otel].flatMap((file) => importsOf(file).map((i) => i.spec)).filter((s) => !s.startsWith("."));
    assert.deepEqual([...new Set(external)], ["@opentelemetry/api"], "the otel entry depends on the API only");
  });

  it("keeps the MCP Apps view to its own files: no schema library, no server or client code at run time", () => {
    const reached = reachedFrom("src/apps/view/mod.ts");
    for (const file of reached) {
      assert.ok(
        file.startsWith("src/apps/view/") || file === "src/internal/mcp-apps-wire.ts",
        `the view loads ${file}`,
      );
      for (const { spec, typeOnly } of importsOf(file)) {
        assert.ok(spec.startsWith(".") || typeOnly, `${rel(file)} imports ${spec}, which every view would carry`);
      }
    }
  });

  it("keeps the official SDKs and zod out of the CLI (its MCP Apps preview host is ours)", () => {
    for (const file of reachedFrom("src/cli/main.ts", "src/cli/app.ts")) {
      for (const { spec } of importsOf(file)) {
        assert.doesNotMatch(spec, /^(@modelcontextprotocol\/|zod)/, `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("reads the runtimes' globals (Deno, Bun, WebSocketPair, process) only under src/runtime/, and in serve()'s one choice", () => {
    // serve() picks which runtime folder to load (src/server/serve.ts). The CLI (src/cli/) is a program,
    // not the library: no entry point a server or client imports reaches it, and it asks which runtime
    // runs it to talk to its terminal and to write a project for that runtime, as an application would.
    const EXEMPT = ["src/server/serve.ts"];
    const found: string[] = [];
    for (const file of files.filter((f) => !f.startsWith("src/runtime/") && !f.startsWith("src/cli/"))) {
      // `"Deno" in globalThis` asks which runtime runs as much as `Deno.` does: its name is kept, other strings go.
      const code = withoutComments(readFileSync(join(ROOT, file), "utf8"))
        .replace(/(["'])(Deno|Bun|WebSocketPair|process)\1(?=\s+in\b)/g, "$2")
        .replace(/`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, '""');
      for (const match of code.matchAll(/\b(Deno|Bun|WebSocketPair|process)\b/g)) found.push(`${file}: ${match[1]}`);
    }
    assert.deepEqual(found.filter((hit) => !EXEMPT.some((file) => hit.startsWith(`${file}:`))), []);
    assert.ok(found.some((hit) => hit.startsWith("src/server/serve.ts:")), "serve() still chooses the runtime");
    assert.deepEqual(reachedFrom("mod.ts", "src/client/mod.ts").has("src/cli/terminal.ts"), false);
  });

  it("keeps each runtime to its folder, and their shared contract (src/runtime/*.ts) to itself", () => {
    const runtimeOf = (file: string) => file.match(/^src\/runtime\/([^/]+)\//)?.[1];
    assert.deepEqual(
      files.map(runtimeOf).filter((r) => r !== undefined).filter((r, i, all) => all.indexOf(r) === i).sort(),
      [
        "bun",
        "deno",
        "node",
        "workers",
      ],
    );
    for (const file of files.filter((f) => f.startsWith("src/runtime/"))) {
      for (const { spec } of importsOf(file)) {
        if (!spec.startsWith(".")) continue;
        const target = normalize(join(dirname(file), spec));
        const other = runtimeOf(target);
        assert.ok(other === undefined || other === runtimeOf(file), `${rel(file)} imports ${spec}`);
        if (runtimeOf(file) === undefined) {
          assert.match(target, /^src\/runtime\/[^/]+\.ts$/, `${rel(file)} imports ${spec}`);
        }
      }
    }
  });

  it("keeps the src root to entry modules (at most 4 files)", () => {
    const root = readdirSync(join(ROOT, "src"), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    assert.ok(root.length <= 4, `src/ holds ${root.join(", ")}`);
    assert.deepEqual(root.filter((name) => !ENTRY_MODULES.has(`src/${name}`)), []);
  });

  it("gives no two source files one base name, unless they play one role in parallel folders", () => {
    // Parallel folders: one per wire, one per runtime, the two result stores; entry modules are all mod.ts.
    const PARALLEL = [/^src\/bindings\/[^/]+\//, /^src\/runtime\/[^/]+\//, /^src\/(redis|deno-kv)\//];
    const byName = new Map<string, string[]>();
    for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    const shared = [...byName].filter(([name, group]) => {
      if (group.length < 2 || name === "mod.ts") return false;
      return !PARALLEL.some((folder) => group.every((file) => folder.test(file) && file.split("/").length === 4));
    });
    assert.deepEqual(Object.fromEntries(shared), {});
  });

  it("lets listeners reach a server through attachListener() only, never a private field", () => {
    for (const file of files) {
      assert.ok(!readFileSync(join(ROOT, file), "utf8").includes('"~core"'), `${rel(file)} mentions "~core"`);
    }
  });

  it("carries per-server and per-call values on their objects: no module-level WeakMap, WeakSet or mutable table outside the memos named here", () => {
    // Values, not side tables: what belongs to one server, request, answer, signal or error is a symbol-keyed
    // property of it (src/core/call/grouped-middleware.ts). A constant table passes without a name here: a `const`
    // typed ReadonlySet/ReadonlyMap (the compiler refuses writes), or a module's own `const` made from an
    // array literal that its file never writes (`.add`, `.set`, `.delete`, `.clear`).
    const ALLOWED: Record<string, string> = {
      "src/core/definitions/config.ts:DEFAULTS": "memo: each compiled schema's defaults, derived from the schema",
      "src/bindings/mcp/param-headers.ts:DECLARED": "memo: each tool's header parameters, derived from its schema",
      "src/bindings/grpc/reflection.ts:serialized": "memo: each descriptor file's bytes, derived from the file",
      "src/server/read-body.ts:deadlines": "the process's timer queues, one per duration, shared by every server",
      "src/core/instance/logger.ts:warnedThisProcess": "a warning given once per process, on purpose",
    };
    const TABLE =
      /^(export\s+)?(const|let|var)\s+([\w$]+)\s*(?::((?:[^=;]|=>)+?))?=\s*(?:\/\*\s*@__PURE__\s*\*\/\s*)?new\s+(?:WeakMap|WeakSet|Map|Set)\b(.*)$/gm;
    const tables: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, exported, kind, name, type, rest] of text.matchAll(TABLE)) {
        const readonly = kind === "const" && /^\s*Readonly(Set|Map)</.test(type ?? "");
        const literal = kind === "const" && !exported && /^(<.*>)?\(\s*\[/.test(rest) &&
          !new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\.(add|set|delete|clear)\\(`).test(text);
        if (!readonly && !literal) tables.push(`${file}:${name}`);
      }
    }
    assert.deepEqual(tables.filter((table) => !(table in ALLOWED)), [], "carry the value on its object (a symbol key)");
    assert.deepEqual(Object.keys(ALLOWED).filter((entry) => !tables.includes(entry)), [], "stale allow-list entries");
  });

  it("has no import cycle between files, import() and type imports counted", () => {
    assert.deepEqual(cycles(fileGraph()), []);
  });

  it("has no import cycle between folders (each binding, each runtime and the client one folder each)", () => {
    assert.deepEqual(cycles(groupGraph(fileGraph(), folderOf)), []);
  });
});

/**
 * The unit a file belongs to: its top folder under src, or `bindings/<wire>`, `runtime/<runtime>`, `jobs/<folder>`
 * (one unit per wire, per runtime, and per part of the jobs layer that stands above it: its worker, which runs a
 * server, and its conformance cases; `src/runtime/*.ts` is the contract the runtimes share, `src/jobs/*.ts` the
 * engine).
 */
function folderOf(file: string): string {
  const parts = file.split("/");
  // An entry module is the package's face: it stands above every room, so it is a node of its own.
  if (parts.length <= 2 || ENTRY_MODULES.has(file)) return `entry ${file}`;
  const nested = parts[1] === "bindings" || parts[1] === "runtime" || parts[1] === "jobs";
  return nested && parts.length > 3 ? `${parts[1]}/${parts[2]}` : parts[1];
}

describe("sizes a reader can hold", () => {
  it(`keeps every hand-written source file to ${FILE_LINES} lines (src/gen is generated)`, () => {
    const long = files
      .map((file) => [file, readFileSync(join(ROOT, file), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > FILE_LINES)
      .map(([file, lines]) => `${file}: ${lines} lines`);
    assert.deepEqual(long, [], "split by concept: one file, one concept");
  });

  it("keeps the README to 250 lines (the rest is in docs/)", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length - 1;
    assert.ok(lines <= 250, `README.md is ${lines} lines`);
  });
});
