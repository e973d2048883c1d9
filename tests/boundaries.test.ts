/**
 * The architecture, checked by reading import specifiers (as Hono's validate-exports does):
 * the core knows no wire, only the gRPC files load protobuf, only the HTTP/2 listener loads node:*,
 * and the client reaches server code through `import type` only.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
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
const rel = (f: string) => relative(ROOT, join(ROOT, f));

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
    for (const file of files) {
      for (const { spec } of importsOf(file)) {
        if (spec.startsWith("node:")) assert.equal(file, "src/bindings/grpc/node.ts", `${rel(file)} imports ${spec}`);
      }
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
});
