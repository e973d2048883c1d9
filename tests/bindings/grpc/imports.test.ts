/**
 * Users of the HTTP wires never load protobuf: besides tests/boundaries.test.ts (which keeps
 * @bufbuild/*, @connectrpc/*, the generated code and node:* inside the gRPC files), nothing outside
 * them may import the gRPC binding itself, not even `mod.ts`, and the binding loads node:* lazily.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, it } from "node:test";
import { ROOT } from "./grpc-fixtures.ts";

const GRPC_ONLY = /^(@bufbuild\/|@connectrpc\/)|\/gen\/|\/bindings\/grpc\//;
const ALLOWED = /^(src\/bindings\/grpc\/|src\/gen\/|src\/client\/transports\/grpc\.ts$)/;

function sources(dir: string): string[] {
  return readdirSync(ROOT + dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(ROOT + path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(ROOT + file, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']/g)].map((m) =>
    m[1]
  );
  return specifiers.concat([...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]));
}

describe("import boundaries of the gRPC binding", () => {
  const files = ["mod.ts", ...sources("src")];

  it("keeps protobuf, Connect and the binding out of every other module", () => {
    const offenders = files.filter((f) => !ALLOWED.test(f))
      .flatMap((f) => importsOf(f).filter((s) => GRPC_ONLY.test(s)).map((s) => `${f} imports ${s}`));
    assert.deepEqual(offenders, []);
  });

  it("loads node:http2 and connect-node only when serveGrpc() runs", () => {
    const node = readFileSync(`${ROOT}src/bindings/grpc/serve-grpc.ts`, "utf8");
    assert.match(node, /import\("node:http2"\)/);
    assert.match(node, /import\("@connectrpc\/connect-node"\)/);
    assert.doesNotMatch(node, /^import (?!type)[^;]*from "(node:|@connectrpc\/connect-node)/m);
  });
});
