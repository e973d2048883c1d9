/**
 * Where `mcplite dev` says a module failed to load, from what each runtime reports (the texts below
 * are theirs, for a syntax error in an imported file and a throw at load): Node's stack that opens
 * with `path:line`, Deno's `at file:///…:line:column`, Bun's build messages with their positions and
 * its stack frames; a frame in the module's graph preferred, the dev child's own frame never.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { locateFailure, relativeTo } from "../../../src/cli/dev/dev-load-error.ts";

const CHILD = new URL("../../../src/cli/dev/dev-child.ts", import.meta.url).href;
const graph = new Set(["/p/server.ts", "/p/broken.ts"]);

describe("the dev loop's load failures", () => {
  it("reads Node's syntax error (the stack opens with the file and line)", () => {
    const failure = locateFailure({
      message: "SyntaxError: Expected ',', got 'numeric literal'",
      stack:
        "/p/broken.ts:3\n  return 2;\n         ^\n\nSyntaxError [ERR_INVALID_TYPESCRIPT_SYNTAX]: Expected ',', got " +
        "'numeric literal'\n    at parseTypeScript (node:internal/modules/typescript:67:36)",
    }, graph);
    assert.equal(failure.location, "/p/broken.ts:3");
    assert.equal(failure.message, "SyntaxError: Expected ',', got 'numeric literal'");
  });

  it("reads Deno's, the dev child's frame left out", () => {
    const failure = locateFailure({
      message: "TypeError: SyntaxError: Expected ',', got 'numeric literal (2, 2)'\n  |\n3 |   return 2;",
      stack: `TypeError: SyntaxError: …\n    at file:///p/broken.ts:3:10\n    at async ${CHILD}:68:13`,
    }, graph);
    assert.equal(failure.location, "/p/broken.ts:3:10");
    assert.equal(failure.message, "TypeError: SyntaxError: Expected ',', got 'numeric literal (2, 2)'");
  });

  it("reads Bun's build messages, and a throw's frames, preferring the module's own files", () => {
    const positions = [
      { lineText: "  return 2;", file: "/p/broken.ts", line: 3, column: 10 },
      { lineText: "}", file: "/p/broken.ts", line: 4, column: 1 },
    ];
    const failure = locateFailure({ message: "AggregateError: 2 errors building", positions }, graph);
    assert.equal(failure.location, "/p/broken.ts:3:10");
    assert.match(failure.detail ?? "", /\/p\/broken\.ts:4:1 {2}\}/);
    const thrown = locateFailure({
      message: "Error: boom at load",
      stack: "Error: boom at load\n    at /elsewhere/lib.ts:9:1\n    at /p/server.ts:2:11",
    }, graph);
    assert.equal(thrown.location, "/p/server.ts:2:11");
  });

  it("says nothing of a place the runtime does not name, and shortens paths under the working directory", () => {
    assert.equal(locateFailure({ message: "the module exports no server" }, graph).location, undefined);
    assert.equal(relativeTo("/p/src/server.ts:3:1", "/p"), "src/server.ts:3:1");
    assert.equal(relativeTo("/elsewhere/x.ts:1", "/p"), "/elsewhere/x.ts:1");
  });
});
