/**
 * SEP-3415's push on Node 22 (issue 88), server and client, over MCP and MCP-lite: ./events-push-node.ts run by Node
 * 22's binary. The same on Bun and Deno: ./events-push.test.ts (the server, a client from SEP-3415's text),
 * ./events-push-lite.test.ts (MCP-lite), ./client-stream.test.ts (the client).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";

describe("events/stream on Node 22, our server and our client", { skip: ONCE_PER_RUN }, () => {
  for (const wire of ["mcp", "mcp-lite"]) {
    it(`streams a kept occurrence and a live one, and resumes from the last cursor with what came meanwhile, once; then closes (${wire})`, async (t) => {
      const node = await node22();
      if (!node) return t.skip(NODE22_MISSING);
      const done = await run(node, [`${ROOT}tests/events/events-push-node.ts`, wire], 60_000, ROOT);
      assert.equal(done.code, 0, done.stderr);
      const printed = JSON.parse(done.stdout);
      assert.match(printed.runtime, /^v22\./);
      assert.equal(printed.wire, wire);
      assert.deepEqual(printed.first, ["before", "live"]);
      assert.deepEqual(printed.second, ["meanwhile", "after"]);
      assert.equal(printed.closed, true, "listener.close() resolved once the clients had left");
    });
  }
});
