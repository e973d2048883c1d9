/**
 * A Deno user of `@mcplite/sdk/grpc` type-checks it against Deno's built-in Node types: nothing in their
 * project provides `@types/node` (this repository's node_modules does, through a devDependency, so
 * checking the checkout proves nothing). The consumer lives in a temporary directory without
 * node_modules; its import map points the package's entry points at the checkout and each dependency
 * at `npm:name@version` from package.json, as JSR rewrites them on publish. Deno fetches those packages
 * into its cache once (from the npm registry); later runs are offline.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "../../helpers/scratch-dir.ts";
import { skipOutsideCi } from "../../helpers/once-per-run.ts";
import { entryPointImports } from "../../helpers/entry-points.ts";
import { ROOT, run } from "./grpc-fixtures.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;

/** What a user's code does with the gRPC entry point, with types that would break if node typings did. */
const CONSUMER = `
import * as v from "valibot";
import { createServer, defineTool } from "@mcplite/sdk";
import { grpcBinding, type GrpcListener, MCPLite, serveGrpc, type ToolResponse } from "@mcplite/sdk/grpc";
import { grpcTransport } from "@mcplite/sdk/client/grpc";

const echo = defineTool("echo").input(v.object({ text: v.string() })).handle(({ text }) => text);
const server = createServer({ name: "echo", version: "1.0.0", bindings: [grpcBinding()] }).tool(echo);
export const listener: Promise<GrpcListener> = serveGrpc(server, { port: 0 });
export const service: string = MCPLite.typeName;
export const transport = grpcTransport("http://127.0.0.1:50051");
export type Answer = ToolResponse["result"];
`;

/** The import map of a user who added the package and its dependencies. */
function importMap(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
  const imports = entryPointImports();
  for (const [name, version] of Object.entries<string>(pkg.dependencies)) {
    imports[name] = `npm:${name}@${version}`;
    imports[`${name}/`] = `npm:/${name}@${version}/`;
  }
  return imports;
}

describe("@mcplite/sdk/grpc without @types/node", () => {
  const dir = scratchDir("mcplite-consumer-");

  it("type-checks in a Deno project that has no node_modules", { timeout: 120_000 }, async (t) => {
    writeFileSync(join(dir, "deno.json"), JSON.stringify({ imports: importMap(), nodeModulesDir: "none" }));
    writeFileSync(join(dir, "consumer.ts"), CONSUMER);
    const { code, stdout, stderr } = await run(DENO, ["check", "consumer.ts"], 90_000, dir);
    if (code !== 0 && !/TS\d+/.test(stderr) && /registry\.npmjs\.org|error sending request|dns/i.test(stderr)) {
      return skipOutsideCi(t, "needs the npm registry once, to fill Deno's cache with the package's dependencies");
    }
    assert.equal(code, 0, stdout + stderr);
  });
});
