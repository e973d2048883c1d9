/**
 * The architecture, checked by reading import specifiers (as Hono's validate-exports does): the core
 * knows no wire, the server knows no binding (it gets them as a list), only the gRPC files load
 * protobuf, only the HTTP/2 listener imports node:* (node:crypto is reached at run time, with a Web Crypto
 * fallback, in one file), the client reaches server code through `import type`
 * only, and neither files nor folders import each other in a cycle (type imports included). Resources,
 * prompts, completion and skills reach the MCP binding only through the features their definitions
 * bring (`src/core/feature.ts`): a server that defines none does not load or bundle their code. Bindings
 * and carriers see the core through one facade, `src/core/mod.ts`. The client reaches the YAML parser
 * only through the dynamic import in `client.skills.load()`.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, it } from "node:test";

const ROOT = new URL("..", import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === "src/gen" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every import or re-export specifier of a file, with whether it is type-only. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found: { spec: string; typeOnly: boolean }[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"/gms;
  for (const match of text.matchAll(pattern)) found.push({ spec: match[3], typeOnly: Boolean(match[2]) });
  for (const match of text.matchAll(/^\s*import\s+"([^"]+)"/gm)) found.push({ spec: match[1], typeOnly: false });
  return found;
}

const files = sourceFiles("src");
/** The modules jsr.json exports: entry points, above the rooms they hand names on from. */
const ENTRY_MODULES = new Set(
  Object.values(JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8")).exports as Record<string, string>)
    .map((path) => path.replace(/^\.\//, "")),
);
const rel = (f: string) => relative(ROOT, join(ROOT, f));
/** The most names the core facade exports (issue 50 sets 60; it was 110 before the engine moved into the core). */
const FACADE_NAMES = 94;

describe("dependency boundaries", () => {
  it("finds the source tree", () => assert.ok(files.length > 20));

  it("keeps the core and the DSL free of bindings, client, server and generated code", () => {
    for (const file of files.filter((f) => f.startsWith("src/core/") || f.startsWith("src/tool/"))) {
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

  it("uses node:* only in the HTTP/2 listener", () => {
    // The listener, and its direct unary path, which it loads with it (only types from node:http2).
    const LISTENER = ["src/bindings/grpc/serve-grpc.ts", "src/bindings/grpc/node-unary.ts"];
    for (const file of files) {
      for (const { spec } of importsOf(file)) {
        if (spec.startsWith("node:")) assert.ok(LISTENER.includes(file), `${rel(file)} imports ${spec}`);
      }
    }
  });

  it("reaches node:* outside the listeners only at run time: node:crypto for tokens, node:module for ws, node:http for serve() on Node", () => {
    // process.getBuiltinModule hands them over where the runtime has them; no import, so a bundle for a
    // browser or a Worker without nodejs_compat needs no polyfill (Web Crypto is the tokens' fallback).
    const ALLOWED: Record<string, string[]> = {
      "src/internal/node-crypto.ts": ["node:crypto"],
      "src/runtime/node/websocket-upgrade.ts": ["node:module"],
      "src/runtime/node/listen.ts": ["node:http"],
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
          assert.ok(typeOnly || /\/core\/(error|result)\.ts$/.test(spec), `${rel(file)} imports ${spec} at run time`);
        }
      }
    }
  });

  it("keeps the server free of bindings: createServer() hands it the list", () => {
    for (const file of files.filter((f) => f.startsWith("src/server/"))) {
      for (const { spec } of importsOf(file)) assert.doesNotMatch(spec, /\/bindings\//, `${rel(file)} imports ${spec}`);
    }
  });

  it("reaches resources, prompts, completion, skills and apps only from their definitions, not from createServer()", () => {
    const reached = reachedFrom("src/assembly/create-server.ts", "src/tool/define-tool.ts");
    assert.ok(reached.has("src/bindings/mcp/tools.ts"), "the walk reaches the MCP binding");
    const served = [
      "src/bindings/mcp/resources.ts",
      "src/bindings/mcp/prompts.ts",
      "src/bindings/mcplite/prompts.ts",
      "src/bindings/render-prompt.ts",
      "src/bindings/mcp/completion.ts",
      "src/bindings/mcp/skills.ts",
      "src/bindings/mcp/apps.ts",
      "src/assembly/served-apps.ts",
      "src/assembly/served-prompts.ts",
      "src/assembly/served-resources.ts",
      "src/assembly/served-skills.ts",
      "src/core/uri-template.ts",
    ];
    assert.deepEqual(served.filter((file) => reached.has(file)), []);
  });

  it("keeps OpenAPI out of a server that does not list its binding: createServer() never reaches its binding", () => {
    const reached = reachedFrom("mod.ts", "src/assembly/create-server.ts");
    assert.ok(reached.has("src/bindings/mcp/tools.ts"), "the walk reaches the default bindings");
    assert.deepEqual([...reached].filter((file) => file.startsWith("src/bindings/openapi/")), []);
    for (const file of reached) {
      for (const { spec } of importsOf(file)) {
        assert.ok(
          !/^@(apidevtools|cfworker)\//.test(spec),
          `${rel(file)} imports ${spec}, which every server would bundle`,
        );
      }
    }
  });

  it("keeps the definitions free of wires: tools, prompts, resources, skills, apps and telemetry import no binding", () => {
    const definitions = files.filter((f) => /^src\/(tool|prompt|resource|skills|apps|otel)\//.test(f));
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
    // The long-running engine (promises as tasks, following, holding, cancellation) is the core's
    // (src/core/long-running/): gRPC CallToolStream and MCP-lite over sockets drive it through
    // streamCall(), never through MCP's code. Left: the files that carry MCP itself over a socket
    // (the MCP dispatch on a stdio or WebSocket connection, and its options); this list only shrinks.
    const CARRYING_MCP = new Set([
      "src/stdio/mcp-over-stdio.ts",
      "src/stdio/server-connection.ts",
      "src/stdio/serve-stdio.ts",
      "src/websocket/socket-connection.ts",
      "src/websocket/websocket-binding.ts",
    ]);
    const outside = files.filter((f) => /^src\/(core|stdio|websocket|bindings\/grpc|bindings\/mcplite)\//.test(f));
    assert.ok(outside.some((f) => f.startsWith("src/core/long-running/")), "the engine is in the core");
    for (const file of outside.filter((f) => !CARRYING_MCP.has(f))) {
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
    // Engine-only names stay in the core: the engine that used them is core (src/core/long-running/).
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

  it("keeps YAML out of the client's static imports: a client that loads no skill never loads the parser", () => {
    const reached = reachedFrom("src/client/mod.ts");
    assert.ok(reached.has("src/client/client-skills.ts"), "the walk reaches client.skills");
    assert.ok(!reached.has("src/internal/frontmatter.ts"), "createClient() statically imports the frontmatter parser");
    for (const file of reached) {
      for (const { spec, typeOnly } of importsOf(file)) {
        assert.ok(typeOnly || spec !== "yaml", `${rel(file)} imports yaml, which every client would then load`);
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

  it("lets listeners reach a server through attachListener() only, never a private field", () => {
    for (const file of files) {
      assert.ok(!readFileSync(join(ROOT, file), "utf8").includes('"~core"'), `${rel(file)} mentions "~core"`);
    }
  });

  it("has no import cycle between files", () => {
    const cycles = stronglyConnected(fileGraph()).filter((group) => group.length > 1);
    assert.deepEqual(cycles, []);
  });

  it("has no import cycle between folders (each binding and the client are one folder each)", () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of fileGraph()) {
      const from = folderOf(file);
      const edges = folders.get(from) ?? new Set<string>();
      folders.set(from, edges);
      for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
    }
    const cycles = stronglyConnected(folders).filter((group) => group.length > 1);
    assert.deepEqual(cycles, []);
  });
});

/**
 * Every source file and the source files it imports (relative specifiers; generated code left out),
 * type imports included unless `types` is false.
 */
function fileGraph(types = true): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const { spec, typeOnly } of importsOf(file)) {
      if (!spec.startsWith(".") || (typeOnly && !types)) continue;
      const target = normalize(join(dirname(file), spec));
      if (!target.startsWith("src/gen/")) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The source files that loading `roots` loads: their static imports, transitively (`import type` left out). */
function reachedFrom(...roots: string[]): Set<string> {
  const graph = fileGraph(false);
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    queue.push(...(graph.get(file) ?? []));
  }
  return reached;
}

/** The unit a file belongs to: its top folder under src, or `bindings/<wire>` (src/*.ts files are the root). */
function folderOf(file: string): string {
  const parts = file.split("/");
  // An entry module is the package's face: it stands above every room, so it is a node of its own.
  if (parts.length === 2 || ENTRY_MODULES.has(file)) return "entry";
  return parts[1] === "bindings" && parts.length > 3 ? `bindings/${parts[2]}` : parts[1];
}

/** Tarjan's strongly connected components: every group of nodes that reach each other. */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}
