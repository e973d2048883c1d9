/**
 * Users of the HTTP wires never load protobuf: besides tests/boundaries.test.ts (which keeps
 * @bufbuild/*, @connectrpc/*, the generated code and node:* inside the gRPC files), nothing outside
 * them may import the gRPC binding itself, not even `mod.ts`, and the binding loads node:* lazily.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { importsOf as importsOfFile, PACKAGE_FILES } from "../../helpers/import-graph.ts";
import { ROOT } from "./grpc-fixtures.ts";

const GRPC_ONLY = /^(@bufbuild\/|@connectrpc\/)|\/gen\/|\/bindings\/grpc\//;
const ALLOWED = /^(src\/bindings\/grpc\/|src\/gen\/|src\/client\/transports\/grpc\.ts$)/;

const importsOf = (file: string): string[] => importsOfFile(file).map((i) => i.spec);

describe("import boundaries of the gRPC binding", () => {
  const files = PACKAGE_FILES;

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
